import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * The layout checks of issue 10 item 10, shared by the demo spec (layout.spec.ts) and the one on
 * an empty production database (production-layout.spec.ts).
 */
export const PHONE = { width: 390, height: 844 };
export const WIDE = { width: 1440, height: 900 };

/** The page is loaded whole: every streamed section has replaced its skeleton. */
export async function settled(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".skeleton")).toHaveCount(0, { timeout: 30_000 });
}

/** No horizontal page scroll: wide content scrolls inside its own box. */
export async function expectNoPageScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where}: document width at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
}

/** "Sign out" is on screen (not pushed off the right edge). */
export async function expectSignOutReachable(page: Page) {
  const button = page.getByRole("button", { name: "Sign out" });
  await expect(button).toBeVisible();
  const box = (await button.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** Each chart fits its card, and its operating points are drawn inside the chart. */
export async function expectChartsFit(page: Page) {
  // Charts are drawn in the browser once their container is measured, and on the decision page
  // their series once the page's view has arrived.
  if ((await page.getByTestId("page-view").count()) > 0)
    await expect(page.getByTestId("page-view")).toHaveAttribute("data-state", "ready");
  await expect(page.locator("figure.chart .chart-canvas .recharts-wrapper > svg")).toHaveCount(
    await page.locator("figure.chart").count(),
  );
  const charts = await page.locator("figure.chart").evaluateAll((figures) =>
    figures.map((f) => {
      const box = f.getBoundingClientRect();
      const svg =
        f.querySelector(".chart-canvas .recharts-wrapper > svg.recharts-surface")?.getBoundingClientRect() ?? null;
      const dots = [...f.querySelectorAll(".recharts-reference-dot circle, .recharts-reference-dot-dot")].map((d) =>
        d.getBoundingClientRect(),
      );
      return {
        id: f.getAttribute("data-chart"),
        figure: { left: box.left, right: box.right },
        svg: svg && { left: svg.left, right: svg.right, width: svg.width },
        dots: dots.map((d) => ({ left: d.left, right: d.right })),
      };
    }),
  );
  expect(charts.length).toBeGreaterThan(0);
  for (const c of charts) {
    expect(c.svg, `${c.id}: rendered`).not.toBeNull();
    expect(c.svg!.right, `${c.id}: inside its card`).toBeLessThanOrEqual(c.figure.right + 0.5);
    for (const d of c.dots) expect(d.right, `${c.id}: operating point visible`).toBeLessThanOrEqual(c.svg!.right + 0.5);
  }
  return charts;
}

/** axe-core finds no serious or critical violation (every rule on). */
export async function expectNoSeriousAxeViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    ),
    where,
  ).toEqual([]);
}

/** Label/value pairs (the task parameters) have space between them: "Deployment prevalence π 2.0%", never run together. */
export async function expectLabelsSpaced(page: Page) {
  const pairs = await page.locator(".params > div").evaluateAll((rows) =>
    rows.map((row) => {
      const dt = row.querySelector("dt")!.getBoundingClientRect();
      const dd = row.querySelector("dd")!.getBoundingClientRect();
      return {
        label: row.querySelector("dt")!.textContent,
        gap: dd.top >= dt.bottom - 1 ? Infinity : dd.left - dt.right,
      };
    }),
  );
  expect(pairs.length).toBeGreaterThan(0);
  for (const p of pairs) expect(p.gap, `${p.label}: space between label and value`).toBeGreaterThanOrEqual(8);
}
