/**
 * How an endpoint's request slots are shared out (issue 30): pure, so every worker computes the
 * same split from the same snapshot of who holds what.
 *
 * `shareOut(total, claims)` is water-filling in integers: `total` is divided in proportion to the
 * claims' weights; a claim never gets more than its cap, and what a capped claim leaves is divided
 * among the others in the same proportion, until the total or every cap is reached. The integer
 * units left by the proportional split go to the largest fractional parts, ties to the earlier
 * claim. So the result sums to min(total, Σ caps), and no claim below its cap is left waiting while
 * a unit is unused.
 */
export interface Claim {
  /** > 0: the claim's proportion (a run's configured concurrency; 1 for a run's chunks). */
  weight: number;
  /** The most it can use (Infinity: whatever it is given). */
  cap: number;
}

export function shareOut(total: number, claims: readonly Claim[]): number[] {
  const given = claims.map(() => 0);
  let left = Math.max(0, Math.floor(total));
  let open = claims.map((_, i) => i).filter((i) => claims[i]!.cap > 0 && claims[i]!.weight > 0);
  while (left > 0 && open.length > 0) {
    const weights = open.reduce((sum, i) => sum + claims[i]!.weight, 0);
    const ideal = (i: number) => (left * claims[i]!.weight) / weights;
    // Claims whose cap is within their proportional part take their cap; the rest is shared again.
    const capped = open.filter((i) => claims[i]!.cap - given[i]! <= ideal(i));
    if (capped.length > 0) {
      for (const i of capped) {
        left -= claims[i]!.cap - given[i]!;
        given[i] = claims[i]!.cap;
      }
      open = open.filter((i) => !capped.includes(i));
      continue;
    }
    const parts = open.map((i) => ({ i, whole: Math.floor(ideal(i)), fraction: ideal(i) % 1 }));
    let units = left;
    for (const p of parts) {
      given[p.i]! += p.whole;
      units -= p.whole;
    }
    parts.sort((a, b) => b.fraction - a.fraction || a.i - b.i);
    for (const p of parts.slice(0, units)) given[p.i]! += 1;
    left = 0;
  }
  return given;
}

/** One chunk session on an endpoint as the workers see it: its run, the slots it holds, whether it wants more. */
export interface SlotHolder {
  /** The session's identity (its PostgreSQL backend pid): orders the split the same way everywhere. */
  session: number;
  runId: number;
  /** The run's configured concurrency: its weight, and the most its chunks hold together. */
  concurrency: number;
  held: number;
  /** Wants more than it holds (items left, room in its process). */
  hungry: boolean;
}

/**
 * The slots `session` should hold now. Runs share `limit` in proportion to their concurrency, each
 * capped at its concurrency if one of its chunks is hungry and at what its chunks hold otherwise
 * (a run whose chunks are all satisfied — a chunk's tail, a full process — leaves the rest to the
 * others). A run's share is then divided equally among its chunks on the same terms, so a run
 * worked by two workers runs half its requests on each.
 */
export function slotTarget(limit: number, holders: readonly SlotHolder[], session: number): number {
  const mine = holders.find((h) => h.session === session);
  if (!mine) return 0;
  const byRun = new Map<number, SlotHolder[]>();
  for (const h of [...holders].sort((a, b) => a.session - b.session))
    byRun.set(h.runId, [...(byRun.get(h.runId) ?? []), h]);
  const runs = [...byRun.values()].sort((a, b) => a[0]!.runId - b[0]!.runId);
  const runShares = shareOut(
    limit,
    runs.map((chunks) => ({
      weight: chunks[0]!.concurrency,
      cap: chunks.some((c) => c.hungry)
        ? chunks[0]!.concurrency
        : Math.min(
            chunks[0]!.concurrency,
            chunks.reduce((sum, c) => sum + c.held, 0),
          ),
    })),
  );
  const r = runs.findIndex((chunks) => chunks[0]!.runId === mine.runId);
  const chunks = runs[r]!;
  const chunkShares = shareOut(
    runShares[r]!,
    chunks.map((c) => ({ weight: 1, cap: c.hungry ? Infinity : c.held })),
  );
  return chunkShares[chunks.indexOf(mine)]!;
}
