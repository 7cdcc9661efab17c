/**
 * npm run bench:pages [-- --smoke] — the decision page under load, beside the decisions list
 * (issue 12 §1) and at two sizes of evidence (issue 5 §7).
 *
 * In a dedicated local database: the demo (scripts/seed.ts, as the e2e server seeds it) and two
 * decisions of 10 candidates each, one with 10,000 predictions per candidate and one with
 * 1,000,000, seeded with COPY; each run's metrics computed once with the engine (as
 * computeEvalRun stores them) and the paired comparisons of every pair. What a page reads per run
 * is bounded (curves downsampled to at most 200 points), so the candidates' scores overlap enough
 * that both sizes store full-size curves. Then the production build (NEXT_DIST_DIR, default
 * .next-pack; built when it has no BUILD_ID or BENCH_BUILD=1) serves them, the benchmark signs in
 * once through Auth.js's credentials flow (CSRF token, password, the session cookie the server
 * sets — the one a browser gets) and autocannon drives 20 concurrent clients with that cookie at
 * each page, in alternating rounds.
 *
 * Targets: the demo decision's throughput ≥ 0.7 × the list's and its p95 ≤ 2 × the list's p95;
 * p95 at 1M ≤ 1.2 × p95 at 10k; no errors and no non-2xx answer on any page. Exits 1 on a FAIL.
 *
 * --smoke (run by `npm test`): no demo, 3 candidates × 500 predictions, one 1 s round per page
 * with 2 clients, the default build (.next, which the e2e run has just made) — no targets, but the
 * sign-in, the pages and the load must work. The bootstrap uses BENCH_BOOTSTRAP resamples per run
 * (default 200) and BENCH_PAIR_BOOTSTRAP per pair (default 30) to keep the seed short: B changes
 * the stored intervals' values, not the size of what a page reads.
 * BENCH_REUSE=1 keeps a complete earlier seed of the same database (a second run in minutes).
 * Runs under Node's react-server condition (it hashes the bench user's password with the app's
 * lib/server/identity/passwords.ts): see package.json.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { spawn } from "node:child_process";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import autocannon from "autocannon";
import { recreateDatabase } from "../test/database.ts";
import { hashPassword } from "../lib/server/identity/passwords.ts";
import { DEMO_DECISION_ID } from "../lib/demo/moderation.ts";
import {
  mcnemarAtThresholds,
  pairedDeltaApInterval,
  summarize,
  averagePrecision,
  rankCounts,
} from "../lib/metrics/index.ts";
import { run, nextBin, serveArgs, waitForHttp } from "../scripts/lib.ts";
import { signInWithPassword } from "./sign-in.ts";

const SMOKE = process.argv.includes("--smoke");
const URL_ =
  process.env.BENCH_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/verdict_bench_test_pages${SMOKE ? "_smoke" : ""}`;
const PORT = Number(process.env.BENCH_PORT ?? 3411);
const DIST = process.env.NEXT_DIST_DIR ?? (SMOKE ? ".next" : ".next-pack");
const CANDIDATES = SMOKE ? 3 : 10;
const SIZES = SMOKE ? { small: 500, large: 2_000 } : { small: 10_000, large: 1_000_000 };
const CONNECTIONS = SMOKE ? 2 : 20;
const ROUNDS = SMOKE ? 1 : Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = SMOKE ? 1 : Number(process.env.BENCH_SECONDS ?? 10);
const B = SMOKE ? 20 : Number(process.env.BENCH_BOOTSTRAP ?? 200);
/** Paired-bootstrap resamples per pair of runs (45 pairs): a stored interval, not a page cost. */
const PAIR_B = SMOKE ? 5 : Number(process.env.BENCH_PAIR_BOOTSTRAP ?? 30);
const SECRET = process.env.AUTH_SECRET ?? "bench-pages-secret-0123456789abcdef0123456789";
const BENCH_EMAIL = "bench@verdict.test";
const BENCH_PASSWORD = "bench-pages-password-2026";
const SLICES = ["harassment", "hate", "scam", "self-harm", "violent-threat"];

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

