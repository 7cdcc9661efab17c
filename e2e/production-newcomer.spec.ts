import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startSimServer, type SimServer } from "../lib/harness/network/sim-server";
import { enrolByOperator } from "./enrol";

/**
 * What a newcomer trips over (issue 26 items 4 and 7), on the production server (`npm start`,
 * empty database, no demo): model names that match once and for all — by the candidate's
 * version field, and by a spelling confirmed once on the edit page, so the next file with it
 * attaches by itself — and the harness configured on the page, with "Test the endpoint" answered
 * by a simulated endpoint this spec starts. No 403 and no console error on these screens.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const PASSWORD = "newcomer analyst passphrase 2026";
const VERSION = "meta-llama/Meta-Llama-3-8B-Instruct";

const DECISION = {
  title: "Spam triage for a newcomer",
  description: "",
  positiveClass: "spam",
  prevalence: 0.05,
  costFn: 20,
  costFp: 1,
  currency: "EUR",
  recallFloor: 0.7,
  operatingThreshold: 0.5,
  quorum: 1,
};

const board = (rows: [string, number][]) =>
  ["model,suite,metric,value", ...rows.map(([m, v]) => `${m},MMLU,acc,${v}`)].join("\n") + "\n";

let sim: SimServer;
let analyst: APIRequestContext;
let analystEmail = "";

/** The analyst, enrolled the way production enrols (e2e/enrol.ts), with an API token. */
async function makeAnalyst(baseURL: string) {
  const id = randomUUID().slice(0, 8);
  const email = `newcomer-analyst-${id}@acme.test`;
  await enrolByOperator(baseURL, DATABASE_URL, {
    email,
    name: `Newcomer ${id}`,
    roles: ["ANALYST"],
    password: PASSWORD,
  });
  const token = spawnSync(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), "token", "create", "--email", email], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL },
    encoding: "utf8",
  });
  expect(token.status, token.stderr).toBe(0);
  return { email, token: token.stdout.trim() };
}

/** Signs in on `page` and records every console error and 403 the screens produce. */
async function signIn(page: Page, next: string) {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() === 403) problems.push(`403: ${r.url()}`);
  });
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(analystEmail);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === next, { timeout: 60_000 });
  return problems;
}

async function newDecision(candidate: Record<string, string>) {
  const created = await analyst.post("/api/v1/decisions", { data: DECISION });
  expect(created.status(), await created.text()).toBe(201);
  const decisionId = ((await created.json()) as { decision: { id: string } }).decision.id;
  const base = `/api/v1/decisions/${decisionId}`;
  const c = await analyst.post(`${base}/candidates`, { data: candidate });
  expect(c.status(), await c.text()).toBe(201);
  return { decisionId, base, candidateId: ((await c.json()) as { candidate: { id: string } }).candidate.id };
}

