/**
 * xoshiro128** (Blackman & Vigna, 2018), a small, fast, well-tested 32-bit PRNG, seeded by
 * SplitMix32 so that any integer seed gives a well-mixed state. Deterministic across platforms:
 * the same seed gives the same stream, so the same input gives the same bootstrap interval.
 */
export class Xoshiro128 {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      // SplitMix32 (Steele, Lea & Flood)
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.d = 1;
  }

  exportState(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  importState(state: readonly [number, number, number, number]): void {
    [this.a, this.b, this.c, this.d] = state;
  }

  /** Next uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits. */
  nextDouble(): number {
    return ((this.nextUint32() >>> 5) * 67108864 + (this.nextUint32() >>> 6)) / 9007199254740992;
  }

  /**
   * Uniform integer in [0, n), exactly uniform for n ≤ 2³²: u mod n with rejection of the
   * incomplete last run of u (u ≥ limit). Larger n use a 53-bit double.
   */
  nextIndex(n: number): number {
    if (n <= 4294967296) {
      const limit = 4294967296 - (4294967296 % n);
      let u = this.nextUint32();
      while (u >= limit) u = this.nextUint32();
      return u % n;
    }
    return Math.floor(this.nextDouble() * n);
  }
}

/**
 * Fill `out` with uniform integers in [0, n), n ≤ 2²¹, by Lemire's multiply-shift with rejection
 * (exactly uniform: for u uniform in [0, 2³²), m = u·n is exact in a double; reject when
 * m mod 2³² < 2³² mod n), drawing from `rng`'s stream. The state is kept in locals: this loop
 * is the bootstrap's hot path. ⌊m / 2³²⌋ is taken as m·2⁻³² truncated to an int32 (exact, m < 2⁵³
 * and the quotient < 2²¹): the same value as Math.floor, but V8 then indexes with an integer
 * instead of converting a double per access (about 10% of a 1M-item replicate's draw).
 */
export function fillUniformIndices(rng: Xoshiro128, out: Uint32Array, n: number): void {
  if (n > 0x200000 || n < 1) {
    for (let i = 0; i < out.length; i++) out[i] = rng.nextIndex(n);
    return;
  }
  const threshold = 4294967296 % n;
  const state = rng.exportState();
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  for (let i = 0; i < out.length;) {
    const u = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    const m = u * n;
    const index = (m * 2.3283064365386963e-10) | 0; // ⌊m / 2³²⌋: exact (a power of 2), as an int32
    if (m - index * 4294967296 < threshold) continue;
    out[i++] = index;
  }
  rng.importState([a, b, c, d]);
}

/**
 * The same draws as {@link fillUniformIndices} (the same stream, the same rejections), counted
 * instead of stored: item i's count, how many of the `draws` uniform indices in [0, n) were i, is
 * the nibble `(counts[i >> 1] >> 4·(i & 1)) & 15` (see {@link nibbleCountBytes}). One pass and half
 * a byte per item instead of a word per draw: at 1M items the counts fit in a core's L2 cache,
 * which makes these random increments about 15% faster than with a byte per item, and the
 * bootstrap's histogram is then a sequential walk over the items' multiplicities.
 * Returns false when a count passed 15 (then `counts` is unusable and `rng` has moved on: the
 * caller restores the state it saved and draws with fillUniformIndices). Rather than a test per
 * draw, the nibbles are summed once at the end: every overflow loses 14 to 30 from that sum (a
 * carry into the next nibble or out of the byte), so it equals `draws` exactly when none occurred.
 */
export function countUniformDraws(rng: Xoshiro128, counts: Uint8Array, draws: number, n: number): boolean {
  if (n > 0x200000 || n < 1) {
    for (let i = 0; i < draws; i++) {
      const index = rng.nextIndex(n);
      counts[index >>> 1]! += 1 << ((index & 1) << 2);
    }
    return nibbleSum(counts) === draws;
  }
  const threshold = 4294967296 % n;
  const state = rng.exportState();
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  for (let i = 0; i < draws;) {
    const u = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    const m = u * n;
    const index = (m * 2.3283064365386963e-10) | 0; // ⌊m / 2³²⌋: exact (a power of 2), as an int32
    if (m - index * 4294967296 < threshold) continue;
    counts[index >>> 1]! += 1 << ((index & 1) << 2);
    i++;
  }
  rng.importState([a, b, c, d]);
  return nibbleSum(counts) === draws;
}

/** Bytes holding a count of 4 bits for each of n items, padded to whole 32-bit words. */
export function nibbleCountBytes(n: number): number {
  return ((n + 7) >>> 3) << 2;
}

/** Σ of every nibble of `counts`, four bytes at a time (any byte order: all bytes are summed). */
function nibbleSum(counts: Uint8Array): number {
  const words = new Uint32Array(counts.buffer, counts.byteOffset, counts.length >>> 2);
  let sum = 0;
  for (let w = 0; w < words.length; w++) {
    const x = words[w] as number;
    const bytes = (x & 0x0f0f0f0f) + ((x >>> 4) & 0x0f0f0f0f); // four sums ≤ 30
    sum += Math.imul(bytes, 0x01010101) >>> 24; // their total, ≤ 120, in the top byte
  }
  for (let i = words.length << 2; i < counts.length; i++)
    sum += ((counts[i] as number) & 15) + ((counts[i] as number) >>> 4);
  return sum;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Seed of replicate b derived from a base seed, so replicates can be split across workers. */
export function replicateSeed(seed: number, replicate: number): number {
  return (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(replicate + 1, 0x85ebca77)) >>> 0;
}
