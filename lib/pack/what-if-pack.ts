import { expectedCostPer1k } from "@/lib/metrics/cost";
import type { OperatingRuleKind } from "@/lib/metrics/threshold-rule";
import { wilsonInterval } from "@/lib/metrics/intervals";
import { acrossStages } from "./across-stages";
import { compactRoc, expandRoc, type CompactCurve } from "./compact-curves";
import type { PackData, PackFigures, RunFigures } from "./pack-data";
import { basisName, runFigures, WHAT_IF_IN_SAMPLE_BASIS } from "./operating-figures";
import { packResults } from "./pack-results";
import { costModel, precisionAtPrevalence, whatIfAt } from "./what-if";

/**
 * "What if" for the whole pack (issue 10 item 4): the committee's threshold and prevalence
 * controls move the gates, the funnel, the total cost and the verdict, in the browser, through the
 * same `acrossStages()` / `packResults()` the server, the exports and the frozen revision use —
 * only the runs' figures are replaced. A `WhatIfPack` is the pack's data with each run reduced to
 * its stored figures, its confusion counts at its operating threshold and its stored ROC points as
 * counts: small enough to send to the page, exact at every stored point.
 *
 * At the stored parameters the stored figures are used unchanged, so the what-if derivation then
 * equals the stored results exactly. Otherwise, per SPEC §4 at threshold t and prevalence π, with
 * the metrics engine's formulas (through what-if.ts):
 *   recall = TP/P (unchanged by π), its Wilson 95% interval from (TP, P),
 *   precision_π = π·TPR / (π·TPR + (1−π)·FPR),
 *   expected cost per 1,000 = 1000·(π·(1−TPR)·C_FN + (1−π)·FPR·C_FP),
 * with (TP, FP) the run's stored counts when t is each candidate's own threshold, else the stored
 * ROC point for t (`pointAtThreshold`: the lowest stored threshold ≥ t, as stage 4 shows it).
 * AP at π needs every item: it is kept when π is the stored one (AP does not depend on t) and is
 * undefined (null) at another π, never a figure from the downsampled points.
 */
export interface WhatIfRun {
  candidateId: string;
  /** The stored figures, at the decision's π and the run's operating threshold. */
  stored: RunFigures;
  positives: number;
  negatives: number;
  /** The run's operating threshold and its confusion counts there (from every item). */
  threshold: number;
  tp: number;
  fp: number;
  /** The stored (downsampled) ROC points as counts. */
  roc: CompactCurve | null;
}

export interface WhatIfPack extends Omit<PackFigures, "runs"> {
  runs: WhatIfRun[];
}

/** null threshold: each candidate at its own stored operating threshold. */
export interface WhatIfParameters {
  threshold: number | null;
  prevalence: number;
}

/** The pack's data reduced to what the what-if needs (server side, once per page). */
export function whatIfPack(data: PackData): WhatIfPack {
  const { decision, candidates, scores, serving, comparisons } = data;
  const runs = data.runs.flatMap((r): WhatIfRun[] => {
    const m = r.metrics;
    if (!m) return [];
    const figures = runFigures(m);
    const { reweighted } = figures.report;
    const stored: RunFigures = {
      report: {
        n: figures.report.n,
        atThreshold: { recall: figures.report.atThreshold.recall },
        ...(reweighted
          ? {
              reweighted: {
                averagePrecision: reweighted.averagePrecision,
                precision: reweighted.precision,
                expectedCostPer1k: reweighted.expectedCostPer1k,
              },
            }
          : {}),
      },
      recallInterval: figures.recallInterval,
      ...(figures.basis ? { basis: figures.basis } : {}),
    };
    // Under a rule, a what-if π keeps each candidate's chosen threshold and its held-out counts.
    const heldOut = m.operatingPoint?.applies ? m.operatingPoint.heldOut : null;
    return [
      {
        candidateId: r.candidateId,
        stored,
        positives: m.positives,
        negatives: m.negatives,
        threshold: m.parameters.threshold,
        tp: heldOut?.tp ?? m.report.atThreshold.tp,
        fp: heldOut?.fp ?? m.report.atThreshold.fp,
        roc: m.curves.roc ? compactRoc(m.curves.roc, m.positives, m.negatives) : null,
      },
    ];
  });
  return { decision, candidates, scores, serving, comparisons, runs };
}

export function isStoredParameters(pack: Pick<WhatIfPack, "decision">, at: WhatIfParameters): boolean {
  return at.threshold === null && at.prevalence === pack.decision.prevalence;
}

