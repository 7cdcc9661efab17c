import { eliminationFunnel, gateTable, rankComparison, sloHeadroom, totalCosts } from "./across-stages";
import type { PackFigures } from "./pack-data";
import { bestCandidateId, comparisonsAgainst } from "./significance";

/** Every across-stages result of the pack, derived once from its data (page, PDF and JSON agree). */
export function acrossStages(data: PackFigures) {
  const gates = gateTable(data);
  const funnel = eliminationFunnel(data, gates);
  const totals = totalCosts(data);
  const best = bestCandidateId(data, funnel, totals);
  return {
    gates,
    funnel,
    totals,
    ranks: rankComparison(data),
    headroom: sloHeadroom(data),
    bestCandidateId: best,
    significance: best ? comparisonsAgainst(best, data.comparisons) : [],
  };
}

export type AcrossStages = ReturnType<typeof acrossStages>;
