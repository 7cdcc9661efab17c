import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { formatTick } from "../lib/format";
import { enrolByOperator } from "./enrol";

/**
 * The record a committee files (issue 25), from an empty production database: a decision whose
 * one candidate's vLLM file has one concurrency level and whose other's has none (`request_rate:
 * inf`, no `max_concurrency`), leaderboards whose sources state their dates (a generic CSV's
 * as_of, the Arena file's name), relevance notes set by the API and by the CLI, a review comment
 * resolved by a reply, two approvals. The PDF (read back with pdftotext) and the JSON export name
 * every source file with its SHA-256, the comment and its resolution, the as-of dates and the
 * notes; the sealed PDF and the auditor bundle pass scripts/verify-pack.ts, the chain `verdict
 * audit verify`.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const PASSWORD = "a long enough record password 42";
const VLLM = path.join(ROOT, "test/fixtures/external/vllm-bench-serve");
const ONE_LEVEL = { file: "sweep_run=0.json", model: "facebook/opt-125m", throughput: 5.859229976904171 };
const NO_LEVEL = {
  file: "lambdalabs_Meta-Llama-3-8B-Instruct_tp1_len2000.EXCERPT.json",
  model: "meta-llama/Meta-Llama-3-8B-Instruct",
};
const NOTE_API = "MMLU-Pro's reasoning items are far from our moderation policy: weak evidence, shortlisting only.";
const NOTE_CLI = "Arena votes reflect chat preference, not policy decisions; we read them as a tie-breaker.";
const COMMENT = "Please add a sweep before go-live.";
const REPLY = "Resolved: the analyst's sweep is in the serving file; concurrency 2 is the measured level.";

function run(command: string, args: string[]) {
  return spawnSync(
    process.execPath,
    [
      ...(command === "verdict" ? [path.join(ROOT, "bin/verdict.mjs")] : ["--import", "tsx", path.join(ROOT, command)]),
      ...args,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL },
      encoding: "utf8",
    },
  );
}
function verdict(args: string[]) {
  const out = run("verdict", args);
  expect(out.status, `verdict ${args.join(" ")}: ${out.stderr}`).toBe(0);
  return out.stdout.trim();
}
const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

const ITEMS = 200;
const isPositive = (i: number) => i % 8 === 1;
const DATASET =
  ["id,label,text", ...Array.from({ length: ITEMS }, (_, i) => `r-${i},${isPositive(i) ? 1 : 0},message ${i}`)].join(
    "\n",
  ) + "\n";
const predictions = (offset: number) =>
  [
    "id,score",
    ...Array.from(
      { length: ITEMS },
      (_, i) => `r-${i},${(isPositive(i) ? offset + ((i * 7) % 40) / 100 : ((i * 13) % 60) / 100).toFixed(3)}`,
    ),
  ].join("\n") + "\n";

const people = () => {
  const tag = randomUUID().slice(0, 8);
  const person = (role: string, name: string) => ({ email: `${role}-${tag}@record.test`, name: `${name} ${tag}` });
  return {
    analyst: { ...person("analyst", "Ada Analyst"), roles: ["ANALYST" as const] },
    reviewer: { ...person("reviewer", "Rita Reviewer"), roles: ["REVIEWER" as const] },
    approverA: { ...person("approver-a", "Alma Approver"), roles: ["APPROVER" as const] },
    approverB: { ...person("approver-b", "Ben Approver"), roles: ["APPROVER" as const] },
  };
};
const PEOPLE = people();
const FILES: Record<string, string> = {};
let analyst: APIRequestContext;
let reviewer: APIRequestContext;
let decisionId = "";
const candidateIds: string[] = [];
let dir = "";

async function upload(api: APIRequestContext, route: string, name: string, body: string, type = "text/csv") {
  const res = await api.post(
    `/api/v1/decisions/${decisionId}/${route}${route.includes("?") ? "&" : "?"}filename=${encodeURIComponent(name)}`,
    {
      data: body,
      headers: { "content-type": type },
    },
  );
  expect(res.status(), `${route} ${name}: ${await res.text()}`).toBe(201);
  FILES[name] = sha256(body);
  return res.json();
}

async function buildDecision() {
  const created = await analyst.post("/api/v1/decisions", {
    data: {
      title: "Record check: moderation model",
      description: "Every figure traceable to its source file.",
      positiveClass: "violating",
      prevalence: 0.05,
      costFn: 20,
      costFp: 1,
      currency: "USD",
      recallFloor: 0.5,
      precisionFloor: null,
      operatingThreshold: 0.5,
      sloP95E2eMs: 60000,
      sloP95TtftMs: 30000,
      sloMinThroughputRps: 0.5,
      sloThroughputConcurrency: 2,
      sloMaxCostPer1kRequests: 100,
      quorum: 2,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  decisionId = ((await created.json()) as { decision: { id: string } }).decision.id;
  for (const [k, c] of [ONE_LEVEL, NO_LEVEL].entries()) {
    const res = await analyst.post(`/api/v1/decisions/${decisionId}/candidates`, {
      data: { name: c.model, provider: k === 0 ? "Meta" : "Meta Llama" },
    });
    expect(res.status(), await res.text()).toBe(201);
    candidateIds.push(((await res.json()) as { candidate: { id: string } }).candidate.id);
  }
  // Sources that state their own date: a generic CSV's as_of column, the Arena table's file name.
  await upload(
    analyst,
    "leaderboards",
    "board.csv",
    `model,suite,metric,value,as_of\n${ONE_LEVEL.model},MMLU-Pro,acc,0.41,2025-03-14\n${NO_LEVEL.model},MMLU-Pro,acc,0.45,2025-03-14\n`,
  );
  await upload(
    analyst,
    "leaderboards",
    "leaderboard_table_20240705.csv",
    `Model,Arena Score,95% CI,Votes\n${ONE_LEVEL.model},1010,+5/-6,1200\n${NO_LEVEL.model},1150,+4/-5,9000\n`,
  );
  for (const [k, id] of candidateIds.entries()) {
    const res = await analyst.patch(`/api/v1/decisions/${decisionId}/candidates/${id}`, {
      data: {
        name: [ONE_LEVEL, NO_LEVEL][k]!.model,
        provider: k === 0 ? "Meta" : "Meta Llama",
        version: "",
        pricePerHour: 1,
        shortlistRationale:
          "MMLU-Pro and Chatbot Arena place it among the small models worth testing; we rely on them only to shortlist, since our moderation task is a narrow classification at five percent prevalence.",
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  for (const suite of ["MMLU-Pro", "Chatbot Arena"]) {
    const res = await analyst.put(`/api/v1/decisions/${decisionId}/resemblances`, {
      data: {
        suite,
        task: "MISMATCH",
        distribution: "MISMATCH",
        promptScoring: "PARTIAL",
        ...(suite === "MMLU-Pro" ? { relevanceNote: NOTE_API } : {}),
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  verdict([
    "decision",
    "relevance-note",
    "--decision",
    decisionId,
    "--suite",
    "Chatbot Arena",
    "--note",
    NOTE_CLI,
    "--as",
    PEOPLE.analyst.email,
  ]);
  const dataset = (await upload(analyst, "datasets?name=holdout", "holdout.csv", DATASET)) as {
    datasetVersionId: number;
  };
  for (const [k, id] of candidateIds.entries())
    await upload(
      analyst,
      `predictions?candidateId=${id}&datasetVersionId=${dataset.datasetVersionId}`,
      `scores-${k}.csv`,
      predictions(0.5 + 0.1 * k),
    );
  for (const c of [ONE_LEVEL, NO_LEVEL])
    await upload(analyst, "serving", c.file, readFileSync(path.join(VLLM, c.file), "utf8"), "application/json");
  await expect
    .poll(
      async () =>
        (
          (await (await analyst.get(`/api/v1/decisions/${decisionId}`)).json()) as { runs: { metrics: unknown }[] }
        ).runs.filter((r) => r.metrics).length,
      { timeout: 90_000 },
    )
    .toBe(2);
}

async function signIn(browser: Browser, who: keyof typeof PEOPLE) {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(PEOPLE[who].email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible({ timeout: 30_000 });
  return page;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(240_000);
  dir = mkdtempSync(path.join(tmpdir(), "verdict-record-e2e-"));
  for (const p of Object.values(PEOPLE)) await enrolByOperator(baseURL!, DATABASE_URL, { ...p, password: PASSWORD });
  const api = (email: string) =>
    playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${verdict(["token", "create", "--email", email])}` },
    });
  analyst = await api(PEOPLE.analyst.email);
  reviewer = await api(PEOPLE.reviewer.email);
  await buildDecision();
});

test.afterAll(async () => {
  await analyst?.dispose();
  await reviewer?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the PDF and the JSON export are the record: sources, as-of dates, notes, the review; verify-pack passes", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const base = `/api/v1/decisions/${decisionId}`;
  const submitted = await analyst.post(`${base}/transitions`, { data: { action: "submit" } });
  expect(submitted.status(), await submitted.text()).toBe(200);
  const comment = await reviewer.post(`${base}/comments`, { data: { body: COMMENT, stage: 5 } });
  expect(comment.status(), await comment.text()).toBe(201);
  const { id: parentId } = ((await comment.json()) as { comment: { id: string } }).comment;
  expect((await reviewer.post(`${base}/comments`, { data: { body: REPLY, stage: null, parentId } })).status()).toBe(
    201,
  );
  const { latestRevision } = (await (await analyst.get(`${base}/signatures`)).json()) as {
    latestRevision: { sha256: string };
  };
  for (const who of ["approverA", "approverB"] as const) {
    const page = await signIn(browser, who);
    const signed = await page.request.post(`${base}/signatures`, {
      headers: { origin: baseURL! },
      data: {
        meaning: "APPROVAL",
        email: PEOPLE[who].email,
        password: PASSWORD,
        revisionSha256: latestRevision.sha256,
        candidateId: candidateIds[0],
        reason: "The best candidate at the measured level.",
        // vLLM's default report has no p95: the latency gates read "not measured" and need a waiver.
        waiver: "The file reports p99 latencies only; they are far below the SLOs.",
      },
    });
    expect(signed.status(), await signed.text()).toBe(201);
    await page.context().close();
  }

  // The JSON export.
  const json = await reviewer.get(`${base}/export/json`);
  expect(json.status(), await json.text()).toBe(200);
  const pack = (await json.json()) as {
    evidence: { decision: { status: string } };
    provenance: { sources: { name: string; sha256: string; importedBy: string; uses: { asOf?: string }[] }[] };
    review: {
      comments: { body: string; author: string; stage: number; resolution: string }[];
      signatures: { meaning: string; meaningText: string }[];
    };
  };
  expect(pack.evidence.decision.status).toBe("APPROVED");
  const text = JSON.stringify(pack);
  for (const [name, hash] of Object.entries(FILES)) {
    const source = pack.provenance.sources.find((s) => s.name === name);
    expect(source, `${name} in the export's provenance`).toMatchObject({
      sha256: hash,
      importedBy: PEOPLE.analyst.name,
    });
  }
  expect(text).toMatch(/as of 2025-03, \d+ months before this decision/);
  expect(text).toMatch(/as of 2024-07, \d+ months before this decision/);
  expect(text).toContain(NOTE_API);
  expect(text).toContain(NOTE_CLI);
  expect(pack.review.comments).toEqual([
    expect.objectContaining({
      body: COMMENT,
      author: PEOPLE.reviewer.name,
      stage: 5,
      resolution: expect.stringContaining(REPLY),
    }),
  ]);
  expect(pack.review.signatures.map((s) => s.meaning)).toEqual(["APPROVAL", "APPROVAL"]);

  // The PDF, read back by a real PDF reader.
  const response = await reviewer.get(`${base}/export/pdf`);
  expect(response.status()).toBe(200);
  const pdf = path.join(dir, "pack.pdf");
  writeFileSync(pdf, await response.body());
  const raw = execFileSync("pdftotext", ["-enc", "UTF-8", "-raw", pdf, "-"], { encoding: "utf8" });
  const flat = raw.replace(/\s+/g, " ");
  for (const [name, hash] of Object.entries(FILES)) {
    expect(flat, `${name} in the PDF`).toContain(name);
    expect(flat, `${name}'s SHA-256 in the PDF`).toContain(hash);
  }
  expect(flat).toMatch(/as of 2025-03, \d+ months before this decision/);
  expect(flat).toMatch(/as of 2024-07, \d+ months before this decision/);
  expect(flat).toContain(NOTE_API);
  expect(flat).toContain(NOTE_CLI);
  const review = flat.slice(flat.indexOf("Review Comment (author, UTC, revision)"));
  expect(review).toContain(COMMENT);
  expect(review).toContain(REPLY);
  expect(review).toContain(`Resolved by reply of ${PEOPLE.reviewer.name}`);
  // The single-level candidate's figure on the stage 5 page: its throughput beside its point.
  // (Stage 5 runs over pages: from its heading to the section after it.)
  const stage5 = flat.slice(flat.indexOf("Stage 5 ·"), flat.indexOf("Across stages"));
  expect(stage5).toContain("Request throughput vs concurrency");
  expect(stage5).toContain(` ${formatTick(ONE_LEVEL.throughput, 1)} `);

  // The sealed PDF and the auditor bundle pass the offline check; the chain verifies.
  const checked = run("scripts/verify-pack.ts", [pdf]);
  expect(checked.status, checked.stdout + checked.stderr).toBe(0);
  const bundle = await reviewer.get(`${base}/audit-bundle`);
  expect(bundle.status()).toBe(200);
  const bundleFile = path.join(dir, "bundle.json");
  writeFileSync(bundleFile, await bundle.body());
  const bundled = run("scripts/verify-pack.ts", [bundleFile]);
  expect(bundled.status, bundled.stdout + bundled.stderr).toBe(0);
  verdict(["audit", "verify"]);
});