function gaussian(r: () => number) {
  return Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
}

async function copy(client: pg.PoolClient, table: string, columns: string[], rows: Iterable<string>) {
  const stream = client.query(
    copyFrom(`COPY "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN WITH (FORMAT csv)`),
  );
  async function* chunks() {
    let buf = "";
    for (const row of rows) {
      buf += row;
      if (buf.length > 1 << 20) {
        yield buf;
        buf = "";
      }
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
    const {
      rows: [ds],
    } = await client.query(`INSERT INTO "Dataset" (id, "decisionId", name) VALUES ($1, $2, 'bench set') RETURNING id`, [
      `${id}-ds`,
      id,
    ]);
    const {
      rows: [ver],
    } = await client.query(
      `INSERT INTO "DatasetVersion" ("datasetId", version, "itemCount", "positiveCount", "sliceColumn") VALUES ($1, 1, $2, $3, 'slice') RETURNING id`,
      [ds.id, n, positives],
    );
    await copy(
      client,
      "DatasetItem",
      ["datasetVersionId", "itemId", "label", "slice"],
      (function* () {
        for (let i = 0; i < n; i++) yield `${ver.id},${itemId(i)},${labels[i] ? "t" : "f"},${slices[i]}\n`;
      })(),
    );
    for (let k = 0; k < CANDIDATES; k++) {
      const cid = `${id}-c${k}`;
      candidateIds.push(cid);
      await client.query(
        `INSERT INTO "Candidate" (id, "decisionId", name, provider, "shortlistRationale", "pricePerHour") VALUES ($1, $2, $3, 'bench', 'MMLU: broad knowledge; relevance judged by the committee.', $4)`,
        [cid, id, `Model-${k}`, 2 + k],
      );
      for (const [stage, suite, metric, value] of [
        ["LEADERBOARD", "MMLU", "acc", 0.5 + k * 0.04],
        ["LEADERBOARD", "HELM Lite", "mean win rate", 0.3 + k * 0.05],
        ["PREFERENCE", "Chatbot Arena", "Arena Elo", 1100 + 15 * k],
      ] as const) {
        await client.query(
          `INSERT INTO "LeaderboardScore" (id, "decisionId", "candidateId", stage, suite, metric, value, source, "retrievedAt", "ciLow", "ciHigh") VALUES ($1, $2, $3, $4, $5, $6, $7, 'bench', now(), $8, $9)`,
          [
            `${cid}-${suite}`,
            id,
            cid,
            stage,
            suite,
            metric,
            value,
            stage === "PREFERENCE" ? value - 6 : null,
            stage === "PREFERENCE" ? value + 6 : null,
          ],
        );
      }
      for (const [j, concurrency] of [1, 8, 32, 64].entries()) {
        const e2e = 200 + 40 * k + concurrency * (3 + k);
        await client.query(
          `INSERT INTO "ServingBenchmark" (id, "decisionId", "candidateId", tool, concurrency, completed, "requestThroughput", "meanInputTokens", "meanOutputTokens", "ttftMs", "tpotMs", "e2eMs") VALUES ($1, $2, $3, 'vllm bench serve', $4, 1000, $5, 300, 40, $6, $7, $8)`,
          [
            `${cid}-s${j}`,
            id,
            cid,
            concurrency,
            concurrency * (4 - k * 0.2),
            JSON.stringify({ p50: e2e / 4, p90: e2e / 3.5, p95: e2e / 3, p99: e2e / 2.5 }),
            JSON.stringify({ p50: 10 + k, p90: 12 + k, p95: 13 + k, p99: 15 + k }),
            JSON.stringify({ p50: e2e * 0.8, p90: e2e * 0.95, p95: e2e, p99: e2e * 1.2 }),
          ],
        );
      }
      // Overlapping classes for every candidate, so every stored curve reaches the 200-point cap
      // at both sizes: the page is measured at its largest stored evidence, not at a trivially
      // separable 10k sample whose curves have 3 points.
      const quality = 0.35 + 0.06 * k;
      const s = new Float64Array(n);
      for (let i = 0; i < n; i++)
        s[i] = 1 / (1 + Math.exp(-((labels[i] ? quality : -quality) * 2 - 1.5 + gaussian(r) * 1.2)));
      scores.push(s);
      const {
        rows: [runRow],
      } = await client.query(
        `INSERT INTO "EvalRun" ("decisionId", "candidateId", "datasetVersionId", status, progress, "itemCount") VALUES ($1, $2, $3, 'RUNNING', 0, $4) RETURNING id`,
        [id, cid, ver.id, n],
      );
      runIds.push(runRow.id);
      await copy(
        client,
        "Prediction",
        ["evalRunId", "itemId", "score"],
        (function* () {
          for (let i = 0; i < n; i++) yield `${runRow.id},${itemId(i)},${s[i]}\n`;
        })(),
      );
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
      ...summarize(labels, scores[k]!, {
        threshold: 0.5,
        prevalence: 0.02,
        costFalseNegative: 50,
        costFalsePositive: 1,
        slices,
        bootstrap: B,
        seed: 20_261_202,
      }),
      input: { scoreKind: "scores", parseFailures: 0, missing: 0 },
    };
    await pool.query(
      `UPDATE "EvalRun" SET status = 'DONE', progress = 1, metrics = $2, "computedAt" = now() WHERE id = $1`,
      [runId, JSON.stringify(metrics)],
    );
  }
  const computed = Date.now();
  for (let a = 0; a < CANDIDATES; a++) {
    for (let b = a + 1; b < CANDIDATES; b++) {
      const interval = pairedDeltaApInterval(labels, scores[a]!, scores[b]!, {
        replicates: PAIR_B,
        seed: 20_261_202,
      }).value;
      const m = mcnemarAtThresholds(labels, scores[a]!, 0.5, scores[b]!, 0.5);
      const apA = averagePrecision(rankCounts(labels, scores[a]!)).value!;
      const apB = averagePrecision(rankCounts(labels, scores[b]!)).value!;
      await pool.query(
        `INSERT INTO "RunComparison" ("runAId", "runBId", "decisionId", items, "deltaAp", "deltaApLow", "deltaApHigh", "onlyACorrect", "onlyBCorrect", "mcnemarP", "thresholdA", "thresholdB") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,0.5,0.5)`,
        [
          runIds[a],
          runIds[b],
          id,
          n,
          apA - apB,
          interval?.[0] ?? null,
          interval?.[1] ?? null,
          m.onlyACorrect,
          m.onlyBCorrect,
          m.pValue,
        ],
      );
    }
  }
  console.log(
    `  ${id}: ${n.toLocaleString("en-US")} items × ${CANDIDATES} candidates — COPY ${((seeded - t0) / 1000).toFixed(1)} s, metrics ${((computed - seeded) / 1000).toFixed(1)} s, ${(CANDIDATES * (CANDIDATES - 1)) / 2} paired comparisons ${((Date.now() - computed) / 1000).toFixed(1)} s`,
  );
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
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  const instance = autocannon(
    { url, connections: CONNECTIONS, duration: seconds, headers: { cookie }, timeout: 30 },
    (err, result) => (err ? rejectDone(err) : resolveDone(result)),
  );
  instance.on("response", (_client, status, _bytes, responseTime) => {
    if (status >= 200 && status < 300) times.push(responseTime);
    else non2xx++;
  });
  const result = await done;
  errors += result.errors + result.timeouts;
  return { times, errors, non2xx };
}

/** A complete earlier seed: the large decision's comparisons are its last rows. */
async function seeded(): Promise<boolean> {
  const client = new pg.Client({ connectionString: URL_ });
  try {
    await client.connect();
    const {
      rows: [row],
    } = await client.query(`SELECT count(*)::int AS n FROM "RunComparison" WHERE "decisionId" = 'bench-large'`);
    return row.n === (CANDIDATES * (CANDIDATES - 1)) / 2;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

type Stats = { requests: number; rps: number; p50: number; p95: number; p99: number; errors: number; non2xx: number };

async function main() {
  console.log(
    `bench:pages${SMOKE ? " (smoke: tiny sizes, no targets)" : ""} — pages under ${CONNECTIONS} concurrent signed-in clients on loopback (autocannon)`,
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: URL_,
    AUTH_SECRET: SECRET,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: DIST,
    ...(SMOKE ? {} : { VERDICT_DEMO: "1" }),
  };
  if (process.env.BENCH_REUSE === "1" && (await seeded())) {
    console.log(`Reusing the seeded database (BENCH_REUSE=1): ${URL_}`);
  } else {
    await recreateDatabase(URL_);
    const pool = new pg.Pool({ connectionString: URL_, max: 4 });
    const {
      rows: [user],
    } = await pool.query(
      `INSERT INTO "User" (id, email, name, "passwordHash", roles, "updatedAt") VALUES ('bench-analyst', $1, 'Bench Analyst', $2, '{ANALYST,REVIEWER}', now()) RETURNING id`,
      [BENCH_EMAIL, await hashPassword(BENCH_PASSWORD)],
    );
    if (!SMOKE) {
      console.log("Seeding the demo (scripts/seed.ts)…");
      await run(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts"], env);
    }
    console.log("Seeding (COPY) and computing stored metrics once per run…");
    await seedDecision(pool, user.id, "bench-small", SIZES.small);
    await seedDecision(pool, user.id, "bench-large", SIZES.large);
    const {
      rows: [size],
    } = await pool.query(
      `SELECT pg_size_pretty(pg_total_relation_size('"Prediction"')) AS s, (SELECT count(*) FROM "Prediction") AS n`,
    );
    console.log(`  Prediction table: ${Number(size.n).toLocaleString("en-US")} rows, ${size.s}`);
    await pool.query("VACUUM ANALYZE");
    await pool.end();
  }

  if (process.env.BENCH_BUILD === "1" || !existsSync(path.join(process.cwd(), DIST, "BUILD_ID"))) {
    console.log(`Building into ${DIST}…`);
    await run(process.execPath, [nextBin(), "build"], env);
  } else {
    console.log(`Serving the existing build in ${DIST} (BENCH_BUILD=1 rebuilds it).`);
  }
  // The production server as `npm start` runs it (Next behind the body guard).
  const server = spawn(process.execPath, serveArgs(String(PORT), "127.0.0.1"), {
    stdio: ["ignore", "ignore", "inherit"],
    env,
  });
  try {
    const origin = `http://127.0.0.1:${PORT}`;
    await waitForHttp(`${origin}/sign-in`, 120_000);
    const cookie = await signInWithPassword(origin, BENCH_EMAIL, BENCH_PASSWORD);
    const small = SIZES.small.toLocaleString("en-US");
    const large = SIZES.large.toLocaleString("en-US");
    const pages: Record<string, { url: string; expect: string }> = {
      list: { url: `${origin}/decisions`, expect: "bench-small" },
      ...(SMOKE ? {} : { demo: { url: `${origin}/decisions/${DEMO_DECISION_ID}`, expect: "Stage 5" } }),
      small: { url: `${origin}/decisions/bench-small`, expect: "Stage 5" },
      large: { url: `${origin}/decisions/bench-large`, expect: "Stage 5" },
    };
    for (const [label, page] of Object.entries(pages)) {
      const res = await fetch(page.url, { headers: { cookie }, redirect: "manual" });
      const html = await res.text();
      if (res.status !== 200 || !html.includes(page.expect))
        throw new Error(`${label}: the page did not render signed in (status ${res.status})`);
      console.log(
        `  ${label.padEnd(9)} ${page.url.slice(origin.length)}: ${res.status}, ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB of HTML`,
      );
    }
    if (!SMOKE) {
      console.log("Warm-up (3 s each)…");
      for (const page of Object.values(pages)) await load(page.url, cookie, 3);
    }
    const all = Object.fromEntries(Object.keys(pages).map((k) => [k, { times: [] as number[], errors: 0, non2xx: 0 }]));
    const order = Object.keys(pages);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const key of round % 2 ? order : [...order].reverse()) {
        const r = await load(pages[key]!.url, cookie, SECONDS);
        all[key]!.times.push(...r.times);
        all[key]!.errors += r.errors;
        all[key]!.non2xx += r.non2xx;
      }
    }
    const stats = (k: string): Stats => {
      const t = [...all[k]!.times].sort((a, b) => a - b);
      return {
        requests: t.length,
        p50: percentile(t, 0.5),
        p95: percentile(t, 0.95),
        p99: percentile(t, 0.99),
        errors: all[k]!.errors,
        non2xx: all[k]!.non2xx,
        rps: t.length / (ROUNDS * SECONDS),
      };
    };
    const s = Object.fromEntries(order.map((k) => [k, stats(k)])) as Record<string, Stats>;
    console.log(
      `\n${CONNECTIONS} connections, ${ROUNDS} alternating round${ROUNDS === 1 ? "" : "s"} × ${SECONDS} s per page (full streamed response, ms):`,
    );
    const labels: Record<string, string> = {
      list: "/decisions (the list)",
      demo: `/decisions/${DEMO_DECISION_ID}`,
      small: `${small} predictions/candidate`,
      large: `${large} predictions/candidate`,
    };
    for (const k of order) {
      const x = s[k]!;
      console.log(
        `  ${labels[k]!.padEnd(34)} requests ${String(x.requests).padStart(6)}  ${x.rps.toFixed(1).padStart(6)} req/s  p50 ${x.p50.toFixed(0).padStart(5)}  p95 ${x.p95.toFixed(0).padStart(5)}  p99 ${x.p99.toFixed(0).padStart(5)}  errors ${x.errors}  non-2xx ${x.non2xx}`,
      );
    }
    const failures = order.reduce((n, k) => n + s[k]!.errors + s[k]!.non2xx, 0);
    if (SMOKE) {
      const empty = order.filter((k) => s[k]!.requests === 0);
      console.log(
        `\nsmoke run: ${failures} errors, ${empty.length ? `no answer from ${empty.join(", ")}` : "every page answered"} (no targets)`,
      );
      process.exitCode = failures === 0 && empty.length === 0 ? 0 : 1;
      return;
    }
    const targets: [string, boolean][] = [];
    const sizeRatio = s.large!.p95 / s.small!.p95;
    const throughput = s.demo!.rps / s.list!.rps;
    const p95Ratio = s.demo!.p95 / s.list!.p95;
    targets.push([`demo throughput / list throughput = ${throughput.toFixed(3)} (target ≥ 0.7)`, throughput >= 0.7]);
    targets.push([`demo p95 / list p95 = ${p95Ratio.toFixed(3)} (target ≤ 2)`, p95Ratio <= 2]);
    targets.push([`p95(${large}) / p95(${small}) = ${sizeRatio.toFixed(3)} (target ≤ 1.2)`, sizeRatio <= 1.2]);
    targets.push([`errors and non-2xx answers: ${failures} (target 0)`, failures === 0]);
    console.log("");
    for (const [line, ok] of targets) console.log(`  ${line} → ${ok ? "PASS" : "FAIL"}`);
    const ok = targets.every(([, pass]) => pass);
    console.log(ok ? "all targets met" : "some targets missed");
    process.exitCode = ok ? 0 : 1;
  } finally {
    server.kill("SIGTERM");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
