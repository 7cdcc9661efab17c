import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db, database } from "../db";
import { computeEvalRun } from "../runs/eval-runs";
import { drainInlineJobs } from "../runs/queue";
import { MAX_RECOVERIES, PENDING_GRACE_MS, recoverLostRuns } from "./recovery";
import { makePendingRun } from "@/test/factories";

// Jobs queued by the recovery run in this process, so the test can wait for them.
process.env.VERDICT_JOBS = "inline";

const ROOT = path.resolve(import.meta.dirname, "../../..");

const runRow = async (id: number) =>
  (await db()).evalRun.findUniqueOrThrow({
    where: { id },
    select: { status: true, recoveries: true, error: true, computedAt: true, metrics: true },
  });

describe("crash recovery of eval runs", () => {
  it("a job killed mid-computation leaves its run RUNNING; recovery re-queues it and no run stays RUNNING", async () => {
    const { decisionId, runId } = await makePendingRun(150_000);
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "test/fixtures/jobs/compute-child.ts", String(runId)],
      {
        cwd: ROOT,
        env: { ...process.env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (d) => (output += String(d)));
    child.stderr.on("data", (d) => (output += String(d)));
    const exited = once(child, "exit");
    try {
      const started = Date.now();
      while ((await runRow(runId)).status !== "RUNNING" && child.exitCode === null && Date.now() - started < 60_000)
        await new Promise((r) => setTimeout(r, 50));
      expect((await runRow(runId)).status, output).toBe("RUNNING");
      // While the job lives, it holds the run's lock: recovery leaves it alone.
      expect(await recoverLostRuns(await database(), { decisionId })).toEqual({ requeued: [], failed: [] });
      child.kill("SIGKILL");
      const [code, signal] = await exited;
      expect([code, signal]).toEqual([null, "SIGKILL"]);
      expect(output).not.toContain("finished");
      expect((await runRow(runId)).status).toBe("RUNNING");
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }

    // The killed process's connection closed and its lock went with it (the server may take a moment to notice).
    let report = await recoverLostRuns(await database(), { decisionId });
    for (let i = 0; i < 50 && report.requeued.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      report = await recoverLostRuns(await database(), { decisionId });
    }
    expect(report).toEqual({ requeued: [runId], failed: [] });
    await drainInlineJobs();
    const run = await runRow(runId);
    expect(run).toMatchObject({ status: "DONE", recoveries: 0, error: null });
    expect(await (await db()).evalRun.count({ where: { decisionId, status: "RUNNING" } })).toBe(0);

    const prisma = await db();
    const recovered = await prisma.auditEvent.findMany({
      where: { action: "eval_run.recovered", entityId: String(runId) },
    });
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({
      actorId: null,
      decisionId,
      before: { status: "RUNNING" },
      after: { status: "PENDING", outcome: "requeued", recoveries: 1 },
    });
    const computed = await prisma.auditEvent.findMany({
      where: { action: "eval_run.computed", entityId: String(runId) },
    });
    expect(computed).toHaveLength(1);
    expect(computed[0]!.after).toMatchObject({
      status: "DONE",
      itemCount: 150_000,
      metricsSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  }, 180_000);

  it("a PENDING run whose in-process job is gone is re-queued after the grace period, not before", async () => {
    const { decisionId, runId } = await makePendingRun(200);
    const prisma = await db();
    await prisma.evalRun.update({ where: { id: runId }, data: { queuedAt: new Date() } });
    // Another process may hold it in its memory for a while.
    expect(await recoverLostRuns(await database(), { decisionId })).toEqual({ requeued: [], failed: [] });
    const later = new Date(Date.now() + PENDING_GRACE_MS + 1000);
    expect(await recoverLostRuns(await database(), { decisionId, now: later })).toEqual({
      requeued: [runId],
      failed: [],
    });
    await drainInlineJobs();
    expect((await runRow(runId)).status).toBe("DONE");
  });

  it("a run lost again and again is failed with the reason, not re-queued for ever", async () => {
    const { decisionId, runId } = await makePendingRun(200);
    const prisma = await db();
    await prisma.evalRun.update({ where: { id: runId }, data: { status: "RUNNING", recoveries: MAX_RECOVERIES - 1 } });
    expect(await recoverLostRuns(await database(), { decisionId })).toEqual({ requeued: [], failed: [runId] });
    const run = await runRow(runId);
    expect(run.status).toBe("FAILED");
    expect(run.error).toMatch(/killed or crashed.*not retried/);
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "eval_run.recovered", entityId: String(runId) },
    });
    expect(event).toMatchObject({
      decisionId,
      after: { status: "FAILED", outcome: "failed", recoveries: MAX_RECOVERIES },
    });
  });

  it("a stale or duplicate job leaves a computed run as it is (its computedAt, hence the pack, unchanged)", async () => {
    const { runId } = await makePendingRun(200);
    expect(await computeEvalRun(await database(), runId)).toBe(true);
    const before = await runRow(runId);
    expect(before.status).toBe("DONE");
    expect(await computeEvalRun(await database(), runId)).toBe(false);
    expect((await runRow(runId)).computedAt).toEqual(before.computedAt);
    expect(
      await (await db()).auditEvent.count({ where: { action: "eval_run.computed", entityId: String(runId) } }),
    ).toBe(1);
  });
});
