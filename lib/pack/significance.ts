import { formatNumber } from "@/lib/format";
import type { PackComparison, PackFigures } from "./pack-data";
import type { FunnelEntry, TotalCost } from "./stage-types";

/**
 * "Where two candidates are close, the pack says whether the difference is significant on this
 * data" (SPEC §3). The best candidate is the one with the lowest total cost per 1,000 items among
 * those passing every gate — or, when none passes, the lowest expected error cost at π. Its
 * stored paired comparisons are turned so that A is always the best candidate.
 */
export function bestCandidateId(
  data: Pick<PackFigures, "candidates">,
  funnel: readonly FunnelEntry[],
  totals: readonly TotalCost[],
): string | null {
  const survivors = new Set(funnel.filter((f) => f.fellAt === null).map((f) => f.candidateId));
  const pick = (ids: string[], value: (t: TotalCost) => number | null) =>
    totals.filter((t) => ids.includes(t.candidateId) && value(t) !== null).sort((a, b) => value(a)! - value(b)!)[0]
      ?.candidateId ?? null;
  return (
    pick([...survivors], (t) => t.totalPer1k) ??
    pick(
      data.candidates.map((c) => c.id),
      (t) => t.errorCostPer1k,
    )
  );
}

export interface OrientedComparison extends PackComparison {
  /** Δ expected cost per 1,000 items at π: its 95% interval excludes 0 — the decision's own terms. */
  costSignificant: boolean | null;
  /** ΔAP's 95% interval excludes 0. */
  apSignificant: boolean | null;
  /** McNemar p < 0.05 (every error counted alike). */
  errorsSignificant: boolean | null;
}

const excludesZero = (interval: [number, number] | null | undefined) =>
  interval ? interval[0] > 0 || interval[1] < 0 : null;

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
              deltaCostPer1k: c.deltaCostPer1k == null ? null : -c.deltaCostPer1k,
              deltaCostInterval: c.deltaCostInterval ? [-c.deltaCostInterval[1], -c.deltaCostInterval[0]] : null,
              onlyACorrect: c.onlyBCorrect,
              onlyBCorrect: c.onlyACorrect,
            };
      return {
        ...o,
        costSignificant: excludesZero(o.deltaCostInterval),
        apSignificant: excludesZero(o.deltaApInterval),
        errorsSignificant: o.mcnemarP === null ? null : o.mcnemarP < 0.05,
      };
    });
}

/**
 * What a comparison means for this decision, in words, the cost first: the decision is about
 * cost at π, and an unweighted count of errors (McNemar) can favour the candidate that costs more
 * when its errors are the expensive kind.
 */
export function significanceReading(
  o: OrientedComparison,
  name: (id: string) => string,
  money: (v: number) => string,
): string {
  const a = name(o.candidateAId);
  const b = name(o.candidateBId);
  const parts: string[] = [];
  if (o.deltaCostPer1k != null) {
    const cheaper = o.deltaCostPer1k <= 0;
    const diff = `${a} costs ${money(Math.abs(o.deltaCostPer1k))} ${cheaper ? "less" : "more"} per 1,000 items at π than ${b}`;
    parts.push(
      o.costSignificant
        ? `${diff}: significant on this data`
        : `${diff}, but the interval includes no difference: not significant on this data`,
    );
  }
  if (o.deltaAp !== null)
    parts.push(
      o.apSignificant
        ? `AP ${o.deltaAp > 0 ? "higher" : "lower"} by ${formatNumber(Math.abs(o.deltaAp))}, significantly`
        : "AP difference not significant",
    );
  if (o.errorsSignificant !== null) {
    const fewer = o.onlyACorrect >= o.onlyBCorrect ? a : b;
    parts.push(
      o.errorsSignificant
        ? `counting every error alike, ${fewer} makes significantly fewer${fewer !== a && o.costSignificant && (o.deltaCostPer1k ?? 0) < 0 ? ` — yet costs more, because its errors are the expensive kind` : ""}`
        : "counting every error alike, the error counts do not differ significantly",
    );
  }
  return parts.join("; ") + ".";
}
