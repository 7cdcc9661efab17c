/** Probabilities from log-likelihoods or logprobs, shifted by the largest so no exp() overflows. */
export function softmaxLogs(logs: readonly number[]): number[] {
  const top = Math.max(...logs);
  const weights = logs.map((l) => Math.exp(l - top));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}
