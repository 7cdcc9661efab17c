import { ensureData, loadData } from "./data";
import { bootstrapReplicates, prepareRanking } from "../lib/metrics/index";
import { parallelBootstrapReplicates } from "../lib/compute/parallel-bootstrap";
for (const n of [100_000, 1_000_000]) {
  ensureData(n);
  const { labels, scores } = loadData(n);
  const B = n === 100_000 ? 1000 : 200;
  let t = performance.now();
  const r = prepareRanking(labels, scores);
  bootstrapReplicates([r], { replicates: B, seed: 1 });
  const single = performance.now() - t;
  t = performance.now();
  await parallelBootstrapReplicates([prepareRanking(labels, scores)], { replicates: B, seed: 1, threads: 2 });
  const par = performance.now() - t;
  console.log(`n=${n} B=${B}: single ${single.toFixed(0)} ms, 2 workers ${par.toFixed(0)} ms`);
}
