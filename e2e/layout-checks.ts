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

/** Laptop width for the chart and form checks of issue 26 item 8 (with PHONE). */
export const LAPTOP = { width: 1280, height: 800 };

/**
 * Every chart's text — the key's entries, the axis titles, the tick labels and any label drawn in
 * the plot — has a box of its own: none intersects another (so none sits on a legend entry or a
 * tick label), no text in the plot is cut by the chart's edge and no HTML text is cut by its box
 * ("probabilit…"). HTML text is measured by its text (a Range), not its block.
 */
export async function expectChartTextApart(page: Page, where: string) {
  await expectChartsFit(page);
  const problems = await page.locator("figure.chart").evaluateAll((figures) => {
    type Item = { kind: string; text: string; box: DOMRect };
    const out: string[] = [];
    const textBox = (e: Element) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      return range.getBoundingClientRect();
    };
    for (const f of figures) {
      const id = f.getAttribute("data-chart");
      const svg = f.querySelector(".chart-canvas svg.recharts-surface");
      if (!svg) {
        out.push(`${id}: not drawn`);
        continue;
      }
      const frame = svg.getBoundingClientRect();
      const items: Item[] = [];
      for (const e of f.querySelectorAll(".chart-key li"))
        items.push({ kind: "legend entry", text: e.textContent ?? "", box: textBox(e) });
      for (const e of f.querySelectorAll(".chart-axis"))
        items.push({ kind: "axis title", text: e.textContent ?? "", box: textBox(e) });
      for (const e of svg.querySelectorAll("text")) {
        const box = e.getBoundingClientRect();
        if (box.width === 0 || !(e.textContent ?? "").trim()) continue;
        // recharts 3 draws tick labels in a layer of their own, outside the axis' group.
        const tick =
          e.matches(".recharts-cartesian-axis-tick-value") || e.closest(".recharts-cartesian-axis-tick-labels");
        const kind = tick ? "tick label" : "plot label";
        items.push({ kind, text: e.textContent ?? "", box });
        if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.top < frame.top - 0.5)
          out.push(`${id}: ${kind} "${e.textContent}" is cut by the chart's edge`);
      }
      for (const e of f.querySelectorAll(".chart-axis, .chart-key li"))
        if (e.scrollWidth > e.clientWidth + 1) out.push(`${id}: "${e.textContent}" is cut`);
      if (!items.some((i) => i.kind === "tick label")) out.push(`${id}: no tick labels measured`);
      if (!items.some((i) => i.kind === "legend entry")) out.push(`${id}: no legend measured`);
      for (let i = 0; i < items.length; i++)
        for (let j = i + 1; j < items.length; j++) {
          const a = items[i]!.box;
          const b = items[j]!.box;
          const overlap =
            Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
          if (overlap)
            out.push(`${id}: ${items[i]!.kind} "${items[i]!.text}" overlaps ${items[j]!.kind} "${items[j]!.text}"`);
        }
    }
    return out;
  });
  expect(problems, where).toEqual([]);
}

/**
 * The page's text-like form controls (inputs and selects; not checkboxes, sliders or files) have
 * one height, so every control in a row — controls whose boxes share a horizontal band — has the
 * same height; and every candidate-name input shows its whole value.
 */
export async function expectFormControlsEven(page: Page, where: string, { rows: severalPerRow = true } = {}) {
  const found = await page.locator("form").evaluateAll((forms) => {
    const skip = new Set(["hidden", "checkbox", "radio", "range", "file", "submit", "button"]);
    return forms.flatMap((form) =>
      [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select")]
        .filter((e) => !skip.has(e.type) && e.getBoundingClientRect().height > 0)
        .map((e) => {
          const box = e.getBoundingClientRect();
          return {
            name: e.getAttribute("aria-label") ?? e.name,
            top: box.top + window.scrollY,
            height: box.height,
            // A candidate's name (its own form's "Name", the shortlist's "Candidate name for …") is shown whole.
            cut:
              e.matches('input[name="name"], input[aria-label^="Candidate name"]') && e.scrollWidth > e.clientWidth + 1,
            value: e.value,
          };
        }),
    );
  });
  expect(found.length, `${where}: form controls measured`).toBeGreaterThan(2);
  const rows: (typeof found)[] = [];
  for (const c of found) {
    const row = rows.find((r) => r.some((o) => c.top < o.top + o.height && o.top < c.top + c.height));
    if (row) row.push(c);
    else rows.push([c]);
  }
  const uneven = rows
    .filter((r) => new Set(r.map((c) => Math.round(c.height))).size > 1)
    .map((r) => r.map((c) => `${c.name} ${c.height.toFixed(1)} px`).join(", "));
  expect(uneven, `${where}: controls of one row with different heights`).toEqual([]);
  // On a phone the grid is one column: every row holds one control.
  if (severalPerRow)
    expect(rows.filter((r) => r.length > 1).length, `${where}: rows of several controls`).toBeGreaterThan(0);
  expect(new Set(found.map((c) => Math.round(c.height))).size, `${where}: one control height`).toBe(1);
  expect(
    found.filter((c) => c.cut).map((c) => `${c.name}: "${c.value}"`),
    `${where}: values cut`,
  ).toEqual([]);
}