/**
 * Which figures a what-if shows under the decision's rule (issue 25 item 7) — the one rule the
 * verdict band, stage 4 and the gates, funnel and total cost all follow, so a screen never mixes
 * two bases:
 *   - FIXED (or no rule): no choice was made on the items; the figures are on all of them (null);
 *   - a choosing rule, each candidate at its chosen threshold (any π): "held out" — the held-out
 *     counts the stored verdict uses, re-weighted to π (recall, a count ratio, does not move);
 *   - a choosing rule with a what-if threshold: "in-sample" — the threshold overrides the rule and
 *     its counts are read on the same items it is shown on.
 * A run whose rule could not cross-fit (a half lacked a class) says so in its own basis.
 */
export type WhatIfBasis = "held out" | "in-sample" | null;

export function whatIfBasis(rule: OperatingRuleKind | null | undefined, at: WhatIfParameters): WhatIfBasis {
  if (!rule || rule === "FIXED") return null;
  return at.threshold === null ? "held out" : "in-sample";
}

/** A run's figures at the what-if's parameters, with the operating point they are read at. */
export interface OperatingAt {
  figures: RunFigures;
  /** The stored threshold the figures are at (null: above every score, nothing predicted positive). */
  threshold: number | null;
  /** TPR and FPR there, on the figures' basis (the held-out counts under a rule at its chosen threshold). */
  tpr: number;
  fpr: number;
}

/** One run at the what-if's parameters, by {@link whatIfBasis}'s rule: what stage 4 and the gates both read. */
export function operatingAt(
  run: WhatIfRun,
  pack: Pick<WhatIfPack, "decision">,
  at: WhatIfParameters,
): OperatingAt | null {
  const { positives: p, negatives: n } = run;
  const rates = { tpr: p > 0 ? run.tp / p : 0, fpr: n > 0 ? run.fp / n : 0 };
  if (isStoredParameters(pack, at)) return { figures: run.stored, threshold: run.threshold, ...rates };
  const costs = { prevalence: at.prevalence, costFn: pack.decision.costFn, costFp: pack.decision.costFp };
  let tp = run.tp;
  let threshold: number | null = run.threshold;
  let { tpr, fpr } = rates;
  if (at.threshold !== null) {
    if (!run.roc || p === 0) return null;
    const point = whatIfAt(expandRoc(run.roc, p, n), at.threshold, costs);
    ({ recall: tpr, fpr, storedThreshold: threshold } = point);
    tp = Math.round(tpr * p);
  }
  const recallInterval = at.threshold === null ? run.stored.recallInterval : wilsonInterval(tp, p).value;
  const stored = run.stored.report.reweighted;
  // The stored basis (held out) holds at the chosen threshold; a what-if threshold is in-sample.
  const basis = run.stored.basis && (at.threshold === null ? run.stored.basis : WHAT_IF_IN_SAMPLE_BASIS);
  const figures: RunFigures = {
    report: {
      n: run.stored.report.n,
      atThreshold: { recall: p > 0 ? tpr : null },
      ...(stored
        ? {
            reweighted: {
              averagePrecision: at.prevalence === pack.decision.prevalence ? stored.averagePrecision : null,
              precision: n > 0 ? precisionAtPrevalence(tpr, fpr, at.prevalence) : null,
              expectedCostPer1k: p > 0 && n > 0 ? expectedCostPer1k(tpr, fpr, costModel(costs)) : null,
            },
          }
        : {}),
    },
    recallInterval,
    ...(basis ? { basis } : {}),
  };
  return { figures, threshold, tpr, fpr };
}

/** One run's figures at the what-if's parameters. */
export function figuresAt(run: WhatIfRun, pack: Pick<WhatIfPack, "decision">, at: WhatIfParameters): RunFigures | null {
  return operatingAt(run, pack, at)?.figures ?? null;
}

/** The pack's figures at the what-if's parameters (the decision's π replaced, so gate details name it). */
export function packFiguresAt(pack: WhatIfPack, at: WhatIfParameters): PackFigures {
  const stored = isStoredParameters(pack, at);
  return {
    ...pack,
    decision: stored ? pack.decision : { ...pack.decision, prevalence: at.prevalence },
    runs: pack.runs.map((r) => ({ candidateId: r.candidateId, metrics: figuresAt(r, pack, at) })),
  };
}

export const acrossStagesAt = (pack: WhatIfPack, at: WhatIfParameters) => acrossStages(packFiguresAt(pack, at));
export const packResultsAt = (pack: WhatIfPack, at: WhatIfParameters) => packResults(packFiguresAt(pack, at));

/**
 * Where stage 4's charts mark a candidate (`StressCandidate.operating`): the point its figures are
 * read at, on their basis — the page (at the what-if's parameters) and the PDF (at the stored
 * ones) both draw it from here, so a chart never marks another basis than its table states.
 */
export function stressMarker(op: OperatingAt): {
  threshold: number | null;
  tpr: number;
  fpr: number;
  basis: string | null;
} {
  return {
    threshold: op.threshold,
    tpr: op.tpr,
    fpr: op.fpr,
    basis: op.figures.basis ? basisName(op.figures.basis) : null,
  };
}
