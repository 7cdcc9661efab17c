import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { enrolByOperator } from "./enrol";
import {
  expectChartsFit,
  expectLabelsSpaced,
  expectNoPageScroll,
  expectNoSeriousAxeViolations,
  expectSignOutReachable,
  PHONE,
  settled,
  WIDE,
} from "./layout-checks";

/**
 * The layout checks of layout.spec.ts on the production server (`npm start`, empty database, no
 * demo), on a small decision this spec builds itself by the API as production-api.spec.ts does:
 * two candidates, a labelled dataset, their predictions and serving benchmarks. The decision keeps
 * the default operating-point rule of a new decision (cost-optimal), so this spec also shows that
 * rule at work from an empty database: page and API.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const PASSWORD = "a long enough layout password 42";

function verdict(args: string[], env: Record<string, string> = {}) {
  const out = spawnSync(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL, ...env },
    encoding: "utf8",
  });
  expect(out.status, `verdict ${args.join(" ")}: ${out.stderr}`).toBe(0);
  return out.stdout.trim();
}

const ITEMS = 400;
const isPositive = (i: number) => i % 8 === 1; // 50 positives
const noise = (i: number, seed: number) => {
  const x = Math.sin(i * 12.9898 + seed * 78.233) * 43758.5453;
  return x - Math.floor(x);
};
const DATASET =
  [
    "id,label,text,slice",
    ...Array.from(
      { length: ITEMS },
      (_, i) => `msg-${i},${isPositive(i) ? 1 : 0},message number ${i},${i % 3 === 0 ? "email" : "chat"}`,
    ),
  ].join("\n") + "\n";
const CANDIDATES = [
  { name: "Kestrel-Moderation-Large-2026-11", provider: "Kestrel Labs", offset: 0.5, seed: 1 },
  { name: "Wren-Small", provider: "Wren AI", offset: 0.3, seed: 2 },
];
const predictions = (c: (typeof CANDIDATES)[number]) =>
  [
    "id,score",
    ...Array.from(
      { length: ITEMS },
      (_, i) => `msg-${i},${(isPositive(i) ? c.offset + 0.5 * noise(i, c.seed) : 0.6 * noise(i, c.seed)).toFixed(4)}`,
    ),
  ].join("\n") + "\n";
const serving = (c: (typeof CANDIDATES)[number], k: number) =>
  [
    "model,tool,concurrency,request_throughput,completed,failed,mean_input_tokens,mean_output_tokens,ttft_p50_ms,ttft_p95_ms,e2e_p50_ms,e2e_p95_ms",
    `${c.name},vllm bench serve,1,${(2 - 0.3 * k).toFixed(1)},200,0,400,10,${90 + 20 * k},${150 + 20 * k},${500 + 50 * k},${640 + 50 * k}`,
    `${c.name},vllm bench serve,16,${(12 - 2 * k).toFixed(1)},800,0,400,10,${200 + 40 * k},${340 + 60 * k},${950 + 90 * k},${1450 + 120 * k}`,
  ].join("\n") + "\n";

let api: APIRequestContext;
let email = "";
let decisionId = "";

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  email = `layout-${randomUUID().slice(0, 8)}@acme.test`;
  await enrolByOperator(baseURL!, DATABASE_URL, {
    email,
    name: `Layout Analyst ${email.slice(7, 15)}`,
    roles: ["ANALYST"],
    password: PASSWORD,
  });
  api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${verdict(["token", "create", "--email", email])}` },
  });
  const created = await api.post("/api/v1/decisions", {
    data: {
      title: "Layout check: moderation on a phone",
      description: "A small decision for the 390 px and accessibility checks.",
      positiveClass: "violating",
      prevalence: 0.02,
      costFn: 50,
      costFp: 1,
      currency: "USD",
      recallFloor: 0.8,
      precisionFloor: null,
      operatingThreshold: 0.5,
      sloP95E2eMs: 2000,
      sloP95TtftMs: 500,
      sloMinThroughputRps: 5,
      sloThroughputConcurrency: 16,
      sloMaxCostPer1kRequests: 3,
      quorum: 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  decisionId = ((await created.json()) as { decision: { id: string } }).decision.id;
  const base = `/api/v1/decisions/${decisionId}`;
  const ids: string[] = [];
  for (const c of CANDIDATES) {
    const res = await api.post(`${base}/candidates`, { data: { name: c.name, provider: c.provider } });
    expect(res.status(), await res.text()).toBe(201);
    ids.push(((await res.json()) as { candidate: { id: string } }).candidate.id);
  }
  const dataset = await api.post(
    `${base}/datasets?name=layout%20holdout&filename=holdout.csv&sliceColumn=slice&textColumn=text`,
    { data: DATASET, headers: { "content-type": "text/csv" } },
  );
  expect(dataset.status(), await dataset.text()).toBe(201);
  const { datasetVersionId } = (await dataset.json()) as { datasetVersionId: number };
  for (const [k, c] of CANDIDATES.entries()) {
    const p = await api.post(
      `${base}/predictions?candidateId=${ids[k]}&datasetVersionId=${datasetVersionId}&filename=${k}-scores.csv`,
      { data: predictions(c), headers: { "content-type": "text/csv" } },
    );
    expect(p.status(), await p.text()).toBe(201);
    const s = await api.post(`${base}/serving?filename=${k}-serving.csv`, {
      data: serving(c, k),
      headers: { "content-type": "text/csv" },
    });
    expect(s.status(), await s.text()).toBe(201);
  }
  // The runs compute on the job queue: wait until both have metrics.
  await expect
    .poll(
      async () =>
        ((await (await api.get(base)).json()) as { runs: { metrics: unknown }[] }).runs.filter((r) => r.metrics).length,
      { timeout: 90_000 },
    )
    .toBe(CANDIDATES.length);
});

test.afterAll(async () => {
  await api?.dispose();
});

async function signIn(page: import("@playwright/test").Page, next: string) {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible({ timeout: 30_000 });
}

test.describe("at 390 px", () => {
  test.use({ viewport: PHONE });

  test("a decision built from scratch: no page scrolls sideways, charts fit, axe finds nothing serious", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const pack = `/decisions/${decisionId}`;
    await signIn(page, pack);
    await settled(page);
    await expect(page.getByTestId("verdict-band")).toBeVisible();
    await expectChartsFit(page);
    for (const p of [pack, `${pack}/review`, `${pack}/uploads`, `${pack}/edit`]) {
      if (p !== pack) await page.goto(p);
      await settled(page);
      await expectNoPageScroll(page, p);
      await expectSignOutReachable(page);
      if (!p.endsWith("/edit")) await expectNoSeriousAxeViolations(page, p);
    }
  });
});

test.describe("at 1440 px", () => {
  test.use({ viewport: WIDE });

  test("label/value pairs are spaced", async ({ page }) => {
    await signIn(page, `/decisions/${decisionId}`);
    await settled(page);
    await expectLabelsSpaced(page);
    await expectNoPageScroll(page, "the pack at 1440 px");
  });
});

test("a new decision judges each candidate at the threshold its rule chose, held out, on the page and by the API", async ({
  page,
}) => {
  const pack = (await (await api.get(`/api/v1/decisions/${decisionId}`)).json()) as {
    runs: {
      candidateId: string;
      metrics: {
        parameters: { threshold: number };
        operatingPoint?: { applies: boolean; rule: string; method: string; threshold: number };
      };
    }[];
  };
  expect(pack.runs).toHaveLength(CANDIDATES.length);
  for (const run of pack.runs) {
    expect(run.metrics.operatingPoint).toMatchObject({ applies: true, rule: "COST_OPTIMAL", method: "cross-fitted" });
    expect(run.metrics.parameters.threshold).toBe(run.metrics.operatingPoint!.threshold);
  }
  await signIn(page, `/decisions/${decisionId}`);
  await expect(page.getByTestId("operating-rule")).toContainText("Cost-optimal within the floors");
  const rows = page.getByTestId("operating-points").locator("tbody tr");
  await expect(rows).toHaveCount(CANDIDATES.length);
  for (const c of CANDIDATES) await expect(rows.filter({ hasText: c.name })).toBeVisible();
  await expect(
    page.getByRole("table", { name: "Evidence per stage and candidate" }).locator('tr[data-stage="class-balance"]'),
  ).toContainText("(held out)");
});
