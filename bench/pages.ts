/**
 * npm run bench:pages — the decision page's server response does not grow with the number of
 * items (issue 5 §7). Two decisions of 10 candidates each in a dedicated local database, one with
 * 10,000 predictions per candidate and one with 1,000,000, seeded with COPY; each run's metrics
 * computed once with the engine (as computeEvalRun stores them) and the paired comparisons of
 * every pair. Then the production build (NEXT_DIST_DIR, default .next-pack) serves both pages and
 * autocannon drives 20 concurrent signed-in clients on loopback at each, in alternating rounds.
 * What a page reads per run is bounded (curves downsampled to at most 200 points), so the
 * candidates' scores overlap enough that both sizes store full-size curves.
 * Target: p95 at 1M ≤ 1.2 × p95 at 10k, and no errors.
 *
 * The session cookie is minted with the server's AUTH_SECRET exactly as Auth.js signs one at
 * sign-in (a load test does not go through the password form 20 times). The bootstrap uses
 * BENCH_BOOTSTRAP resamples per run (default 200) and BENCH_PAIR_BOOTSTRAP per pair (default 30)
 * to keep the seed short: B changes the stored intervals' values, not the size of what a page reads.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { spawn } from "node:child_process";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import autocannon from "autocannon";
import { encode } from "next-auth/jwt";
import { recreateDatabase } from "../test/database.ts";
import { mcnemarAtThresholds, pairedDeltaApInterval, summarize, averagePrecision, rankCounts } from "../lib/metrics/index.ts";
import { run, nextBin, waitForHttp } from "../scripts/lib.ts";

const URL_ = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_bench_test_pages";
const PORT = Number(process.env.BENCH_PORT ?? 3411);
const DIST = process.env.NEXT_DIST_DIR ?? ".next-pack";
const CANDIDATES = 10;
const CONNECTIONS = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const B = Number(process.env.BENCH_BOOTSTRAP ?? 200);
/** Paired-bootstrap resamples per pair of runs (45 pairs): a stored interval, not a page cost. */
const PAIR_B = Number(process.env.BENCH_PAIR_BOOTSTRAP ?? 30);
const SECRET = process.env.AUTH_SECRET ?? "bench-pages-secret-0123456789abcdef0123456789";
const SLICES = ["harassment", "hate", "scam", "self-harm", "violent-threat"];

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

function gaussian(r: () => number) {
  return Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
}

async function copy(client: pg.PoolClient, table: string, columns: string[], rows: Iterable<string>) {
  const stream = client.query(copyFrom(`COPY "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN WITH (FORMAT csv)`));
  async function* chunks() {
    let buf = "";
    for (const row of rows) {
      buf += row;
      if (buf.length > 1 << 20) { yield buf; buf = ""; }
    }
    if (buf) yield buf;
  }
  await pipeline(Readable.from(chunks()), stream);
}

