import { expect, test } from "@playwright/test";
import { formatThreshold } from "../lib/format";
import { signIn } from "./helpers";

const STAGES = [
  ["leaderboard", "Leaderboard score"],
  ["preference", "Preference / Elo ranking"],
  ["task-accuracy", "Task-specific accuracy"],
  ["class-balance", "Class-balance stress test"],
  ["operational", "Operational benchmark"],
] as const;

test("a reviewer reads the five stages in order, each with its question, evidence class and verdict role", async ({
  page,
}) => {
  // Many assertions and a full-page screenshot of the whole pack: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  await signIn(page, "reviewer", "/decisions/demo-moderation");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Moderation classifier for the trust & safety queue",
  );
  const headings = page.locator("section[data-stage-section] h2");
  await expect(headings).toHaveCount(5);
  for (const [i, [key, name]] of STAGES.entries()) {
    await expect(headings.nth(i)).toContainText(name);
    const section = page.locator(`section[data-stage-section="${key}"]`);
    await expect(section).toContainText("Question answered");
    await expect(section).toContainText("Evidence class");
    await expect(section).toContainText("Owns the verdict?");
  }
  for (const key of ["leaderboard", "preference"]) {
    await expect(page.locator(`section[data-stage-section="${key}"]`).getByRole("note").first()).toContainText(
      "Shortlisting only",
    );
  }

  // Stage 3: the stored engine figures, read back through the API, are the page's figures.
  const pack = await (await page.request.get("/api/v1/decisions/demo-moderation")).json();
  const task = page.getByTestId("task-figures");
  for (const c of pack.candidates) {
    const run = pack.runs.find((r: { candidateId: string }) => r.candidateId === c.id);
    const row = task.locator(`tr[data-candidate="${c.name}"]`);
    await expect(row).toContainText(run.metrics.report.averagePrecision.toFixed(3));
    await expect(row).toContainText(run.metrics.report.rocAuc.toFixed(3));
    await expect(row).toContainText(run.metrics.report.atThreshold.recall.toFixed(3));
    await expect(
      page.getByRole("table", { name: `${c.name} (t = ${formatThreshold(run.metrics.report.atThreshold.threshold)})` }),
    ).toContainText(`TP ${run.metrics.report.atThreshold.tp.toLocaleString("en-US")}`);
  }
  await expect(page.getByTestId("dataset")).toContainText("20,000 items");

  // Stage 4: each candidate's operating point (issue 14) — its own threshold, how chosen, in-sample
  // beside held out — and the held-out figures at π, where Lynx misses the recall floor.
  const points = page.getByTestId("operating-points");
  for (const c of pack.candidates) {
    const op = pack.runs.find((r: { candidateId: string }) => r.candidateId === c.id).metrics.operatingPoint;
    const row = points.locator(`tr[data-candidate="${c.name}"]`);
    await expect(row).toContainText(String(op.threshold));
    await expect(row).toContainText("cross-fitted");
    await expect(row).toContainText(op.heldOut.recall.toFixed(3));
    await expect(row).toContainText(op.inSample.recall.toFixed(3));
  }
  await expect(page.getByTestId("operating-rule")).toContainText("Cost-optimal within the floors");
  await expect(points.locator('tr[data-candidate="Lynx-8B"]')).toContainText("misses the recall floor by");
  const stress = page.getByTestId("stress-figures");
  await expect(stress.locator('tr[data-candidate="Lynx-8B"]')).toContainText("✗ missed");
  await expect(stress.locator('tr[data-candidate="Atlas-70B-Instruct"]')).toContainText("✓ met");
  await expect(page.getByTestId("slice-recall")).toContainText("self-harm");
  await expect(page.getByTestId("slice-recall")).toContainText("scam");

  // Stage 5: Orca fails the latency SLO.
  await expect(page.getByTestId("slo-table").locator('tr[data-candidate="Orca-34B"]')).toContainText(
    "✗ fail — p95 E2E latency",
  );

  // Across stages: funnel, gate table, reversal in words, total cost, significance.
  await expect(page.getByTestId("funnel")).toContainText("Atlas-70B-Instruct");
  await expect(page.getByTestId("rank-reversals")).toContainText("Atlas-70B-Instruct: #1 on");
  await expect(page.getByTestId("gate-table")).toBeVisible();
  await expect(page.getByTestId("total-cost")).toContainText("Sentry-Guard-13B");
  await expect(page.getByTestId("significance")).toBeVisible();
  await page.screenshot({ path: "test-results/evidence-pack.png", fullPage: true });
  // Print: the controls and navigation are hidden, every stage is still there.
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".what-if")).toBeHidden();
  await expect(page.locator("section[data-stage-section]")).toHaveCount(5);
  await page.screenshot({ path: "test-results/evidence-pack-print.png", fullPage: true });
});

test("every chart has an accessible name, a legend, axis units and a table alternative", async ({ page }) => {
  await signIn(page, "reviewer", "/decisions/demo-moderation");
  const charts = page.locator("figure.chart");
  await expect(charts).toHaveCount(9);
  const count = await charts.count();
  for (let i = 0; i < count; i++) {
    const chart = charts.nth(i);
    const img = chart.locator(".chart-canvas");
    await expect(img).toHaveAttribute("aria-label", /.{20,}/);
    // The key and the axis titles (with their units) are HTML around the plot (issue 26 item 8).
    await expect(chart.locator(".chart-key li").first()).toBeVisible();
    await expect(chart.locator(".chart-axis-x")).toContainText("(");
    await expect(chart.locator(".chart-axis-y")).toContainText("(");
    await chart.getByText("Show as table").click();
    await expect(chart.getByRole("table")).toBeVisible();
  }
  await expect(page.getByRole("img", { name: /Precision against recall for Atlas-70B-Instruct/ })).toBeVisible();
});
