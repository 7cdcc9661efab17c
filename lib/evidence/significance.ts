import type { FunnelEntry, TotalCost } from "./across-stages";
import type { PackComparison, PackData } from "./pack-data";

/**
 * "Where two candidates are close, the pack says whether the difference is significant on this
 * data" (SPEC §3). The best candidate is the one with the lowest total cost per 1,000 items among
 * those passing every gate — or, when none passes, the lowest expected error cost at π. Its
 * stored paired comparisons are turned so that A is always the best candidate.
 */
export function bestCandidateId(data: PackData, funnel: readonly FunnelEntry[], totals: readonly TotalCost[]): string | null {
  const survivors = new Set(funnel.filter((f) => f.fellAt === null).map((f) => f.candidateId));
  const pick = (ids: string[], value: (t: TotalCost) => number | null) =>
    totals.filter((t) => ids.includes(t.candidateId) && value(t) !== null).sort((a, b) => value(a)! - value(b)!)[0]?.candidateId ?? null;
  return pick([...survivors], (t) => t.totalPer1k) ?? pick(data.candidates.map((c) => c.id), (t) => t.errorCostPer1k);
}

export interface OrientedComparison extends PackComparison {
  /** ΔAP's 95% interval excludes 0. */
  apSignificant: boolean | null;
  /** McNemar p < 0.05. */
  errorsSignificant: boolean | null;
}

export function comparisonsAgainst(bestId: string, comparisons: readonly PackComparison[]): OrientedComparison[] {
  return comparisons
    .filter((c) => c.candidateAId === bestId || c.candidateBId === bestId)
    .map((c) => {
      const o: PackComparison =
        c.candidateAId === bestId
          ? c
          : {
              ...c,
              candidateAId: c.candidateBId,
              candidateBId: c.candidateAId,
              deltaAp: c.deltaAp === null ? null : -c.deltaAp,
              deltaApInterval: c.deltaApInterval ? [-c.deltaApInterval[1], -c.deltaApInterval[0]] : null,
              onlyACorrect: c.onlyBCorrect,
              onlyBCorrect: c.onlyACorrect,
            };
      return {
        ...o,
        apSignificant: o.deltaApInterval ? o.deltaApInterval[0] > 0 || o.deltaApInterval[1] < 0 : null,
        errorsSignificant: o.mcnemarP === null ? null : o.mcnemarP < 0.05,
      };
    });
}
