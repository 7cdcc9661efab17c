/**
 * npm run bench:drill [-- --smoke] — the drill-down at 1,000,000 items (issue 10, item 7): a
 * dataset version of BENCH_ITEMS items (default 1,000,000; --smoke: 2,000) and two candidates'
 * runs on it, loaded by COPY into a dedicated local database. Each run's RunItem rows are built by
 * the app's own code (writeRunItemsOnce, the path of a run computed before they existed; the
 * metrics job uses the same function), its metrics stored as the job stores them (without the
 * bootstrap, which does not change what a drill-down reads). Then listRunItems — the code behind
 * the page, the API and the CLI — is timed on a first page and on pages deep in the list (cursors
 * of positions found with an OFFSET here, outside the timing), and the CSV export of a cell.
 * Prints the median of BENCH_REPEAT (default 5) calls per page. Target: a deep page costs what the
 * first does (keyset, no offset: deep ≤ 2 × first) and every page under 100 ms at 1M; each printed
 * with PASS or FAIL, exit code 1 on a FAIL (--smoke: no targets).
 * Runs under Node's react-server condition (lib/server imports "server-only"): see package.json.
 */
import { recreateDatabase } from "../test/database.ts";

const SMOKE = process.argv.includes("--smoke");
const N = SMOKE ? 2_000 : Number(process.env.BENCH_ITEMS ?? 1_000_000);
const REPEAT = SMOKE ? 2 : Number(process.env.BENCH_REPEAT ?? 5);
const URL_ =
  process.env.BENCH_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/verdict_bench_test_drill${SMOKE ? "_smoke" : ""}`;
const LIMIT = "50";

await recreateDatabase(URL_);
process.env.DATABASE_URL = URL_;
// After DATABASE_URL is set: lib/server/db opens the configured database on first use.
const { database } = await import("../lib/server/db.ts");
const { actorByEmail } = await import("../lib/server/actors.ts");
const { writeRunItemsOnce, JOINED_ITEMS_SQL } = await import("../lib/server/runs/run-items.ts");
const { listRunItems, exportRunItemsCsv, encodeCursor } = await import("../lib/server/pack/drill-down.ts");
const { buildRunInput } = await import("../lib/pack/run-input.ts");
const { summarize } = await import("../lib/metrics/index.ts");
const { copyDatasetItems, copyPredictions } = await import("../test/drill-data.ts");
type Cell = "FN" | "FP" | "TP" | "TN";

const db = await database();
if (db.mode !== "server") throw new Error("bench:drill needs a PostgreSQL server");
const { pool, prisma } = db;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1).padStart(8)} ms`;

