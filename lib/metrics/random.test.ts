import { describe, expect, it } from "vitest";
import { countUniformDraws, fillUniformIndices, nibbleCountBytes, Xoshiro128 } from "./random";

const nibble = (counts: Uint8Array, i: number) => (counts[i >> 1]! >> ((i & 1) << 2)) & 15;

describe("countUniformDraws", () => {
  it.each([
    [1, 1],
    [13, 13],
    [1000, 999],
    [0x200001, 300], // past 2²¹: the generic nextIndex path
  ])("counts the draws fillUniformIndices stores (n = %i, %i draws)", (n, draws) => {
    const drawn = new Uint32Array(draws);
    fillUniformIndices(new Xoshiro128(5), drawn, n);
    const expected = new Map<number, number>();
    for (const i of drawn) expected.set(i, (expected.get(i) ?? 0) + 1);
    const counts = new Uint8Array(nibbleCountBytes(n));
    const rng = new Xoshiro128(5);
    expect(countUniformDraws(rng, counts, draws, n)).toBe(true);
    for (let i = 0; i < n; i++) if (nibble(counts, i) !== (expected.get(i) ?? 0)) throw new Error(`item ${i}`);
    // The stream has moved on exactly as far as fillUniformIndices took it.
    const after = new Xoshiro128(5);
    fillUniformIndices(after, new Uint32Array(draws), n);
    expect(rng.nextUint32()).toBe(after.nextUint32());
  });

  it.each([
    [1, 16], // one item's count passes 15 by carrying into its neighbour's nibble
    [2, 40],
    [3, 100], // and by wrapping out of the byte
    [0x200001, 1], // control: no overflow
  ])("says whether a count passed 15 (n = %i, %i draws)", (n, draws) => {
    const counts = new Uint8Array(nibbleCountBytes(n));
    expect(countUniformDraws(new Xoshiro128(1), counts, draws, n)).toBe(draws / n < 1);
  });
});
