/**
 * Input checks shared by the engine: labels are 0/1, scores are finite (scikit-learn's
 * `assert_all_finite`), both arrays have one entry per item.
 */
export type Labels = ArrayLike<number>;
export type Scores = ArrayLike<number>;

export function checkBinaryInput(labels: Labels, scores: Scores): void {
  if (labels.length !== scores.length) {
    throw new RangeError(`labels (${labels.length}) and scores (${scores.length}) differ in length`);
  }
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i];
    if (y !== 0 && y !== 1) throw new RangeError(`label at index ${i} is ${String(y)}, expected 0 or 1`);
    if (!Number.isFinite(scores[i])) throw new RangeError(`score at index ${i} is not finite`);
  }
}

export function countPositives(labels: Labels): number {
  let positives = 0;
  for (let i = 0; i < labels.length; i++) positives += labels[i] === 1 ? 1 : 0;
  return positives;
}
