import { wilsonInterval, type Interval } from "./intervals";
import { checkBinaryInput, type Labels, type Scores } from "./validate";

export interface SliceRecall {
  readonly slice: string;
  readonly positives: number;
  readonly detected: number;
  /** recall = detected/positives of this slice at s ≥ t. */
  readonly recall: number;
  /** Wilson 95% interval of that recall. */
  readonly interval: Interval;
  /** SPEC §3 stage 4: too few positives for a defensible recall (< 30, or half-width > 0.05). */
  readonly tooFewPositives: boolean;
}

export const MIN_POSITIVES = 30;
export const MAX_HALF_WIDTH = 0.05;

/** True when a recall interval is too wide or rests on too few positives (SPEC §3, stage 4). */
export function tooFewPositives(positives: number, interval: Interval): boolean {
  return positives < MIN_POSITIVES || (interval[1] - interval[0]) / 2 > MAX_HALF_WIDTH;
}

/**
 * Recall per slice of the positives at threshold t: for each slice value, recall = #{y=1, s ≥ t}
 * / #{y=1} with its Wilson interval. Items with a null slice are grouped under "(none)";
 * slices without positives are omitted (their recall is undefined). Sorted by slice name.
 */
export function recallBySlice(
  labels: Labels,
  scores: Scores,
  slices: ArrayLike<string | null>,
  threshold: number,
): SliceRecall[] {
  checkBinaryInput(labels, scores);
  if (slices.length !== labels.length) throw new RangeError("slices and labels differ in length");
  const tally = new Map<string, { positives: number; detected: number }>();
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] !== 1) continue;
    const key = slices[i] ?? "(none)";
    const t = tally.get(key) ?? { positives: 0, detected: 0 };
    t.positives++;
    if ((scores[i] as number) >= threshold) t.detected++;
    tally.set(key, t);
  }
  return [...tally.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([slice, { positives, detected }]) => {
      const interval = wilsonInterval(detected, positives).value as Interval;
      return {
        slice,
        positives,
        detected,
        recall: detected / positives,
        interval,
        tooFewPositives: tooFewPositives(positives, interval),
      };
    });
}
