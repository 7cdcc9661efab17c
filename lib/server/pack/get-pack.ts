import "server-only";
import { createHash } from "node:crypto";
import { cache } from "react";
import { can } from "@/lib/auth/permissions";
import type { PackData, PackRun } from "@/lib/pack/pack-data";
import { db } from "../db";
import { forbiddenError } from "../errors";
import { packResults } from "@/lib/pack/pack-results";
import { pageView, type PageView } from "@/lib/pack/page/page-view";
import { packResultsAt, whatIfPack, type WhatIfPack } from "@/lib/pack/what-if-pack";
import { verdictSummaryOf } from "@/lib/pack/verdict-summary";
import { stageHeadlines } from "@/lib/pack/stage-summary";
import { readComparisons, readDecisionCore, readPackModel, readRuns, readScores, readServing } from "./read-model";
import { cachedPart, evidenceState } from "./pack-cache";
import { harnessSettings } from "../harness/endpoints";
import type { Actor } from "../actors";
import { SIGNATURE_SELECT } from "../audit/signature-select";
import { comparisonsStale } from "../runs/comparison-state";

/**
 * The page's reads of the pack's read model (lib/server/pack/read-model.ts), one per stage so each
 * streamed section waits only for its own evidence. Each is cached per request (React cache) and
 * across requests while the decision's evidence state is unchanged (./pack/pack-cache.ts), and
 * reads stored results only: the size of a read does not grow with the number of items.
 */
function check(actor: Actor) {
  if (!can(actor, "decision.read")) throw forbiddenError();
}

/** The decision's evidence state, once per request: the key of every cached part below. */
const stateOf = cache(async (decisionId: string) => evidenceState(await db(), decisionId));
const part = <T>(name: string, read: (decisionId: string) => Promise<T>) =>
  cache(async (decisionId: string) => cachedPart(decisionId, await stateOf(decisionId), name, () => read(decisionId)));

const decisionAndCandidates = part("core", async (decisionId) => readDecisionCore(await db(), decisionId));

export async function getPackDecision(actor: Actor, decisionId: string) {
  check(actor);
  return decisionAndCandidates(decisionId);
}

const scoresOf = part("scores", async (decisionId) => readScores(await db(), decisionId));

const runsOf = part("runs", async (decisionId) => {
  const { decision } = await decisionAndCandidates(decisionId);
  return readRuns(await db(), decisionId, decision.evaluationDatasetVersionId);
});

/** The run that counts per candidate. */
export async function getPackRuns(actor: Actor, decisionId: string): Promise<PackRun[]> {
  check(actor);
  return (await runsOf(decisionId)).runs;
}

const servingOf = part("serving", async (decisionId) => readServing(await db(), decisionId));

const comparisonsOf = part("comparisons", async (decisionId) => {
  const { runs } = await runsOf(decisionId);
  return readComparisons(await db(), decisionId, new Set(runs.map((r) => r.runId)));
});

export async function getPackComparisons(actor: Actor, decisionId: string) {
  check(actor);
  return comparisonsOf(decisionId);
}

/** How many of the decision's runs are waiting for or in their metrics job: the pack says "recomputing" meanwhile. */
export async function countComputingRuns(actor: Actor, decisionId: string): Promise<number> {
  check(actor);
  // Every run's status is part of the evidence state: the cached read is the current one.
  return (await runsOf(decisionId)).otherRuns.filter((r) => r.status === "PENDING" || r.status === "RUNNING").length;
}

/**
 * Whether the decision's paired comparisons wait to be recomputed (lib/server/runs/comparison-state.ts):
 * the pack says "recomputing" for its significance figures meanwhile, as for runs.
 */
export async function comparisonsRecomputing(actor: Actor, decisionId: string): Promise<boolean> {
  check(actor);
  return comparisonsStale(await db(), decisionId);
}

/** The evidence state as a short tag: the key of the page's view and its ETag. */
const tagOf = cache(async (decisionId: string) =>
  createHash("sha256")
    .update(await stateOf(decisionId))
    .digest("base64url")
    .slice(0, 22),
);

export async function getPackStateTag(actor: Actor, decisionId: string): Promise<string> {
  check(actor);
  return tagOf(decisionId);
}