try {
  const t0 = performance.now();
  const user = await prisma.user.create({
    data: { email: "bench-drill@verdict.test", name: "Bench", roles: ["ANALYST"], passwordHash: "x" },
    select: { id: true, email: true },
  });
  const decision = await prisma.decision.create({
    data: {
      title: "Drill-down benchmark",
      positiveClass: "violating",
      prevalence: 0.02,
      costFn: 50,
      costFp: 1,
      recallFloor: 0.8,
      operatingThreshold: 0.5,
      createdById: user.id,
    },
    select: { id: true },
  });
  const [a, b] = await Promise.all(
    ["Alpha", "Beta"].map((name) =>
      prisma.candidate.create({ data: { decisionId: decision.id, name, provider: "bench" }, select: { id: true } }),
    ),
  );
  const dataset = await prisma.dataset.create({
    data: { decisionId: decision.id, name: "holdout" },
    select: { id: true },
  });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: N, positiveCount: Math.ceil(N / 50), sliceColumn: "slice" },
    select: { id: true },
  });
  await prisma.decision.update({ where: { id: decision.id }, data: { evaluationDatasetVersionId: version.id } });
  const runs = await Promise.all(
    [a!, b!].map((c) =>
      prisma.evalRun.create({
        data: { decisionId: decision.id, candidateId: c.id, datasetVersionId: version.id },
        select: { id: true },
      }),
    ),
  );
  const client = await pool.connect();
  try {
    await copyDatasetItems(client, version.id, N);
    await copyPredictions(client, runs[0]!.id, N, 1, 1);
    await copyPredictions(client, runs[1]!.id, N, 2, 1.5);
  } finally {
    client.release();
  }
  const loaded = performance.now();
  console.log(
    `drill-down benchmark: ${N.toLocaleString("en-US")} items, 2 runs (COPY ${((loaded - t0) / 1000).toFixed(1)} s)`,
  );

  for (const run of runs) {
    const started = performance.now();
    await writeRunItemsOnce(db, run.id, version.id);
    const built = performance.now();
    const rows = (await pool.query(JOINED_ITEMS_SQL, [run.id, version.id])).rows;
    const input = buildRunInput(rows);
    const metrics = {
      ...summarize(input.labels, input.scores, {
        threshold: 0.5,
        prevalence: 0.02,
        costFalseNegative: 50,
        costFalsePositive: 1,
        slices: input.slices,
        bootstrap: 0,
      }),
      input: { scoreKind: input.scoreKind, parseFailures: input.parseFailures, missing: input.missing },
    };
    await prisma.evalRun.update({
      where: { id: run.id },
      data: {
        status: "DONE",
        progress: 1,
        itemCount: N,
        parseFailureCount: input.parseFailures,
        metrics: JSON.parse(JSON.stringify(metrics)),
        computedAt: new Date(),
      },
    });
    console.log(
      `  run #${run.id}: RunItem rows written by writeRunItemsOnce in ${((built - started) / 1000).toFixed(1)} s; FN ${metrics.report.atThreshold.fn}, FP ${metrics.report.atThreshold.fp}, TP ${metrics.report.atThreshold.tp}, TN ${metrics.report.atThreshold.tn}`,
    );
  }
  // As autovacuum leaves a table some time after a bulk load: statistics, visibility map, hint bits.
  await pool.query(`VACUUM (ANALYZE) "RunItem"`);
  await pool.query(`VACUUM (ANALYZE) "DatasetItem"`);
  await pool.query(`VACUUM (ANALYZE) "Prediction"`);

  const actor = (await actorByEmail(user.email))!;
  const [runA, runB] = [runs[0]!.id, runs[1]!.id];
  /** A cursor `fraction` of the way into a cell (found with OFFSET here, outside the timing). */
  async function cursorInto(cell: Cell, fraction: number, slice?: string): Promise<string> {
    const positive = cell === "FN" || cell === "TP";
    const bound = { FN: "< 0.5", TP: ">= 0.5", FP: "<= -0.5", TN: "> -0.5" }[cell];
    const sliceSql = slice ? `AND slice = '${slice}'` : "";
    const [{ n }] = (
      await pool.query(
        `SELECT count(*)::int AS n FROM "RunItem" WHERE "evalRunId" = $1 AND label = $2 AND "orderKey" ${bound} ${sliceSql}`,
        [runA, positive],
      )
    ).rows;
    const skip = Math.floor(n * fraction);
    const [row] = (
      await pool.query(
        `SELECT "orderKey", "itemId" FROM "RunItem" WHERE "evalRunId" = $1 AND label = $2 AND "orderKey" ${bound} ${sliceSql} ORDER BY "orderKey", "itemId" OFFSET ${skip} LIMIT 1`,
        [runA, positive],
      )
    ).rows;
    return encodeCursor({ cell, key: Number(row.orderKey), id: row.itemId });
  }

  const cases: [string, Record<string, string>][] = [
    ["all items, first page", { limit: LIMIT }],
    ["all items, 90% deep (TN)", { limit: LIMIT, after: await cursorInto("TN", 0.9) }],
    ["all items, previous page 90% deep", { limit: LIMIT, before: await cursorInto("TN", 0.9) }],
    ["FN, first page", { cell: "FN", limit: LIMIT }],
    ["FN, 50% deep", { cell: "FN", limit: LIMIT, after: await cursorInto("FN", 0.5) }],
    ["FP at t = 0.3, first page", { cell: "FP", threshold: "0.3", limit: LIMIT }],
    ["slice-3, 90% deep (TN)", { slice: "slice-3", limit: LIMIT, after: await cursorInto("TN", 0.9, "slice-3") }],
    ["errors only A makes vs B, first page", { vs: String(runB), limit: LIMIT }],
  ];
  console.log(`\n  page of ${LIMIT} (median of ${REPEAT})                   time    items`);
  const results: Record<string, number> = {};
  for (const [name, query] of cases) {
    const times: number[] = [];
    let count = 0;
    await listRunItems(actor, decision.id, runA, query); // warm-up: connections, plans, caches
    for (let i = 0; i < REPEAT; i++) {
      const started = performance.now();
      const page = await listRunItems(actor, decision.id, runA, query);
      times.push(performance.now() - started);
      count = page.items.length;
    }
    if (count === 0) throw new Error(`${name}: an empty page`);
    results[name] = median(times);
    console.log(`  ${name.padEnd(44)}${ms(median(times))} ${String(count).padStart(6)}`);
  }
  const started = performance.now();
  const { body } = await exportRunItemsCsv(actor, decision.id, runA, { cell: "errors" });
  const text = await new Response(body).text();
  const lines = text.split("\r\n").length - 2;
  console.log(
    `  CSV of every error (streamed)               ${ms(performance.now() - started)} ${String(lines).padStart(6)} rows`,
  );
  const ratio = results["all items, 90% deep (TN)"]! / results["all items, first page"]!;
  const slowest = Math.max(...Object.values(results));
  if (SMOKE) {
    console.log(
      `\n  deep page / first page: ${ratio.toFixed(2)}×; slowest page ${slowest.toFixed(1)} ms (smoke: no targets)`,
    );
  } else {
    // "Costs what the first does": within 2× of it (medians of a few ms on a shared machine).
    const targets: [string, boolean][] = [
      [`deep page / first page: ${ratio.toFixed(2)}× (target ≤ 2)`, ratio <= 2],
      [`slowest page: ${slowest.toFixed(1)} ms (target < 100 ms)`, slowest < 100],
    ];
    console.log("");
    for (const [line, ok] of targets) console.log(`  ${line} → ${ok ? "PASS" : "FAIL"}`);
    process.exitCode = targets.every(([, ok]) => ok) ? 0 : 1;
  }
} finally {
  await db.close();
}
