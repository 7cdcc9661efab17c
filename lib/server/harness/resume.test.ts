import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer, type SimServer } from "@/lib/harness/network/sim-server";
import { makeHarnessDecision } from "@/test/harness-fixtures";
import { makeActor } from "@/test/factories";
import { db } from "../db";
import { stopJobs } from "../runs/queue";
import { startHarnessRun } from "./runs";

// This process only queues (pg-boss); `npm run worker` processes do the work — and one is killed.
process.env.VERDICT_WORKER = "0";
delete process.env.VERDICT_JOBS;

const ROOT = path.resolve(import.meta.dirname, "../../..");
let sim: SimServer;
const workers: ChildProcess[] = [];
beforeAll(async () => {
  sim = await startSimServer({ ttftMs: 120, itlMs: 5 });
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL");
  await stopJobs();
  await sim.close();
});

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: { ...process.env, VERDICT_HARNESS_BACKOFF_MS: "10", VERDICT_HARNESS_MAX_ATTEMPTS: "3" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  child.on("exit", (code, signal) => {
    if (code && signal !== "SIGKILL") console.error(`worker exited ${code}:\n${output}`);
  });
  workers.push(child);
  return child;
}

const poll = async <T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 90_000): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe("kill -9 of a worker mid-run", () => {
  it("resumes in another worker without calling the endpoint again for stored items, and equals an uninterrupted run", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const prefix = `k${Date.now() % 10_000}-`;
    const items = Array.from({ length: 48 }, (_, k) => {
      const id = `${prefix}${String(k).padStart(2, "0")}`;
      const p = ((k * 37) % 100) / 100;
      return {
        itemId: id,
        label: k % 3 === 0,
        text: `[[sim id=${id} label=${p >= 0.5 ? "yes" : "no"} p=${p} tokens=${1 + (k % 4)}${k % 11 === 5 ? " fail=contract" : ""}]]`,
      };
    });
    const { decisionId, candidate } = await makeHarnessDecision(analyst, sim.url, items, { concurrency: 4 });
    const prisma = await db();
    const run = await startHarnessRun(analyst, decisionId, { candidateId: candidate.id, concurrency: 4 });
    const runRow = () => prisma.harnessRun.findUniqueOrThrow({ where: { id: run.id } });

    const first = startWorker();
    const partial = await poll(runRow, (r) => r.doneCount >= 8);
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    const storedAtKill = await prisma.harnessItem.findMany({
      where: { harnessRunId: run.id },
      select: { itemId: true },
    });
    expect(partial.doneCount).toBeGreaterThanOrEqual(8);
    expect(storedAtKill.length).toBeLessThan(48);

    startWorker();
    const finished = await poll(runRow, (r) => r.status === "DONE");
    expect(finished.status).toBe("DONE");
    expect(finished.doneCount).toBe(48);
    // Items stored before the kill were called once, never again.
    for (const { itemId } of storedAtKill) expect(sim.requestsFor(itemId), itemId).toBe(1);
    const evalA = await poll(
      () => prisma.evalRun.findUniqueOrThrow({ where: { id: finished.evalRunId! } }),
      (r) => r.status === "DONE",
    );

    // The same run uninterrupted (the second worker still working the queue).
    const again = await startHarnessRun(analyst, decisionId, { candidateId: candidate.id, concurrency: 4 });
    const finishedB = await poll(
      () => prisma.harnessRun.findUniqueOrThrow({ where: { id: again.id } }),
      (r) => r.status === "DONE",
    );
    const evalB = await poll(
      () => prisma.evalRun.findUniqueOrThrow({ where: { id: finishedB.evalRunId! } }),
      (r) => r.status === "DONE",
    );
    const predictions = (evalRunId: number) =>
      prisma.prediction.findMany({
        where: { evalRunId },
        orderBy: { itemId: "asc" },
        select: {
          itemId: true,
          score: true,
          predicted: true,
          parseFailure: true,
          rawOutput: true,
          inputTokens: true,
          outputTokens: true,
        },
      });
    expect(await predictions(evalA.id)).toEqual(await predictions(evalB.id));
    expect(evalA.parseFailureCount).toBe(items.filter((i) => i.text.includes("contract")).length);
    expect({ ...evalA, id: 0, computedAt: null, createdAt: null, queuedAt: null }).toEqual({
      ...evalB,
      id: 0,
      computedAt: null,
      createdAt: null,
      queuedAt: null,
    });
  }, 180_000);
});