const viewOf = part("view", async (decisionId): Promise<PageView> => {
  const [data, { otherRuns }, tag, whatIf] = await Promise.all([
    packDataOf(decisionId),
    runsOf(decisionId),
    tagOf(decisionId),
    whatIfOf(decisionId),
  ]);
  return pageView(tag, { ...data, otherRuns }, whatIf);
});

/** What the browser fetches for the page (lib/pack/page/page-view.ts): the stages' tables, chart series and stored curves. */
export async function getPageView(actor: Actor, decisionId: string): Promise<PageView> {
  check(actor);
  return viewOf(decisionId);
}

const whatIfOf = part("what-if", async (decisionId): Promise<WhatIfPack> => whatIfPack(await packDataOf(decisionId)));

const storedAt = (pack: WhatIfPack) => ({ threshold: null, prevalence: pack.decision.prevalence });

const storedVerdictOf = part("stored-verdict", async (decisionId) => {
  const [pack, revisions] = await Promise.all([whatIfOf(decisionId), readSignoff(decisionId)]);
  return { summary: verdictSummaryOf(pack, packResultsAt(pack, storedAt(pack)), revisions), revisions };
});

/** The verdict band at the stored parameters and the revisions it counts signatures on (once per evidence state). */
export async function getStoredVerdict(actor: Actor, decisionId: string) {
  check(actor);
  return storedVerdictOf(decisionId);
}

async function packDataOf(decisionId: string): Promise<PackData> {
  const [core, scores, { runs }, serving, comparisons] = await Promise.all([
    decisionAndCandidates(decisionId),
    scoresOf(decisionId),
    runsOf(decisionId),
    servingOf(decisionId),
    comparisonsOf(decisionId),
  ]);
  return { ...core, ...scores, runs, serving, comparisons };
}

const headlinesOf = part("headlines", async (decisionId) => {
  const data = await packDataOf(decisionId);
  return stageHeadlines({
    ...data.decision,
    candidates: data.candidates,
    scores: data.scores,
    runs: data.runs,
    serving: data.serving,
  });
});

/** The stage table's headline per stage and candidate (once per evidence state). */
export async function getStageHeadlines(actor: Actor, decisionId: string) {
  check(actor);
  return headlinesOf(decisionId);
}

/**
 * The decision's harness settings (protocol, candidates, endpoints), once per evidence state:
 * setting the protocol or an endpoint is audited on the decision, so it changes the state.
 */
export async function getHarnessSettings(actor: Actor, decisionId: string) {
  check(actor);
  return cachedPart(decisionId, await stateOf(decisionId), "harness-settings", () =>
    harnessSettings(actor, decisionId),
  );
}

/** The whole pack's data for the page's summary sections, from the same cached parts as the stages. */
export async function getPackData(actor: Actor, decisionId: string): Promise<PackData> {
  check(actor);
  return packDataOf(decisionId);
}

/**
 * The whole read model and the results derived from it, read at once (the JSON API): the same
 * runs that count, the same figures as the page, the exports and the revision.
 */
export async function getPackModel(actor: Actor, decisionId: string) {
  check(actor);
  const model = await readPackModel(await db(), decisionId);
  const { otherRuns: _other, ...data } = model;
  return { ...model, results: packResults(data) };
}

/** Pack revisions and the signatures on them so far (SPEC §7), for the exports. */
export async function getPackSignoff(actor: Actor, decisionId: string) {
  check(actor);
  return readSignoff(decisionId);
}

async function readSignoff(decisionId: string) {
  const prisma = await db();
  const revisions = await prisma.packRevision.findMany({
    where: { decisionId },
    orderBy: { number: "desc" },
    select: {
      id: true,
      number: true,
      sha256: true,
      createdAt: true,
      supersededAt: true,
      cause: true,
      signatures: {
        orderBy: { signedAt: "asc" },
        // Nested under its revision: the revision's id is the parent's.
        select: { ...SIGNATURE_SELECT, packRevisionId: false },
      },
    },
  });
  return revisions.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    supersededAt: r.supersededAt?.toISOString() ?? null,
    signatures: r.signatures.map((s) => ({ ...s, signedAt: s.signedAt.toISOString() })),
  }));
}
