import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// The decision page's view (issue 12 item 1): chart series, stored curves and the what-if's
// compact pack are fetched once per evidence state instead of riding in the page's HTML.
test("the decision page fetches its view once per evidence state: not in the HTML, immutable for its tag, refused without a session", async ({
  page,
  playwright,
  baseURL,
}) => {
  await signIn(page, "reviewer");
  const viewResponse = page.waitForResponse((r) => /\/api\/v1\/decisions\/demo-moderation\/view\?state=/.test(r.url()));
  const document = await page.goto("/decisions/demo-moderation");
  const html = await document!.text();
  const response = await viewResponse;
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("private, max-age=31536000, immutable");
  const etag = response.headers()["etag"]!;
  const tag = new URL(response.url()).searchParams.get("state")!;
  expect(etag).toBe(`"${tag}"`);

  const view = await response.json();
  expect(Object.keys(view.series).sort()).toEqual(["pr-curves", "reliability"]);
  expect(view.series["pr-curves"]).toHaveLength(4);
  expect(view.whatIf.runs).toHaveLength(4);
  expect(Object.values(view.curves).every((c) => (c as { roc: { tp: number[] } | null }).roc!.tp.length > 10)).toBe(
    true,
  );
  // None of it is in the page itself: no curve counts, no compact pack.
  expect(html).not.toContain(JSON.stringify(view.series["pr-curves"][0].points.slice(0, 3)).slice(1, -1));
  expect(html).not.toMatch(/\\?"tp\\?":\[/);
  await expect(page.getByTestId("page-view")).toHaveAttribute("data-state", "ready");
  await expect(page.locator('figure[data-chart="pr-curves"] .recharts-line')).toHaveCount(4);

  // A revalidation at the same state costs no body; another state's URL is not kept.
  const again = await page.request.get(response.url(), { headers: { "if-none-match": etag } });
  expect(again.status()).toBe(304);
  const stale = await page.request.get("/api/v1/decisions/demo-moderation/view?state=stale");
  expect(stale.status()).toBe(200);
  expect(stale.headers()["cache-control"]).toBe("private, no-cache");

  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.get(response.url())).status()).toBe(401);
  expect((await anonymous.get("/api/v1/decisions/no-such-decision/view")).status()).toBe(401);
  const missing = await page.request.get("/api/v1/decisions/no-such-decision/view");
  expect(missing.status()).toBe(404);
  await anonymous.dispose();
});
