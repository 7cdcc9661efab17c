import { randomInt } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { database } from "../db";
import { openSlotSession, takeSlots, type SlotSession } from "./slots";

const sessions: SlotSession[] = [];
afterAll(async () => {
  for (const s of sessions) await s.close();
});

async function session() {
  const s = await openSlotSession(await database());
  sessions.push(s);
  const pid = (await s.client!.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  /** The advisory locks this session holds now. */
  const locks = async () =>
    Number(
      (
        await s.client!.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = $1 AND granted",
          [pid],
        )
      ).rows[0]!.n,
    );
  return { s, locks };
}

describe("request slots across workers", () => {
  it("share a run's concurrency and an endpoint's limit, and hold no lock beyond the slots taken", async () => {
    // A run of concurrency 5 on an endpoint limited to 4 (ids unlikely to meet another test's).
    const run = { id: 1_000_000 + randomInt(1_000_000), concurrency: 5, candidateId: `slots-${randomInt(1e9)}` };
    const a = await session();
    const b = await session();
    const c = await session();

    const takenA = await takeSlots(a.s, run, 4, 3);
    expect(takenA.held).toBe(3);
    expect(await a.locks()).toBe(6); // run slots 0–2, endpoint slots 0–2

    // Two run slots are left but one endpoint slot: the second run slot is given back.
    const takenB = await takeSlots(b.s, run, 4, 5);
    expect(takenB.held).toBe(1);
    expect(await b.locks()).toBe(2);

    // A run slot is free, no endpoint slot: nothing held.
    const takenC = await takeSlots(c.s, run, 4, 5);
    expect(takenC.held).toBe(0);
    expect(await c.locks()).toBe(0);

    await takenA.release();
    expect(await a.locks()).toBe(0);
    const again = await takeSlots(c.s, run, 4, 5);
    expect(again.held).toBe(3);
    expect(await c.locks()).toBe(6);
    await again.release();
    await takenB.release();
    expect((await c.locks()) + (await b.locks())).toBe(0);
  });
});
