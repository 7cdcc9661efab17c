import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { appRoleUrl, dropDatabase, recreateDatabase } from "../test/database";
import { enrolByOperator } from "./enrol";
import { AppProcess, startServer, startWorker, waitFor, type JobLine } from "./scale-out-processes";

/**
 * Scale-out as an operator runs it (issue 30 §5): two `npm start` servers with VERDICT_WORKER=0 and
 * two `npm run worker` processes on one empty PostgreSQL database of its own. Evidence is uploaded
 * by the JSON API on both servers; a worker is killed -9 while it computes a run, server B while a
 * predictions file streams to it, and, after a cost change, the worker computing the paired
 * comparisons. The end state is read by the API and SQL: every run DONE, every pair computed under
 * the current parameters, nothing left of the killed upload, and the audit chain verifies.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const OWNER_URL = process.env.E2E_SCALE_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_scale";
const APP_URL = appRoleUrl(OWNER_URL);
const PORT_A = Number(process.env.E2E_SCALE_PORT ?? 3230);
const PORT_B = PORT_A + 1;
const ITEMS = 200_000;
const KILLED_JOB_DONE_WITHIN_MS = 60_000;

let t0 = Date.now();
const mark = (what: string) => {
  console.log(`scale-out: ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${what}`);
};

const processEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  // What the test runner's environment may carry for other servers: jobs in-process, demo mode, mail.
  for (const name of ["VERDICT_DEMO", "VERDICT_JOBS", "VERDICT_SMTP_URL", "DATABASE_MIGRATION_URL"]) delete env[name];
  return { ...env, ...extra };
};
const AUTH_SECRET = randomBytes(32).toString("base64url");
const serverEnv = (port: number) =>
  processEnv({
    DATABASE_URL: APP_URL,
    DATABASE_MIGRATION_URL: OWNER_URL,
    AUTH_SECRET,
    PORT: String(port),
    VERDICT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    VERDICT_WORKER: "0",
  });
/** Each worker names its connections (application_name), so the spec tells from pg_locks which one holds a job. */
const workerEnv = (name: string) => {
  const url = new URL(APP_URL);
  url.searchParams.set("application_name", name);
  return processEnv({ DATABASE_URL: url.toString() });
};

function verdict(args: string[], env: Record<string, string> = {}): string {
  const out = spawnSync(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: OWNER_URL, ...env },
    encoding: "utf8",
  });
  expect(out.status, `verdict ${args.join(" ")}: ${out.stderr}`).toBe(0);
  return out.stdout.trim();
}

/** Deterministic scores of three candidates of different quality: every pair's figures depend on the costs. */
function predictionsCsv(candidate: number): Buffer {
  let seed = 31 + candidate;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const rows = ["id,score"];
  for (let i = 0; i < ITEMS; i++) {
    const positive = i % 7 === 0;
    const score = Math.min(1, Math.max(0, (positive ? 0.4 + 0.1 * candidate : 0.35) + (next() - 0.5) * 0.8));
    rows.push(`it-${i},${score.toFixed(6)}`);
  }
  return Buffer.from(rows.join("\n") + "\n");
}
const datasetCsv = () =>
  Buffer.from(["id,label", ...Array.from({ length: ITEMS }, (_, i) => `it-${i},${i % 7 === 0 ? 1 : 0}`)].join("\n"));

const processes: AppProcess[] = [];
let sql: pg.Client;
let token = "";

async function api<T>(port: number, method: string, route: string, body?: Buffer | object): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(Buffer.isBuffer(body) ? { "content-type": "text/csv" } : body ? { "content-type": "application/json" } : {}),
    },
    body: Buffer.isBuffer(body) ? new Uint8Array(body) : body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  expect(res.ok, `${method} ${route} on :${port}: ${res.status} ${text}`).toBe(true);
  return JSON.parse(text) as T;
}

const query = async <T extends object>(text: string, params: unknown[] = []) =>
  (await sql.query<T & pg.QueryResultRow>(text, params)).rows;

async function runStatus(runId: number): Promise<string> {
  return (await query<{ status: string }>(`SELECT status::text FROM "EvalRun" WHERE id = $1`, [runId]))[0]!.status;
}

