import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { database, db } from "../db";
import { COMPUTE_RUN_QUEUE, enqueueComputeRun, stopJobs } from "../runs/queue";
import { TAKEOVER_GRACE_S, recoverLostRuns } from "./recovery";
import { appRoleUrl, dropDatabase, recreateDatabase } from "@/test/database";
import { makePendingRun } from "@/test/factories";

// This process sends jobs to the queue and works none (a VERDICT_WORKER=0 server).
delete process.env.VERDICT_JOBS;
process.env.VERDICT_WORKER = "0";
afterAll(() => stopJobs());

const ROOT = path.resolve(import.meta.dirname, "../../..");
const node = (script: string, args: string[], env: NodeJS.ProcessEnv) =>
  spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", script, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });

describe("a job whose worker died", () => {
  it("counts as lost once active in pg-boss for TAKEOVER_GRACE_S with its run's lock free, not before", async () => {
    const { decisionId, runId } = await makePendingRun(200);
    await enqueueComputeRun(await database(), runId);
    // Waiting in the queue: not lost.
    expect(await recoverLostRuns(await database(), { decisionId })).toEqual({ requeued: [], failed: [] });
    const prisma = await db();
    const activeFor = (seconds: number) => prisma.$executeRaw`
      UPDATE pgboss.job SET state = 'active', started_on = now() - make_interval(secs => ${seconds})
       WHERE name = ${COMPUTE_RUN_QUEUE} AND (data->>'runId')::int = ${runId}`;
    // Just taken by a worker, which takes the run's lock within milliseconds: not lost.
    expect(await activeFor(2)).toBe(1);
    expect(await recoverLostRuns(await database(), { decisionId })).toEqual({ requeued: [], failed: [] });
    // Taken long ago and nobody holds the run: its worker died before marking it RUNNING.
    await activeFor(TAKEOVER_GRACE_S + 5);
    expect(await recoverLostRuns(await database(), { decisionId })).toEqual({ requeued: [runId], failed: [] });
    const jobs = await prisma.$queryRaw<{ state: string }[]>`
      SELECT state::text FROM pgboss.job WHERE name = ${COMPUTE_RUN_QUEUE} AND (data->>'runId')::int = ${runId} ORDER BY created_on`;
    expect(jobs.map((j) => j.state)).toEqual(["active", "created"]);
  });

  it("is taken over and DONE on the other of two workers within 60 s of the kill, computed once, logged by both", async () => {
    // Workers sweep every decision: a database of their own, away from the other test files.
    const owner = new URL(process.env.TEST_DATABASE_URL!);
    owner.pathname = `/verdict_test_takeover_${process.pid}`;
    await recreateDatabase(owner.toString());
    const appUrl = appRoleUrl(owner.toString());
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: appUrl, VERDICT_WORKER: "1" };
    delete env.DATABASE_MIGRATION_URL;
    delete env.VERDICT_JOBS;
    const workers: { child: ChildProcess; lines: Record<string, unknown>[]; output: string }[] = [];
    const client = new pg.Client({ connectionString: appUrl });
    try {
      for (let i = 0; i < 2; i++) {
        const child = node("scripts/worker.ts", [], env);
        const worker = { child, lines: [] as Record<string, unknown>[], output: "" };
        let partial = "";
        child.stdout!.on("data", (d) => {
          worker.output += String(d);
          const lines = (partial + String(d)).split("\n");
          partial = lines.pop()!;
          for (const line of lines)
            if (line.startsWith("{")) worker.lines.push(JSON.parse(line) as Record<string, unknown>);
        });
        child.stderr!.on("data", (d) => (worker.output += String(d)));
        workers.push(worker);
      }
      await waitFor(() => workers.every((w) => w.lines.some((l) => l.event === "process.start")), 120_000, "workers");
      for (const w of workers)
        expect(w.lines.find((l) => l.event === "process.start")).toMatchObject({
          role: "worker",
          pid: w.child.pid,
          jobs: "pg-boss",
          worksQueue: true,
        });

      const setup = node("test/fixtures/jobs/queue-run.ts", ["250000"], { ...env, VERDICT_WORKER: "0" });
      let printed = "";
      setup.stdout!.on("data", (d) => (printed += String(d)));
      setup.stderr!.on("data", (d) => (printed += String(d)));
      const [code] = (await once(setup, "exit")) as [number | null];
      expect(code, printed).toBe(0);
      const { runId } = JSON.parse(printed.trim().split("\n").pop()!) as { runId: number };

      await client.connect();
      const status = async () =>
        (await client.query<{ status: string }>(`SELECT status::text FROM "EvalRun" WHERE id = $1`, [runId])).rows[0]!
          .status;
      const started = (w: (typeof workers)[number]) =>
        w.lines.some((l) => l.event === "job.start" && l.job === "compute-run" && l.run === runId);
      await waitFor(async () => (await status()) === "RUNNING" && workers.some(started), 120_000, "RUNNING");
      const victim = workers.find(started)!;
      const survivor = workers.find((w) => w !== victim)!;
      victim.child.kill("SIGKILL");
      const killedAt = Date.now();
      await once(victim.child, "exit");

      await waitFor(async () => (await status()) === "DONE", 60_000, "DONE after the kill");
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      // DONE is stored before the job's drill-down items and comparisons: its finish line follows.
      const finished = () => survivor.lines.some((l) => l.event === "job.finish" && l.run === runId);
      await waitFor(finished, 60_000, "the survivor's finish line").catch(() => {});
      const survivorLines = survivor.lines.filter((l) => l.run === runId);
      const both = JSON.stringify(workers.map((w) => w.lines.filter((l) => l.run === runId)));
      expect(
        survivorLines.map((l) => l.event),
        both,
      ).toEqual(expect.arrayContaining(["job.recovery", "job.start", "job.finish"]));
      expect(survivorLines.find((l) => l.event === "job.finish")).toMatchObject({
        role: "worker",
        pid: survivor.child.pid,
        metrics: "computed",
        durationMs: expect.any(Number),
      });
      const computed = await client.query(
        `SELECT count(*)::int AS n FROM "AuditEvent" WHERE action = 'eval_run.computed' AND "entityId" = $1`,
        [String(runId)],
      );
      expect(computed.rows[0]).toEqual({ n: 1 });
    } finally {
      await client.end().catch(() => {});
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
      await Promise.all(
        workers.map((w) => (w.child.exitCode === null && w.child.signalCode === null ? once(w.child, "exit") : null)),
      );
      await dropDatabase(owner.toString());
    }
  }, 360_000);
});

async function waitFor(ok: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
