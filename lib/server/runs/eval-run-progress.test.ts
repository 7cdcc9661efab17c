import { describe, expect, it } from "vitest";
import { db, database } from "../db";
import { computeEvalRun } from "./eval-runs";
import { makePendingRun } from "@/test/factories";

describe("an eval run's progress", () => {
  it("moves through its phases — reading, the bootstrap (30 % to 90 %), storing — to DONE at 100 %, and the drill-down items follow", async () => {
    // 60,000 items × 1,000 replicates: the bootstrap runs on worker threads, so this thread can watch.
    const { runId } = await makePendingRun(60_000);
    const prisma = await db();
    const seen: string[] = [];
    let computing = true;
    const job = computeEvalRun(await database(), runId).finally(() => (computing = false));
    while (computing) {
      const run = await prisma.evalRun.findUniqueOrThrow({
        where: { id: runId },
        select: { status: true, progress: true },
      });
      const state = `${run.status} ${run.progress}`;
      if (seen.at(-1) !== state) seen.push(state);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await job).toBe(true);
    expect(seen).toContain("RUNNING 0.3");
    // Never backwards: each state seen comes later in the phases' order than the one before. The
    // bootstrap reports its share of replicates done between 30 % and 90 % (storing).
    const position = (state: string) => {
      const [status, progress] = [state.split(" ")[0], Number(state.split(" ")[1])];
      if (status === "PENDING") return progress === 0 ? 0 : -1;
      if (status === "DONE") return progress === 1 ? 3 : -1;
      if (status !== "RUNNING") return -1;
      return progress === 0 ? 1 : progress >= 0.3 && progress <= 0.9 ? 2 + progress : -1;
    };
    const positions = seen.map(position);
    expect(
      positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!)),
      seen.join(" → "),
    ).toBe(true);
    expect(
      await prisma.evalRun.findUniqueOrThrow({ where: { id: runId }, select: { status: true, progress: true } }),
    ).toEqual({ status: "DONE", progress: 1 });
    expect(await prisma.runItem.count({ where: { evalRunId: runId } })).toBe(60_000);
  });
});
