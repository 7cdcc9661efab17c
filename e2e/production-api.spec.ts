import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { enrolByOperator } from "./enrol";

/**
 * The JSON API of a decision from scratch, on the production server (`npm start`, empty database,
 * no demo): users and tokens made with the installed CLI, then every step by HTTP with a bearer
 * token — and every bad request answered with the field it is about, changing nothing.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const ARENA = readFileSync(path.join(ROOT, "test/fixtures/external/chatbot-arena/leaderboard_table_20231206.csv"));

function verdict(args: string[], env: Record<string, string> = {}) {
  const out = spawnSync(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL, ...env },
    encoding: "utf8",
  });
  expect(out.status, `verdict ${args.join(" ")}: ${out.stderr}`).toBe(0);
  return out.stdout.trim();
}

/** A user enrolled by the operator's invitation (e2e/enrol.ts), and an API token for them (shown once on stdout). */
async function userWithToken(baseURL: string, role: string): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const email = `${role.toLowerCase()}-${id}@acme.test`;
  await enrolByOperator(baseURL, DATABASE_URL, {
    email,
    name: `API ${role} ${id}`,
    roles: [role],
    password: "a long enough password 42",
  });
  return verdict(["token", "create", "--email", email]);
}

const PARAMETERS = {
  title: "Invoice fraud triage",
  description: "Flag fraudulent supplier invoices before payment.",
  positiveClass: "fraud",
  prevalence: 0.01,
  costFn: 400,
  costFp: 5,
  currency: "EUR",
  recallFloor: 0.8,
  precisionFloor: 0.2,
  operatingThreshold: 0.5,
  sloP95E2eMs: 2000,
  sloP95TtftMs: 500,
  sloMinThroughputRps: 5,
  sloThroughputConcurrency: 16,
  sloMaxCostPer1kRequests: 3,
  quorum: 2,
};

let analyst: APIRequestContext;
let reviewer: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  // Each user is enrolled by the operator's invitation and accepted over HTTP (argon2), then given a token: CLI processes on a busy machine.
  test.setTimeout(120_000);
  analyst = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${await userWithToken(baseURL!, "ANALYST")}` },
  });
  reviewer = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${await userWithToken(baseURL!, "REVIEWER")}` },
  });
});

test.afterAll(async () => {
  await analyst.dispose();
  await reviewer.dispose();
});

const fields = async (res: { json: () => Promise<unknown> }) =>
  ((await res.json()) as { error: { details: { issues: { field: string }[] } } }).error.details.issues.map(
    (i) => i.field,
  );

