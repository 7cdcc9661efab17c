import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import {
  expectChartTextApart,
  expectFormControlsEven,
  expectNoPageScroll,
  LAPTOP,
  PHONE,
  settled,
} from "./layout-checks";

/**
 * Issue 26 item 8 on the demo, at 390 px and at 1280 px: on the pack page no chart text (key entry,
 * "π = 2.0%", "at concurrency 32", axis title, tick label) intersects another or is cut — also
 * after a what-if moves the π reference; on the new-decision form (grouped in fieldsets) and the
 * edit page every text-like control has one height, so a row's controls are even, and candidate
 * names are shown whole.
 */
const PACK = "/decisions/demo-moderation";

for (const [width, viewport] of [
  ["390 px", PHONE],
  ["1280 px", LAPTOP],
] as const) {
  test.describe(`at ${width}`, () => {
    test.use({ viewport });

    test("no chart text overlaps a legend entry or a tick label, and none is cut", async ({ page }) => {
      test.setTimeout(180_000); // nine charts, measured twice, on a busy machine
      await signIn(page, "reviewer", PACK);
      await settled(page);
      await expect(page.locator("figure.chart")).toHaveCount(9);
      await expectChartTextApart(page, `${PACK} at ${width}`);
      // The reference lines' labels are key entries: "π = 2.0%" on the precision-vs-prevalence chart.
      const pvp = page.locator('figure[data-chart="stress-precision-vs-prevalence"]');
      await expect(pvp.locator(".chart-key-reference")).toHaveText("π = 2.0%");
      await expect(page.locator('figure[data-chart="serving-throughput"] .chart-key-reference')).toContainText([
        "SLO ≥ 20 req/s",
        "at concurrency 32",
      ]);
      await page.getByLabel("Prevalence π", { exact: true }).fill("0.3");
      await expect(pvp.locator(".chart-key-reference")).toHaveText("π = 30.0%");
      await expectChartTextApart(page, `${PACK} at ${width}, what-if π = 30%`);
    });

    test("the new-decision form: grouped in fieldsets, one control height, help where a term needs it", async ({
      page,
    }) => {
      await signIn(page, "analyst", "/decisions/new");
      await settled(page);
      const groups = page.locator("fieldset.form-group > legend");
      await expect(groups).toHaveText([
        "Task",
        "Error costs",
        "Floors and operating-point rule",
        "Serving SLOs",
        "Sign-off",
      ]);
      const slos = page
        .locator("fieldset.form-group")
        .filter({ has: page.locator("legend", { hasText: "Serving SLOs" }) });
      await expect(slos.getByLabel(/^SLO: p95 end-to-end latency/)).toBeVisible();
      await expect(slos).toContainText("95% of requests");
      await expect(page.getByLabel(/^Deployment prevalence π/)).toHaveAccessibleDescription(/fraction of production/);
      await expectFormControlsEven(page, `/decisions/new at ${width}`, { rows: viewport === LAPTOP });
      await expectNoPageScroll(page, "/decisions/new");
    });

    test("the edit page: one control height, and every candidate's name shown whole", async ({ page }) => {
      await signIn(page, "analyst", `${PACK}/edit`);
      await settled(page);
      // Each candidate's own form holds its name (expectFormControlsEven checks none is cut).
      const names = await page
        .locator('form input[name="name"]')
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value).filter(Boolean));
      expect(names).toEqual(expect.arrayContaining(["Atlas-70B-Instruct", "Sentry-Guard-13B"]));
      // A leaderboard's spelling of a model (issue 26) fits a candidate's Name field on a laptop (not saved).
      if (viewport === LAPTOP)
        await page
          .getByRole("form", { name: "Atlas-70B-Instruct" })
          .locator('input[name="name"]')
          .fill("meta-llama/Meta-Llama-3-8B-Instruct");
      await expectFormControlsEven(page, `${PACK}/edit at ${width}`, { rows: viewport === LAPTOP });
      await expectNoPageScroll(page, `${PACK}/edit`);
    });
  });
}
