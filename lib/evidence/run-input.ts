import type { RunMetrics } from "@/lib/metrics";

/**
 * Turns joined (item, prediction) rows into the metrics engine's input. Pure.
 *
 * SPEC §4: a parse failure counts as an error — its predicted label is the wrong class. For the
 * ranking metrics it gets the score that makes it wrong at every threshold: below every observed
 * score for a positive, above every observed score for a negative. An item of the dataset with no
 * prediction (a missing id) is treated the same way and reported separately, never dropped.
 * When every usable score is a probability, the wrong-side scores are 0 and 1 (a confidently
 * wrong answer, so calibration counts it too); otherwise one below the lowest and one above the
 * highest observed score.
 * Hard labels only (no score): the score is the predicted label (1 or 0), so the PR "curve" is the
 * operating point plus the end points.
 */
export interface JoinedRow {
  /** The gold label: true for the positive class. */
  label: boolean;
  /** The prediction's own score (null: hard label only, or a parse failure without one). */
  score: number | null;
  predicted: boolean | null;
  parseFailure: boolean;
  /** The dataset item has no prediction in the run (counted as an error). */
  missing: boolean;
  slice: string | null;
}

export interface RunInput {
  labels: Uint8Array;
  scores: Float64Array;
  slices: (string | null)[];
  /** 1 where the item has a usable prediction (not a parse failure, not missing). */
  valid: Uint8Array;
  scoreKind: "scores" | "hard-labels";
  parseFailures: number;
  missing: number;
}

export function buildRunInput(rows: readonly JoinedRow[]): RunInput {
  const n = rows.length;
  const labels = new Uint8Array(n);
  const scores = new Float64Array(n);
  const slices: (string | null)[] = new Array(n);
  const valid = new Uint8Array(n);
  const hasScores = rows.some((r) => r.score !== null);
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    const s = hasScores ? r.score : r.predicted === null ? null : r.predicted ? 1 : 0;
    if (s !== null && !r.parseFailure && !r.missing) {
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
  }
  if (!Number.isFinite(lo) || (lo >= 0 && hi <= 1)) {
    lo = 1;
    hi = 0;
  }
  let parseFailures = 0;
  let missing = 0;
  rows.forEach((r, i) => {
    labels[i] = r.label ? 1 : 0;
    slices[i] = r.slice;
    const raw = hasScores ? r.score : r.predicted === null ? null : r.predicted ? 1 : 0;
    const failed = r.parseFailure || r.missing || raw === null;
    valid[i] = failed ? 0 : 1;
    if (r.missing) missing++;
    else if (failed) parseFailures++;
    scores[i] = failed ? (r.label ? lo - 1 : hi + 1) : raw!; // probabilities: 0 for a positive, 1 for a negative
  });
  return { labels, scores, slices, valid, scoreKind: hasScores ? "scores" : "hard-labels", parseFailures, missing };
}

/** What an eval run stores (EvalRun.metrics): the engine's RunMetrics plus how the input was built. */
export type StoredRunMetrics = RunMetrics & {
  input: { scoreKind: RunInput["scoreKind"]; parseFailures: number; missing: number };
};

/**
 * EvalRun.metrics (a JSON column) read as what `computeEvalRun` wrote there: the one place that
 * trusts the column's shape. Null until the run is computed.
 */
export function storedRunMetrics(json: unknown): StoredRunMetrics | null {
  return (json ?? null) as StoredRunMetrics | null;
}
