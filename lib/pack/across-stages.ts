import { SHOWN_TEXT, type FigureText } from "@/lib/format";
import { candidateGates, failedGates, type Gate } from "./gates";
import { runFigures } from "./operating-figures";
import type { PackFigures } from "./pack-data";
import { costPer1kRequests, highestPassingConcurrency, rowAtSloConcurrency } from "./serving";
import { kendallTau, rankBy, rankReversals, type NamedRanking, type Reversal } from "./ranks";
import { scoreTables } from "./score-tables";
import { bestCandidateId, comparisonsAgainst } from "./significance";
import type { FunnelEntry, TotalCost } from "./stage-types";

/**
 * The gate table, the elimination funnel, the total cost and the rank comparison (SPEC §3
 * "Across stages"), pure, from stored evidence. Stages 1–2 never eliminate a candidate: they
 * are shortlisting evidence only.
 */
export interface CandidateGates {
  candidateId: string;
  gates: Gate[];
  /** Recall's 95% interval lower bound meets the floor too (a stricter reading of the same gate). */
  recallLowerBoundMeetsFloor: boolean | null;
  passes: boolean;
}

export function gateTable(data: PackFigures, text: FigureText = SHOWN_TEXT): CandidateGates[] {
  const d = data.decision;
  return data.candidates.map((c) => {
    const run = data.runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
    const gates = candidateGates(
      d,
      c,
      run,
      data.serving.filter((s) => s.candidateId === c.id),
      text,
    );
    const lower = run?.recallInterval?.[0] ?? null;
    return {
      candidateId: c.id,
      gates,
      recallLowerBoundMeetsFloor: lower === null ? null : lower >= d.recallFloor,
      passes: failedGates(gates).length === 0,
    };
  });
}

/** At which stage each rejected candidate fell and why: its first failing stage's failing gates. */
export function eliminationFunnel(data: PackFigures, gates: CandidateGates[] = gateTable(data)): FunnelEntry[] {
  return data.candidates.map((c) => {
    const g = gates.find((x) => x.candidateId === c.id)!;
    const failing = g.gates.filter((x) => x.pass !== true);
    const fellAt = failing.length ? (Math.min(...failing.map((x) => x.stage)) as 3 | 4 | 5) : null;
    return {
      candidateId: c.id,
      name: c.name,
      fellAt,
      reasons: failing.filter((x) => x.stage === fellAt).map((x) => `${x.label}: ${x.detail}`),
    };
  });
}

export function totalCosts(data: PackFigures): TotalCost[] {
  return data.candidates.map((c) => {
    const run = data.runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
    const errorCostPer1k = run?.report.reweighted?.expectedCostPer1k ?? null;
    const row = rowAtSloConcurrency(
      data.decision,
      data.serving.filter((s) => s.candidateId === c.id),
    );
    const servingCostPer1k = row ? costPer1kRequests(c, row) : null;
    return {
      candidateId: c.id,
      errorCostPer1k,
      servingCostPer1k,
      totalPer1k: errorCostPer1k !== null && servingCostPer1k !== null ? errorCostPer1k + servingCostPer1k : null,
    };
  });
}

/** The suite of a stage most candidates have a score on (the headline suite). */
/** Every stage 1–2 table (suite and metric) that ranks at least two candidates, the stage's headline first. */
function shortlistingRankings(data: PackFigures): NamedRanking[] {
  return (["LEADERBOARD", "PREFERENCE"] as const).flatMap((stage) =>
    scoreTables(data.scores, stage)
      .filter((t) => t.scores.size >= 2)
      .map((t) => ({ key: `${stage.toLowerCase()}:${t.suite}:${t.metric}`, label: t.label, ranking: t.ranking })),
  );
}

export interface RankComparison {
  candidates: { id: string; name: string }[];
  rankings: (NamedRanking & { role: "shortlisting" | "verdict" })[];
  /** Kendall's τ-b of each shortlisting ranking against each verdict ranking. */
  taus: { a: string; b: string; tau: number | null }[];
  reversals: Reversal[];
}

export function rankComparison(data: PackFigures, text: FigureText = SHOWN_TEXT): RankComparison {
  const pct = text.percent(data.decision.prevalence, 0);
  const metricsOf = (id: string) => data.runs.find((r) => r.candidateId === id)?.metrics ?? null;
  const shortlisting = shortlistingRankings(data);
  const verdict: NamedRanking[] = [
    {
      key: "ap-at-prevalence",
      label: `AP at ${pct} prevalence`,
      ranking: rankBy(
        new Map(data.candidates.map((c) => [c.id, metricsOf(c.id)?.report.reweighted?.averagePrecision])),
        true,
      ),
    },
    {
      key: "recall",
      label: `recall at ${pct} prevalence`,
      ranking: rankBy(new Map(data.candidates.map((c) => [c.id, metricsOf(c.id)?.report.atThreshold.recall])), true),
    },
    {
      key: "expected-cost",
      label: "expected cost",
      ranking: rankBy(
        new Map(data.candidates.map((c) => [c.id, metricsOf(c.id)?.report.reweighted?.expectedCostPer1k])),
        false,
      ),
    },
  ];
  const taus = shortlisting.flatMap((a) =>
    verdict.map((b) => ({ a: a.label, b: b.label, tau: kendallTau(a.ranking, b.ranking) })),
  );
  const candidates = data.candidates.map((c) => ({ id: c.id, name: c.name }));
  return {
    candidates,
    rankings: [
      ...shortlisting.map((r) => ({ ...r, role: "shortlisting" as const })),
      ...verdict.map((r) => ({ ...r, role: "verdict" as const })),
    ],
    taus,
    reversals: rankReversals(candidates, shortlisting, verdict, text),
  };
}

/** The highest concurrency meeting every latency and cost SLO, per candidate. */
export function sloHeadroom(data: PackFigures) {
  return data.candidates.map((c) => {
    const row = highestPassingConcurrency(
      data.decision,
      c,
      data.serving.filter((s) => s.candidateId === c.id),
    );
    return {
      candidateId: c.id,
      concurrency: row?.concurrency ?? null,
      costPer1k: row ? costPer1kRequests(c, row) : null,
    };
  });
}

/**
 * Every across-stages result of the pack, derived once from its data (page, PDF and JSON agree);
 * `text` is how its sentences write numbers (FROZEN_TEXT only for a pack revision's content).
 */
export function acrossStages(packFigures: PackFigures, text: FigureText = SHOWN_TEXT) {
  // Each run judged at its own operating point: held-out figures where the decision's rule chose it.
  const data = {
    ...packFigures,
    runs: packFigures.runs.map((r) => ({ candidateId: r.candidateId, metrics: r.metrics && runFigures(r.metrics) })),
  };
  const gates = gateTable(data, text);
  const funnel = eliminationFunnel(data, gates);
  const totals = totalCosts(data);
  const best = bestCandidateId(data, funnel, totals);
  return {
    gates,
    funnel,
    totals,
    ranks: rankComparison(data, text),
    headroom: sloHeadroom(data),
    bestCandidateId: best,
    significance: best ? comparisonsAgainst(best, data.comparisons) : [],
  };
}

export type AcrossStages = ReturnType<typeof acrossStages>;
