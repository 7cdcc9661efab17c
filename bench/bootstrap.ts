/**
 * `npx tsx bench/bootstrap.ts [N] [--smoke]` (issue 12 §2): CPU milliseconds per stratified
 * bootstrap replicate on one thread at N items (default 1,000,000; 3 % positives, distinct scores),
 * with and without an operating-point rule. CPU time rather than wall time, and the median of
 * several batches, because the machine is shared. No target: a figure to compare across commits.
 */
import { bootstrapReplicates, prepareRanking, Xoshiro128, type SelectionRule } from "../lib/metrics/index";

const SMOKE = process.argv.includes("--smoke");
const n = SMOKE ? 20_000 : Number(process.argv.slice(2).find((a) => !a.startsWith("--")) ?? 1_000_000);
const BATCHES = SMOKE ? 2 : 7;
const B = 25;
const rng = new Xoshiro128(12);
const labels = Uint8Array.from({ length: n }, () => (rng.nextDouble() < 0.03 ? 1 : 0));
const scores = Float64Array.from(labels, (y) => rng.nextDouble() + 0.5 * y);
const rule: SelectionRule = {
  kind: "COST_OPTIMAL",
  prevalence: 0.01,
  costFalseNegative: 30,
  costFalsePositive: 1,
  recallFloor: 0.3,
  precisionFloor: null,
};
const rankings = [prepareRanking(labels, scores)];

for (const [name, selection] of [
  ["AP, AP_π, ROC-AUC", undefined],
  ["with COST_OPTIMAL", rule],
] as const) {
  const perReplicate: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    const start = process.cpuUsage();
    bootstrapReplicates(rankings, { replicates: B, seed: batch, prevalence: 0.01, selection });
    const used = process.cpuUsage(start);
    perReplicate.push((used.user + used.system) / 1000 / B);
  }
  const median = [...perReplicate].sort((a, b) => a - b)[perReplicate.length >> 1]!;
  console.log(
    `${name}, n = ${n.toLocaleString("en")}: ${median.toFixed(2)} ms CPU per replicate (batches: ${perReplicate.map((t) => t.toFixed(1)).join(", ")})`,
  );
}
