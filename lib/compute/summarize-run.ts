/**
 * summarize() for a background job: the same RunMetrics, with the bootstrap — the only part
 * whose cost grows as B·n — spread over worker threads when it is large enough to pay.
 */
import {
  DEFAULT_REPLICATES,
  prepareRanking,
  summarize,
  type Labels,
  type RunMetrics,
  type Scores,
  type SummarizeOptions,
} from "../metrics/index";
import { parallelBootstrapReplicates } from "./parallel-bootstrap";

export async function summarizeRun(
  labels: Labels,
  scores: Scores,
  options: SummarizeOptions & { threads?: number; onProgress?: (fraction: number) => void } = {},
): Promise<RunMetrics> {
  const replicates = options.bootstrap ?? DEFAULT_REPLICATES;
  let positives = 0;
  for (let i = 0; i < labels.length; i++) positives += labels[i] === 1 ? 1 : 0;
  if (replicates === 0 || positives === 0 || positives === labels.length) return summarize(labels, scores, options);
  const [computed] = await parallelBootstrapReplicates([prepareRanking(labels, scores)], {
    replicates,
    seed: options.seed ?? 0,
    prevalence: options.prevalence,
    selection: options.hardLabels ? undefined : options.operatingRule,
    threads: options.threads,
    onProgress: options.onProgress,
  });
  const { onProgress: _, threads: __, ...rest } = options;
  return summarize(labels, scores, { ...rest, replicates: computed });
}
