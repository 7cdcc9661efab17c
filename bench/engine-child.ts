/**
 * Runs one engine task alone in this process and prints {seconds, baselineRss, maxRss, result}
 * as JSON, so the benchmark can measure the engine's peak memory (resourceUsage().maxRSS)
 * against the memory in use once the inputs are loaded.
 */
import { averagePrecision, bootstrapReplicates, intervalsOf, precisionRecallCurveInPlace, prepareRanking, rankCounts, rocAuc } from "../lib/metrics/index";
import { parallelBootstrapReplicates } from "../lib/compute/parallel-bootstrap";
import { loadData } from "./data";

const [task, nText, bText] = process.argv.slice(2);
const n = Number(nText);
const { labels, scores } = loadData(n);
const baselineRss = process.memoryUsage.rss();

const start = performance.now();
let result: Record<string, unknown>;
if (task === "curves") {
  // PR curve + AP + ROC-AUC, like precision_recall_curve + average_precision_score + roc_auc_score
  const counts = rankCounts(labels, scores);
  const ap = averagePrecision(counts).value;
  const auc = rocAuc(counts).value;
  const curve = precisionRecallCurveInPlace(counts).value!;
  result = { averagePrecision: ap, rocAuc: auc, curvePoints: curve.precision.length };
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
process.stdout.write(JSON.stringify({ seconds, baselineRss, maxRss: process.resourceUsage().maxRSS * 1024, result }) + "\n");
