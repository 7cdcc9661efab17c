import { SHOWN_TEXT, type FigureText } from "@/lib/format";
import { acrossStages } from "./across-stages";
import type { PackFigures } from "./pack-data";

/**
 * Everything the pack derives from its evidence, in plain JSON (no Maps): gates, funnel, total
 * cost, rank comparison, SLO headroom, the recommended candidate and the significance of the
 * differences. The one derivation behind the page's summaries, the API, both exports and the
 * frozen revision, so all of them state the same results — the revision's sentences with
 * FROZEN_TEXT's fixed decimals, so a revision rebuilt from unchanged evidence keeps its hash.
 */
export function packResults(data: PackFigures, text: FigureText = SHOWN_TEXT) {
  const across = acrossStages(data, text);
  return {
    gates: across.gates,
    funnel: across.funnel,
    totalCostPer1k: across.totals,
    rankComparison: {
      rankings: across.ranks.rankings.map((r) => ({
        key: r.key,
        label: r.label,
        role: r.role,
        ranks: Object.fromEntries(r.ranking),
      })),
      kendallTau: across.ranks.taus,
      reversals: across.ranks.reversals,
    },
    sloHeadroom: across.headroom,
    bestCandidateId: across.bestCandidateId,
    significance: across.significance,
  };
}

export type PackResults = ReturnType<typeof packResults>;
