/**
 * The measured coverage of the stratified bootstrap's percentile 95 % intervals of AP and ROC-AUC,
 * and of stage 4's held-out recall (Wilson) and expected cost (MOVER) intervals (issue 27), from `npm run bench:intervals`: binormal populations (μ = 2), 400 datasets per
 * setting, B = 1,000. Where the measured coverage lies outside [0.93, 0.97] at the setting nearest
 * a run's (its number of positives, then its share of positives), the pack labels the interval
 * with that coverage instead of calling it 95 %; below the fewest positives measured it says the
 * coverage is unmeasured. Update the table when the bench's figures change: the bench fails when
 * a figure here lies outside its own run's binomial interval.
 */
export type BootstrapInterval = "averagePrecision" | "rocAuc";
/** Every interval whose coverage the pack may state: the bootstrap's, and stage 4's held-out recall and cost. */
export type MeasuredInterval = BootstrapInterval | "heldOutRecall" | "heldOutCost";

export interface MeasuredCoverage {
  readonly samplePrevalence: number;
  readonly positives: number;
  readonly averagePrecision: number;
  readonly rocAuc: number;
  readonly heldOutRecall: number;
  readonly heldOutCost: number;
}

export const MEASURED_COVERAGE: readonly MeasuredCoverage[] = [
  {
    samplePrevalence: 0.02,
    positives: 40,
    averagePrecision: 0.917,
    rocAuc: 0.912,
    heldOutRecall: 0.963,
    heldOutCost: 0.955,
  },
  {
    samplePrevalence: 0.02,
    positives: 300,
    averagePrecision: 0.965,
    rocAuc: 0.965,
    heldOutRecall: 0.958,
    heldOutCost: 0.958,
  },
  {
    samplePrevalence: 0.1,
    positives: 40,
    averagePrecision: 0.927,
    rocAuc: 0.92,
    heldOutRecall: 0.922,
    heldOutCost: 0.927,
  },
  {
    samplePrevalence: 0.1,
    positives: 300,
    averagePrecision: 0.948,
    rocAuc: 0.945,
    heldOutRecall: 0.953,
    heldOutCost: 0.965,
  },
];

export const NOMINAL_BAND: readonly [number, number] = [0.93, 0.97];

/**
 * The label of a bootstrap interval where "95 %" would overstate or understate it: "≈ 89 %
 * coverage at this many positives", or that coverage is unmeasured below 40 positives; null
 * where the measured coverage is nominal.
 */
export function bootstrapCoverageLabel(
  interval: MeasuredInterval,
  positives: number,
  negatives: number,
): string | null {
  const fewest = Math.min(...MEASURED_COVERAGE.map((m) => m.positives));
  if (positives < fewest) return `coverage not measured below ${fewest} positives (${positives} here)`;
  const share = positives / (positives + negatives);
  const distance = (m: MeasuredCoverage) =>
    Math.abs(Math.log(m.positives / positives)) * 10 + Math.abs(Math.log(m.samplePrevalence / share));
  const nearest = [...MEASURED_COVERAGE].sort((a, b) => distance(a) - distance(b))[0]!;
  const coverage = nearest[interval];
  if (coverage >= NOMINAL_BAND[0] && coverage <= NOMINAL_BAND[1]) return null;
  return `≈ ${Math.round(coverage * 100)} % coverage at this many positives`;
}
