import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/**
 * The demo as a new user meets it: the pack offers to run Sentry against Verdict's simulated
 * endpoint (named as simulated), the run's progress moves in the browser, and the analyst cancels
 * it — cancelling leaves the demo's evidence as it was (a cancelled run yields no eval run), so the
 * other demo specs see the same figures.
 */
test("a run of the demo's simulated endpoint shows its progress on the pack page and can be cancelled", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "analyst", "/decisions/demo-moderation");
  const section = page.locator("section", { has: page.getByRole("heading", { name: "Runs from Verdict" }) });
  await expect(section).toContainText("protocol");
  await section.getByRole("button", { name: /^Run Sentry.* \(simulated endpoint\)$/ }).click();
  const run = section.locator("[data-harness-run]").first();
  await expect(run).toContainText("(simulated endpoint)");
  const progress = run.getByRole("progressbar");
  // Items are stored as they arrive: the bar moves while the run goes on.
  await expect.poll(async () => Number(await progress.getAttribute("value")), { timeout: 60_000 }).toBeGreaterThan(0);
  await run.getByRole("button", { name: /^Cancel run \d+$/ }).click();
  await expect(run).toHaveAttribute("data-status", "CANCELLED", { timeout: 30_000 });
  await expect(run).toContainText("cancelled");
});
