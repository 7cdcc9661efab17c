import { describe, expect, it } from "vitest";
import { shareOut, slotTarget, type SlotHolder } from "./fair-share";

describe("shareOut", () => {
  it("divides in proportion to the weights, the leftover units to the largest fractions", () => {
    expect(
      shareOut(16, [
        { weight: 12, cap: Infinity },
        { weight: 12, cap: Infinity },
      ]),
    ).toEqual([8, 8]);
    expect(
      shareOut(16, [
        { weight: 12, cap: Infinity },
        { weight: 4, cap: Infinity },
      ]),
    ).toEqual([12, 4]);
    // 10 × 1/3 = 3.33 each: the one unit left goes to the first.
    expect(
      shareOut(10, [
        { weight: 1, cap: Infinity },
        { weight: 1, cap: Infinity },
        { weight: 1, cap: Infinity },
      ]),
    ).toEqual([4, 3, 3]);
    // 7 × 2/3 = 4.67 and 7 × 1/3 = 2.33: the larger fraction wins the unit.
    expect(
      shareOut(7, [
        { weight: 1, cap: Infinity },
        { weight: 2, cap: Infinity },
      ]),
    ).toEqual([2, 5]);
  });

  it("gives a capped claim its cap and what it leaves to the others", () => {
    expect(
      shareOut(16, [
        { weight: 12, cap: 3 },
        { weight: 12, cap: 12 },
      ]),
    ).toEqual([3, 12]);
    expect(
      shareOut(16, [
        { weight: 1, cap: 3 },
        { weight: 1, cap: Infinity },
        { weight: 2, cap: Infinity },
      ]),
    ).toEqual([3, 4, 9]);
    // Less wanted than there is: every cap, the rest unused.
    expect(
      shareOut(16, [
        { weight: 5, cap: 2 },
        { weight: 5, cap: 5 },
      ]),
    ).toEqual([2, 5]);
    expect(shareOut(0, [{ weight: 1, cap: 4 }])).toEqual([0]);
    expect(
      shareOut(4, [
        { weight: 1, cap: 0 },
        { weight: 1, cap: Infinity },
      ]),
    ).toEqual([0, 4]);
  });
});

const holder = (session: number, runId: number, concurrency: number, held: number, hungry: boolean): SlotHolder => ({
  session,
  runId,
  concurrency,
  held,
  hungry,
});

describe("slotTarget", () => {
  it("two runs at concurrency 12 on an endpoint of 16: eight each, whoever holds what now", () => {
    const holders = [holder(101, 1, 12, 12, false), holder(202, 2, 12, 0, true)];
    expect(slotTarget(16, holders, 101)).toBe(8);
    expect(slotTarget(16, holders, 202)).toBe(8);
  });

  it("a run whose chunks want no more leaves the slots to the other (no run waits while slots are free)", () => {
    // Run 1's chunk is in its tail: 3 requests in flight, nothing more to start.
    const holders = [holder(101, 1, 12, 3, false), holder(202, 2, 12, 8, true)];
    expect(slotTarget(16, holders, 202)).toBe(12);
    expect(slotTarget(16, holders, 101)).toBe(3);
  });

  it("a run's share is split equally over its chunks on different workers, a full one's rest to the other", () => {
    // The first chunk holds all 16 and wants no more; the second arrives: half each.
    const two = [holder(101, 1, 16, 16, false), holder(202, 1, 16, 0, true)];
    expect(slotTarget(16, two, 101)).toBe(8);
    expect(slotTarget(16, two, 202)).toBe(8);
    const bothHungry = [holder(101, 1, 16, 16, true), holder(202, 1, 16, 0, true)];
    expect(slotTarget(16, bothHungry, 101)).toBe(8);
    expect(slotTarget(16, bothHungry, 202)).toBe(8);
    // The first worker's process allows it 6 requests: the other chunk takes the run's remaining 10.
    const capped = [holder(101, 1, 16, 6, false), holder(202, 1, 16, 4, true)];
    expect(slotTarget(16, capped, 202)).toBe(10);
  });

  it("three runs, one of them twice the others' concurrency, and a session that is not on the list", () => {
    const holders = [holder(1, 7, 8, 0, true), holder(2, 8, 16, 0, true), holder(3, 9, 8, 0, true)];
    expect(holders.map((h) => slotTarget(16, holders, h.session))).toEqual([4, 8, 4]);
    expect(slotTarget(16, holders, 99)).toBe(0);
  });
});
