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
  /** The wrong-side scores given to a failed or missing item: a positive's, a negative's. */
  wrongSide: { positive: number; negative: number };
}

/**
 * The joined rows as columns, one entry per item: what the upload reads straight into typed
 * arrays (lib/server/runs/joined-columns.ts), millions of items without an object each.
 * score: NaN for null; predicted: 1, 0, or -1 for null; slices: null when no item has one.
 */
export interface JoinedColumns {
  readonly length: number;
  readonly label: Uint8Array;
  readonly score: Float64Array;
  readonly predicted: Int8Array;
  readonly parseFailure: Uint8Array;
  readonly missing: Uint8Array;
  readonly slices: (string | null)[] | null;
}

export function joinedColumns(rows: readonly JoinedRow[]): JoinedColumns {
  const n = rows.length;
  const label = new Uint8Array(n);
  const score = new Float64Array(n);
  const predicted = new Int8Array(n);
  const parseFailure = new Uint8Array(n);
  const missing = new Uint8Array(n);
  const slices: (string | null)[] = new Array(n);
  rows.forEach((r, i) => {
    label[i] = r.label ? 1 : 0;
    score[i] = r.score === null ? NaN : r.score;
    predicted[i] = r.predicted === null ? -1 : r.predicted ? 1 : 0;
    parseFailure[i] = r.parseFailure ? 1 : 0;
    missing[i] = r.missing ? 1 : 0;
    slices[i] = r.slice;
  });
  return { length: n, label, score, predicted, parseFailure, missing, slices };
}

export function buildRunInput(rows: readonly JoinedRow[]): RunInput {
  return buildRunInputFromColumns(joinedColumns(rows));
}

/** {@link buildRunInput} on columns: the one place the rule above is written. */
export function buildRunInputFromColumns(c: JoinedColumns): RunInput {
  const n = c.length;
  const labels = new Uint8Array(n);
  const scores = new Float64Array(n);
  const slices: (string | null)[] = c.slices ?? new Array<string | null>(n).fill(null);
  const valid = new Uint8Array(n);
  let hasScores = false;
  for (let i = 0; i < n; i++) {
    if (c.score[i] === c.score[i]) {
      hasScores = true;
      break;
    }
  }
  // The usable score of item i, or NaN (null).
  const rawOf = (i: number) => (hasScores ? c.score[i]! : c.predicted[i] === -1 ? NaN : c.predicted[i] === 1 ? 1 : 0);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = rawOf(i);
    if (s === s && c.parseFailure[i] === 0 && c.missing[i] === 0) {
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
  for (let i = 0; i < n; i++) {
    const label = c.label[i]!;
    labels[i] = label;
    const raw = rawOf(i);
    const failed = c.parseFailure[i] === 1 || c.missing[i] === 1 || raw !== raw;
    valid[i] = failed ? 0 : 1;
    if (c.missing[i] === 1) missing++;
    else if (failed) parseFailures++;
    scores[i] = failed ? (label ? lo - 1 : hi + 1) : raw; // probabilities: 0 for a positive, 1 for a negative
  }
  return {
    labels,
    scores,
    slices,
    valid,
    scoreKind: hasScores ? "scores" : "hard-labels",
    parseFailures,
    missing,
    wrongSide: { positive: lo - 1, negative: hi + 1 },
  };
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
