import { spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { enrolByOperator } from "./enrol";

/**
 * Other eval tools' per-item results on the production server (`npm start`, empty database, no
 * demo), issue 24: an analyst made from nothing builds two decisions by the API, uploads their
 * datasets, then imports the tools' files through the uploads page's mapping step.
 * - "Bias": the real lm-evaluation-harness bias-classification samples (150 lines) for one
 *   candidate and an Inspect `.json` log (schema 2, with the answer token's top logprobs, written
 *   here the way Inspect writes it, over the same 150 sentences) for the other; stage 3 shows each
 *   AP as scikit-learn computes it from the label-token probabilities, and the provenance lines.
 * - "Popularity": the real Inspect `.eval` (ZIP) run without logprobs: hard labels only, so stage 3
 *   shows one operating point and AP/ROC-AUC "undefined" with the reason.
 * - "Moderation": a promptfoo `results.json` with two providers interleaved (built from the real
 *   export's shape), each provider mapped to its candidate on the page: both get their run.
 * - "Bias at scale": lm-eval samples over 1 MB (the fixture's lines repeated under new ids) go
 *   through the page, which streams them to the JSON API (no server action's 1 MB limit).
 * The datasets are built here from the fixture files (ids and gold labels as the tools wrote them).
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const EXTERNAL = path.join(ROOT, "test/fixtures/external");
const LM_EVAL = path.join(
  EXTERNAL,
  "lm-eval-harness/bias-classification/samples_bias_classification_2024-06-17T15-44-37.867068.FIRST150.jsonl",
);
const INSPECT_EVAL = path.join(EXTERNAL, "inspect-ai/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval");
const PROMPTFOO = path.join(EXTERNAL, "promptfoo/sample-export.json");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const PASSWORD = "tool imports analyst passphrase 2026";

type LmEvalLine = { doc_id: number; doc: { Sentence: string; gold: string }; filtered_resps: [string, string][] };
const lmEval = readFileSync(LM_EVAL, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as LmEvalLine);
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** P(first) by a softmax over two log-probabilities, as the importers compute it. */
const softmax2 = (a: number, b: number) => 1 / (1 + Math.exp(b - a));

/** scikit-learn's average_precision_score: Σ (Rₙ − Rₙ₋₁)·Pₙ over distinct thresholds, no interpolation. */
function averagePrecision(pairs: { label: boolean; score: number }[]): number {
  const sorted = [...pairs].sort((x, y) => y.score - x.score);
  const positives = pairs.filter((p) => p.label).length;
  let tp = 0;
  let fp = 0;
  let recall = 0;
  let ap = 0;
  sorted.forEach((p, i) => {
    if (p.label) tp++;
    else fp++;
    if (sorted[i + 1]?.score === p.score) return;
    ap += (tp / positives - recall) * (tp / (tp + fp));
    recall = tp / positives;
  });
  return ap;
}

// The lm-eval task: choices " A" (not a bias) and " B" (bias); the gold is the letter.
const BIAS_DATASET = [
  "id,label,text",
  ...lmEval.map((l) => `${l.doc_id},${l.doc.gold === "B" ? 1 : 0},"${l.doc.Sentence.replace(/"/g, '""')}"`),
].join("\n");
const LM_EVAL_AP = averagePrecision(
  lmEval.map((l) => ({
    label: l.doc.gold === "B",
    score: softmax2(Number(l.filtered_resps[1]![0]), Number(l.filtered_resps[0]![0])),
  })),
);

/** The Inspect model's P("Yes") per item: deterministic, better than chance, no ties that matter. */
function inspectProbability(docId: number, bias: boolean): number {
  const z = (bias ? 1.1 : -1.1) + (((docId * 37) % 11) - 5) * 0.37;
  return 1 / (1 + Math.exp(-z));
}

/** An Inspect `.json` log (schema version 2) as `inspect eval --log-format json --top-logprobs 3` writes it. */
function inspectLog(status: "success" | "started") {
  const samples = lmEval.map((l, k) => {
    const bias = l.doc.gold === "B";
    const p = inspectProbability(l.doc_id, bias);
    const answer = p >= 0.5 ? "Yes" : "No";
    const top = [
      { token: "Yes", logprob: Math.log(p) },
      { token: " No", logprob: Math.log(1 - p) },
      { token: "Maybe", logprob: -6.5 },
    ].sort((a, b) => b.logprob - a.logprob);
    return {
      id: k + 1, // Inspect's own id: the position + 1 (the dataset had none); the buyer's id is in metadata
      epoch: 1,
      input: `Does this sentence contain a bias? ${l.doc.Sentence}`,
      target: bias ? " Yes" : " No",
      metadata: { item_id: String(l.doc_id) },
      output: {
        model: "gpt-4o-mini-2024-07-18",
        choices: [
          {
            message: { role: "assistant", content: answer, source: "generate" },
            stop_reason: "stop",
            logprobs: {
              content: [{ token: answer, logprob: Math.log(answer === "Yes" ? p : 1 - p), top_logprobs: top }],
            },
          },
        ],
        completion: answer,
      },
      scores: { match: { value: answer === (bias ? "Yes" : "No") ? "C" : "I", answer } },
    };
  });
  return JSON.stringify({
    version: 2,
    status,
    eval: {
      run_id: "Zq3bE7vXh2Kp9Lr4Tn6Wc8",
      task: "bias_detection",
      task_id: "Fm2Qx8Rt5Yv1Nb7Jk3Hd9",
      task_version: 1,
      model: "openai/gpt-4o-mini",
      model_generate_config: { temperature: 0, logprobs: true, top_logprobs: 3 },
      dataset: { name: "bias", samples: samples.length, shuffled: false },
      config: { epochs: 1 },
      packages: { inspect_ai: "0.3.130" },
    },
    plan: { name: "plan", steps: [{ solver: "generate", params: {} }], config: {} },
    results: { total_samples: samples.length, completed_samples: samples.length, scores: [] },
    stats: {},
    samples: status === "success" ? samples : samples.slice(0, 3),
  });
}
const INSPECT_AP = averagePrecision(
  lmEval.map((l) => {
    const p = inspectProbability(l.doc_id, l.doc.gold === "B");
    return { label: l.doc.gold === "B", score: softmax2(Math.log(p), Math.log(1 - p)) };
  }),
);

// The real .eval: samples 1…10 of the "popularity" task, gold " Yes" on the odd ids; gpt-4o-mini
// answered "Yes" on 1, 5 and 9 only (no logprobs requested).
const POPULARITY_DATASET = [
  "id,label",
  ...Array.from({ length: 10 }, (_, k) => `${k + 1},${(k + 1) % 2 === 1 ? 1 : 0}`),
].join("\n");

function verdict(args: string[]) {
  return spawnSync(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL },
    encoding: "utf8",
  });
}

