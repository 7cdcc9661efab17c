import { eliminationFunnel, gateTable, rankComparison, sloHeadroom, totalCosts } from "./across-stages";
import { runFigures } from "./operating-figures";
import type { PackFigures } from "./pack-data";
import { bestCandidateId, comparisonsAgainst } from "./significance";

/** Every across-stages result of the pack, derived once from its data (page, PDF and JSON agree). */
export function acrossStages(packFigures: PackFigures) {
  // Each run judged at its own operating point: held-out figures where the decision's rule chose it.
  const data = { ...packFigures, runs: packFigures.runs.map((r) => ({ candidateId: r.candidateId, metrics: r.metrics && runFigures(r.metrics) })) };
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
