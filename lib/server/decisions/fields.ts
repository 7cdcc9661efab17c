import "server-only";

/**
 * The fields of a pack's rows, read one way by the page's read model (read-model.ts) and by the
 * frozen revision (signoff/build-pack.ts, which adds ids and import links). The key order is the
 * order of the revision's JSON, so these lists are part of its bytes: append, never reorder.
 */
export const PACK_CANDIDATE = {
  id: true,
  name: true,
  provider: true,
  version: true,
  shortlistRationale: true,
  operatingThreshold: true,
  priceInputPerMTok: true,
  priceOutputPerMTok: true,
  pricePerHour: true,
} as const;

export const PACK_SCORE = {
  candidateId: true,
  stage: true,
  suite: true,
  metric: true,
  value: true,
  stderr: true,
  ciLow: true,
  ciHigh: true,
  votes: true,
  higherIsBetter: true,
  source: true,
  sourceUrl: true,
  retrievedAt: true,
  relevanceNote: true,
} as const;

/** The three questions of resemblance with their notes: what an analyst answers for a suite (resemblances.ts). */
export const RESEMBLANCE_ANSWERS = {
  task: true,
  taskNote: true,
  distribution: true,
  distributionNote: true,
  promptScoring: true,
  promptScoringNote: true,
} as const;

export const PACK_RESEMBLANCE = { suite: true, ...RESEMBLANCE_ANSWERS } as const;