/** Empty database; server A migrates it, then server B and the two workers start. */
async function startCluster(): Promise<{ a: AppProcess; b: AppProcess; workers: AppProcess[] }> {
  await recreateDatabase(OWNER_URL, { migrate: false });
  const a = startServer("server A", serverEnv(PORT_A));
  processes.push(a);
  await waitFor(() => /Verdict: migrations/.test(a.output), 90_000, "server A's migrations");
  await waitFor(() => /Verdict is ready/.test(a.output), 120_000, "server A ready");
  const b = startServer("server B", serverEnv(PORT_B));
  const workers = ["worker-1", "worker-2"].map((name) => startWorker(name, workerEnv(name)));
  processes.push(b, ...workers);
  // While they start: the users, by the CLI and server A.
  token = await analystToken();
  mark("first admin by `verdict user create`, an analyst by invitation, the analyst's API token");
  await waitFor(() => /Verdict is ready/.test(b.output), 120_000, "server B ready");
  for (const p of [a, b, ...workers])
    await waitFor(() => p.lines.some((l) => l.event === "process.start"), 120_000, `${p.name}'s start line`);
  expect(a.lines.find((l) => l.event === "process.start")).toMatchObject({ role: "server", worksQueue: false });
  expect(workers[0]!.lines.find((l) => l.event === "process.start")).toMatchObject({
    role: "worker",
    worksQueue: true,
  });
  sql = new pg.Client({ connectionString: OWNER_URL });
  await sql.connect();
  return { a, b, workers };
}

/** The first admin by the operator's CLI, an analyst by invitation, and the analyst's API token. */
async function analystToken(): Promise<string> {
  const id = randomUUID().slice(0, 8);
  verdict(["user", "create", "--email", `admin-${id}@acme.test`, "--name", `Admin ${id}`, "--roles", "ADMIN"], {
    VERDICT_PASSWORD: "an operator's long password 1",
  });
  const email = `analyst-${id}@acme.test`;
  const person = { email, name: `Analyst ${id}`, roles: ["ANALYST"], password: "a long enough password 42" };
  await enrolByOperator(`http://127.0.0.1:${PORT_A}`, OWNER_URL, person);
  return verdict(["token", "create", "--email", email]);
}

const PARAMETERS = {
  title: "Scale-out: abusive message triage",
  description: "Two servers, two workers, kills.",
  positiveClass: "abusive",
  prevalence: 0.05,
  costFn: 50,
  costFp: 1,
  currency: "EUR",
  recallFloor: 0.5,
  precisionFloor: 0.1,
  operatingThreshold: 0.5,
  sloP95E2eMs: 2000,
  sloP95TtftMs: 500,
  sloMinThroughputRps: 5,
  sloThroughputConcurrency: 16,
  sloMaxCostPer1kRequests: 3,
  quorum: 1,
};

/** A decision with three candidates and a 200k-item dataset, made on server A. */
async function decisionWithDataset() {
  const { decision } = await api<{ decision: { id: string } }>(PORT_A, "POST", "/decisions", PARAMETERS);
  const base = `/decisions/${decision.id}`;
  const candidates: string[] = [];
  for (const name of ["Model A", "Model B", "Model C"]) {
    const { candidate } = await api<{ candidate: { id: string } }>(PORT_A, "POST", `${base}/candidates`, {
      name,
      provider: "Acme",
    });
    candidates.push(candidate.id);
  }
  const { datasetVersionId } = await api<{ datasetVersionId: number }>(
    PORT_A,
    "POST",
    `${base}/datasets?name=holdout&filename=holdout.csv`,
    datasetCsv(),
  );
  return { decisionId: decision.id, base, candidates, datasetVersionId };
}

const uploadPath = (base: string, candidateId: string, versionId: number, file: string) =>
  `${base}/predictions?candidateId=${candidateId}&datasetVersionId=${versionId}&filename=${file}`;

const started = (w: AppProcess, runId: number) =>
  w.lines.some((l) => l.event === "job.start" && l.job === "compute-run" && l.run === runId);

/** The worker whose database session holds an advisory lock of `lockClass` (and key, for a run), if any. */
async function lockHolder(workers: AppProcess[], lockClass: number, key?: number): Promise<AppProcess | undefined> {
  const rows = await query<{ app: string }>(
    `SELECT a.application_name AS app FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::int::oid
        AND ($2::int IS NULL OR l.objid = $2::int::oid)`,
    [lockClass, key ?? null],
  );
  return workers.find((w) => w.alive && rows.some((r) => r.app === w.name));
}
const RUN_LOCK_CLASS = 7_348_101; // lib/server/runs/run-lock.ts
const COMPARISONS_LOCK_CLASS = 7_348_102;

