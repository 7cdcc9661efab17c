import { randomInt } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { LABEL_PROTOCOL } from "@/test/harness-fixtures";
import { makeActor, makeDecision } from "@/test/factories";
import { database, db } from "../db";
import { ChunkSlots, lockChunk, openSlotSession, type SlotSession } from "./slots";

const sessions: SlotSession[] = [];
afterAll(async () => {
  for (const s of sessions) await s.close();
});

async function session() {
  const s = await openSlotSession(await database());
  sessions.push(s);
  /** The advisory locks this session holds now (slots, its chunk lock, its hungry mark). */
  const locks = async () =>
    Number(
      (
        await s.client!.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = $1 AND granted",
          [s.pid],
        )
      ).rows[0]!.n,
    );
  return { s, locks };
}

/** A HarnessRun row: the slots read a run's concurrency from it. */
async function harnessRun(candidateId: string, concurrency: number) {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  return prisma.harnessRun.create({
    data: {
      decisionId,
      candidateId,
      datasetVersionId: 0,
      concurrency,
      protocol: LABEL_PROTOCOL as object,
      protocolSha256: "x",
      endpoint: {},
      itemCount: 1000,
      chunkSize: 256,
      createdById: analyst.id,
    },
    select: { id: true, concurrency: true, candidateId: true },
  });
}

async function candidate() {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  return (await db()).candidate.create({
    data: { decisionId, name: `slots-${randomInt(1e9)}`, provider: "test" },
    select: { id: true },
  });
}

/** A chunk of `run` on its own session, as executeChunk holds it. */
async function chunkOf(run: { id: number; concurrency: number; candidateId: string }, chunk: number, limit: number) {
  const { s, locks } = await session();
  expect(await lockChunk(s, run.id, chunk)).toBe(true);
  const slots = new ChunkSlots(s, run, limit);
  let allowed = -1;
  const rebalance = async (want: number) => {
    await slots.rebalance(
      () => want,
      (a) => (allowed = a),
    );
    return allowed;
  };
  return { slots, locks, rebalance };
}

describe("request slots across workers", () => {
  it("never exceed the run's concurrency or the endpoint's limit, and hold no lock beyond the slots taken", async () => {
    const { id: candidateId } = await candidate();
    // A run of concurrency 5 on an endpoint limited to 4.
    const run = await harnessRun(candidateId, 5);
    const a = await chunkOf(run, 0, 4);
    expect(await a.rebalance(3)).toBe(3);
    expect(await a.locks()).toBe(1 + 6); // its chunk, run slots 0–2, endpoint slots 0–2; not hungry

    // A second chunk of the run: the run's share is split, but only one endpoint slot is free now.
    const b = await chunkOf(run, 1, 4);
    expect(await b.rebalance(5)).toBe(1);
    expect(await b.locks()).toBe(1 + 2 + 1); // + its hungry mark
    // The first chunk's share is now 2 (4 split equally over two chunks, one hungry).
    expect(await a.rebalance(3)).toBe(2);
    await a.slots.settle(() => 2);
    expect(a.slots.held).toBe(2);
    expect(await b.rebalance(5)).toBe(2);
    expect(a.slots.held + b.slots.held).toBe(4);

    await a.slots.release();
    await b.slots.release();
    expect(await a.locks()).toBe(1);
    expect(await b.locks()).toBe(1);
  });

  it("two runs at concurrency 12 on an endpoint of 16: the first gives way to 8 and 8, none left free", async () => {
    const { id: candidateId } = await candidate();
    const x = await harnessRun(candidateId, 12);
    const y = await harnessRun(candidateId, 12);
    const a = await chunkOf(x, 0, 16);
    expect(await a.rebalance(256)).toBe(12);
    const b = await chunkOf(y, 0, 16);
    // Four slots are free: taken at once, and it is hungry for its share of 8.
    expect(await b.rebalance(256)).toBe(4);
    expect(await a.rebalance(256)).toBe(8);
    await a.slots.settle(() => 8);
    expect(await b.rebalance(256)).toBe(8);
    expect([a.slots.held, b.slots.held]).toEqual([8, 8]);
    // The first run's chunk reaches its tail (3 requests left): the other takes what it leaves, up to its 12.
    expect(await a.rebalance(3)).toBe(3);
    await a.slots.settle(() => 3);
    expect(await b.rebalance(256)).toBe(12);
    expect(await b.locks()).toBe(1 + 24); // no longer hungry: at its run's concurrency
    await a.slots.release();
    await b.slots.release();
  });
});
