import { describe, expect, it } from "vitest";
import { summarize } from "@/lib/metrics";
import { compactPr, compactRoc, expandPr, expandRoc } from "./compact-curves";

describe("compact curves", () => {
  it("recover the engine's stored ROC and PR curves bit for bit", () => {
    let s = 7;
    const r = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const n = 5000;
    const labels = Uint8Array.from({ length: n }, () => (r() < 0.04 ? 1 : 0));
    const scores = Float64Array.from(labels, (y) => Math.min(1, Math.max(0, (y ? 0.35 : 0) + r() * 0.7)));
    const m = summarize(labels, scores, {
      prevalence: 0.02,
      costFalseNegative: 50,
      costFalsePositive: 1,
      bootstrap: 0,
    });
    const roc = m.curves.roc!;
    const back = expandRoc(compactRoc(roc, m.positives, m.negatives), m.positives, m.negatives);
    expect(back.x).toEqual(roc.x);
    expect(back.y).toEqual(roc.y);
    const pr = m.curves.pr!;
    const prBack = expandPr(compactPr(pr, m.positives), m.positives);
    expect(prBack.x).toEqual(pr.x);
    pr.y.forEach((p, i) => expect(prBack.y[i]).toBeCloseTo(p, 14));
  });
});