async function seedDecision(pool: pg.Pool, userId: string, id: string, n: number) {
  const t0 = Date.now();
  const r = rng(n);
  const labels = new Uint8Array(n);
  const slices: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    labels[i] = r() < 0.03 ? 1 : 0;
    slices[i] = SLICES[Math.floor(r() * SLICES.length)]!;
  }
  const positives = labels.reduce((a, b) => a + b, 0);
  const itemId = (i: number) => `i${String(i).padStart(8, "0")}`;
  const client = await pool.connect();
  const runIds: number[] = [];
  const scores: Float64Array[] = [];
  const candidateIds: string[] = [];
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO "Decision" (id, title, "positiveClass", prevalence, "costFn", "costFp", "recallFloor", "operatingThreshold", "sloP95E2eMs", "sloP95TtftMs", "sloMinThroughputRps", "sloThroughputConcurrency", "sloMaxCostPer1kRequests", quorum, "createdById", "updatedAt")
       VALUES ($1, $2, 'violating', 0.02, 50, 1, 0.85, 0.5, 800, 300, 20, 32, 0.5, 2, $3, now())`,
      [id, `Bench: ${CANDIDATES} candidates × ${n.toLocaleString("en-US")} predictions`, userId],
    );
    const { rows: [ds] } = await client.query(`INSERT INTO "Dataset" (id, "decisionId", name) VALUES ($1, $2, 'bench set') RETURNING id`, [`${id}-ds`, id]);
    const { rows: [ver] } = await client.query(`INSERT INTO "DatasetVersion" ("datasetId", version, "itemCount", "positiveCount", "sliceColumn") VALUES ($1, 1, $2, $3, 'slice') RETURNING id`, [ds.id, n, positives]);
    await copy(client, "DatasetItem", ["datasetVersionId", "itemId", "label", "slice"], (function* () {
      for (let i = 0; i < n; i++) yield `${ver.id},${itemId(i)},${labels[i] ? "t" : "f"},${slices[i]}\n`;
    })());
    for (let k = 0; k < CANDIDATES; k++) {
      const cid = `${id}-c${k}`;
      candidateIds.push(cid);
      await client.query(`INSERT INTO "Candidate" (id, "decisionId", name, provider, "shortlistRationale", "pricePerHour") VALUES ($1, $2, $3, 'bench', 'MMLU: broad knowledge; relevance judged by the committee.', $4)`, [cid, id, `Model-${k}`, 2 + k]);
      for (const [stage, suite, metric, value] of [["LEADERBOARD", "MMLU", "acc", 0.5 + k * 0.04], ["LEADERBOARD", "HELM Lite", "mean win rate", 0.3 + k * 0.05], ["PREFERENCE", "Chatbot Arena", "Arena Elo", 1100 + 15 * k]] as const) {
        await client.query(`INSERT INTO "LeaderboardScore" (id, "decisionId", "candidateId", stage, suite, metric, value, source, "retrievedAt", "ciLow", "ciHigh") VALUES ($1, $2, $3, $4, $5, $6, $7, 'bench', now(), $8, $9)`,
          [`${cid}-${suite}`, id, cid, stage, suite, metric, value, stage === "PREFERENCE" ? value - 6 : null, stage === "PREFERENCE" ? value + 6 : null]);
      }
      for (const [j, concurrency] of [1, 8, 32, 64].entries()) {
        const e2e = 200 + 40 * k + concurrency * (3 + k);
        await client.query(`INSERT INTO "ServingBenchmark" (id, "decisionId", "candidateId", tool, concurrency, completed, "requestThroughput", "meanInputTokens", "meanOutputTokens", "ttftMs", "tpotMs", "e2eMs") VALUES ($1, $2, $3, 'vllm bench serve', $4, 1000, $5, 300, 40, $6, $7, $8)`,
          [`${cid}-s${j}`, id, cid, concurrency, concurrency * (4 - k * 0.2), JSON.stringify({ p50: e2e / 4, p90: e2e / 3.5, p95: e2e / 3, p99: e2e / 2.5 }), JSON.stringify({ p50: 10 + k, p90: 12 + k, p95: 13 + k, p99: 15 + k }), JSON.stringify({ p50: e2e * 0.8, p90: e2e * 0.95, p95: e2e, p99: e2e * 1.2 })]);
      }
      // Overlapping classes for every candidate, so every stored curve reaches the 200-point cap
      // at both sizes: the page is measured at its largest stored evidence, not at a trivially
      // separable 10k sample whose curves have 3 points.
      const quality = 0.35 + 0.06 * k;
      const s = new Float64Array(n);
      for (let i = 0; i < n; i++) s[i] = 1 / (1 + Math.exp(-((labels[i] ? quality : -quality) * 2 - 1.5 + gaussian(r) * 1.2)));
      scores.push(s);
      const { rows: [runRow] } = await client.query(`INSERT INTO "EvalRun" ("decisionId", "candidateId", "datasetVersionId", status, progress, "itemCount") VALUES ($1, $2, $3, 'RUNNING', 0, $4) RETURNING id`, [id, cid, ver.id, n]);
      runIds.push(runRow.id);
      await copy(client, "Prediction", ["evalRunId", "itemId", "score"], (function* () {
        for (let i = 0; i < n; i++) yield `${runRow.id},${itemId(i)},${s[i]}\n`;
      })());
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
  const seeded = Date.now();
  for (const [k, runId] of runIds.entries()) {
    const metrics = {
      ...summarize(labels, scores[k]!, { threshold: 0.5, prevalence: 0.02, costFalseNegative: 50, costFalsePositive: 1, slices, bootstrap: B, seed: 20_261_202 }),
      input: { scoreKind: "scores", parseFailures: 0, missing: 0 },
    };
    await pool.query(`UPDATE "EvalRun" SET status = 'DONE', progress = 1, metrics = $2, "computedAt" = now() WHERE id = $1`, [runId, JSON.stringify(metrics)]);
  }
  const computed = Date.now();
  for (let a = 0; a < CANDIDATES; a++) {
    for (let b = a + 1; b < CANDIDATES; b++) {
      const interval = pairedDeltaApInterval(labels, scores[a]!, scores[b]!, { replicates: PAIR_B, seed: 20_261_202 }).value;
      const m = mcnemarAtThresholds(labels, scores[a]!, 0.5, scores[b]!, 0.5);
      const apA = averagePrecision(rankCounts(labels, scores[a]!)).value!;
      const apB = averagePrecision(rankCounts(labels, scores[b]!)).value!;
      await pool.query(`INSERT INTO "RunComparison" ("runAId", "runBId", "decisionId", items, "deltaAp", "deltaApLow", "deltaApHigh", "onlyACorrect", "onlyBCorrect", "mcnemarP", "thresholdA", "thresholdB") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,0.5,0.5)`,
        [runIds[a], runIds[b], id, n, apA - apB, interval?.[0] ?? null, interval?.[1] ?? null, m.onlyACorrect, m.onlyBCorrect, m.pValue]);
    }
  }
  console.log(`  ${id}: ${n.toLocaleString("en-US")} items × ${CANDIDATES} candidates — COPY ${((seeded - t0) / 1000).toFixed(1)} s, metrics ${((computed - seeded) / 1000).toFixed(1)} s, ${(CANDIDATES * (CANDIDATES - 1)) / 2} paired comparisons ${((Date.now() - computed) / 1000).toFixed(1)} s`);
}

function percentile(sorted: number[], q: number) {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

async function load(url: string, cookie: string, seconds: number) {
  const times: number[] = [];
  let errors = 0;
  let non2xx = 0;
  let resolveDone!: (r: autocannon.Result) => void;
  let rejectDone!: (e: unknown) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => { resolveDone = resolve; rejectDone = reject; });
  const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { cookie }, timeout: 30 }, (err, result) => (err ? rejectDone(err) : resolveDone(result)));
  instance.on("response", (_client, status, _bytes, responseTime) => {
    if (status >= 200 && status < 300) times.push(responseTime);
    else non2xx++;
  });
  const result = await done;
  errors += result.errors + result.timeouts;
  return { times, errors, non2xx };
}

async function main() {
  console.log(`bench:pages — decision page under ${CONNECTIONS} concurrent signed-in clients on loopback (autocannon), ${CANDIDATES} candidates`);
  await recreateDatabase(URL_);
  const pool = new pg.Pool({ connectionString: URL_, max: 4 });
  const { rows: [user] } = await pool.query(`INSERT INTO "User" (id, email, name, "passwordHash", roles, "updatedAt") VALUES ('bench-analyst', 'bench@verdict.test', 'Bench Analyst', 'not-a-password-hash', '{ANALYST,REVIEWER}', now()) RETURNING id`);
  console.log("Seeding (COPY) and computing stored metrics once per run…");
  await seedDecision(pool, user.id, "bench-10k", 10_000);
  await seedDecision(pool, user.id, "bench-1m", 1_000_000);
  const { rows: [size] } = await pool.query(`SELECT pg_size_pretty(pg_total_relation_size('"Prediction"')) AS s, (SELECT count(*) FROM "Prediction") AS n`);
  console.log(`  Prediction table: ${Number(size.n).toLocaleString("en-US")} rows, ${size.s}`);
  await pool.end();

  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: URL_, AUTH_SECRET: SECRET, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: DIST };
  if (process.env.BENCH_BUILD === "1" || !existsSync(path.join(process.cwd(), DIST, "BUILD_ID"))) {
    console.log(`Building into ${DIST}…`);
    await run(process.execPath, [nextBin(), "build"], env);
  }
  const server = spawn(process.execPath, [nextBin(), "start", "-p", String(PORT), "-H", "127.0.0.1"], { stdio: ["ignore", "ignore", "inherit"], env });
  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/sign-in`, 120_000);
    const token = await encode({ token: { sub: user.id, uid: user.id, signedInAt: Date.now(), name: "Bench Analyst", email: "bench@verdict.test" }, secret: SECRET, salt: "authjs.session-token", maxAge: 8 * 3600 });
    const cookie = `authjs.session-token=${token}`;
    const pages = { "10k": `http://127.0.0.1:${PORT}/decisions/bench-10k`, "1M": `http://127.0.0.1:${PORT}/decisions/bench-1m` } as const;
    for (const [label, url] of Object.entries(pages)) {
      const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
      const html = await res.text();
      if (res.status !== 200 || !html.includes("Stage 5")) throw new Error(`${label}: the page did not render signed in (status ${res.status})`);
      console.log(`  ${label} page: ${res.status}, ${(html.length / 1024).toFixed(0)} KiB of HTML`);
    }
    console.log("Warm-up (3 s each)…");
    for (const url of Object.values(pages)) await load(url, cookie, 3);
    const all = { "10k": { times: [] as number[], errors: 0, non2xx: 0 }, "1M": { times: [] as number[], errors: 0, non2xx: 0 } };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const key of (round % 2 ? ["10k", "1M"] : ["1M", "10k"]) as ("10k" | "1M")[]) {
        const r = await load(pages[key], cookie, SECONDS);
        all[key].times.push(...r.times);
        all[key].errors += r.errors;
        all[key].non2xx += r.non2xx;
      }
    }
    const stats = (k: "10k" | "1M") => {
      const t = [...all[k].times].sort((a, b) => a - b);
      return { requests: t.length, p50: percentile(t, 0.5), p95: percentile(t, 0.95), p99: percentile(t, 0.99), errors: all[k].errors, non2xx: all[k].non2xx, rps: t.length / (ROUNDS * SECONDS) };
    };
    const small = stats("10k");
    const large = stats("1M");
    console.log(`\nGET /decisions/:id, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds × ${SECONDS} s per size (full streamed response, ms):`);
    for (const [label, s] of [["10,000 predictions/candidate", small], ["1,000,000 predictions/candidate", large]] as const) {
      console.log(`  ${label.padEnd(32)} requests ${String(s.requests).padStart(6)}  ${s.rps.toFixed(1).padStart(6)} req/s  p50 ${s.p50.toFixed(0).padStart(5)}  p95 ${s.p95.toFixed(0).padStart(5)}  p99 ${s.p99.toFixed(0).padStart(5)}  errors ${s.errors}  non-2xx ${s.non2xx}`);
    }
    const ratio = large.p95 / small.p95;
    const ok = ratio <= 1.2 && small.errors + large.errors + small.non2xx + large.non2xx === 0;
    console.log(`\np95(1M) / p95(10k) = ${ratio.toFixed(3)} (target ≤ 1.2); errors ${small.errors + large.errors + small.non2xx + large.non2xx} (target 0) → ${ok ? "PASS" : "FAIL"}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    server.kill("SIGTERM");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
