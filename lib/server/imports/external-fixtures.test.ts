import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLeaderboard, parseServing, type ParseOptions } from "@/lib/ingest/formats";
import { db } from "../db";
import { importLeaderboard, importServing, UnmatchedModels, type UploadFile } from ".";
import { makeActor, makeDecision } from "@/test/factories";
import { expectOk } from "@/lib/ingest/formats/fixtures.test-helpers";

/**
 * Every real sample in test/fixtures/external goes through the server importer into the real
 * test PostgreSQL; the stored rows are compared field by field with what the parser read, and a
 * few values are checked against the numbers printed in the files themselves.
 */
const ROOT = path.resolve(import.meta.dirname, "../../../test/fixtures/external");
const file = (folder: string, name: string): UploadFile => ({ name, path: path.join(ROOT, folder, name) });
const text = (folder: string, name: string) => readFileSync(path.join(ROOT, folder, name), "utf8");

const HELM_RUN = "bbq:subject=all,method=multiple_choice_joint,model=openai_gpt-4o-2024-05-13";

const LEADERBOARDS: [folder: string, name: string, options: ParseOptions][] = [
  ["lm-eval-harness", "results_2026-07-08T18-15-33.115417.json", {}],
  ["helm", "run/stats.json", { runSpec: HELM_RUN }],
  ["helm", "summary/groups_safety_scenarios.json", {}],
  ["open-llm-leaderboard", "open_llm_leaderboard_v2_contents.FIRST1000ROWS.csv", {}],
  ["open-llm-leaderboard", "v1_scrape_20231031.csv", {}],
  ["chatbot-arena", "leaderboard_table_20230619.csv", {}],
  ["chatbot-arena", "leaderboard_table_20231206.csv", {}],
  ["chatbot-arena", "leaderboard_table_20250511.csv", {}],
  ["synthetic", "arena_ui_leaderboard.csv", {}],
];

const SERVING: [folder: string, name: string, options: ParseOptions][] = [
  ["vllm-bench-serve", "bench_serve_all_requests_failed_v0.25.1.json", {}],
  ["vllm-bench-serve", "sweep_run=0.json", {}],
  ["vllm-bench-serve", "lambdalabs_Meta-Llama-3-8B-Instruct_tp1_len2000.EXCERPT.json", {}],
  ["guidellm", "openai_gpt-oss-20b_tp4_quant-none_benchmarks.json", {}],
  ["guidellm", "benchmarks_stripped_v0.2-era.json", {}],
  [
    "llmperf",
    "meta-llama-Llama-2-7b-chat-hf_550_150_summary.json",
    { individualResponses: text("llmperf", "meta-llama-Llama-2-7b-chat-hf_550_150_individual_responses.json") },
  ],
  ["genai-perf", "profile_export_genai_perf.json", {}],
  ["genai-perf", "profile_export_genai_perf.csv", { model: "meta/llama3-8b-instruct" }],
];

/** A decision whose candidates are the first `n` models of the file (named exactly so). */
async function decisionFor(models: string[], n = 3) {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const chosen = [...new Set(models)].slice(0, n);
  const candidates = [];
  for (const name of chosen)
    candidates.push(
      await prisma.candidate.create({ data: { decisionId, name, provider: "test" }, select: { id: true, name: true } }),
    );
  return { analyst, decisionId, candidates };
}

const undef = <T>(v: T | null) => (v === null ? undefined : v);