/** Waits for `line` in the worker's job log; returns it. */
async function lineOf(w: AppProcess, line: (l: JobLine) => boolean, ms: number, what: string): Promise<JobLine> {
  await waitFor(() => w.lines.some(line), ms, what);
  return w.lines.find(line)!;
}

/**
 * Predictions streamed to server B, which is killed -9 halfway while the client keeps sending:
 * resolves with the client's error once the connection is gone.
 */
async function uploadKilledMidway(server: AppProcess, route: string, body: Buffer): Promise<string> {
  const req = http.request(`http://127.0.0.1:${PORT_B}/api/v1${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "text/csv" },
  });
  const failed = new Promise<string>((resolve) => {
    req.on("error", (e) => resolve(e.message));
    req.on("response", (res) => resolve(`answered ${res.statusCode}`));
  });
  let gone = false;
  void failed.then(() => (gone = true));
  const chunk = 64 * 1024;
  for (let sent = 0; sent < body.length && !gone; sent += chunk) {
    if (sent >= body.length / 2 && server.alive) {
      mark(`server B killed -9 with ${sent} of ${body.length} bytes sent`);
      await server.kill9();
    }
    req.write(body.subarray(sent, sent + chunk));
    await new Promise((r) => setTimeout(r, 10));
  }
  if (!gone) req.end();
  return failed;
}

test.afterEach(({}, testInfo) => {
  // What each process printed, for a failure in CI.
  if (testInfo.status !== testInfo.expectedStatus)
    for (const p of processes) console.log(`--- ${p.name} (pid ${p.child.pid}) ---\n${p.output.slice(-4000)}`);
});

test.afterAll(async () => {
  await sql?.end().catch(() => {});
  await Promise.all(processes.map((p) => p.kill9().catch(() => {})));
  await dropDatabase(OWNER_URL).catch(() => {});
});

test.describe.configure({ mode: "serial" });

type Cluster = Awaited<ReturnType<typeof startCluster>>;
type Setup = Awaited<ReturnType<typeof decisionWithDataset>>;

/** Upload on A; kill -9 the worker computing the run; the other worker finishes it within 60 s. */
async function killWorkerMidRun(cluster: Cluster, setup: Setup): Promise<number> {
  const route = uploadPath(setup.base, setup.candidates[0]!, setup.datasetVersionId, "a.csv");
  const { runId } = await api<{ runId: number }>(PORT_A, "POST", route, predictionsCsv(0));
  mark(`run ${runId} uploaded on server A`);
  let victim: AppProcess | undefined;
  await waitFor(
    async () =>
      (victim = await lockHolder(cluster.workers, RUN_LOCK_CLASS, runId)) !== undefined &&
      started(victim, runId) &&
      (await runStatus(runId)) === "RUNNING",
    60_000,
    `a worker computing run ${runId}`,
  );
  await victim!.kill9();
  const killedAt = Date.now();
  mark(`${victim!.name} killed -9 while computing run ${runId} (RUNNING)`);
  const survivor = cluster.workers.find((w) => w !== victim)!;
  await waitFor(async () => (await runStatus(runId)) === "DONE", KILLED_JOB_DONE_WITHIN_MS, `run ${runId} DONE`);
  const doneAfter = Date.now() - killedAt;
  mark(`run ${runId} DONE ${(doneAfter / 1000).toFixed(1)} s after the kill`);
  expect(doneAfter).toBeLessThan(KILLED_JOB_DONE_WITHIN_MS);
  const finish = await lineOf(survivor, (l) => l.event === "job.finish" && l.run === runId, 30_000, "finish line");
  expect(finish).toMatchObject({ role: "worker", pid: survivor.child.pid, metrics: "computed" });
  // Computed once: the killed worker stored nothing.
  const computed = await query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "AuditEvent" WHERE action = 'eval_run.computed' AND "entityId" = $1`,
    [String(runId)],
  );
  expect(computed).toEqual([{ n: 1 }]);
  // The operator restarts the killed worker.
  const restarted = startWorker(victim!.name, workerEnv(victim!.name));
  processes.push(restarted);
  cluster.workers.splice(cluster.workers.indexOf(victim!), 1, restarted);
  return runId;
}

