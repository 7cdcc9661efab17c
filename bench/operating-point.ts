/**
 * `npm run bench:operating-point [-- N | --smoke]` (issue 14): the work the operating-point rule adds to an
 * eval run's metrics job at N items (default 1,000,000; 2 % positives; a slice column). The rule
 * shares the job's sort, its prepared ranking and its 1,000 bootstrap draws; what it adds is
 *   - the rule's choice on each of the B = 1,000 replicate histograms (selectGroup, O(K) each),
 *   - the split into halves, the halves' histograms and the cross-fitted choice (O(n)).
 * Those are timed here, alone, in CPU time (the machine is shared, so wall time of the whole job
 * moves by more than the budget between two runs); the budget is ≤ 2 s extra at 1M items, printed
 * with PASS/FAIL (exit 1 on FAIL). --smoke: 10,000 items, no target, so `npm test` runs it.
 */
import {
  chooseOperatingPoint,
  prepareRanking,
  selectGroup,
  splitInHalves,
  Xoshiro128,
  type SelectionRule,
} from "../lib/metrics/index";

const SMOKE = process.argv.includes("--smoke");
const sizeArg = process.argv.slice(2).find((a) => !a.startsWith("--"));
const n = SMOKE ? 10_000 : Number(sizeArg ?? 1_000_000);
const B = 1000;
const rng = new Xoshiro128(14);
const labels = Uint8Array.from({ length: n }, (_, i) => (i % 50 === 0 ? 1 : 0));
const scores = Float64Array.from(labels, (y) => Math.min(1, Math.max(0, rng.nextDouble() * 0.7 + (y ? 0.3 : 0))));
const slices = Array.from({ length: n }, (_, i) => ["short", "long", "code", null][i % 4] ?? null);
const rule: SelectionRule = {
  kind: "COST_OPTIMAL",
  prevalence: 0.02,
  costFalseNegative: 50,
  costFalsePositive: 1,
  recallFloor: 0.8,
  precisionFloor: null,
};

const cpu = (f: () => void): number => {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};

const ranking = prepareRanking(labels, scores);
// One replicate's histograms (the job's bootstrap fills these anyway); the rule then reads them.
const pos = new Int32Array(ranking.groups);
const neg = new Int32Array(2 * ranking.groups + 1);
ranking.positiveGroup.forEach((g) => pos[g]!++);
ranking.negativeSegment.forEach((s) => neg[s]!++);
const positives = ranking.positiveGroup.length;
const negatives = ranking.negativeSegment.length;
const thresholds = new Float64Array(B);

const run = () => {
  const perReplicate = cpu(() => {
    for (let b = 0; b < B; b++)
      thresholds[b] = ranking.groupScores[selectGroup(pos, neg, positives, negatives, rule)!.group]!;
  });
  const crossFit = cpu(() =>
    chooseOperatingPoint(ranking, labels, splitInHalves(labels, slices, 7), rule, 7, thresholds),
  );
  return { perReplicate, crossFit };
};
run(); // warm-up
const { perReplicate, crossFit } = run();
console.log(
  `n = ${n.toLocaleString("en-US")} (${ranking.groups.toLocaleString("en-US")} distinct positive scores), B = ${B}:`,
);
console.log(`  the rule's choice on ${B} replicates: ${perReplicate.toFixed(3)} s CPU`);
console.log(`  split + halves + cross-fitted choice: ${crossFit.toFixed(3)} s CPU`);
const added = perReplicate + crossFit;
if (SMOKE) {
  console.log(`  operating point adds ${added.toFixed(3)} s to the metrics job (smoke: no target)`);
} else {
  const pass = added <= 2;
  console.log(
    `  operating point adds ${added.toFixed(3)} s to the metrics job (target ≤ 2 s): ${pass ? "PASS" : "FAIL"}`,
  );
  if (!pass) process.exitCode = 1;
}