let api: APIRequestContext;
let email = "";

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  // One analyst per worker: the printed name tells them apart (signatures must).
  const suffix = randomUUID().slice(0, 8);
  email = `tools-analyst-${suffix}@acme.test`;
  await enrolByOperator(baseURL!, DATABASE_URL, {
    email,
    name: `Tool Analyst ${suffix}`,
    roles: ["ANALYST"],
    password: PASSWORD,
  });
  const token = verdict(["token", "create", "--email", email]);
  expect(token.status, token.stderr).toBe(0);
  api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token.stdout.trim()}` },
  });
});

test.afterAll(async () => {
  await api?.dispose();
});

/** A decision with its candidates and its dataset, by the API. */
async function decision(title: string, positiveClass: string, candidates: string[], dataset: string) {
  const created = await api.post("/api/v1/decisions", {
    data: {
      title,
      description: "",
      positiveClass,
      prevalence: 0.2,
      costFn: 50,
      costFp: 5,
      currency: "EUR",
      recallFloor: 0.5,
      operatingThreshold: 0.5,
      operatingRule: "FIXED",
      quorum: 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { decision: { id: string } }).decision.id;
  for (const name of candidates) {
    const res = await api.post(`/api/v1/decisions/${id}/candidates`, { data: { name, provider: "Acme" } });
    expect(res.status(), await res.text()).toBe(201);
  }
  const upload = await api.post(`/api/v1/decisions/${id}/datasets?name=items&filename=items.csv`, {
    data: dataset,
    headers: { "content-type": "text/csv" },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  return id;
}

async function signIn(page: Page, next: string) {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible({ timeout: 30_000 });
}

/** Choose the file(s) in the tool panel and wait for its mapping step. */
async function choose(panel: Locator, files: string[]) {
  await panel.getByLabel("Results file(s)").setInputFiles(files);
  const mapping = panel.getByTestId("tool-mapping");
  await expect(mapping).toBeVisible({ timeout: 60_000 });
  return mapping;
}

/** Wait for the job queue to compute a run's metrics. */
async function computed(decisionId: string, runId: number) {
  await expect
    .poll(
      async () =>
        ((await (await api.get(`/api/v1/decisions/${decisionId}/runs/${runId}`)).json()) as { run: { status: string } })
          .run.status,
      { timeout: 90_000 },
    )
    .toBe("DONE");
}

/** Import, read the run's id from the page, and wait for the job queue to compute it. */
async function importRun(panel: Locator, decisionId: string): Promise<number> {
  await panel.getByRole("button", { name: "Import 1 run(s)" }).click();
  const imported = panel.getByTestId("tool-imported");
  await expect(imported).toContainText("Imported run #", { timeout: 60_000 });
  const runId = Number(/run #(\d+)/.exec((await imported.textContent()) ?? "")![1]);
  await computed(decisionId, runId);
  return runId;
}

test("lm-eval samples and an Inspect log through the mapping step: stage 3's AP from label-token probabilities, with where each score came from", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const decisionId = await decision("Bias screening", "bias", ["Llama 3 8B", "GPT-4o mini"], BIAS_DATASET);
  const inspectJson = testInfo.outputPath("2026-12-03T10-00-00+00-00_bias-detection_Fm2Qx8Rt5Yv1Nb7Jk3Hd9.json");
  writeFileSync(inspectJson, inspectLog("success"));
  const started = testInfo.outputPath("2026-12-03T09-00-00+00-00_bias-detection_started.json");
  writeFileSync(started, inspectLog("started"));

  await signIn(page, `/decisions/${decisionId}/uploads`);
  const panel = page.getByTestId("upload-tool-results");

  // A partially written log is refused with its field and reason; nothing to map.
  await panel.getByLabel("Results file(s)").setInputFiles(started);
  await expect(panel.getByRole("alert")).toContainText('not "success"', { timeout: 60_000 });
  await expect(panel.getByTestId("tool-mapping")).toHaveCount(0);

  // lm-eval: the score basis in words, ids from doc_id, "B" (bias) is the positive letter.
  let mapping = await choose(panel, [LM_EVAL]);
  await expect(mapping.getByTestId("tool-detected")).toContainText("lm-evaluation-harness");
  await expect(mapping.getByTestId("tool-detected")).toContainText("150");
  await expect(mapping.getByTestId("tool-score-basis")).toContainText("label-token probability");
  const idField = mapping.getByLabel("Field holding the dataset's item id");
  // The position is offered only once the analyst says the order is the dataset's.
  await expect(idField.locator('option[value="position"]')).toHaveCount(0);
  await mapping.getByLabel(/The order is the dataset's order/).check();
  await expect(idField.locator('option[value="position"]')).toHaveCount(1);
  await mapping.getByLabel(/The order is the dataset's order/).uncheck();
  await idField.selectOption("doc_id");
  await expect(mapping.getByTestId("id-field-evidence")).toContainText("match the dataset's ids");
  await mapping.getByRole("checkbox", { name: "A", exact: true }).uncheck();
  await mapping.getByRole("checkbox", { name: "B", exact: true }).check();
  await mapping.getByLabel("Candidate").selectOption({ label: "Llama 3 8B" });
  const llamaRun = await importRun(panel, decisionId);

  // Inspect: ids from metadata.item_id (Inspect's own ids are positions + 1), "Yes" is positive.
  mapping = await choose(panel, [inspectJson]);
  await expect(mapping.getByTestId("tool-detected")).toContainText("inspect-ai 0.3.130");
  await expect(mapping.getByTestId("tool-score-basis")).toContainText("label-token probability");
  await mapping.getByLabel("Field holding the dataset's item id").selectOption("metadata.item_id");
  await mapping.getByRole("checkbox", { name: "No", exact: true }).uncheck();
  await mapping.getByRole("checkbox", { name: "Yes", exact: true }).check();
  await mapping.getByLabel("Candidate").selectOption({ label: "GPT-4o mini" });
  await importRun(panel, decisionId);

  // Stage 3: each AP as scikit-learn gives it on the (label, label-token probability) pairs.
  await page.goto(`/decisions/${decisionId}`);
  const figures = page.getByTestId("task-figures");
  await expect(figures.locator('tr[data-candidate="Llama 3 8B"]')).toContainText(LM_EVAL_AP.toFixed(3), {
    timeout: 60_000,
  });
  await expect(figures.locator('tr[data-candidate="GPT-4o mini"]')).toContainText(INSPECT_AP.toFixed(3));
  await expect(figures.getByTestId("ranking-undefined")).toHaveCount(0);
  const provenance = page.getByTestId("score-provenance");
  await expect(provenance.locator('li[data-candidate="Llama 3 8B"]')).toContainText(
    `Scores: label-token probability — lm-evaluation-harness`,
  );
  await expect(provenance.locator('li[data-candidate="Llama 3 8B"]')).toContainText(
    `file ${path.basename(LM_EVAL)} (sha256 ${sha256(LM_EVAL).slice(0, 12)})`,
  );
  await expect(provenance.locator('li[data-candidate="GPT-4o mini"]')).toContainText(
    "Scores: label-token probability — inspect-ai 0.3.130, task bias_detection (1), model gpt-4o-mini-2024-07-18",
  );

  // The drill-down states the same provenance and the mapping chosen.
  await page.goto(`/decisions/${decisionId}/runs/${llamaRun}/items`);
  await expect(page.getByTestId("drill-provenance")).toContainText("Scores: label-token probability");
  await expect(page.getByTestId("drill-provenance")).toContainText(
    "Mapping: item id from doc_id; positive label(s) “B”",
  );
});

test("a hard-label Inspect .eval: one operating point, AP and ROC-AUC undefined with the reason", async ({ page }) => {
  test.setTimeout(240_000);
  const decisionId = await decision("Popularity check", "popular", ["GPT-4o mini"], POPULARITY_DATASET);
  await signIn(page, `/decisions/${decisionId}/uploads`);
  const panel = page.getByTestId("upload-tool-results");
  const mapping = await choose(panel, [INSPECT_EVAL]);
  await expect(mapping.getByTestId("tool-score-basis")).toContainText("hard label only");
  await mapping.getByLabel("Field holding the dataset's item id").selectOption("id");
  await mapping.getByRole("checkbox", { name: "No", exact: true }).uncheck();
  await mapping.getByRole("checkbox", { name: "Yes", exact: true }).check();
  await importRun(panel, decisionId);

  await page.goto(`/decisions/${decisionId}`);
  const row = page.getByTestId("task-figures").locator('tr[data-candidate="GPT-4o mini"]');
  await expect(row.getByTestId("ranking-undefined")).toContainText("undefined", { timeout: 60_000 });
  await expect(row.getByTestId("ranking-undefined")).toContainText("one operating point");
  await expect(page.getByRole("note").filter({ hasText: "hard labels only" })).toContainText("single operating point");
  // The one operating point: 3 of the 5 "Yes" items found, no false alarm.
  for (const [cell, count] of [
    ["TP", 3],
    ["FN", 2],
    ["FP", 0],
    ["TN", 5],
  ] as const)
    await expect(page.getByRole("link", { name: `GPT-4o mini: the ${count} items in ${cell}` })).toBeVisible();
  const line = page.getByTestId("score-provenance");
  await expect(line).toContainText(
    "Scores: hard label only — inspect-ai 0.3.58.dev16+g6a87748b, task popularity (0, commit ef1d858c), model gpt-4o-mini-2024-07-18",
  );
  await expect(line).toContainText(`file ${path.basename(INSPECT_EVAL)} (sha256 ${sha256(INSPECT_EVAL).slice(0, 12)})`);
});

// "Moderation": 40 messages, every fourth toxic. Two providers answer each in one promptfoo run;
// the flagship misses one toxic message, the mini model misses three and flags two benign ones.
const MESSAGES = Array.from({ length: 40 }, (_, k) => ({
  id: `msg-${String(k + 1).padStart(3, "0")}`,
  toxic: k % 4 === 0,
  message: `Message ${k + 1}: ${k % 4 === 0 ? "you are worthless and everyone knows it" : "see you at the meeting tomorrow"}`,
}));
const PROVIDERS = {
  "openai:gpt-5": (k: number) => (k === 8 ? false : k % 4 === 0),
  "openai:gpt-5-mini": (k: number) => ([0, 12, 20].includes(k) ? false : [3, 5].includes(k) ? true : k % 4 === 0),
} as const;
const MODERATION_DATASET = ["id,label,text", ...MESSAGES.map((m) => `${m.id},${m.toxic ? 1 : 0},${m.message}`)].join(
  "\n",
);

/** The confusion counts a provider's answers give against the dataset's labels. */
function confusion(answer: (k: number) => boolean) {
  const c = { TP: 0, FN: 0, FP: 0, TN: 0 };
  MESSAGES.forEach((m, k) => {
    const flagged = answer(k);
    c[m.toxic ? (flagged ? "TP" : "FN") : flagged ? "FP" : "TN"]++;
  });
  return c;
}

/**
 * A promptfoo `results.json` (v3) as `promptfoo eval -o results.json` writes it for two providers:
 * the real export's top level and result rows, one row per test × provider, interleaved as
 * promptfoo runs them; the buyer's id and the message in `vars`, the answer in `response.output`.
 */
function promptfooResults(): string {
  type Row = Record<string, unknown> & { testCase: Record<string, unknown> };
  const real = JSON.parse(readFileSync(PROMPTFOO, "utf8")) as {
    config: Record<string, unknown>;
    results: { prompts: Record<string, unknown>[]; results: Row[] } & Record<string, unknown>;
  } & Record<string, unknown>;
  const template = real.results.results[0]!;
  const label = "Answer toxic or benign only. Message: {{message}}";
  const rows = MESSAGES.flatMap((m, k) =>
    Object.entries(PROVIDERS).map(([provider, answer]) => {
      const vars = { id: m.id, message: m.message };
      const output = answer(k) ? "toxic" : "benign";
      return {
        ...template,
        id: randomUUID(),
        error: null,
        gradingResult: { pass: true, score: 1, reason: "No assertions", namedScores: {}, componentResults: [] },
        prompt: { raw: label.replace("{{message}}", m.message), label },
        promptIdx: 0,
        provider: { id: provider, label: "" },
        response: { output, tokenUsage: { total: 60, prompt: 58, completion: 2 }, cached: false, finishReason: "stop" },
        score: 1,
        success: true,
        testCase: { ...template.testCase, vars, assert: [] },
        testIdx: k,
        vars,
        failureReason: 0,
      };
    }),
  );
  return JSON.stringify({
    ...real,
    evalId: "eval-Mod-2026-12-04T10:00:00",
    config: {
      ...real.config,
      description: "Moderation triage",
      prompts: [label],
      providers: Object.keys(PROVIDERS),
      tests: MESSAGES.map((m) => ({ vars: { id: m.id, message: m.message } })),
      defaultTest: { assert: [], vars: {}, options: {}, metadata: {} },
    },
    results: {
      ...real.results,
      prompts: Object.keys(PROVIDERS).map((provider) => ({ ...real.results.prompts[0], raw: label, label, provider })),
      results: rows,
    },
  });
}

test("a promptfoo file with two providers: each provider mapped to its candidate on the page, both get their run", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const decisionId = await decision("Moderation triage", "toxic", ["Acme Large", "Acme Small"], MODERATION_DATASET);
  const results = testInfo.outputPath("results.json");
  writeFileSync(results, promptfooResults());
  await signIn(page, `/decisions/${decisionId}/uploads`);
  const panel = page.getByTestId("upload-tool-results");
  const mapping = await choose(panel, [results]);
  await expect(mapping.getByTestId("tool-detected")).toContainText("promptfoo 0.118.10");
  await expect(mapping.getByTestId("tool-detected")).toContainText("2 models");
  await expect(mapping.getByTestId("tool-score-basis")).toContainText("hard label only");
  await mapping.getByLabel("Field holding the dataset's item id").selectOption("vars.id");
  await expect(mapping.getByTestId("id-field-evidence")).toContainText("80 of 80 match the dataset's ids");
  await mapping.getByRole("checkbox", { name: "toxic", exact: true }).check();
  // Neither provider's name matches a candidate: nothing is imported until the analyst maps them.
  const modelSelect = (model: string) =>
    mapping.locator("label", { has: page.locator("code", { hasText: new RegExp(`^${model}$`) }) }).locator("select");
  await expect(mapping.getByTestId("tool-mapping-problems")).toContainText("Choose the candidate each model");
  await modelSelect("openai:gpt-5").selectOption({ label: "Acme Large" });
  await modelSelect("openai:gpt-5-mini").selectOption({ label: "Acme Large" });
  await expect(mapping.getByTestId("tool-mapping-problems")).toContainText(
    "Two models are mapped to the same candidate",
  );
  await modelSelect("openai:gpt-5-mini").selectOption({ label: "Acme Small" });
  await panel.getByRole("button", { name: "Import 2 run(s)" }).click();

  const imported = panel.getByTestId("tool-imported").locator("li");
  await expect(imported).toHaveCount(2, { timeout: 60_000 });
  await expect(imported.nth(0)).toContainText("for Acme Large (openai:gpt-5): 40 items, 0 missing");
  await expect(imported.nth(1)).toContainText("for Acme Small (openai:gpt-5-mini): 40 items, 0 missing");
  for (const line of await imported.allTextContents()) await computed(decisionId, Number(/run #(\d+)/.exec(line)![1]));

  // Stage 3: each candidate's one operating point is its own provider's answers.
  await page.goto(`/decisions/${decisionId}`);
  for (const [candidate, provider] of [
    ["Acme Large", "openai:gpt-5"],
    ["Acme Small", "openai:gpt-5-mini"],
  ] as const) {
    for (const [cell, count] of Object.entries(confusion(PROVIDERS[provider])))
      await expect(page.getByRole("link", { name: `${candidate}: the ${count} items in ${cell}` })).toBeVisible({
        timeout: 60_000,
      });
    await expect(page.getByTestId("score-provenance").locator(`li[data-candidate="${candidate}"]`)).toContainText(
      `Scores: hard label only — promptfoo 0.118.10, task Moderation triage, model ${provider}, file results.json (sha256 ${sha256(results).slice(0, 12)})`,
    );
  }
});

test("lm-eval samples over 1 MB go through the page, streamed to the API: stage 3's AP from their label-token probabilities", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  // The fixture's 150 lines twenty times over, each copy under new doc_ids (1000·copy + doc_id).
  const copies = Array.from({ length: 20 }, (_, copy) => lmEval.map((l) => ({ ...l, doc_id: copy * 1000 + l.doc_id })));
  const lines = copies.flat();
  const file = testInfo.outputPath("samples_bias_classification_2026-12-04T10-00-00.000000.jsonl");
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  expect(statSync(file).size).toBeGreaterThan(3 * 1024 * 1024);
  const dataset = ["id,label", ...lines.map((l) => `${l.doc_id},${l.doc.gold === "B" ? 1 : 0}`)].join("\n");
  const decisionId = await decision("Bias screening at scale", "bias", ["Llama 3 8B"], dataset);
  const ap = averagePrecision(
    lines.map((l) => ({
      label: l.doc.gold === "B",
      score: softmax2(Number(l.filtered_resps[1]![0]), Number(l.filtered_resps[0]![0])),
    })),
  );

  await signIn(page, `/decisions/${decisionId}/uploads`);
  const panel = page.getByTestId("upload-tool-results");
  const mapping = await choose(panel, [file]);
  await expect(mapping.getByTestId("tool-detected")).toContainText("3,000");
  await mapping.getByLabel("Field holding the dataset's item id").selectOption("doc_id");
  await mapping.getByRole("checkbox", { name: "A", exact: true }).uncheck();
  await mapping.getByRole("checkbox", { name: "B", exact: true }).check();
  await importRun(panel, decisionId);
  await expect(panel.getByTestId("tool-imported")).toContainText("3,000 items, 0 missing");

  await page.goto(`/decisions/${decisionId}`);
  await expect(page.getByTestId("task-figures").locator('tr[data-candidate="Llama 3 8B"]')).toContainText(
    ap.toFixed(3),
    { timeout: 60_000 },
  );
});
