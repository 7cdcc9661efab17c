import { beforeAll, describe, expect, it } from "vitest";
import { summarize } from "@/lib/metrics";
import {
  DEMO_DECISION_ID,
  DEMO_SEED,
  demoCandidates,
  demoDecision,
  generateDemoItems,
  generateDemoPredictions,
} from "@/lib/demo/moderation";
import { operatingRuleOptions } from "@/lib/server/runs/operating-rule";
import { stressPrChart, stressPrecisionVsPrevalenceChart, type StressCandidate } from "./charts/stress-charts";
import { basisName, HELD_OUT_BASIS, WHAT_IF_IN_SAMPLE_BASIS } from "./operating-figures";
import type { PackData, PackRun } from "./pack-data";
import { buildRunInput, type StoredRunMetrics } from "./run-input";
import { verdictSummaryOf } from "./verdict-summary";
import { expandRoc } from "./compact-curves";
import { operatingAt, packResultsAt, whatIfBasis, whatIfPack, type WhatIfPack } from "./what-if-pack";

// Issue 25 item 7 on the demo's own data: the demo decision chooses each candidate's threshold by
// the cost-optimal rule, and its verdict judges Lynx on held-out counts (recall ≈ 0.847, below the
// 0.85 floor) although its in-sample recall at the same threshold (≈ 0.860) meets it. A what-if π
// must keep stage 4 (table and charts) on the held-out counts the verdict band uses; a what-if
// threshold makes both say "in-sample". The runs are computed as the demo seed computes them
// (lib/server/seed/demo-seed.ts → computeEvalRun): same items, predictions, split seed and rule;
// no bootstrap (no figure below depends on it).

const decision = {
  ...demoDecision,
  operatingRule: "COST_OPTIMAL" as const,
  status: "DRAFT" as const,
  archivedAt: null,
  evaluationDatasetVersionId: 1,
};
const candidates = demoCandidates.map((m, i) => ({
  id: `c${i}`,
  name: m.name,
  provider: m.provider,
  version: m.version,
  shortlistRationale: "",
  operatingThreshold: null,
  priceInputPerMTok: m.serving.pricing.inputPerMTok ?? null,
  priceOutputPerMTok: m.serving.pricing.outputPerMTok ?? null,
  pricePerHour: m.serving.pricing.perHour ?? null,
}));

function demoRun(index: number, items: ReturnType<typeof generateDemoItems>): PackRun {
  const predictions = generateDemoPredictions(demoCandidates[index]!, items, DEMO_SEED + index + 1);
  const input = buildRunInput(
    items.map((item, i) => ({
      label: item.label,
      score: predictions[i]!.score,
      predicted: predictions[i]!.predicted,
      parseFailure: predictions[i]!.parseFailure,
      missing: false,
      slice: item.slice,
    })),
  );
  const metrics: StoredRunMetrics = {
    ...summarize(input.labels, input.scores, {
      threshold: decision.operatingThreshold,
      prevalence: decision.prevalence,
      costFalseNegative: decision.costFn,
      costFalsePositive: decision.costFp,
      slices: input.slices,
      bootstrap: 0,
      ...operatingRuleOptions(decision, DEMO_DECISION_ID, input.scoreKind),
    }),
    input: { scoreKind: input.scoreKind, parseFailures: input.parseFailures, missing: input.missing },
  };
  return {
    runId: index + 1,
    candidateId: `c${index}`,
    itemCount: items.length,
    missingCount: 0,
    unknownCount: 0,
    parseFailureCount: input.parseFailures,
    computedAt: null,
    dataset: null,
    // What the page receives: the stored JSON.
    metrics: JSON.parse(JSON.stringify(metrics)) as StoredRunMetrics,
  };
}

let data: PackData;
let pack: WhatIfPack;
const lynx = () => candidates.find((c) => c.name.startsWith("Lynx"))!;
const heldOut = (id: string) => {
  const op = data.runs.find((r) => r.candidateId === id)!.metrics!.operatingPoint;
  if (!op?.applies) throw new Error("the demo's rule applies to every candidate");
  return op;
};

beforeAll(() => {
  const items = generateDemoItems();
  const runs = demoCandidates.map((_, i) => demoRun(i, items));
  data = { decision, candidates, scores: [], resemblances: [], runs, serving: [], comparisons: [] };
  pack = whatIfPack(data);
});

