/**
 * npm run bench:harness [-- --smoke] — how little the harness adds of its own (issue 13).
 *
 * A simulated OpenAI-compatible endpoint (scripts/sim-endpoint.ts) runs in a process of its own on
 * loopback. In alternating rounds against that same server:
 *  - autocannon: 64 connections POSTing the harness's own request body, for ROUND_S seconds;
 *  - the harness: a run at concurrency 64 through the whole code path — a sweep level started by
 *    startSweep, its chunk on the in-process job runner, undici, SSE parsing, the output contract,
 *    results stored in batches in PostgreSQL, the serving measurement — whose request throughput is
 *    the one stage 5 stores.
 * Then the latency check: the server told to wait TTFT before the first token and ITL between
 * tokens, a run at concurrency 8, and its stored p50 TTFT, ITL and E2E against the injected ones.
 *
 * Targets: harness req/s ≥ 0.8 × autocannon's (medians of the rounds); |p50 − injected| ≤ 1 ms for
 * TTFT, ITL and E2E. Beside req/s, each round prints the CPU per request of both sides (the
 * harness's with its PostgreSQL backends'), less dependent on what else the machine runs. Prints PASS/FAIL per target and exits 1 on a FAIL. --smoke: a few seconds,
 * figures only, no targets. Database: BENCH_DATABASE_URL (default a local verdict_bench_test_harness,
 * recreated); the simulator's port: BENCH_SIM_PORT (default 4311).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { recreateDatabase } from "../test/database.ts";

const SMOKE = process.argv.includes("--smoke");
const ROUNDS = SMOKE ? 1 : Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_S = SMOKE ? 1 : Number(process.env.BENCH_ROUND_S ?? 3);
const CONCURRENCY = 64;
const TOKENS = 8;
const TTFT = 20;
const ITL = 2;
const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_bench_test_harness";
const PORT = Number(process.env.BENCH_SIM_PORT ?? 4311);

await recreateDatabase(DB_URL);
process.env.DATABASE_URL = DB_URL;
process.env.VERDICT_JOBS = "inline";
const { db } = await import("../lib/server/db.ts");
const { makeActor, makeDecision, addEvaluationVersion, unique } = await import("../test/factories.ts");
const { setCandidateEndpoint, setEvalProtocol } = await import("../lib/server/harness/endpoints.ts");
const { startSweep } = await import("../lib/server/harness/runs.ts");
const { drainInlineChunks } = await import("../lib/server/harness/queue.ts");
const { renderMessages } = await import("../lib/harness/protocol.ts");
const { LABEL_PROTOCOL } = await import("../test/harness-fixtures.ts");

const sim = spawn(process.execPath, ["--import", "tsx", "scripts/sim-endpoint.ts", "--port", String(PORT)], {
  stdio: ["pipe", "pipe", "inherit"],
});
const stop = () => sim.exitCode === null && sim.kill();
process.on("exit", stop);
const baseUrl = await new Promise<string>((resolve, reject) => {
  sim.once("exit", (code) => reject(new Error(`the simulated endpoint exited (${code})`)));
  sim.stdout!.on("data", (d: Buffer) => {
    const m = String(d).match(/listening (\S+)/);
    if (m) resolve(m[1]!);
  });
});
const configure = (patch: { ttftMs: number; itlMs: number }) =>
  new Promise<void>((resolve) => {
    sim.stdout!.once("data", () => resolve());
    sim.stdin!.write(JSON.stringify(patch) + "\n");
  });

// One decision whose evaluation version holds enough items for every harness round: a round is as
// long as autocannon's (ROUND_S seconds at its rate), up to this many items. 12,000 cut the harness's
// rounds to a quarter of autocannon's on a machine serving 20,000 req/s, so its JIT warm-up and
// pauses weighed four times as much; 60,000 covers 3 s at that rate.
const perRound = SMOKE ? 600 : Number(process.env.BENCH_ITEMS_PER_ROUND ?? 60_000);
const analyst = await makeActor(["ANALYST"]);
const { id: decisionId } = await makeDecision(analyst);
const versionId = await addEvaluationVersion(decisionId, perRound, perRound / 10);
const prisma = await db();
await prisma.$executeRaw`INSERT INTO "DatasetItem" ("datasetVersionId", "itemId", label, text)
  SELECT ${versionId}, 'b' || lpad(g::text, 7, '0'), g % 10 = 0, '[[sim tokens=' || ${TOKENS}::int || ']] post number ' || g FROM generate_series(1, ${perRound}::int) g`;
const candidate = await prisma.candidate.create({
  data: { decisionId, name: unique("Simulated"), provider: "bench" },
  select: { id: true },
});
await setEvalProtocol(analyst, decisionId, LABEL_PROTOCOL);
await setCandidateEndpoint(
  analyst,
  decisionId,
  { candidateId: candidate.id, baseUrl, model: "simulated", concurrency: CONCURRENCY },
  {},
  { simulated: true },
);

/** A run at `concurrency` over the first `limit` items: the stored serving measurement. */
async function harnessRun(concurrency: number, limit: number) {
  const { runs } = await startSweep(analyst, decisionId, { candidateId: candidate.id, levels: [concurrency], limit });
  await drainInlineChunks();
  const run = await prisma.harnessRun.findUniqueOrThrow({
    where: { id: runs[0]!.id },
    select: { status: true, servingBenchmark: true },
  });
  if (run.status !== "DONE" || !run.servingBenchmark) throw new Error(`bench run ended ${run.status}`);
  if (run.servingBenchmark.failed > 0) throw new Error(`${run.servingBenchmark.failed} requests failed`);
  return run.servingBenchmark;
}