/** Upload on B; then B is killed -9 mid-stream of the third file, which is sent again to A. */
async function uploadsOnBothServers(cluster: Cluster, setup: Setup): Promise<number[]> {
  const { base, candidates, datasetVersionId } = setup;
  const onB = await api<{ runId: number }>(
    PORT_B,
    "POST",
    uploadPath(base, candidates[1]!, datasetVersionId, "b.csv"),
    predictionsCsv(1),
  );
  mark(`run ${onB.runId} uploaded on server B`);
  // Server B answers for it as A would (its job runs on a worker meanwhile).
  const { run } = await api<{ run: { status: string } }>(PORT_B, "GET", `${base}/runs/${onB.runId}`);
  expect(["PENDING", "RUNNING", "DONE"]).toContain(run.status);
  const file = predictionsCsv(2);
  const error = await uploadKilledMidway(cluster.b, uploadPath(base, candidates[2]!, datasetVersionId, "c.csv"), file);
  mark(`the client's upload to B ended: ${error}`);
  expect(error).not.toMatch(/^answered/);
  const onA = await api<{ runId: number }>(
    PORT_A,
    "POST",
    uploadPath(base, candidates[2]!, datasetVersionId, "c.csv"),
    file,
  );
  mark(`run ${onA.runId} uploaded again on server A`);
  return [onB.runId, onA.runId];
}

/** Every run DONE, the pairs' generation computed: polled by SQL. */
async function settled(decisionId: string): Promise<boolean> {
  const [row] = await query<{ waiting: number; stale: boolean; pairs: number }>(
    `SELECT (SELECT count(*)::int FROM "EvalRun" WHERE "decisionId" = $1 AND status <> 'DONE') AS waiting,
            COALESCE((SELECT wanted <> computed FROM "ComparisonState" WHERE "decisionId" = $1), true) AS stale,
            (SELECT count(*)::int FROM "RunComparison" WHERE "decisionId" = $1) AS pairs`,
    [decisionId],
  );
  return row!.waiting === 0 && !row!.stale && row!.pairs === 3;
}

/** costFp 1 → 20 on A: three runs and their pairs recompute; the worker computing the pairs is killed -9. */
async function killWorkerMidComparisons(cluster: Cluster, setup: Setup): Promise<void> {
  const patched = await api<{ recomputing: unknown[] }>(PORT_A, "PATCH", `/decisions/${setup.decisionId}`, {
    costFp: 20,
  });
  expect(patched.recomputing).toHaveLength(3);
  mark("costFp 1 → 20 on server A: 3 runs recomputing");
  let victim: AppProcess | undefined;
  await waitFor(
    async () =>
      (await query(`SELECT 1 FROM "EvalRun" WHERE "decisionId" = $1 AND status <> 'DONE'`, [setup.decisionId]))
        .length === 0 && (victim = await lockHolder(cluster.workers, COMPARISONS_LOCK_CLASS)) !== undefined,
    120_000,
    "a worker computing the paired comparisons",
  );
  await victim!.kill9();
  const killedAt = new Date().toISOString();
  mark(`${victim!.name} killed -9 while computing the paired comparisons`);
  const [state] = await query<{ stale: boolean }>(
    `SELECT wanted <> computed AS stale FROM "ComparisonState" WHERE "decisionId" = $1`,
    [setup.decisionId],
  );
  expect(state, "the pairs were killed before they were stored").toEqual({ stale: true });
  const survivor = cluster.workers.find((w) => w !== victim)!;
  await waitFor(() => settled(setup.decisionId), 180_000, "the pairs recomputed after the kill");
  // Stored by the other worker after the kill: by recovery's comparisons job, or by a run's job of its own that waited on the lock.
  // Its finish line follows the commit by a moment.
  const stored = await lineOf(
    survivor,
    (l) => l.event === "job.finish" && l.comparisons === "stored" && l.time > killedAt,
    30_000,
    `${survivor.name}'s job storing the pairs`,
  );
  mark(`the pairs recomputed by ${survivor.name} (${stored.job})`);
}

