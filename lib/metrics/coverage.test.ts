import { describe, expect, it } from "vitest";
import { bootstrapCoverageLabel, MEASURED_COVERAGE, NOMINAL_BAND } from "./coverage";

describe("the bootstrap intervals' coverage labels (issue 27)", () => {
  const outside = MEASURED_COVERAGE.flatMap((m) =>
    (["averagePrecision", "rocAuc", "heldOutRecall", "heldOutCost"] as const)
      .filter((k) => m[k] < NOMINAL_BAND[0] || m[k] > NOMINAL_BAND[1])
      .map((k) => ({ m, k })),
  );

  it("state the measured coverage where it is not nominal, at the nearest measured setting; nothing where it is", () => {
    for (const { m, k } of outside) {
      const positives = m.positives;
      const negatives = Math.round(positives / m.samplePrevalence) - positives;
      expect(bootstrapCoverageLabel(k, positives, negatives)).toBe(
        `≈ ${Math.round(m[k] * 100)} % coverage at this many positives`,
      );
    }
    for (const m of MEASURED_COVERAGE)
      for (const k of ["averagePrecision", "rocAuc", "heldOutRecall", "heldOutCost"] as const)
        if (m[k] >= NOMINAL_BAND[0] && m[k] <= NOMINAL_BAND[1])
          expect(
            bootstrapCoverageLabel(k, m.positives, Math.round(m.positives / m.samplePrevalence) - m.positives),
          ).toBeNull();
  });

  it("say the coverage is unmeasured below the fewest positives measured", () => {
    expect(bootstrapCoverageLabel("rocAuc", 12, 500)).toBe("coverage not measured below 40 positives (12 here)");
  });
});
