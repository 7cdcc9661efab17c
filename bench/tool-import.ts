/**
 * `npm run bench:tool-import [-- --smoke]` (issue 24): importing other eval tools' per-item results
 * — an lm-evaluation-harness samples file and an Inspect `.eval` log, written as the tools write
 * them (bench/tool-files.ts) — against uploading the same (id, score) pairs as Verdict's own CSV,
 * each through its server code path (spool + SHA-256, parse, map, validate, COPY, join check) in a
 * child process whose peak RSS is measured. Alternating pairs; the ratio is their median.
 *
 * Targets, each printed with PASS/FAIL (exit code 1 when one fails):
 * - throughput: tool import ≥ 0.5 × the CSV upload's items per second, at every size;
 * - memory: the tool import's peak RSS flat across sizes (max/min within 25 %), with the old-space
 *   heap capped (BENCH_HEAP_MB) below what a reader holding the file would need.
 * Sizes: lm-eval 250,000 and 1,000,000 items; Inspect 25,000 and 100,000 samples.
 *
 * --smoke: 2,000 lm-eval items and 300 Inspect samples, one pair each, no targets, its own database
 * dropped at the end: proves every step still runs (npm test).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { dropDatabase, recreateDatabase } from "../test/database.ts";
import { setupDecision } from "./decision-setup.ts";
import { writeDataset, writeInspectEval, writeLmEvalSamples, writeVerdictCsv } from "./tool-files.ts";
import type { ItemResultMapping } from "../lib/ingest/formats/item-results/provenance.ts";

const root = path.resolve(import.meta.dirname, "..");
const SMOKE = process.argv.includes("--smoke");
const out = path.join(root, "bench/out");
const URL_ =
  process.env.BENCH_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/verdict_test_bench_tools${SMOKE ? `_smoke_${process.pid}` : ""}`;
const RUNS = Number(process.env.BENCH_RUNS ?? (SMOKE ? 1 : 3));
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 160);
const THROUGHPUT_TARGET = 0.5;
const FLAT_TARGET = 1.25;

const sizes = (variable: string, smoke: string, full: string) =>
  (process.env[variable] ?? (SMOKE ? smoke : full)).split(",").map(Number);

interface Tool {
  name: string;
  sizes: number[];
  file: (n: number) => string;
  write: (file: string, n: number) => Promise<void>;
  mapping: ItemResultMapping;
}

const tools: Tool[] = [
  {
    name: "lm-evaluation-harness samples",
    sizes: sizes("BENCH_LM_EVAL_SIZES", "2000", "250000,1000000"),
    file: (n) => path.join(out, `samples_bias_2026-12-01T10-00-00.${n}.jsonl`),
    write: writeLmEvalSamples,
    mapping: { idField: "doc.id", positiveLabels: ["yes"] },
  },
  {
    name: "Inspect .eval",
    sizes: sizes("BENCH_INSPECT_SIZES", "300", "25000,100000"),
    file: (n) => path.join(out, `inspect-bias-${n}.eval`),
    write: writeInspectEval,
    mapping: { idField: "metadata.item_id", positiveLabels: ["Yes"] },
  },
];

type ChildResult = { seconds: number; rows: number; cpuSeconds: number; baselineRss: number; maxRss: number };

function child(args: string[]): ChildResult {
  const text = execFileSync(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_MB}`,
      "--expose-gc",
      // BENCH_CPU_PROF=<dir>: each child writes a V8 CPU profile there (where an import's time goes).
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      "--conditions=react-server",
      "--import",
      "tsx",
      path.join(root, "bench/tool-import-child.ts"),
      ...args,
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: URL_ }, encoding: "utf8", maxBuffer: 1 << 20 },
  );
  return JSON.parse(text.trim().split("\n").pop()!) as ChildResult;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString("en-US")} items/s`;
const list = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" / ");
const verdict = (pass: boolean) => (SMOKE ? "(smoke: no target)" : pass ? "PASS" : "FAIL");

/** One tool at one size: alternating CSV/tool pairs. Returns whether its target held and the tool's peak RSS. */
async function measure(pool: pg.Pool, tool: Tool, n: number): Promise<{ ok: boolean; maxRss: number }> {
  mkdirSync(out, { recursive: true });
  const dataset = path.join(out, `tool-dataset-${n}.csv`);
  const csv = path.join(out, `tool-scores-${n}.csv`);
  await writeDataset(dataset, n);
  await writeVerdictCsv(csv, n);
  await tool.write(tool.file(n), n);
  const key = `${tool.name.split(" ")[0]!.toLowerCase()}-${n}`;
  const s = await setupDecision(URL_, pool, n, dataset, { key, positiveClass: "yes" });
  const base = [s.decisionId, s.candidateId, String(s.versionId), s.userId];
  const clean = () =>
    pool.query(`DELETE FROM "EvalRun" WHERE "decisionId" = $1 AND id <> $2`, [s.decisionId, s.psqlRunId]);
  const csvRuns: ChildResult[] = [];
  const toolRuns: ChildResult[] = [];
  for (let k = 0; k < RUNS; k++) {
    await pool.query("CHECKPOINT");
    csvRuns.push(child(["csv", ...base, csv]));
    await clean();
    await pool.query("CHECKPOINT");
    toolRuns.push(child(["tool", ...base, tool.file(n), JSON.stringify(tool.mapping)]));
    await clean();
  }
  for (const r of [...csvRuns, ...toolRuns]) if (r.rows !== n) throw new Error(`loaded ${r.rows} items, expected ${n}`);
  const ratios = csvRuns.map((c, k) => c.seconds / toolRuns[k]!.seconds);
  const ratio = median(ratios);
  const maxRss = Math.max(...toolRuns.map((r) => r.maxRss));
  console.log(
    `\n${tool.name}, ${n.toLocaleString("en-US")} items (${mb(statSync(tool.file(n)).size)} file; the CSV ${mb(statSync(csv).size)}), ${RUNS} alternating pair(s), load average ${loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    `  Verdict CSV upload   ${list(csvRuns.map((r) => r.seconds))} s   median ${rate(n, median(csvRuns.map((r) => r.seconds)))}`,
  );
  console.log(
    `  tool import          ${list(toolRuns.map((r) => r.seconds))} s   median ${rate(n, median(toolRuns.map((r) => r.seconds)))}`,
  );
  console.log(
    `  throughput tool/CSV  ${list(ratios)} → median ${ratio.toFixed(2)}×   (target ≥ ${THROUGHPUT_TARGET}) ${verdict(ratio >= THROUGHPUT_TARGET)}`,
  );
  console.log(
    `  tool peak RSS        ${mb(maxRss)} (${mb(toolRuns[0]!.baselineRss)} before the import; heap capped at ${HEAP_MB} MB); CSV ${mb(Math.max(...csvRuns.map((r) => r.maxRss)))}`,
  );
  await pool.query(`DELETE FROM "EvalRun" WHERE "decisionId" = $1`, [s.decisionId]);
  return { ok: ratio >= THROUGHPUT_TARGET, maxRss };
}

async function main() {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(
    `bench:tool-import${SMOKE ? " --smoke" : ""} — ${new Date().toISOString()} — node ${process.version} — load average ${load}`,
  );
  await recreateDatabase(URL_);
  const pool = new pg.Pool({ connectionString: URL_, max: 2 });
  let ok = true;
  try {
    for (const tool of tools) {
      const peaks: number[] = [];
      for (const n of tool.sizes) {
        const r = await measure(pool, tool, n);
        ok &&= r.ok;
        peaks.push(r.maxRss);
      }
      if (peaks.length < 2) continue;
      const spread = Math.max(...peaks) / Math.min(...peaks);
      ok &&= spread <= FLAT_TARGET;
      console.log(
        `${tool.name} peak RSS across sizes: ${peaks.map(mb).join(" → ")} (max/min ${spread.toFixed(2)}; flat = within 25%) ${verdict(spread <= FLAT_TARGET)}`,
      );
    }
  } finally {
    await pool.end();
    if (SMOKE && !process.env.BENCH_DATABASE_URL) await dropDatabase(URL_);
  }
  if (SMOKE) {
    console.log("\nSmoke run: every step ran (no targets at these sizes).");
    return;
  }
  console.log(`\n${ok ? "All targets met." : "Some targets were missed."}`);
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