describe("every leaderboard sample imports with the parser's values", () => {
  it.each(LEADERBOARDS)("%s/%s", async (folder, name, parseOptions) => {
    const parsed = expectOk(parseLeaderboard(text(folder, name), { fileName: name, ...parseOptions }));
    const { analyst, decisionId, candidates } = await decisionFor(parsed.records.map((r) => r.model));
    const result = await importLeaderboard(analyst, decisionId, file(folder, name), {
      parseOptions,
      skipUnmatched: true,
    });
    expect(result.format).toBe(parsed.format);
    expect(result.producerVersion ?? undefined).toBe(parsed.producerVersion);
    const prisma = await db();
    const stored = await prisma.leaderboardScore.findMany({
      where: { importId: result.importId },
      include: { candidate: { select: { name: true } } },
    });
    const expected = parsed.records.filter((r) => candidates.some((c) => c.name === r.model));
    expect(stored).toHaveLength(expected.length);
    expect(result.stored).toBe(expected.length);
    const key = (m: string, suite: string, metric: string, stage: string) => `${m}|${suite}|${metric}|${stage}`;
    // skipUnmatched: only the candidates' rows are stored, each under the name the file spells.
    for (const s of stored) expect(s.candidate?.name).toBe(s.modelName);
    const byKey = new Map(stored.map((s) => [key(s.modelName, s.suite, s.metric, s.stage), s]));
    for (const r of expected) {
      const s = byKey.get(key(r.model, r.suite, r.metric, r.stage));
      expect(s, `${r.model} ${r.suite} ${r.metric}`).toBeTruthy();
      expect(s!.value).toBe(r.value);
      expect(undef(s!.stderr)).toBe(r.stderr);
      expect(undef(s!.ciLow)).toBe(r.ciLow);
      expect(undef(s!.ciHigh)).toBe(r.ciHigh);
      expect(s!.higherIsBetter).toBe(r.higherIsBetter);
      expect(s!.source).toBe(r.source);
      // The source's own date is kept apart from the import time (retrievedAt).
      expect(s!.asOf?.toISOString()).toBe(r.asOf === undefined ? undefined : new Date(r.asOf).toISOString());
    }
    const imp = await prisma.import.findUniqueOrThrow({ where: { id: result.importId } });
    expect(Number(imp.sizeBytes)).toBe(readFileSync(path.join(ROOT, folder, name)).length);
    expect(imp.content).not.toBeNull();
  });

  it("known values: Arena MMLU as a fraction, HELM HarmBench, Elo as points", async () => {
    const { analyst, decisionId } = await decisionFor(["Llama-2-70b-chat"]);
    const r = await importLeaderboard(analyst, decisionId, file("chatbot-arena", "leaderboard_table_20231206.csv"), {
      skipUnmatched: true,
    });
    const prisma = await db();
    const mmlu = await prisma.leaderboardScore.findFirstOrThrow({ where: { importId: r.importId, suite: "MMLU" } });
    expect(mmlu.value).toBe(0.63);
    const elo = await prisma.leaderboardScore.findFirstOrThrow({
      where: { importId: r.importId, stage: "PREFERENCE" },
    });
    expect(elo.value).toBeGreaterThan(900);

    const helm = await decisionFor(["Llama 3 Instruct (70B)"]);
    const h = await importLeaderboard(
      helm.analyst,
      helm.decisionId,
      file("helm", "summary/groups_safety_scenarios.json"),
      { skipUnmatched: true },
    );
    const harm = await prisma.leaderboardScore.findFirstOrThrow({
      where: { importId: h.importId, suite: "HarmBench" },
    });
    expect(harm.value).toBe(0.7125);
  });

  it("leaderboard rows of models that are no candidate are kept unattached, under their own names, to shortlist from", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const prisma = await db();
    const mine = await prisma.candidate.create({ data: { decisionId, name: "My Llama", provider: "test" } });
    const csv =
      "model,suite,metric,value\nmeta-llama/Llama-2-70b-chat-hf,MMLU,acc,0.63\nmystery-model,MMLU,acc,0.5\nskipped-model,MMLU,acc,0.4\n";
    const upload = () => ({
      name: "lb.csv",
      stream: (async function* () {
        yield Buffer.from(csv);
      })(),
    });
    const options = { modelMap: { "meta-llama/Llama-2-70b-chat-hf": mine.id, "skipped-model": null } };
    const ok = await importLeaderboard(analyst, decisionId, upload(), options);
    expect(ok).toMatchObject({
      stored: 2,
      skippedModels: ["skipped-model"],
      unshortlistedModels: ["mystery-model"],
      models: { "meta-llama/Llama-2-70b-chat-hf": mine.id },
    });
    const rows = await prisma.leaderboardScore.findMany({
      where: { decisionId },
      orderBy: { modelName: "asc" },
      select: { modelName: true, candidateId: true, value: true },
    });
    expect(rows).toEqual([
      { modelName: "meta-llama/Llama-2-70b-chat-hf", candidateId: mine.id, value: 0.63 },
      { modelName: "mystery-model", candidateId: null, value: 0.5 },
    ]);
    const again = await importLeaderboard(analyst, decisionId, upload(), options);
    expect(again).toMatchObject({ existing: true, importId: ok.importId, unshortlistedModels: ["mystery-model"] });
    expect(await prisma.leaderboardScore.count({ where: { decisionId } })).toBe(2);
  });

  it("unmatched model names in a serving file: a prompt listing them and the candidates; a mapping resolves them", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const prisma = await db();
    const mine = await prisma.candidate.create({ data: { decisionId, name: "My Llama", provider: "test" } });
    const csv =
      "model,tool,concurrency,request_throughput,ttft_p95_ms,e2e_p95_ms\nmeta-llama/Llama-2-70b-chat-hf,vllm,32,25,200,600\nmystery-model,vllm,32,20,300,900\n";
    const upload = () => ({
      name: "serving.csv",
      stream: (async function* () {
        yield Buffer.from(csv);
      })(),
    });
    const error = await importServing(analyst, decisionId, upload()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmatchedModels);
    expect((error as UnmatchedModels).details).toMatchObject({
      kind: "UNMATCHED_MODELS",
      unmatched: ["meta-llama/Llama-2-70b-chat-hf", "mystery-model"],
      candidates: [{ id: mine.id, name: "My Llama" }],
    });
    expect(await prisma.servingBenchmark.count({ where: { decisionId } })).toBe(0);
    expect(await prisma.import.count({ where: { decisionId } })).toBe(0);
    const ok = await importServing(analyst, decisionId, upload(), {
      modelMap: { "meta-llama/Llama-2-70b-chat-hf": mine.id, "mystery-model": null },
    });
    expect(ok).toMatchObject({
      stored: 1,
      skippedModels: ["mystery-model"],
      models: { "meta-llama/Llama-2-70b-chat-hf": mine.id },
    });
    const again = await importServing(analyst, decisionId, upload(), {
      modelMap: { "meta-llama/Llama-2-70b-chat-hf": mine.id, "mystery-model": null },
    });
    expect(again).toMatchObject({ existing: true, importId: ok.importId });
    expect(await prisma.servingBenchmark.count({ where: { decisionId } })).toBe(1);
  });

  it("a truncated JSON report is rejected with its line, and nothing is written", async () => {
    const { analyst, decisionId } = await decisionFor(["x"]);
    const content = text("lm-eval-harness", "results_2026-07-08T18-15-33.115417.json");
    const cut = content.slice(0, content.length >> 1);
    const error = await importLeaderboard(analyst, decisionId, {
      name: "r.json",
      stream: (async function* () {
        yield Buffer.from(cut);
      })(),
    }).catch((e: unknown) => e);
    expect((error as { details: { errors: { reason: string }[] } }).details.errors[0]?.reason).toBe(
      "truncated JSON (unexpected end of input)",
    );
    expect(await (await db()).import.count({ where: { decisionId } })).toBe(0);
  });
});

