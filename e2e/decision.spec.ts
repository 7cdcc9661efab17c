import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const STAGE_NAMES = [
  "Leaderboard score",
  "Preference / Elo ranking",
  "Task-specific accuracy",
  "Class-balance stress test",
  "Operational benchmark",
];

test("the analyst sees the demo decision with its five stages and a figure per candidate", async ({ page }) => {
  await signIn(page, "analyst");
  await page.getByRole("link", { name: "Moderation classifier for the trust & safety queue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Moderation classifier for the trust & safety queue",
  );

  const table = page.getByRole("table", { name: "Evidence per stage and candidate" });
  const rowHeaders = table.getByRole("rowheader");
  await expect(rowHeaders).toHaveCount(5);
  for (const [i, name] of STAGE_NAMES.entries()) await expect(rowHeaders.nth(i)).toContainText(name);

  // The figures on the page are the stored evidence, read back through the API.
  const response = await page.request.get("/api/v1/decisions/demo-moderation");
  expect(response.status()).toBe(200);
  const pack = await response.json();
  expect(pack.candidates).toHaveLength(4);
  expect(JSON.stringify(pack)).not.toContain("passwordHash");
  for (const candidate of pack.candidates) {
    const run = pack.runs.find((r: { candidateId: string }) => r.candidateId === candidate.id);
    const ap = run.metrics.report.averagePrecision.toFixed(3);
    const header = table.getByRole("columnheader", { name: candidate.name });
    await expect(header).toBeVisible();
    await expect(table.locator('tr[data-stage="task-accuracy"]')).toContainText(`AP ${ap}`);
  }
  // At π, each at the threshold its rule chose (held-out figures): one candidate misses the recall
  // floor; one fails an SLO.
  await expect(table.locator('tr[data-stage="leaderboard"]')).toContainText("#1 of 4");
  await expect(table.locator('tr[data-stage="class-balance"]')).toContainText("✗");
  await expect(table.locator('tr[data-stage="class-balance"]')).toContainText("(held out)");
  await expect(table.locator('tr[data-stage="operational"]')).toContainText("fails p95 E2E latency");
  await page.screenshot({ path: "test-results/decision-page.png", fullPage: true });
});

test("the verdict is on page one: the recommendation, each candidate's gates, and why the leaderboard leader loses", async ({
  page,
}) => {
  await signIn(page, "reviewer", "/decisions/demo-moderation");
  const band = page.getByTestId("verdict-band");
  await expect(band).toBeVisible();
  // Above the fold at a laptop's height: the band starts within the first screen.
  const box = await band.boundingBox();
  expect(box!.y).toBeLessThan(700);
  await expect(band).toContainText("Recommendation: Sentry-Guard-13B");
  await expect(band.locator('li[data-candidate="Sentry-Guard-13B"]')).toContainText(/passes all \d+ gates/);
  // At its own cost-optimal threshold the leaderboard leader meets every gate, at three times the cost.
  await expect(band.locator('li[data-candidate="Atlas-70B-Instruct"]')).toContainText(/passes all \d+ gates/);
  await expect(band.locator('li[data-candidate="Lynx-8B"]')).toContainText("fails");
  await expect(band).toContainText(
    /The leaderboard leader, Atlas-70B-Instruct \(#1 on [^)]+\), is not the recommendation: another candidate costs less/,
  );
  // The JSON export names the same recommendation.
  const pack = await (await page.request.get("/api/v1/decisions/demo-moderation")).json();
  const best = pack.candidates.find((c: { id: string }) => c.id === pack.results.bestCandidateId);
  expect(best.name).toBe("Sentry-Guard-13B");
});
