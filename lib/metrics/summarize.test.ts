import { describe, expect, it } from "vitest";
import { caseInputs, loadSklearnFixtures } from "../../test/fixtures/sklearn/load";
import { summarize } from "./index";

const fixtures = loadSklearnFixtures();
const byName = (name: string) => fixtures.cases.find((c) => c.name === name)!;

describe("summarize (stored RunMetrics)", () => {
  it("agrees with scikit-learn on the 200,000-item case and stores small curves", () => {
    const c = byName("large-200k");
    const { labels, scores } = caseInputs(c);
    const run = summarize(labels, scores, {
      threshold: 0.3,
      prevalence: 0.01,
      costFalseNegative: 50,
      costFalsePositive: 1,
      bootstrap: 50,
      seed: 1,
      maxCurvePoints: 150,
    });
    expect(Math.abs(run.report.averagePrecision! - c.expected.ap!)).toBeLessThanOrEqual(1e-9);
    expect(Math.abs(run.report.reweighted!.averagePrecision! - c.expected.weighted!.ap!)).toBeLessThanOrEqual(1e-9);
    const pr = run.curves.pr!;
    expect(pr.fullLength).toBe(c.expected.pr.length);
    expect(pr.x.length).toBeLessThanOrEqual(150);
    // ends of scikit-learn's curve: full recall at the lowest threshold, then (recall 0, precision 1)
    expect(pr.x[0]).toBe(1);
    expect([pr.x.at(-1), pr.y.at(-1), pr.thresholds.at(-1)]).toEqual([0, 1, null]);
    // the operating point is kept and is the smallest score ≥ t
    const op = pr.operatingIndex!;
    expect(pr.thresholds[op]).toBeGreaterThanOrEqual(0.3);
    const at = c.expected.at.find((a) => a.threshold === 0.3)!;
    expect(Math.abs(pr.y[op]! - at.precision!)).toBeLessThanOrEqual(1e-9);
    expect(Math.abs(pr.x[op]! - at.recall!)).toBeLessThanOrEqual(1e-9);
    expect(run.curves.roc!.x.length).toBeLessThanOrEqual(150);
    expect(run.curves.roc!.x[run.curves.roc!.operatingIndex!]).toBeCloseTo(at.fpr!, 12);
    expect(run.curves.cost!.y.length).toBeLessThanOrEqual(150);
    expect(run.costOptimum!.expectedCostPer1k).toBeLessThanOrEqual(Math.min(...run.curves.cost!.y));
    expect(run.report.intervals!.averagePrecision![0]).toBeLessThanOrEqual(run.report.averagePrecision!);
    expect(run.report.intervals!.averagePrecision![1]).toBeGreaterThanOrEqual(run.report.averagePrecision!);
  });

  it("is plain JSON: it survives a round trip unchanged", () => {
    const { labels, scores } = caseInputs(byName("random-2-n2000"));
    const slices = Array.from(labels, (_, i) => ["en", "de", null][i % 3] ?? null);
    const run = summarize(labels, scores, {
      prevalence: 0.05,
      costFalseNegative: 10,
      costFalsePositive: 1,
      slices,
      bootstrap: 20,
    });
    expect(JSON.parse(JSON.stringify(run))).toEqual(run);
    expect(run.slices!.map((s) => s.slice)).toEqual(["(none)", "de", "en"]);
    expect(run.slices!.reduce((a, s) => a + s.positives, 0)).toBe(run.positives);
    expect(run.precisionVsPrevalence!.some((r) => r.prevalence === 0.05)).toBe(true);
  });

  it("keeps undefined metrics null, with reasons and a warning, when there are no positives", () => {
    const { labels, scores } = caseInputs(byName("no-positives"));
    const run = summarize(labels, scores, { prevalence: 0.1, costFalseNegative: 1, costFalsePositive: 1 });
    expect(run.report.averagePrecision).toBeNull();
    expect(run.report.undefinedReasons.averagePrecision).toMatch(/positive/);
    expect(run.curves.pr).toBeNull();
    expect(run.curves.roc).toBeNull();
    expect(run.costOptimum).toBeNull();
    expect(run.warnings.join(" ")).toMatch(/no positives/);
  });

  it("warns when the positives are too few for a defensible recall", () => {
    const { labels, scores } = caseInputs(byName("ties"));
    expect(summarize(labels, scores, { bootstrap: 0 }).warnings.join(" ")).toMatch(/too few positives/);
  });
});