test("a decision from scratch by the API: create, copy, shortlist, candidates, answers, archive — bad requests name their field", async () => {
  test.setTimeout(90_000);
  const count = async () =>
    ((await (await analyst.get("/api/v1/decisions?status=all")).json()) as { decisions: unknown[] }).decisions.length;
  const before = await count();

  // Create: a bad body names each field; nothing is created. A reviewer may not create at all.
  const bad = await analyst.post("/api/v1/decisions", { data: { ...PARAMETERS, positiveClass: "", prevalence: 2 } });
  expect(bad.status()).toBe(422);
  expect(await fields(bad)).toEqual(expect.arrayContaining(["positiveClass", "prevalence"]));
  expect((await reviewer.post("/api/v1/decisions", { data: PARAMETERS })).status()).toBe(403);
  expect(await count()).toBe(before);
  const created = await analyst.post("/api/v1/decisions", { data: PARAMETERS });
  expect(created.status(), await created.text()).toBe(201);
  const { decision } = (await created.json()) as { decision: { id: string; status: string; prevalence: number } };
  expect(decision).toMatchObject({ status: "DRAFT", prevalence: 0.01 });
  const base = `/api/v1/decisions/${decision.id}`;

  // Copy: the parameters, not the title or description.
  const copy = await analyst.post("/api/v1/decisions", {
    data: { copyFrom: decision.id, title: "Invoice fraud triage, EU entities" },
  });
  expect(copy.status(), await copy.text()).toBe(201);
  expect(((await copy.json()) as { decision: Record<string, unknown> }).decision).toMatchObject({
    prevalence: 0.01,
    costFn: 400,
    currency: "EUR",
    description: "",
  });
  expect(
    (
      await analyst.post("/api/v1/decisions", { data: { copyFrom: "no-such-decision", title: "Copy of nothing" } })
    ).status(),
  ).toBe(422);

  // An Arena CSV on a decision without candidates: its models are listed for shortlisting.
  const arena = await analyst.post(`${base}/leaderboards?filename=leaderboard_table_20231206.csv`, {
    data: ARENA,
    headers: { "content-type": "text/csv" },
  });
  expect(arena.status(), await arena.text()).toBe(201);
  const listed = (await (await analyst.get(`${base}/candidates`)).json()) as {
    candidates: unknown[];
    unshortlistedModels: { name: string }[];
  };
  expect(listed.candidates).toHaveLength(0);
  expect(listed.unshortlistedModels.map((m) => m.name)).toEqual(
    expect.arrayContaining(["GPT-4-Turbo", "Claude-2.1", "Yi-34B-chat"]),
  );

  // Shortlist: an unknown model or a model ticked twice refuses the whole request.
  const unknown = await analyst.post(`${base}/shortlist`, {
    data: {
      candidates: [
        { name: "GPT-4 Turbo", provider: "OpenAI", models: ["GPT-4-Turbo"] },
        { name: "Ghost", provider: "Nobody", models: ["No-Such-Model"] },
      ],
    },
  });
  expect(unknown.status()).toBe(422);
  expect(await unknown.text()).toContain("candidates.1.models");
  expect(
    ((await (await analyst.get(`${base}/candidates`)).json()) as { candidates: unknown[] }).candidates,
  ).toHaveLength(0);
  const shortlisted = await analyst.post(`${base}/shortlist`, {
    data: {
      candidates: [
        { name: "GPT-4 Turbo", provider: "OpenAI", models: ["GPT-4-Turbo"] },
        { name: "Claude 2.1", provider: "Anthropic", models: ["Claude-2.1"] },
      ],
    },
  });
  expect(shortlisted.status(), await shortlisted.text()).toBe(201);
  const [gpt, claude] = (
    (await shortlisted.json()) as { candidates: { id: string; name: string; leaderboardRowsAttached: number }[] }
  ).candidates;
  expect(gpt!.leaderboardRowsAttached).toBeGreaterThan(0);

  // By hand: a clashing name names the field; a new one is added; a removal takes it out again.
  const clash = await analyst.post(`${base}/candidates`, { data: { name: "gpt-4 turbo", provider: "OpenAI" } });
  expect(clash.status()).toBe(422);
  expect(await clash.text()).toContain('"name"');
  const byHand = await analyst.post(`${base}/candidates`, {
    data: { name: "In-house BERT", provider: "Acme ML", modelId: "acme/fraud-bert", version: "2026-11" },
  });
  expect(byHand.status(), await byHand.text()).toBe(201);
  const { candidate } = (await byHand.json()) as { candidate: { id: string } };
  expect((await analyst.delete(`${base}/candidates/${candidate.id}`)).status()).toBe(200);
  expect(
    ((await (await analyst.get(`${base}/candidates`)).json()) as { candidates: { id: string }[] }).candidates.map(
      (c) => c.id,
    ),
  ).toEqual([gpt!.id, claude!.id]);

  // Rationale and the three questions of resemblance.
  const rationale =
    "Chatbot Arena ranks it high on open-ended answers; we rely on it only to shortlist, since invoice fraud is a narrow classification task at one percent prevalence.";
  const saved = await analyst.patch(`${base}/candidates/${gpt!.id}`, {
    data: { name: "GPT-4 Turbo", provider: "OpenAI", version: "", shortlistRationale: rationale },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const badAnswer = await analyst.put(`${base}/resemblances`, {
    data: { suite: "Chatbot Arena", task: "MAYBE", distribution: "MISMATCH", promptScoring: "MISMATCH" },
  });
  expect(badAnswer.status()).toBe(422);
  expect(await fields(badAnswer)).toEqual(["task"]);
  const answered = await analyst.put(`${base}/resemblances`, {
    data: {
      suite: "Chatbot Arena",
      task: "MISMATCH",
      taskNote: "chat preference",
      distribution: "MISMATCH",
      promptScoring: "MISMATCH",
    },
  });
  expect(answered.status(), await answered.text()).toBe(200);

  // Submitting lists everything still missing and changes nothing.
  const submit = await analyst.post(`${base}/transitions`, { data: { action: "submit" } });
  expect(submit.status()).toBe(409);
  const missing = ((await submit.json()) as { error: { details: { missing: string[] } } }).error.details.missing;
  expect(missing.join("\n")).toContain("Claude 2.1: shortlist rationale");
  expect(missing.join("\n")).toContain("Upload a labelled dataset");
  expect(((await (await analyst.get(base)).json()) as { decision: { status: string } }).decision.status).toBe("DRAFT");

  // Parameters: a bad value and an unknown field are named; a good change is applied.
  const badPatch = await analyst.patch(base, { data: { prevalence: 0 } });
  expect(badPatch.status()).toBe(422);
  expect(await fields(badPatch)).toEqual(["prevalence"]);
  expect(await fields(await analyst.patch(base, { data: { prevalance: 0.1 } }))).toEqual(["prevalance"]);
  const patched = await analyst.patch(base, { data: { prevalence: 0.02 } });
  expect(patched.status(), await patched.text()).toBe(200);
  expect(((await patched.json()) as { decision: { prevalence: number } }).decision.prevalence).toBe(0.02);

  // Archive: hidden from the default list, shown under "archived", read-only; restore.
  expect((await analyst.post(`${base}/archive`, { data: { archived: true } })).status()).toBe(200);
  const ids = async (status: string) =>
    (
      (await (await analyst.get(`/api/v1/decisions?status=${status}`)).json()) as { decisions: { id: string }[] }
    ).decisions.map((d) => d.id);
  expect(await ids("active")).not.toContain(decision.id);
  expect(await ids("archived")).toContain(decision.id);
  expect((await analyst.patch(base, { data: { quorum: 3 } })).status()).toBe(409);
  expect((await analyst.post(`${base}/archive`, { data: { archived: false } })).status()).toBe(200);
  expect(await ids("active")).toContain(decision.id);
});
