import { describe, expect, it } from "vitest";
import { caseInputs, loadSklearnFixtures, type Curve } from "../../test/fixtures/sklearn/load";
import {
  averagePrecision,
  brierScore,
  confusionAt,
  confusionFromCounts,
  exactMcNemar,
  logLoss,
  prAucTrapezoid,
  precisionRecallCurve,
  prevalenceWeights,
  rankCounts,
  ratesAt,
  reliabilityTable,
  rocAuc,
  rocCurve,
  wilsonInterval,
  Z_95,
  precisionAtPrevalence,
} from "./index";

const TOL = 1e-9;
const fixtures = loadSklearnFixtures();

/** Every value agrees within 1e-9; null where scikit-learn warned or raised. */
function expectClose(
  actual: ArrayLike<number> | number | null,
  expected: readonly number[] | number | null,
  what: string,
) {
  if (expected === null) {
    expect(actual, what).toBeNull();
    return;
  }
  expect(actual, what).not.toBeNull();
  if (typeof expected === "number") {
    expect(Math.abs((actual as number) - expected), `${what}: ${String(actual)} vs ${expected}`).toBeLessThanOrEqual(
      TOL,
    );
    return;
  }
  const a = actual as ArrayLike<number>;
  expect(a.length, `${what} length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs((a[i] as number) - (expected[i] as number));
    if (!(d <= TOL)) expect.fail(`${what}[${i}]: ${a[i]} vs ${expected[i]}`);
  }
}

/** Compare a full curve, or the sampled points (with indices) stored for the large case. */
function expectCurve(
  actual: ArrayLike<number> | null,
  expected: Curve | { length?: number; indices?: number[] },
  key: "precision" | "recall" | "thresholds" | "fpr" | "tpr",
  what: string,
) {
  const values = (expected as Record<string, number[] | null>)[key] ?? null;
  if (values === null || !expected.indices) return expectClose(actual, values, what);
  expect(actual).not.toBeNull();
  const a = actual as ArrayLike<number>;
  if (key !== "thresholds") expect(a.length, `${what} length`).toBe(expected.length);
  const picked = expected.indices
    .filter((i) => i < a.length)
    .slice(0, values.length)
    .map((i) => a[i] as number);
  expectClose(picked, values, what);
}

describe(`agreement with scikit-learn ${fixtures.sklearn}`, () => {
  for (const c of fixtures.cases) {
    it(c.name, () => {
      const { labels, scores } = caseInputs(c);
      const e = c.expected;
      const counts = rankCounts(labels, scores);
      const pr = precisionRecallCurve(counts).value!;
      expectCurve(pr.precision, e.pr, "precision", "pr.precision");
      expectCurve(pr.recall, e.pr, "recall", "pr.recall");
      expectCurve(pr.thresholds, e.pr, "thresholds", "pr.thresholds");
      expect(pr.recallReason === null).toBe(e.pr_recall_reason === null);
      expectClose(averagePrecision(counts).value, e.ap, "AP");
      expectClose(rocAuc(counts).value, e.roc_auc, "ROC-AUC");
      const roc = rocCurve(counts).value;
      if (e.roc === null) expect(roc).toBeNull();
      else for (const k of ["fpr", "tpr", "thresholds"] as const) expectCurve(roc?.[k] ?? null, e.roc, k, `roc.${k}`);
      expectClose(prAucTrapezoid(pr).value, e.pr_auc_trapezoid, "auc(recall, precision)");
      expectClose(brierScore(labels, scores).value, e.brier, "brier");
      expectClose(logLoss(labels, scores).value, e.log_loss, "log loss");
      const table = reliabilityTable(labels, scores).value;
      if (e.calibration === null) expect(table).toBeNull();
      else {
        const nonEmpty = table!.filter((b) => b.count > 0);
        expectClose(
          nonEmpty.map((b) => b.fractionPositive!),
          e.calibration.prob_true,
          "prob_true",
        );
        expectClose(
          nonEmpty.map((b) => b.meanPredicted!),
          e.calibration.prob_pred,
          "prob_pred",
        );
      }
      const weights =
        c.prevalence === null ? null : prevalenceWeights(counts.positives, counts.negatives, c.prevalence).value;
      for (const at of e.at) {
        const conf = confusionAt(labels, scores, at.threshold);
        expect(conf).toEqual({ tp: at.tp, fp: at.fp, tn: at.tn, fn: at.fn });
        expect(confusionFromCounts(counts, at.threshold)).toEqual(conf);
        const rates = ratesAt(conf);
        expectClose(rates.precision.value, at.precision, `precision@${at.threshold}`);
        expectClose(rates.recall.value, at.recall, `recall@${at.threshold}`);
        expectClose(rates.f1.value, at.f1, `f1@${at.threshold}`);
        expectClose(rates.fpr.value, at.fpr, `fpr@${at.threshold}`);
        if (at.precision_at_prevalence !== undefined) {
          const pPi = precisionAtPrevalence(conf.tp / counts.positives, conf.fp / counts.negatives, c.prevalence!);
          expectClose(pPi.value, at.precision_at_prevalence, `precision_π@${at.threshold}`);
        }
      }
      if (e.weighted) {
        expect(weights).not.toBeNull();
        expectClose(averagePrecision(counts, weights!).value, e.weighted.ap, "AP at π");
        const wpr = precisionRecallCurve(counts, weights!).value!;
        expectCurve(wpr.precision, e.weighted.pr, "precision", "pr_π.precision");
        expectCurve(wpr.recall, e.weighted.pr, "recall", "pr_π.recall");
      } else {
        expect(weights?.positive ?? null).toBeNull();
      }
    });
  }
});

describe("Wilson interval and exact McNemar against scipy", () => {
  it("z for 95% is scipy's norm.ppf(0.975)", () => expectClose(Z_95, fixtures.extras.z95, "z"));
  for (const w of fixtures.extras.wilson) {
    it(`wilson ${w.k}/${w.n}`, () =>
      expectClose(wilsonInterval(w.k, w.n).value as unknown as number[], w.interval, "interval"));
  }
  for (const m of fixtures.extras.mcnemar) {
    it(`mcnemar b=${m.b} c=${m.c}`, () => {
      expect(Math.abs(exactMcNemar(m.b, m.c).pValue - m.p) / m.p).toBeLessThanOrEqual(1e-9);
    });
  }
});
