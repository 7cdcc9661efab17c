/**
 * Runs one engine task alone in this process and prints {seconds, baselineRss, maxRss, result}
 * as JSON, so the benchmark can measure the engine's peak memory (resourceUsage().maxRSS)
 * against the memory in use once the inputs are loaded.
 */
import {
  averagePrecision,
  bootstrapReplicates,
  intervalsOf,
  precisionRecallCurveInPlace,
  prepareRanking,
  rankCounts,
  rocAuc,
} from "../lib/metrics/index";
import { parallelBootstrapReplicates } from "../lib/compute/parallel-bootstrap";
import { loadData } from "./data";

const [task, nText, bText] = process.argv.slice(2);
const n = Number(nText);

/** PR curve + AP + ROC-AUC, like precision_recall_curve + average_precision_score + roc_auc_score. */
function curves(labels: Uint8Array, scores: Float64Array) {
  const counts = rankCounts(labels, scores);
  const ap = averagePrecision(counts).value;
  const auc = rocAuc(counts).value;
  const curve = precisionRecallCurveInPlace(counts).value!;
  return { averagePrecision: ap, rocAuc: auc, curvePoints: curve.precision.length };
}

// Warm-up, twice on 200,000 items, so that the runtime's steady state (optimised code, the
// young generation V8 sizes while code still runs unoptimised) is part of the baseline and
// the measurement counts the engine's data.
for (let round = 0; round < 2; round++) {
  const warm = Uint8Array.from({ length: 200_000 }, (_, i) => (i % 33 === 0 ? 1 : 0));
  const warmScores = Float64Array.from(warm, (y, i) => ((i * 7919) % 100_003) / 100_003 + y);
  curves(warm, warmScores);
  bootstrapReplicates([prepareRanking(warm, warmScores)], { replicates: 3 });
}
// Free the warm-up's arrays before the baseline, so the engine cannot reuse their pages unseen.
(globalThis as { gc?: () => void }).gc?.();

const { labels, scores } = loadData(n);
const baselineRss = process.memoryUsage.rss();

const start = performance.now();
let result: Record<string, unknown>;
if (task === "curves") {
  result = curves(labels, scores);
} else if (task === "bootstrap") {
  const replicates = Number(bText);
  const [r] = bootstrapReplicates([prepareRanking(labels, scores)], { replicates, seed: 1 });
  result = { averagePrecision: intervalsOf(r!).averagePrecision.value };
} else if (task === "bootstrap-threads") {
  const replicates = Number(bText);
  const [r] = await parallelBootstrapReplicates([prepareRanking(labels, scores)], { replicates, seed: 1, threads: 2 });
  result = { averagePrecision: intervalsOf(r!).averagePrecision.value };
} else {
  throw new Error(`unknown task ${task}`);
}
const seconds = (performance.now() - start) / 1000;
process.stdout.write(
  JSON.stringify({ seconds, baselineRss, maxRss: process.resourceUsage().maxRSS * 1024, result }) + "\n",
);
