/**
 * The shapes of two "across stages" results (SPEC §3): the elimination funnel and the total cost.
 * They sit below both across-stages.ts, which computes them, and significance.ts, which reads them
 * to pick the best candidate, so that imports between the two go one way.
 */
export interface FunnelEntry {
  candidateId: string;
  name: string;
  /** The stage at which the candidate fell (3–5), or null when it passes every gate. */
  fellAt: 3 | 4 | 5 | null;
  reasons: string[];
}

export interface TotalCost {
  candidateId: string;
  /** Expected error cost per 1,000 items at π, at the operating threshold (stage 4). */
  errorCostPer1k: number | null;
  /** Serving cost per 1,000 requests at the SLO concurrency (stage 5); one request per item. */
  servingCostPer1k: number | null;
  totalPer1k: number | null;
}
