import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test("a reviewer downloads the pack as PDF and as JSON holding the page's figures", async ({ page }) => {
  await signIn(page, "reviewer", "/decisions/demo-moderation");
  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export PDF" }).click(),
  ]);
  const pdfBytes = await readFile((await pdf.path())!);
  expect(pdfBytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await pdf.saveAs("test-results/evidence-pack.pdf");

  const [json] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export JSON" }).click(),
  ]);
  const pack = JSON.parse(await readFile((await json.path())!, "utf8"));
  const api = await (await page.request.get("/api/v1/decisions/demo-moderation")).json();
  expect(pack.contentSha256).toMatch(/^[0-9a-f]{64}$/);
  // The export and the API read one model: the same runs, the same results.
  expect(pack.evidence.runs.map((r: { runId: number }) => r.runId)).toEqual(
    api.runs.map((r: { runId: number }) => r.runId),
  );
  expect(pack.results).toEqual(api.results);
  for (const run of pack.evidence.runs) {
    const stored = api.runs.find((r: { runId: number }) => r.runId === run.runId);
    expect(run.metrics.report.averagePrecision).toBe(stored.metrics.report.averagePrecision);
    expect(run.metrics.report.reweighted.precision).toBe(stored.metrics.report.reweighted.precision);
  }
  const name = (id: string) => pack.evidence.candidates.find((c: { id: string }) => c.id === id).name;
  const fell = Object.fromEntries(
    pack.results.funnel.map((f: { candidateId: string; fellAt: number | null }) => [name(f.candidateId), f.fellAt]),
  );
  // Each candidate at its own cost-optimal threshold (issue 14): the leader meets the recall floor
  // there, at a higher cost; Lynx misses it on held-out items.
  expect(fell["Atlas-70B-Instruct"]).toBeNull();
  expect(fell["Lynx-8B"]).toBe(4);
  for (const op of pack.operatingPoints) {
    expect(op).toMatchObject({
      rule: "COST_OPTIMAL",
      threshold: expect.any(Number),
      heldOut: { recall: expect.any(Number), expectedCostPer1k: expect.any(Number) },
    });
  }
  expect(fell["Orca-34B"]).toBe(5);
  expect(fell["Sentry-Guard-13B"]).toBeNull();
  expect(name(pack.results.bestCandidateId)).toBe("Sentry-Guard-13B");
});

test("exports need decision.read: an admin is refused, a signed-out request is refused", async ({ page, request }) => {
  expect((await request.get("/api/v1/decisions/demo-moderation/export/json")).status()).toBe(401);
  await signIn(page, "admin", "/admin/users");
  expect((await page.request.get("/api/v1/decisions/demo-moderation/export/pdf")).status()).toBe(403);
});
