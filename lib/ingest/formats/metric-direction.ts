/**
 * Whether a larger value is better, for files that do not say (generic CSV, HELM stats.json).
 * Errors, losses, latencies, costs, perplexity and bias scores are lower-is-better; the rest
 * (accuracy, F1, win rate, Elo...) higher-is-better. Files with an explicit direction win.
 */
const LOWER_IS_BETTER =
  /(perplexity|bits_per_byte|\bloss\b|error|latency|runtime|\btime\b|_time|cost|co2|energy|bias|toxic|\bece\b|calibration_error|harm(ful)?_rate|refusal_rate|wer\b|cer\b)/i;

export function defaultHigherIsBetter(metric: string): boolean {
  return !LOWER_IS_BETTER.test(metric);
}

/** Arena ratings are preferences between models, not scores on a fixed suite (SPEC §3). */
export function defaultStage(suite: string, metric: string): "LEADERBOARD" | "PREFERENCE" {
  return /\b(elo|arena|bradley|bt rating|preference)\b/i.test(`${suite} ${metric}`) ? "PREFERENCE" : "LEADERBOARD";
}
