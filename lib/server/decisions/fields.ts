import "server-only";

/**
 * The fields of a pack's rows, read one way by the page's read model (read-model.ts), by the
 * frozen revision (signoff/build-pack.ts, which adds ids and import links) and by the uploads page
 * (imports/uploads-page.ts). A reader that picks fewer fields on purpose uses a named subset below.
 * The key order is the order of the revision's JSON, so these lists are part of its bytes: append,
 * never reorder.
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

/** Drops some fields from a list, keeping the others in their order (a reader's named subset). */
function omitFields<T extends object, K extends keyof T>(fields: T, keys: readonly K[]): Omit<T, K> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;
}

/** An import as the frozen revision states it: the file, its SHA-256 and how it went. */
export const PACK_IMPORT = {
  id: true,
  kind: true,
  format: true,
  producerVersion: true,
  fileName: true,
  sha256: true,
  sizeBytes: true,
  status: true,
  rowCount: true,
  errorCount: true,
  importedById: true,
  createdAt: true,
} as const;

/** The imports the uploads page lists: it names who imported (a relation it adds), not their id. */
export const LISTED_IMPORT = omitFields(PACK_IMPORT, ["status", "errorCount", "importedById"]);

/** A run's item counts: every reader that shows a run's status shows these beside it. */
export const EVAL_RUN_COUNTS = {
  itemCount: true,
  missingCount: true,
  unknownCount: true,
  duplicateCount: true,
  parseFailureCount: true,
} as const;

/** An eval run as the frozen revision states it, with its stored metrics. */
export const PACK_EVAL_RUN = {
  id: true,
  candidateId: true,
  datasetVersionId: true,
  status: true,
  ...EVAL_RUN_COUNTS,
  metrics: true,
  error: true,
  importId: true,
  computedAt: true,
  // Where an imported tool run's scores came from (issue 24 §3–4): stated wherever the run appears.
  scoreBasis: true,
  toolRun: true,
} as const;

/**
 * The runs the read model lists: without their metrics, which it reads apart for the runs that
 * count only, since metrics are the part of a read that grows with the evidence.
 */
export const LISTED_EVAL_RUN = omitFields(PACK_EVAL_RUN, ["metrics"]);

/** A serving benchmark as the frozen revision states it: every figure the file gave, and its import. */
export const PACK_SERVING_BENCHMARK = {
  id: true,
  candidateId: true,
  tool: true,
  toolVersion: true,
  concurrency: true,
  requestRate: true,
  completed: true,
  failed: true,
  durationS: true,
  meanInputTokens: true,
  meanOutputTokens: true,
  requestThroughput: true,
  outputTokenThroughput: true,
  totalTokenThroughput: true,
  goodput: true,
  ttftMs: true,
  tpotMs: true,
  itlMs: true,
  e2eMs: true,
  tpotSource: true,
  importId: true,
} as const;
