import "server-only";
import { createHash } from "node:crypto";
import { canonicalJson } from "@/lib/canonical-json";
import { FROZEN_TEXT } from "@/lib/format";
import type { Gate } from "@/lib/pack/gates";
import type { OperatingRuleKind } from "@/lib/metrics/threshold-rule";
import { packResults } from "@/lib/pack/pack-results";
import { TASK_PARAMETERS } from "../decisions/decisions";
import {
  PACK_CANDIDATE,
  PACK_EVAL_RUN,
  PACK_IMPORT,
  PACK_RESEMBLANCE,
  PACK_SCORE,
  PACK_SERVING_BENCHMARK,
} from "../decisions/fields";
import { notFoundError } from "../errors";
import { readPackModel } from "../pack/read-model";
import type { Tx } from "../db";

/**
 * The content of a pack revision: every piece of evidence of a decision (imports with their
 * SHA-256, leaderboard scores, suite resemblance, dataset versions, eval runs with their stored
 * metrics, serving benchmarks), the results derived from it (gates per candidate) and the task
 * parameters — but nothing of the workflow (status, timestamps of edits), so signing or a
 * transition never changes the hash. Rows are ordered by id so the bytes are reproducible.
 */
export const PACK_FORMAT = "verdict.pack/2";

export async function readPackContent(tx: Tx, decisionId: string) {
  const d = await tx.decision.findUnique({
    where: { id: decisionId },
    select: {
      ...TASK_PARAMETERS,
      evalProtocol: true,
      candidates: {
        orderBy: { id: "asc" },
        select: { ...PACK_CANDIDATE, aliases: true },
      },
      imports: { orderBy: { id: "asc" }, select: PACK_IMPORT },
      evaluationDatasetVersionId: true,
      scores: {
        where: { candidateId: { not: null } },
        orderBy: { id: "asc" },
        select: { id: true, ...PACK_SCORE, importId: true, asOf: true },
      },
      resemblances: { orderBy: { suite: "asc" }, select: { ...PACK_RESEMBLANCE, relevanceNote: true } },
      datasets: {
        orderBy: { id: "asc" },
        select: {
          id: true,
          name: true,
          versions: {
            orderBy: { version: "asc" },
            select: {
              id: true,
              version: true,
              itemCount: true,
              positiveCount: true,
              sliceColumn: true,
              importId: true,
            },
          },
        },
      },
      evalRuns: { orderBy: { id: "asc" }, select: { ...PACK_EVAL_RUN, scoreBasis: true, toolRun: true } },
      servingBenchmarks: { orderBy: { id: "asc" }, select: PACK_SERVING_BENCHMARK },
    },
  });
  if (!d) throw notFoundError("The decision");
  const {
    candidates,
    imports,
    scores,
    resemblances,
    datasets,
    evalRuns,
    servingBenchmarks,
    evalProtocol,
    operatingRule,
    ...parameters
  } = d;
  // The rule is frozen with the task (a change of rule is a new revision); FIXED, the rule of every
  // pack frozen before it existed, is left out so those packs keep their exact bytes and hash.
  const task = operatingRule === "FIXED" ? parameters : { ...parameters, operatingRule };

  // The record's facts (issue 25) — a source's own date (asOf), the analyst's relevance note per
  // suite, a tool run's provenance — are stated only where present, so a pack frozen before them
  // keeps its exact bytes and hash; the files' names, SHA-256, importer and time are `imports`.

  // Results: derived from the pack's read model, read in this same transaction — the same
  // figures the page, the API and the exports state.
  const { otherRuns, ...model } = await readPackModel(tx, decisionId);
  return {
    format: PACK_FORMAT,
    decisionId: d.id,
    task,
    // The evaluation protocol (prompt, output contract, scoring, sampling) the harness runs with;
    // left out while there is none, so packs frozen before it existed keep their bytes and hash.
    ...(evalProtocol === null ? {} : { protocol: evalProtocol }),
    candidates,
    evidence: {
      imports,
      leaderboardScores: scores.map(({ asOf, ...s }) => (asOf === null ? s : { ...s, asOf })),
      suiteResemblances: resemblances.map(({ relevanceNote, ...r }) => (relevanceNote ? { ...r, relevanceNote } : r)),
      datasets,
      evalRuns: evalRuns.map(({ scoreBasis, toolRun, ...r }) => ({
        ...r,
        ...(scoreBasis === null ? {} : { scoreBasis }),
        ...(toolRun === null ? {} : { toolRun }),
      })),
      servingBenchmarks,
    },
    runsThatCount: model.runs.map((r) => ({ candidateId: r.candidateId, runId: r.runId })),
    otherRuns,
    // Numbers in the results' sentences as every revision has frozen them (fixed decimals).
    results: packResults(model, FROZEN_TEXT),
  };
}

export type PackContent = Awaited<ReturnType<typeof readPackContent>>;

export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The pack as canonical JSON and its SHA-256 — what a revision freezes and a signature binds to. */
export async function buildPack(tx: Tx, decisionId: string): Promise<{ canonicalJson: string; sha256: string }> {
  const json = canonicalJson(await readPackContent(tx, decisionId));
  return { canonicalJson: json, sha256: sha256Hex(json) };
}

/**
 * The gates a revision froze, per candidate. verdict.pack/1 stored them by candidate id,
 * verdict.pack/2 stores the read model's gate table (a list): both are read the same way.
 */
/**
 * The deployment configuration an approval names (issue 14): the candidate's operating threshold
 * in the frozen revision (its run that counts) and the rule that chose it (FIXED when the pack
 * has none: frozen before the rule existed).
 */
export function frozenOperatingPoint(
  canonicalJsonText: string,
  candidateId: string,
): { operatingThreshold: number | null; operatingRule: OperatingRuleKind } {
  const pack = JSON.parse(canonicalJsonText) as {
    task?: { operatingRule?: OperatingRuleKind };
    runsThatCount?: { candidateId: string; runId: number }[];
    evidence?: { evalRuns?: { id: number; metrics: { parameters?: { threshold?: number } } | null }[] };
  };
  const runId = pack.runsThatCount?.find((r) => r.candidateId === candidateId)?.runId;
  const run = pack.evidence?.evalRuns?.find((r) => r.id === runId);
  return {
    operatingThreshold: run?.metrics?.parameters?.threshold ?? null,
    operatingRule: pack.task?.operatingRule ?? "FIXED",
  };
}

export function frozenGates(canonicalJsonText: string): Record<string, Gate[]> {
  const pack = JSON.parse(canonicalJsonText) as {
    results?: { gates?: Record<string, Gate[]> | { candidateId: string; gates: Gate[] }[] };
  };
  const gates = pack.results?.gates;
  if (!gates) return {};
  return Array.isArray(gates) ? Object.fromEntries(gates.map((g) => [g.candidateId, g.gates])) : gates;
}
