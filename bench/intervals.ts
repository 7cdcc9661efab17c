/**
 * `npm run bench:intervals [-- --datasets N] [-- --smoke]` (issue 27): the coverage of every
 * interval the pack prints, on datasets drawn from populations of known truth
 * (bench/intervals-sim.ts), at 2 % and 10 % positives with 40 and 300 positives. Each line: the
 * interval, covered/datasets, the coverage with its Wilson 95 % interval, and PASS where the
 * coverage lies in [0.93, 0.97]; outside it, LABELLED where the pack labels that interval with its
 * measured coverage (lib/metrics/coverage.ts), else FAIL. Every figure of that table must lie in
 * this run's binomial interval (else FAIL), in the band or not: the table is what this bench measures. Default 400 datasets per setting, B = 1,000 (exit 1 on a FAIL);
 * --smoke: 12 datasets, B = 200, no verdict, so `npm test` runs it.
 */
import { bootstrapCoverageLabel, MEASURED_COVERAGE, wilsonInterval, type MeasuredInterval } from "../lib/metrics/index";
import { INTERVALS, SETTINGS, simulateDataset, type IntervalName } from "./intervals-sim";

const SMOKE = process.argv.includes("--smoke");
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
};
const datasets = SMOKE ? 12 : (arg("--datasets") ?? 400);
const replicates = SMOKE ? 200 : (arg("--replicates") ?? 1000);
const BAND: [number, number] = [0.93, 0.97];
const LABELLED: Partial<Record<IntervalName, MeasuredInterval>> = {
  "recall (Wilson)": "heldOutRecall",
  "expected cost": "heldOutCost",
  "AP (bootstrap)": "averagePrecision",
  "ROC-AUC (bootstrap)": "rocAuc",
};

/**
 * PASS in the band; LABELLED where the pack states a measured coverage; else FAIL. Every interval
 * the pack may label is also checked against the table the labels come from
 * (lib/metrics/coverage.ts): the table's figure for this setting must lie in this run's binomial
 * interval, in the band or not — a FAIL otherwise, so the labels cannot drift from what is measured.
 */
function verdict(name: IntervalName, setting: (typeof SETTINGS)[number], covered: number): string {
  const coverage = covered / datasets;
  const key = LABELLED[name];
  const stated = MEASURED_COVERAGE.find(
    (m) => m.positives === setting.positives && m.samplePrevalence === setting.samplePrevalence,
  );
  const [low, high] = wilsonInterval(covered, datasets).value!;
  if (key && !(stated && stated[key] >= low && stated[key] <= high))
    return `FAIL (coverage.ts states ${stated ? stated[key].toFixed(3) : "nothing"} here)`;
  if (coverage >= BAND[0] && coverage <= BAND[1]) return "PASS";
  const negatives = Math.round(setting.positives / setting.samplePrevalence) - setting.positives;
  const label = key ? bootstrapCoverageLabel(key, setting.positives, negatives) : null;
  return label ? `LABELLED (${label})` : "FAIL";
}

let failed = 0;
console.log(
  `interval coverage: ${datasets} datasets per setting, B = ${replicates}; band [${BAND[0]}, ${BAND[1]}]${SMOKE ? " (smoke: no verdict)" : ""}`,
);
for (const setting of SETTINGS) {
  const started = performance.now();
  const covered = Object.fromEntries(INTERVALS.map((k) => [k, 0])) as Record<IntervalName, number>;
  for (let d = 0; d < datasets; d++) {
    const result = simulateDataset(setting, 1 + d, replicates);
    for (const k of INTERVALS) covered[k] += result[k] ? 1 : 0;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `\n${(setting.samplePrevalence * 100).toFixed(0)} % positives, ${setting.positives} positives (${Math.round(setting.positives / setting.samplePrevalence)} items; ${seconds} s)`,
  );
  for (const k of INTERVALS) {
    const [low, high] = wilsonInterval(covered[k], datasets).value!;
    const coverage = covered[k] / datasets;
    const result = verdict(k, setting, covered[k]);
    if (result.startsWith("FAIL")) failed++;
    console.log(
      `  ${k.padEnd(26)} ${String(covered[k]).padStart(4)}/${datasets}  ${coverage.toFixed(3)}  [${low.toFixed(3)}, ${high.toFixed(3)}]  ${SMOKE ? "" : result}`,
    );
  }
}
if (!SMOKE && failed > 0) {
  console.log(
    `\n${failed} interval(s) outside [${BAND[0]}, ${BAND[1]}] without a label stating their coverage, or whose coverage.ts figure this run does not back`,
  );
  process.exitCode = 1;
}
