/** What a saved parameter change says about the stored metrics it sends back to the job queue. */
export function recomputingMessage(runs: number): string {
  if (runs === 0) return "Saved.";
  return `Saved; the metrics of ${runs} eval run${runs === 1 ? " are" : "s are"} being recomputed — the pack says so until they are ready.`;
}