const body = JSON.stringify({
  model: "simulated",
  stream: true,
  stream_options: { include_usage: true },
  temperature: 0,
  max_tokens: 4,
  logprobs: true,
  top_logprobs: 5,
  messages: renderMessages(LABEL_PROTOCOL, {
    itemId: "b0000001",
    text: `[[sim tokens=${TOKENS}]] post number 1`,
    slice: null,
  }),
});
async function autocannonRound(seconds: number): Promise<{ mean: number; total: number }> {
  const result = await autocannon({
    url: `${baseUrl}/chat/completions`,
    method: "POST",
    connections: CONCURRENCY,
    duration: seconds,
    headers: { "content-type": "application/json" },
    body,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { mean: result.requests.mean, total: result.requests.total };
}

/** CPU milliseconds of a process so far (utime + stime from /proc, 10 ms ticks; 0 once it is gone) and of this one. */
const procCpuMs = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
};
const simCpuMs = () => procCpuMs(sim.pid!);
/**
 * The database's share of the harness's work: CPU of the PostgreSQL backends serving this database
 * (the results' inserts, the run's bookkeeping), when they run on this machine. A backend that
 * ends during a round (the chunk's slot session) counts only up to the last reading before it ended.
 */
const backendPids = async () =>
  (
    await prisma.$queryRawUnsafe<{ pid: number }[]>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
    )
  ).map((r) => r.pid);
