import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startSimServer, type SimServer } from "../lib/harness/network/sim-server";
import { enrolByOperator } from "./enrol";

/**
 * Running a candidate from Verdict on the production server (`npm start`, empty database, no
 * demo): a decision built by the API, the protocol and an endpoint on a simulated
 * OpenAI-compatible server this spec starts on loopback, a run started in Chromium from the pack
 * page whose progress the page shows, and the eval run and the serving row it yields.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const SIM_PORT = Number(process.env.E2E_SIM_PORT ?? 4320);
const PASSWORD = "harness analyst passphrase 2026";

/** The analyst this spec works as: enrolled the way production enrols (e2e/enrol.ts), with an API token. */
async function makeUser(baseURL: string, role: string) {
  const run = (args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL },
      encoding: "utf8",
    });
  const id = randomUUID().slice(0, 8);
  const email = `harness-${role.toLowerCase()}-${id}@acme.test`;
  await enrolByOperator(baseURL, DATABASE_URL, {
    email,
    name: `Harness ${role} ${id}`,
    roles: [role],
    password: PASSWORD,
  });
  const token = run(["token", "create", "--email", email]);
  expect(token.status, token.stderr).toBe(0);
  return { email, token: token.stdout.trim() };
}

const ITEMS = Array.from({ length: 24 }, (_, k) => {
  const positive = k % 3 === 0;
  const p = positive ? 0.6 + (k % 4) * 0.1 : 0.1 + (k % 5) * 0.08;
  return {
    id: `h${String(k).padStart(2, "0")}`,
    positive,
    text: `[[sim label=${p >= 0.5 ? "yes" : "no"} p=${p.toFixed(2)} tokens=3${k === 7 ? " fail=contract" : ""}]]`,
  };
});
const DATASET = ["id,label,text", ...ITEMS.map((i) => `${i.id},${i.positive ? "abuse" : "fine"},${i.text}`)].join("\n");
const PROTOCOL = {
  system: "Answer yes if the message is abusive, else no.",
  user: "{{text}}",
  contract: { kind: "labels", labels: ["yes", "no"], positiveLabel: "yes" },
  score: { kind: "logprobs" },
  sampling: { temperature: 0, maxTokens: 3, stop: [] },
};

let sim: SimServer;
let analyst: APIRequestContext;
let analystEmail = "";

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000); // the operator's CLI enrolment spawns a process on a busy machine
  sim = await startSimServer({ ttftMs: 150, itlMs: 10 }, SIM_PORT);
  const a = await makeUser(baseURL!, "ANALYST");
  analystEmail = a.email;
  analyst = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${a.token}` } });
});

test.afterAll(async () => {
  await analyst.dispose();
  await sim.close();
});

test("a candidate run from the pack page against a simulated endpoint yields stages 3-5", async ({ page }) => {
  test.setTimeout(180_000);
  const created = await analyst.post("/api/v1/decisions", {
    data: {
      title: "Abuse triage from Verdict",
      description: "",
      positiveClass: "abuse",
      prevalence: 0.05,
      costFn: 20,
      costFp: 1,
      currency: "EUR",
      recallFloor: 0.7,
      operatingThreshold: 0.5,
      sloP95E2eMs: 5000,
      quorum: 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const decisionId = ((await created.json()) as { decision: { id: string } }).decision.id;
  const base = `/api/v1/decisions/${decisionId}`;
  const c = await analyst.post(`${base}/candidates`, { data: { name: "Local Llama", provider: "self-hosted" } });
  expect(c.status(), await c.text()).toBe(201);
  const candidateId = ((await c.json()) as { candidate: { id: string } }).candidate.id;
  const dataset = await analyst.post(`${base}/datasets?name=messages&negativeLabels=fine&filename=messages.csv`, {
    data: DATASET,
    headers: { "content-type": "text/csv" },
  });
  expect(dataset.status(), await dataset.text()).toBe(201);

  // Bad input is named and changes nothing.
  const badProtocol = await analyst.put(`${base}/protocol`, { data: { ...PROTOCOL, user: "{{text}} {{label}}" } });
  expect(badProtocol.status()).toBe(422);
  expect(
    ((await badProtocol.json()) as { error: { details: { issues: { field: string }[] } } }).error.details.issues.map(
      (i) => i.field,
    ),
  ).toEqual(["protocol.user"]);
  expect((await analyst.put(`${base}/protocol`, { data: PROTOCOL })).status()).toBe(200);
  const metadata = await analyst.put(`${base}/candidates/${candidateId}/endpoint`, {
    data: { baseUrl: "http://169.254.169.254/v1", model: "m" },
  });
  expect(metadata.status()).toBe(422);
  expect(await metadata.text()).toContain("baseUrl");
  const endpoint = await analyst.put(`${base}/candidates/${candidateId}/endpoint`, {
    data: { baseUrl: sim.url, model: "llama", concurrency: 4, priceInputPerMTok: 0.2, priceOutputPerMTok: 0.6 },
  });
  expect(endpoint.status(), await endpoint.text()).toBe(200);

  // Chromium: the analyst starts the run on the pack page and watches it.
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(`/decisions/${decisionId}`)}`);
  await page.getByLabel("Email").fill(analystEmail);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Run Local Llama" }).click({ timeout: 60_000 });
  const run = page.locator("[data-harness-run]").first();
  await expect(run).toHaveAttribute("data-status", /QUEUED|RUNNING|DONE/);
  await expect(page.getByRole("progressbar", { name: /Run \d+: \d+ of 24 items/ })).toBeVisible();
  await expect(run).toHaveAttribute("data-status", "DONE", { timeout: 90_000 });
  await expect(run).toContainText("24 of 24 items · 1 parse failures · 0 failed requests");

  // What it yields: an eval run computed as an upload's, and a serving row on stage 5.
  const runs = (
    (await (await analyst.get(`${base}/harness-runs`)).json()) as {
      runs: { evalRunId: number; status: string; outputTokens: number }[];
    }
  ).runs;
  expect(runs[0]).toMatchObject({ status: "DONE", outputTokens: 72 });
  await expect
    .poll(
      async () =>
        ((await (await analyst.get(`${base}/runs/${runs[0]!.evalRunId}`)).json()) as { run: { status: string } }).run
          .status,
      { timeout: 90_000 },
    )
    .toBe("DONE");
  await page.reload();
  await expect(page.locator('[data-stage-section="operational"]')).toContainText("Verdict harness", {
    timeout: 60_000,
  });
});
