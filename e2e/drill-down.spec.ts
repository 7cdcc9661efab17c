import { expect, test, type Page } from "@playwright/test";
import { formatThreshold } from "../lib/format";
import { signIn } from "./helpers";

/**
 * Drill-down on the demo decision: from a confusion-matrix cell, a slice's recall and an operating
 * threshold of the pack to the items behind them, paged with keyset links, compared with another
 * candidate, downloaded as CSV.
 */
const PACK = "/decisions/demo-moderation";

const rows = (page: Page) => page.getByTestId("drill-items").locator("tbody tr");
const ids = async (page: Page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-item")));

test("from a confusion-matrix cell to its items: paged both ways, compared with another candidate, downloaded", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "reviewer", PACK);
  const fn = page.getByRole("link", { name: /^Atlas-70B-Instruct: the [\d,]+ items in FN$/ });
  const count = Number((await fn.innerText()).replace(/\D/g, ""));
  expect(count).toBeGreaterThan(50);
  await fn.click();
  await expect(page).toHaveURL(/\/decisions\/demo-moderation\/runs\/\d+\/items\?cell=FN$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Items of Atlas-70B-Instruct's run #\d+/);
  // The run's operating threshold is the one its decision's rule chose, as the API states it.
  const pack = await (await page.request.get("/api/v1/decisions/demo-moderation")).json();
  const atlas = pack.candidates.find((c: { name: string }) => c.name === "Atlas-70B-Instruct");
  const threshold = pack.runs.find((r: { candidateId: string }) => r.candidateId === atlas.id).metrics.parameters
    .threshold;
  expect(threshold).not.toBe(0.5);
  await expect(page.getByTestId("drill-summary")).toContainText(
    `False negatives (FN) at t = ${formatThreshold(threshold)} (the run's operating threshold)`,
  );
  // The list's size is the matrix's count.
  await expect(page.getByTestId("drill-total")).toHaveText(count.toLocaleString("en-US"));
  await expect(rows(page)).toHaveCount(50);
  expect(await rows(page).evaluateAll((trs) => trs.every((tr) => tr.getAttribute("data-cell") === "FN"))).toBe(true);
  const first = await ids(page);

  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/after=/);
  await expect(rows(page).first()).not.toHaveAttribute("data-item", first[0]!);
  const second = await ids(page);
  expect(second.filter((id) => first.includes(id))).toEqual([]);
  await page.getByRole("link", { name: "← Previous" }).click();
  await expect(page).toHaveURL(/before=/);
  await expect(rows(page).first()).toHaveAttribute("data-item", first[0]!);
  expect(await ids(page)).toEqual(first);

  // Only the errors Atlas makes and Orca does not.
  await page.getByLabel("Cell").selectOption("errors");
  const vsSelect = page.getByLabel("Only errors this candidate makes vs");
  await vsSelect.selectOption((await vsSelect.locator("option", { hasText: "Orca-34B" }).getAttribute("value"))!);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/vs=\d+/);
  await expect(page.getByTestId("drill-summary")).toContainText(
    "only the errors Atlas-70B-Instruct makes and Orca-34B does not",
  );
  expect(
    await rows(page).evaluateAll((trs) => trs.every((tr) => ["FN", "FP"].includes(tr.getAttribute("data-cell") ?? ""))),
  ).toBe(true);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("drill-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/^run-\d+-errors-vs-\d+\.csv$/);
  const csv = await new Promise<string>((resolve, reject) =>
    download.createReadStream().then((s) => {
      const parts: Buffer[] = [];
      s.on("data", (c: Buffer) => parts.push(c));
      s.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
      s.on("error", reject);
    }, reject),
  );
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe("id,cell,label,score,predicted,parse_failure,missing,slice,text");
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((l) => /^[^,]+,(FN|FP),/.test(l))).toBe(true);
});

test("from a slice's recall and an operating threshold of the stress test to the items; a bad parameter is named", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "reviewer", PACK);
  const slice = page
    .getByTestId("slice-recall")
    .getByRole("link", { name: /^Sentry-Guard-13B, slice .+: the \d+ positives missed$/ })
    .first();
  const label = (await slice.getAttribute("aria-label"))!;
  const [, sliceName, missed] = label.match(/slice (.+): the (\d+) positives missed$/)!;
  await slice.click();
  await expect(page).toHaveURL(/cell=FN&slice=/);
  await expect(page.getByTestId("drill-summary")).toContainText(`in slice ${sliceName}`);
  await expect(page.getByTestId("drill-total")).toHaveText(Number(missed).toLocaleString("en-US"));
  expect(
    await rows(page).evaluateAll(
      (trs, s) => trs.every((tr) => tr.querySelectorAll("td")[3]?.textContent === s),
      sliceName,
    ),
  ).toBe(true);

  await page.goto(PACK);
  await page
    .getByTestId("stress-figures")
    .locator("tr[data-candidate='Orca-34B']")
    .getByRole("link", { name: "errors at this t" })
    .first()
    .click();
  await expect(page).toHaveURL(/cell=errors/);
  await expect(page.getByTestId("drill-summary")).toContainText("Errors (FN, then FP)");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Orca-34B/);

  const url = new URL(page.url());
  await page.goto(`${url.pathname}?cell=XX&threshold=abc`);
  const alert = page.getByTestId("drill-error");
  await expect(alert).toContainText("cell");
  await expect(alert).toContainText("threshold");
});