const databaseCpu = async () => {
  const pids = await backendPids();
  return new Map(pids.map((pid) => [pid, procCpuMs(pid)]));
};
const databaseCpuSince = async (before: Map<number, number>) => {
  let ms = 0;
  for (const [pid, cpu] of await databaseCpu()) ms += cpu - (before.get(pid) ?? 0);
  return ms;
};
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
async function cpuPerRequest<T>(fn: () => Promise<T>, requests: (t: T) => number) {
  const d0 = await databaseCpu();
  const s0 = simCpuMs();
  const c0 = ownCpuMs();
  const t = await fn();
  const n = requests(t);
  const client = (ownCpuMs() - c0) / n;
  const server = (simCpuMs() - s0) / n;
  return { t, server, client, database: (await databaseCpuSince(d0)) / n };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const f = (x: number, d = 0) => x.toFixed(d);

console.log(
  `bench:harness — simulated endpoint on loopback (own process), concurrency ${CONCURRENCY}, ${TOKENS} tokens a response${SMOKE ? " (smoke)" : ""}`,
);
// Warm-up: connections, JIT, the database's caches.
await harnessRun(CONCURRENCY, Math.min(perRound, 500));
await autocannonRound(1);
const ac: number[] = [];
const harness: number[] = [];
const cpu = {
  ac: [] as number[],
  acServer: [] as number[],
  harness: [] as number[],
  harnessDb: [] as number[],
  harnessServer: [] as number[],
};
for (let round = 1; round <= ROUNDS; round++) {
  const a = await cpuPerRequest(
    () => autocannonRound(ROUND_S),
    (r) => r.total,
  );
  ac.push(a.t.mean);
  // As many items as autocannon's last round served in ROUND_S seconds: rounds of equal length.
  const items = Math.min(perRound, Math.max(200, Math.round(a.t.mean * ROUND_S)));
  const h = await cpuPerRequest(
    () => harnessRun(CONCURRENCY, items),
    () => items,
  );
  harness.push(h.t.requestThroughput);
  cpu.ac.push(a.client);
  cpu.acServer.push(a.server);
  cpu.harness.push(h.client);
  cpu.harnessDb.push(h.database);
  cpu.harnessServer.push(h.server);
  console.log(
    `round ${round}: autocannon ${f(a.t.mean)} req/s (CPU ${f(a.client, 3)} ms/req, server ${f(a.server, 3)})   ` +
      `harness ${f(h.t.requestThroughput)} req/s over ${items} requests (CPU ${f(h.client, 3)} ms/req + database ${f(h.database, 3)}, server ${f(h.server, 3)}) = ${f((h.t.requestThroughput / a.t.mean) * 100)}%`,
  );
}
const ratio = median(harness) / median(ac);

await configure({ ttftMs: TTFT, itlMs: ITL });
const latencyItems = SMOKE ? 80 : 800;
const lat = await harnessRun(8, latencyItems);
const pct = (v: unknown) => v as { p50: number; p99: number; mean: number };
const ttft = pct(lat.ttftMs);
const itl = pct(lat.itlMs);
const e2e = pct(lat.e2eMs);
const e2eInjected = TTFT + (TOKENS - 1) * ITL;
console.log(
  `latency at concurrency 8 over ${latencyItems} requests, injected TTFT ${TTFT} ms, ITL ${ITL} ms (E2E ${e2eInjected} ms):`,
);
console.log(`  TTFT p50 ${f(ttft.p50, 3)} ms (Δ ${f(ttft.p50 - TTFT, 3)})  p99 ${f(ttft.p99, 3)}`);
console.log(`  ITL  p50 ${f(itl.p50, 3)} ms (Δ ${f(itl.p50 - ITL, 3)})  p99 ${f(itl.p99, 3)}`);
console.log(`  E2E  p50 ${f(e2e.p50, 3)} ms (Δ ${f(e2e.p50 - e2eInjected, 3)})  p99 ${f(e2e.p99, 3)}`);
console.log(`median: autocannon ${f(median(ac))} req/s, harness ${f(median(harness))} req/s = ${f(ratio, 3)}×`);
// Less dependent on what else the machine runs than requests per second: the CPU each side spends
// per request (the harness's includes its run's start and finish, outside the throughput window).
const acCpu = median(cpu.ac);
const hCpu = median(cpu.harness);
const hDb = median(cpu.harnessDb);
console.log(
  `CPU per request (medians): autocannon ${f(acCpu, 3)} ms (server ${f(median(cpu.acServer), 3)}); harness ${f(hCpu, 3)} ms + database ${f(hDb, 3)} ms (server ${f(median(cpu.harnessServer), 3)}) = ` +
    `${f(hCpu / acCpu, 2)}× autocannon's (${f((hCpu + hDb) / acCpu, 2)}× with the database)`,
);

let failed = false;
if (!SMOKE) {
  const check = (name: string, ok: boolean, detail: string) => {
    console.log(`${ok ? "PASS" : "FAIL"}  ${name}: ${detail}`);
    failed ||= !ok;
  };
  check("throughput at concurrency 64", ratio >= 0.8, `${f(ratio, 3)}× autocannon (target ≥ 0.8×)`);
  check("TTFT p50", Math.abs(ttft.p50 - TTFT) <= 1, `Δ ${f(ttft.p50 - TTFT, 3)} ms (target within 1 ms)`);
  check("ITL p50", Math.abs(itl.p50 - ITL) <= 1, `Δ ${f(itl.p50 - ITL, 3)} ms (target within 1 ms)`);
  check("E2E p50", Math.abs(e2e.p50 - e2eInjected) <= 1, `Δ ${f(e2e.p50 - e2eInjected, 3)} ms (target within 1 ms)`);
}
stop();
await (await import("../lib/server/db.ts")).database().then((d) => d.close());
process.exit(failed ? 1 : 0);