const post = (url: string, data: string) => analyst.post(url, { data, headers: { "content-type": "text/csv" } });

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(300_000); // the operator's CLI enrolment spawns a process on a busy machine
  // A port of its own per worker (the two tests run in parallel, each worker with its beforeAll).
  sim = await startSimServer({ ttftMs: 20, itlMs: 5 });
  const a = await makeAnalyst(baseURL!);
  analystEmail = a.email;
  analyst = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${a.token}` } });
});

test.afterAll(async () => {
  await analyst.dispose();
  await sim.close();
});

test("a spelling confirmed once on the edit page attaches the next file by itself", async ({ page }) => {
  test.setTimeout(300_000);
  const { decisionId, base, candidateId } = await newDecision({
    name: "Llama 3 8B",
    provider: "Meta",
    version: VERSION,
  });

  // README: a leaderboard keeps its unmatched rows without a candidate (201, listed); the version field matches.
  const first = await post(
    `${base}/leaderboards?filename=first.csv`,
    board([
      [VERSION, 0.66],
      ["llama3-8b-local", 0.64],
      ["other-model", 0.5],
    ]),
  );
  expect(first.status(), await first.text()).toBe(201);
  expect(await first.json()).toMatchObject({
    models: { [VERSION]: candidateId },
    unshortlistedModels: ["llama3-8b-local", "other-model"],
  });
  // README: a serving file's unmatched names are a 422 prompt; a modelMap resolves them.
  const serving = "model,tool,concurrency,request_throughput,ttft_p95_ms,e2e_p95_ms\nl3-serving,vllm,8,20,100,400\n";
  const unmatched = await post(`${base}/serving?filename=serving.csv`, serving);
  expect(unmatched.status()).toBe(422);
  expect(await unmatched.json()).toMatchObject({
    error: { details: { kind: "UNMATCHED_MODELS", unmatched: ["l3-serving"] } },
  });
  const mapped = await post(
    `${base}/serving?filename=serving.csv&modelMap=${encodeURIComponent(JSON.stringify({ "l3-serving": candidateId }))}`,
    serving,
  );
  expect(mapped.status(), await mapped.text()).toBe(201);
  // The attach route names a model with no stranded row and changes nothing.
  const bad = await analyst.post(`${base}/candidates/${candidateId}/attach`, { data: { models: ["no-such-model"] } });
  expect(bad.status()).toBe(422);
  expect(await bad.text()).toContain("models.0");

  // The page: the stranded rows are attached to the candidate, and the spelling remembered.
  const problems = await signIn(page, `/decisions/${decisionId}/edit`);
  const section = page.getByRole("region", { name: "Leaderboard rows without a candidate" });
  await section.getByRole("checkbox", { name: "llama3-8b-local" }).check();
  await section.getByLabel("Attach to the candidate").selectOption({ label: "Llama 3 8B" });
  await section.getByRole("button", { name: "Attach and remember these spellings" }).click();
  await expect(section.getByRole("status")).toContainText("Attached 1 score(s) to Llama 3 8B");
  await expect(section.getByRole("checkbox", { name: "llama3-8b-local" })).toHaveCount(0);

  // The next file with that spelling attaches by itself; the same first file resent with modelMap attaches its rest.
  const second = await post(`${base}/leaderboards?filename=second.csv`, board([["llama3-8b-local", 0.68]]));
  expect(second.status(), await second.text()).toBe(201);
  expect(await second.json()).toMatchObject({ models: { "llama3-8b-local": candidateId }, unshortlistedModels: [] });
  const again = await post(
    `${base}/leaderboards?filename=first.csv&modelMap=${encodeURIComponent(JSON.stringify({ "other-model": candidateId }))}`,
    board([
      [VERSION, 0.66],
      ["llama3-8b-local", 0.64],
      ["other-model", 0.5],
    ]),
  );
  expect(again.status(), await again.text()).toBe(200);
  expect(await again.json()).toMatchObject({ existing: true, models: { "other-model": candidateId } });
  const listed = (await (await analyst.get(`${base}/candidates`)).json()) as { unshortlistedModels: unknown[] };
  expect(listed.unshortlistedModels).toEqual([]);
  await page.reload();
  await expect(page.getByRole("region", { name: "Leaderboard rows without a candidate" })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("the protocol and an endpoint are set on the page, and Test the endpoint answers", async ({ page }) => {
  test.setTimeout(300_000);
  const { decisionId, base } = await newDecision({ name: "Local Llama", provider: "self-hosted" });
  const dataset = [
    "id,label,text",
    "m01,spam,[[sim id=m01 label=yes p=0.9 tokens=1]] Win a prize now",
    "m02,ham,[[sim label=no p=0.1 tokens=1]] Lunch at noon?",
  ].join("\n");
  const uploaded = await post(`${base}/datasets?name=messages&negativeLabels=ham&filename=messages.csv`, dataset);
  expect(uploaded.status(), await uploaded.text()).toBe(201);

  const problems = await signIn(page, `/decisions/${decisionId}/edit`);
  const protocol = page.getByRole("form", { name: "Evaluation protocol" });
  await protocol.getByLabel("System message template").fill("Answer yes if the message is spam, else no.");
  await protocol.getByLabel("User message template").fill("Message {{item_id}}: {{text}}");
  // The preview renders the evaluation dataset's first item through the templates as typed.
  await expect(protocol.getByRole("region", { name: "Preview of one item" })).toContainText(
    "Message m01: [[sim id=m01 label=yes p=0.9 tokens=1]] Win a prize now",
  );
  await protocol.getByLabel("Labels (comma-separated)").fill("yes, no");
  await protocol.getByLabel(/Positive label/).fill("yes");
  await protocol.getByLabel("Score for the positive class").selectOption("label");
  await protocol.getByRole("button", { name: "Save the protocol" }).click();
  await expect(protocol.getByRole("status")).toContainText("Saved the evaluation protocol");

  const endpoint = page.getByRole("form", { name: "Endpoint of Local Llama" });
  await endpoint.getByLabel("Base URL").fill(sim.url);
  await endpoint.getByLabel(/^Model/).fill("llama");
  await endpoint.getByLabel(/^API key/).fill("sk-newcomer-secret");
  await endpoint.getByRole("button", { name: "Save Local Llama's endpoint" }).click();
  await expect(endpoint.getByRole("status")).toContainText(/Saved the endpoint \(key sha256:[0-9a-f]{16}\)/);

  const settings = (await (await analyst.get(`${base}/protocol`)).json()) as {
    protocol: { user: string };
    candidates: { endpoint: { baseUrl: string; apiKeyFingerprint: string } }[];
  };
  expect(settings.protocol.user).toBe("Message {{item_id}}: {{text}}");
  expect(settings.candidates[0]!.endpoint).toMatchObject({
    baseUrl: sim.url,
    apiKeyFingerprint: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
  });
  // The key is write-only: the page shows its fingerprint, never the key.
  await page.reload();
  await expect(page.getByRole("form", { name: "Endpoint of Local Llama" })).toContainText(
    `fingerprint ${settings.candidates[0]!.endpoint.apiKeyFingerprint}`,
  );
  expect(await page.content()).not.toContain("sk-newcomer-secret");

  const tester = page.getByRole("form", { name: "Test Local Llama's endpoint" });
  await tester.getByRole("button", { name: "Test the endpoint" }).click();
  await expect(tester.getByTestId("parsed-answer")).toHaveText("positive (“yes”), score 1.000", { timeout: 30_000 });
  await expect(tester).toContainText("m01");
  // The simulated endpoint saw that one item, once (a test sends one request, as a run sends each item).
  expect(sim.log).toEqual([{ id: "m01", status: 200, fail: null }]);
  expect(problems).toEqual([]);
});

test("a semicolon-separated dataset, as Excel writes it in much of Europe, is read and says so", async ({ page }) => {
  test.setTimeout(180_000);
  const { decisionId } = await newDecision({ name: "Semicolon model", provider: "Acme" });
  const problems = await signIn(page, `/decisions/${decisionId}/uploads`);
  const rows = [
    "id;label;text;slice",
    ...Array.from({ length: 12 }, (_, i) => `m${i};${i % 3 ? "ham" : "spam"};mail ${i};eu`),
  ];
  const panel = page.getByTestId("upload-dataset");
  await panel.getByLabel("Dataset name").fill("european export");
  await panel.getByLabel(/Negative class names/).fill("ham");
  await panel.locator('input[type="file"]').setInputFiles({
    name: "excel-export.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(rows.join("\r\n") + "\r\n"),
  });
  await panel.getByRole("button", { name: "Upload" }).click();
  const status = panel.getByRole("status");
  await expect(status).toContainText("Imported 12 rows", { timeout: 60_000 });
  await expect(status).toContainText("Read as semicolon-separated.");
  await expect(panel.getByRole("alert")).toHaveCount(0);
  expect(problems).toEqual([]);
});
