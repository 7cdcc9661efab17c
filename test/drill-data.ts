import type pg from "pg";
import { copyCsvPg, csvRow } from "../lib/db/bulk-copy.ts";

/**
 * Generated evidence for the drill-down at scale (the query-plan test and bench/drill.ts): n
 * dataset items (2% positives, ten slices, a short text) and a run's predictions on them, loaded
 * with COPY. Deterministic (mulberry32), so a plan or a timing can be reproduced; scores are
 * rounded to 3 decimals so there are many ties, which the keyset order breaks by item id.
 */
export const itemId = (i: number) => `item-${i.toString().padStart(8, "0")}`;
export const isPositive = (i: number) => i % 50 === 7;

function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function* batches(n: number, line: (i: number) => string | null): Generator<string> {
  let chunk = "";
  for (let i = 0; i < n; i++) {
    chunk += line(i) ?? "";
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

export async function copyDatasetItems(client: pg.PoolClient, datasetVersionId: number, n: number): Promise<void> {
  await copyCsvPg(
    client,
    "DatasetItem",
    ["datasetVersionId", "itemId", "label", "slice", "text"],
    batches(n, (i) => csvRow([datasetVersionId, itemId(i), isPositive(i), `slice-${i % 10}`, `message number ${i}`])),
  );
}

/** A run's predictions: a positive scores higher on average; 0.1% are parse failures; `skill` separates the classes. */
export async function copyPredictions(
  client: pg.PoolClient,
  evalRunId: number,
  n: number,
  seed: number,
  skill = 1,
): Promise<void> {
  const random = rng(seed);
  await copyCsvPg(
    client,
    "Prediction",
    ["evalRunId", "itemId", "score", "parseFailure"],
    batches(n, (i) => {
      const u = random();
      if (random() < 0.001) return csvRow([evalRunId, itemId(i), null, true]);
      const score = isPositive(i) ? Math.pow(u, 1 / (1 + 2 * skill)) : Math.pow(u, 1 + 2 * skill);
      return csvRow([evalRunId, itemId(i), Math.round(score * 1000) / 1000, false]);
    }),
  );
}