describe("every serving sample imports with the parser's values, in ms, TPOT as Verdict defines it", () => {
  it.each(SERVING)("%s/%s", async (folder, name, parseOptions) => {
    const parsed = expectOk(parseServing(text(folder, name), parseOptions));
    const { analyst, decisionId, candidates } = await decisionFor(parsed.records.map((r) => r.model));
    const result = await importServing(analyst, decisionId, file(folder, name), { parseOptions });
    expect(result.format).toBe(parsed.format);
    const prisma = await db();
    const stored = await prisma.servingBenchmark.findMany({
      where: { importId: result.importId },
      include: { candidate: { select: { name: true } } },
      orderBy: { createdAt: "asc" },
    });
    const expected = parsed.records.filter((r) => candidates.some((c) => c.name === r.model));
    expect(stored).toHaveLength(expected.length);
    const sortKey = (x: {
      requestThroughput: number;
      concurrency?: number | null;
      requestRate?: number | null;
      ttftMs: unknown;
    }) => `${x.concurrency ?? ""}|${x.requestRate ?? ""}|${x.requestThroughput}|${JSON.stringify(x.ttftMs)}`;
    const a = [...stored].sort((x, y) => sortKey(x).localeCompare(sortKey(y)));
    const b = [...expected].sort((x, y) => sortKey(x).localeCompare(sortKey(y)));
    a.forEach((s, i) => {
      const r = b[i]!;
      expect(s.candidate.name).toBe(r.model);
      expect(s.tool).toBe(r.tool);
      expect(undef(s.toolVersion)).toBe(r.toolVersion);
      expect(s.requestThroughput).toBe(r.requestThroughput);
      expect(undef(s.outputTokenThroughput)).toBe(r.outputTokenThroughput);
      expect(s.completed).toBe(r.completed ?? 0);
      expect(s.failed).toBe(r.failed ?? 0);
      expect(s.ttftMs).toEqual(r.ttftMs);
      expect(s.tpotMs).toEqual(r.tpotMs);
      expect(s.e2eMs).toEqual(r.e2eMs);
      expect(s.itlMs ?? undefined).toEqual(r.itlMs);
      expect(s.tpotSource).toBe(r.tpotSource);
    });
  });

  it("known values: GuideLLM ITL as TPOT (ms), LLMPerf seconds → ms", async () => {
    const prisma = await db();
    const g = expectOk(parseServing(text("guidellm", "openai_gpt-oss-20b_tp4_quant-none_benchmarks.json")));
    const gd = await decisionFor(
      g.records.map((r) => r.model),
      1,
    );
    const gi = await importServing(
      gd.analyst,
      gd.decisionId,
      file("guidellm", "openai_gpt-oss-20b_tp4_quant-none_benchmarks.json"),
    );
    const rows = await prisma.servingBenchmark.findMany({ where: { importId: gi.importId } });
    expect(rows.some((r) => Math.abs((r.ttftMs as { mean: number }).mean - 48.843650817871094) < 1e-9)).toBe(true);
    expect(gi.producerVersion).toBe("0.5.0.dev0");

    const l = await decisionFor(["meta-llama/Llama-2-7b-chat-hf"], 1);
    const li = await importServing(
      l.analyst,
      l.decisionId,
      file("llmperf", "meta-llama-Llama-2-7b-chat-hf_550_150_summary.json"),
      {
        parseOptions: {
          individualResponses: text("llmperf", "meta-llama-Llama-2-7b-chat-hf_550_150_individual_responses.json"),
        },
      },
    );
    const [lr] = await prisma.servingBenchmark.findMany({ where: { importId: li.importId } });
    expect((lr!.ttftMs as { mean: number }).mean).toBeCloseTo(709.2350025244135, 9);
    expect((lr!.tpotMs as { mean: number }).mean).toBeCloseTo(26.487509095356454, 9);
    expect(lr!.completed).toBe(96);
  });
});