/** Stage 4's candidates as components/pack/stress-stage.tsx builds them for its charts. */
function stressCandidates(at: { threshold: number | null; prevalence: number }): StressCandidate[] {
  return pack.runs.map((r, i) => {
    const op = operatingAt(r, pack, at)!;
    return {
      candidate: { id: r.candidateId, name: candidates[i]!.name },
      style: { colour: "#000", dashed: false },
      roc: expandRoc(r.roc!, r.positives, r.negatives),
      pr: null,
      positives: r.positives,
      negatives: r.negatives,
      threshold: r.threshold,
      operating: {
        threshold: op.threshold,
        tpr: op.tpr,
        fpr: op.fpr,
        basis: op.figures.basis ? basisName(op.figures.basis) : null,
      },
    };
  });
}

const recallGate = (results: ReturnType<typeof packResultsAt>, id: string) =>
  results.gates.find((g) => g.candidateId === id)!.gates.find((g) => g.key === "recall-floor")!;

describe("the demo's what-if keeps stage 4 on the verdict's basis", () => {
  it("the demo holds the trap: Lynx misses the recall floor held out but meets it in-sample", () => {
    const op = heldOut(lynx().id);
    expect(op.method).toBe("cross-fitted");
    expect(op.heldOut.recall).toBeLessThan(decision.recallFloor);
    expect(op.inSample.recall).toBeGreaterThanOrEqual(decision.recallFloor);
  });

  for (const prevalence of [0.02, 0.005, 0.05, 0.2]) {
    it(`at π = ${prevalence}, stage 4's recall is the held-out recall the verdict band judges by`, () => {
      const at = { threshold: null, prevalence };
      expect(whatIfBasis(decision.operatingRule, at)).toBe("held out");
      const results = packResultsAt(pack, at);
      const band = verdictSummaryOf(pack, results, []);
      const charts = stressCandidates(at);
      const pr = stressPrChart(charts, { ...at, costFn: 50, costFp: 1, currency: "USD" });
      const pvp = stressPrecisionVsPrevalenceChart(charts, { ...at, costFn: 50, costFp: 1, currency: "USD" });
      for (const c of candidates) {
        const op = heldOut(c.id);
        const row = operatingAt(
          pack.runs.find((r) => r.candidateId === c.id)!,
          pack,
          at,
        )!;
        // Stage 4's table row
        expect(row.figures.report.atThreshold.recall).toBe(op.heldOut.recall);
        expect(row.threshold).toBe(op.threshold);
        expect(row.figures.basis).toBe(HELD_OUT_BASIS);
        // The band and the gates: the same recall, the same verdict on the floor.
        const gate = recallGate(results, c.id);
        expect(gate.detail).toContain(`recall ${op.heldOut.recall.toFixed(3)}`);
        expect(gate.pass).toBe(op.heldOut.recall >= decision.recallFloor);
        const outcome = band.outcomes.find((o) => o.candidateId === c.id)!;
        expect(outcome.failed.some((g) => g.key === "recall-floor")).toBe(!gate.pass);
        // Stage 4's charts: the operating point marked at the held-out figures.
        const marker = pr.series.find((s) => s.key === c.id)!.marker!;
        expect(marker.x).toBe(op.heldOut.recall);
        expect(marker.label).toContain("(held out)");
        const pvpMarker = pvp.series.find((s) => s.key === c.id)!.marker!;
        expect(pvpMarker.y).toBe(row.figures.report.reweighted!.precision);
        if (prevalence === decision.prevalence) {
          expect(row.figures.report.reweighted!.precision).toBe(op.heldOut.precision);
          expect(row.figures.report.reweighted!.expectedCostPer1k).toBe(op.heldOut.expectedCostPer1k);
        }
      }
      const lynxOutcome = band.outcomes.find((o) => o.candidateId === lynx().id)!;
      expect(lynxOutcome.failed.map((g) => g.key)).toContain("recall-floor");
    });
  }

  it("a what-if threshold makes stage 4 and the band both in-sample, on the same counts", () => {
    const at = { threshold: 0.3, prevalence: 0.05 };
    expect(whatIfBasis(decision.operatingRule, at)).toBe("in-sample");
    const results = packResultsAt(pack, at);
    for (const c of candidates) {
      const row = operatingAt(
        pack.runs.find((r) => r.candidateId === c.id)!,
        pack,
        at,
      )!;
      expect(row.figures.basis).toBe(WHAT_IF_IN_SAMPLE_BASIS);
      const gate = recallGate(results, c.id);
      expect(gate.detail).toContain(`recall ${row.figures.report.atThreshold.recall!.toFixed(3)}`);
      expect(gate.detail).toContain("in-sample");
    }
  });

  it("under FIXED there is no choice to hold out: no basis is named", () => {
    expect(whatIfBasis("FIXED", { threshold: null, prevalence: 0.1 })).toBeNull();
    expect(whatIfBasis(undefined, { threshold: 0.4, prevalence: 0.1 })).toBeNull();
  });
});
