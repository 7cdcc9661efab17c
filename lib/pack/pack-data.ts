import type { ScoreBasis } from "@/lib/ingest/formats/item-results/types";
import type { RunProvenance } from "@/lib/ingest/formats/item-results/provenance";
import type { OperatingRuleKind } from "@/lib/metrics/threshold-rule";
import type { StoredRunMetrics } from "./run-input";
import type { Pct, Pricing, Slos } from "./serving";
import type { ToolFile } from "./run-provenance";

/**
 * Everything the evidence pack is derived from, as lib/server/pack/get-pack.ts reads it: the
 * decision's parameters and the stored evidence (computed metrics, never items). Pure data.
 */
export interface PackDecision extends Slos {
  id: string;
  title: string;
  description: string;
  positiveClass: string;
  prevalence: number;
  costFn: number;
  costFp: number;
  currency: string;
  recallFloor: number;
  precisionFloor: number | null;
  operatingThreshold: number;
  /** How each candidate's threshold is chosen (issue 14); absent in packs frozen before the rule: FIXED. */
  operatingRule?: OperatingRuleKind;
  quorum: number;
  status: "DRAFT" | "IN_REVIEW" | "CHANGES_REQUESTED" | "APPROVED" | "REJECTED";
  archivedAt: Date | string | null;
  /** The dataset version the pack is evaluated on (SPEC §2); null until a dataset is uploaded. */
  evaluationDatasetVersionId: number | null;
  /** When the decision was opened (ISO): the reference of a leaderboard row's age (formatAsOf). */
  createdAt?: string;
}

/** The task parameters alone (SPEC §2), as the parameter list and the stress test show them. */
export type TaskParameters = Omit<
  PackDecision,
  "id" | "title" | "description" | "status" | "archivedAt" | "evaluationDatasetVersionId" | "createdAt"
>;

export interface PackCandidate extends Pricing {
  id: string;
  name: string;
  provider: string;
  version: string;
  shortlistRationale: string;
  operatingThreshold: number | null;
}

export interface PackScore {
  candidateId: string;
  stage: "LEADERBOARD" | "PREFERENCE";
  suite: string;
  metric: string;
  value: number;
  stderr: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  votes: number | null;
  higherIsBetter: boolean;
  source: string;
  sourceUrl?: string | null;
  retrievedAt: string;
  /** The date the source states for the number (ISO), apart from its import time; null: not stated. */
  asOf?: string | null;
  relevanceNote: string;
}

export type ResemblanceAnswer = "MATCH" | "PARTIAL" | "MISMATCH";

export interface PackResemblance {
  suite: string;
  task: ResemblanceAnswer;
  taskNote: string;
  distribution: ResemblanceAnswer;
  distributionNote: string;
  promptScoring: ResemblanceAnswer;
  promptScoringNote: string;
  /** The analyst's note on why the suite's numbers matter for this decision ("" when none). */
  relevanceNote?: string;
}

export interface PackRun {
  runId: number;
  candidateId: string;
  itemCount: number;
  missingCount: number;
  unknownCount: number;
  parseFailureCount: number;
  computedAt: string | null;
  dataset: { name: string; version: number; itemCount: number; positiveCount: number } | null;
  metrics: StoredRunMetrics | null;
  /**
   * What the run's scores are (issue 24 §3): null for Verdict's own predictions and harness runs;
   * absent in revisions frozen before it was recorded.
   */
  scoreBasis?: ScoreBasis | null;
  /** Where a run imported from another eval tool came from (tool, model, task, file format, mapping); null otherwise. */
  toolRun?: RunProvenance | null;
  /** The file a tool run was read from (name, SHA-256), for its provenance line; absent otherwise. */
  toolFile?: ToolFile | null;
}

export interface PackServing {
  candidateId: string;
  tool: string;
  toolVersion: string | null;
  concurrency: number | null;
  requestThroughput: number;
  outputTokenThroughput: number | null;
  /** Requests per second meeting every SLO, where the tool reports it. */
  goodput?: number | null;
  completed: number;
  failed: number;
  meanInputTokens: number | null;
  meanOutputTokens: number | null;
  ttftMs: Pct;
  tpotMs: Pct;
  /** Inter-token latency percentiles where the tool reports them (empty otherwise). */
  itlMs?: Pct;
  e2eMs: Pct;
  tpotSource: string;
}

/** A stored paired comparison of two candidates' runs on the same items (lib/server/runs/comparisons.ts). */
export interface PackComparison {
  candidateAId: string;
  candidateBId: string;
  /** AP(A) − AP(B) on the same items. */
  deltaAp: number | null;
  deltaApInterval: [number, number] | null;
  /** Expected cost per 1,000 items at π, A − B, on the predictions the verdict counts (held out under a choosing rule: exactly the difference of the costs the ranking uses), and its paired 95 % interval (Newcombe per class, added by MOVER: lib/metrics/paired-cost.ts). */
  deltaCostPer1k?: number | null;
  deltaCostInterval?: [number, number] | null;
  /** Exact McNemar test on their errors, on the same predictions as the cost difference. */
  onlyACorrect: number;
  onlyBCorrect: number;
  mcnemarP: number | null;
  items: number;
}

/** A run that does not count (SPEC §2): listed apart with its dataset and why, never compared. */
export interface OtherRun {
  runId: number;
  candidateId: string;
  status: string;
  dataset: { name: string; version: number; itemCount: number; positiveCount: number };
  reason: "another dataset version" | "superseded by a newer run" | `not finished (${string})`;
}

/**
 * The figures of a run that the pack's derivation (gates, funnel, total cost, ranks) reads. A
 * stored run's metrics have them; so does a what-if at another threshold or π
 * (lib/pack/what-if-pack.ts), so the server and the browser derive through the same code.
 */
export interface RunFigures {
  report: {
    n: number;
    atThreshold: { recall: number | null };
    reweighted?: { averagePrecision: number | null; precision: number | null; expectedCostPer1k?: number | null };
  };
  recallInterval: readonly [number, number] | null;
  /** Set when the figures are a rule's operating point (issue 14): what they were measured on, for the gates to say. */
  basis?: string;
}

/** What `packResults()` derives from: the pack's data, each run reduced to its figures. */
export interface PackFigures extends Omit<PackData, "runs" | "resemblances"> {
  runs: { candidateId: string; metrics: RunFigures | null }[];
}

export interface PackData {
  decision: PackDecision;
  candidates: PackCandidate[];
  scores: PackScore[];
  resemblances: PackResemblance[];
  /** The run that counts per candidate: its newest finished run on the evaluation dataset version. */
  runs: PackRun[];
  serving: PackServing[];
  comparisons: PackComparison[];
}