/** The end state by the API and SQL: runs DONE under the current costs, pairs current, nothing of the killed upload. */
async function checkEndState(setup: Setup, runIds: number[], pairsBefore: { deltaCostPer1k: number | null }[]) {
  const { decisionId, base } = setup;
  const runs = await query<{ id: number; status: string; costFp: number }>(
    `SELECT id, status::text, (metrics->'parameters'->>'costFalsePositive')::float AS "costFp"
       FROM "EvalRun" WHERE "decisionId" = $1 ORDER BY id`,
    [decisionId],
  );
  expect(runs).toEqual(runIds.map((id) => ({ id, status: "DONE", costFp: 20 })));
  for (const id of runIds)
    expect((await api<{ run: { status: string } }>(PORT_A, "GET", `${base}/runs/${id}`)).run.status).toBe("DONE");
  // Every pair of the three runs, stored after the last change of their inputs (ComparisonState), and changed by it.
  expect(await settled(decisionId)).toBe(true);
  const pairs = await query<{ a: number; b: number; deltaCostPer1k: number | null }>(
    `SELECT "runAId" AS a, "runBId" AS b, "deltaCostPer1k" FROM "RunComparison" WHERE "decisionId" = $1 ORDER BY 1, 2`,
    [decisionId],
  );
  const [r0, r1, r2] = runIds as [number, number, number];
  expect(pairs.map((p) => [p.a, p.b])).toEqual([
    [r1, r0],
    [r2, r0],
    [r2, r1],
  ]);
  expect(pairs.map((p) => p.deltaCostPer1k)).not.toEqual(pairsBefore.map((p) => p.deltaCostPer1k));
  const pack = await api<{ comparisons: unknown[] }>(PORT_A, "GET", `/decisions/${decisionId}`);
  expect(pack.comparisons).toHaveLength(3);
  // Nothing of the killed upload: one import per file that arrived whole, no fourth run, no table of a run that is not.
  const [counts] = await query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM "Import" WHERE "decisionId" = $1) AS imports,
            (SELECT count(*)::int FROM "EvalRun") AS runs,
            (SELECT count(*)::int FROM "AuditEvent" WHERE "decisionId" = $1 AND action LIKE 'evidence.import%') AS "importEvents",
            (SELECT count(*)::int FROM "PredictionSet") AS "predictionSets",
            (SELECT count(*)::int FROM pg_class WHERE relname ~ '^Prediction_[0-9]+$' AND relkind = 'r') AS "runTables",
            (SELECT count(*)::int FROM pg_class WHERE relname ~ '^Prediction_[0-9]+$' AND relkind = 'r' AND NOT relispartition) AS unattached,
            (SELECT count(*)::int FROM "Prediction") AS predictions`,
    [decisionId],
  );
  expect(counts).toEqual({
    imports: 4,
    runs: 3,
    importEvents: 4,
    predictionSets: 3,
    runTables: 3,
    unattached: 0,
    predictions: 3 * ITEMS,
  });
  const verified = JSON.parse(verdict(["audit", "verify", "--json"])) as Record<string, unknown>;
  expect(verified).toMatchObject({ intact: true, firstBroken: null, recordProblems: [] });
}

test("two servers and two workers on one database: a worker killed mid-run and mid-comparisons, a server mid-upload — every run DONE, every pair current, nothing orphaned", async () => {
  // About a minute and a half on an idle 2-core machine; the margin is for a loaded one.
  test.setTimeout(600_000);
  t0 = Date.now();
  const cluster = await startCluster();
  mark("servers A and B (VERDICT_WORKER=0) and two workers started on an empty database");
  const setup = await decisionWithDataset();
  mark(`decision, three candidates and a ${ITEMS}-item dataset made on server A`);

  const first = await killWorkerMidRun(cluster, setup);
  const [second, third] = await uploadsOnBothServers(cluster, setup);
  const runIds = [first, second!, third!];
  await waitFor(() => settled(setup.decisionId), 180_000, "three runs DONE and their pairs current");
  mark("three runs DONE, three pairs current");
  const pairsBefore = await query<{ deltaCostPer1k: number | null }>(
    `SELECT "deltaCostPer1k" FROM "RunComparison" WHERE "decisionId" = $1 ORDER BY "runAId", "runBId"`,
    [setup.decisionId],
  );

  await killWorkerMidComparisons(cluster, setup);
  await checkEndState(setup, runIds, pairsBefore);
  mark("end state checked: runs DONE at costFp 20, pairs current, no orphan, audit chain verified");
  for (const w of processes)
    for (const l of w.lines.filter((l) => l.event === "job.finish"))
      console.log(`scale-out: ${w.name} ${l.job} run ${l.run ?? "-"}: ${l.durationMs} ms`);
});
