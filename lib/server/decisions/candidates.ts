import "server-only";
import { can } from "@/lib/auth/permissions";
import { rationaleProblem } from "@/lib/pack/rationale";
import { groupModelNames, matchModels } from "@/lib/ingest/model-match";
import {
  candidateCreateSchema,
  shortlistSchema,
  type CandidateCreateInput,
  type CandidateInput,
  type ShortlistInput,
} from "@/lib/schemas/candidate";
import { changedFields, recordAudit, type RequestInfo } from "../audit/write";
import { database, db, type Tx } from "../db";
import { lockEditableDecision } from "./lock";
import { AppError, forbiddenError, notFoundError } from "../errors";
import { enqueueRecompute, markRunsForRecompute } from "../runs/recompute";
import type { Actor } from "../actors";

const CANDIDATE = {
  id: true,
  decisionId: true,
  name: true,
  provider: true,
  modelId: true,
  version: true,
  aliases: true,
  shortlistRationale: true,
  operatingThreshold: true,
  priceInputPerMTok: true,
  priceOutputPerMTok: true,
  pricePerHour: true,
} as const;

const validation = (field: string, reason: string) =>
  new AppError("VALIDATION", `${field}: ${reason}`, {
    issues: [{ field, reason }],
    total: 1,
    fieldErrors: { [field]: [reason] },
  });

/** The suites a candidate has imported scores for: what its rationale may cite. */
export async function scoredSuites(actor: Actor, decisionId: string): Promise<Record<string, string[]>> {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const rows = await prisma.leaderboardScore.findMany({
    where: { decisionId, candidateId: { not: null } },
    distinct: ["candidateId", "suite"],
    select: { candidateId: true, suite: true },
  });
  const out: Record<string, string[]> = {};
  for (const r of rows) (out[r.candidateId!] ??= []).push(r.suite);
  return out;
}

/**
 * Leaderboard rows whose model is no candidate yet: what the analyst shortlists from. Names that
 * the importers' model matching takes for one model ("meta-llama/Llama-2-7b-chat-hf" in one
 * suite, "llama-2-7b-chat-hf" in another) share a group, so they become one candidate.
 */
export async function unshortlistedModels(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const rows = await prisma.leaderboardScore.findMany({
    where: { decisionId, candidateId: null },
    orderBy: [{ modelName: "asc" }, { stage: "asc" }, { suite: "asc" }],
    select: { modelName: true, stage: true, suite: true, metric: true, value: true, higherIsBetter: true },
  });
  const groups = groupModelNames([...new Set(rows.map((r) => r.modelName))]);
  const models = new Map<string, { name: string; group: string; scores: Omit<(typeof rows)[number], "modelName">[] }>();
  for (const { modelName, ...score } of rows) {
    const model = models.get(modelName) ?? { name: modelName, group: groups.get(modelName) ?? modelName, scores: [] };
    model.scores.push(score);
    models.set(modelName, model);
  }
  return [...models.values()];
}

/** Attaches the decision's unshortlisted leaderboard rows of these model names to the candidate. */
async function attachRows(
  tx: Tx,
  decisionId: string,
  candidateId: string,
  modelNames: readonly string[],
): Promise<number> {
  if (modelNames.length === 0) return 0;
  const { count } = await tx.leaderboardScore.updateMany({
    where: { decisionId, candidateId: null, modelName: { in: [...modelNames] } },
    data: { candidateId },
  });
  return count;
}

/**
 * `reserved`: model names ticked for other candidates of the same shortlist. The matcher must not
 * take them for this one (it groups "Llama-2-70b-chat" with "quantumaikr/llama-2-70B-chat", a
 * fine-tune the analyst may shortlist apart): the analyst's ticks decide, the matcher only fills in.
 */
async function insertCandidate(
  tx: Tx,
  actor: Actor,
  decisionId: string,
  input: Omit<CandidateCreateInput, "decisionId">,
  models: readonly string[],
  via: string,
  request: RequestInfo,
  reserved: ReadonlySet<string> = new Set(),
) {
  const clash = await tx.candidate.findFirst({
    where: { decisionId, name: { equals: input.name, mode: "insensitive" } },
    select: { id: true },
  });
  if (clash) throw validation("name", `The decision already has a candidate named "${input.name}".`);
  const aliases = [...new Set([...input.aliases, ...models, ...(input.modelId ? [input.modelId] : [])])].filter(
    (a) => a !== input.name,
  );
  const candidate = await tx.candidate.create({
    data: {
      decisionId,
      name: input.name,
      provider: input.provider,
      modelId: input.modelId,
      version: input.version,
      aliases,
    },
    select: CANDIDATE,
  });
  // Rows already imported for this model (under any of its names) become its evidence.
  const unattached = await tx.leaderboardScore.findMany({
    where: { decisionId, candidateId: null },
    distinct: ["modelName"],
    select: { modelName: true },
  });
  const matchable = unattached.map((r) => r.modelName).filter((name) => !reserved.has(name));
  const matched = matchModels(matchable, [
    { id: candidate.id, name: candidate.name, modelId: candidate.modelId, version: candidate.version, aliases },
  ]).matched;
  const attached = await attachRows(tx, decisionId, candidate.id, [...new Set([...models, ...matched.keys()])]);
  await recordAudit(tx, {
    actor,
    action: "candidate.create",
    entityType: "Candidate",
    entityId: candidate.id,
    decisionId,
    after: {
      name: candidate.name,
      provider: candidate.provider,
      modelId: candidate.modelId,
      version: candidate.version,
      aliases,
      via,
      leaderboardRowsAttached: attached,
    },
    request,
  });
  return { ...candidate, leaderboardRowsAttached: attached };
}

/** Analyst: add a candidate by hand (name, provider, model id, version) while the decision is a draft. */
export async function createCandidate(actor: Actor, raw: CandidateCreateInput, request: RequestInfo = {}) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const input = candidateCreateSchema.parse(raw);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, input.decisionId);
    const { decisionId, ...rest } = input;
    return insertCandidate(tx, actor, decisionId, rest, [], "manual", request);
  });
}

/**
 * Analyst: shortlist candidates from imported leaderboard rows. Each entry names a candidate and
 * the model names (as the files spell them) that are that model; their rows become its stage 1–2
 * evidence. All entries or none.
 */
export async function shortlistCandidates(
  actor: Actor,
  decisionId: string,
  raw: ShortlistInput,
  request: RequestInfo = {},
) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const input = shortlistSchema.parse(raw);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, decisionId);
    const available = new Set(
      (
        await tx.leaderboardScore.findMany({
          where: { decisionId, candidateId: null },
          distinct: ["modelName"],
          select: { modelName: true },
        })
      ).map((r) => r.modelName),
    );
    const seen = new Set<string>();
    input.candidates.forEach((entry, i) => {
      for (const model of entry.models) {
        if (!available.has(model))
          throw validation(
            `candidates.${i}.models`,
            `"${model}" is not an unshortlisted model of this decision's leaderboards.`,
          );
        if (seen.has(model)) throw validation(`candidates.${i}.models`, `"${model}" is ticked for two candidates.`);
        seen.add(model);
      }
    });
    const created = [];
    for (const entry of input.candidates) {
      const { models, ...candidate } = entry;
      created.push(
        await insertCandidate(tx, actor, decisionId, { ...candidate, aliases: [] }, models, "shortlist", request, seen),
      );
    }
    return created;
  });
}

/**
 * Analyst: remove a candidate while the decision is a draft. Its eval runs and serving rows go
 * with it (their files stay as imports; the audit event lists what was removed); its leaderboard
 * rows go back to the unshortlisted models. A candidate someone has signed for stays: signatures
 * are never deleted.
 */
export async function removeCandidate(
  actor: Actor,
  candidateId: string,
  request: RequestInfo = {},
  decisionId?: string,
) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const found = await tx.candidate.findUnique({ where: { id: candidateId }, select: { decisionId: true } });
    // With a decision (the API's path), the candidate must be one of its own: no reaching across decisions by id.
    if (!found || (decisionId !== undefined && found.decisionId !== decisionId)) throw notFoundError("The candidate");
    await lockEditableDecision(tx, found.decisionId);
    const before = await tx.candidate.findUniqueOrThrow({
      where: { id: candidateId },
      select: {
        ...CANDIDATE,
        _count: { select: { signatures: true } },
        evalRuns: { select: { id: true, importId: true } },
        servingBenchmarks: { select: { id: true, importId: true } },
        scores: { select: { id: true } },
      },
    });
    if (before._count.signatures > 0)
      throw new AppError(
        "CONFLICT",
        `${before.name} has signatures on an earlier pack revision; it stays in the record and cannot be removed.`,
      );
    await tx.leaderboardScore.updateMany({ where: { candidateId }, data: { candidateId: null } });
    await tx.candidate.delete({ where: { id: candidateId } });
    const { _count: _c, evalRuns, servingBenchmarks, scores, ...candidate } = before;
    await recordAudit(tx, {
      actor,
      action: "candidate.remove",
      entityType: "Candidate",
      entityId: candidateId,
      decisionId: found.decisionId,
      before: { ...candidate, evalRuns, servingBenchmarks, leaderboardRowsDetached: scores.length },
      request,
    });
    return candidate;
  });
}

/**
 * Analyst: edit a candidate and its shortlist rationale (which must cite a scored suite and say
 * why). A change of its own operating threshold recomputes its runs' stored metrics.
 */
export async function updateCandidate(
  actor: Actor,
  input: CandidateInput,
  request: RequestInfo = {},
  decisionId?: string,
) {
  return (await editCandidate(actor, input, request, decisionId)).candidate;
}

/**
 * {@link updateCandidate}, answering also with the runs queued for recomputation (`recomputing`,
 * the run ids: poll …/runs/<runId>), as a change of the decision's parameters answers.
 */
export async function editCandidate(
  actor: Actor,
  input: CandidateInput,
  request: RequestInfo = {},
  decisionId?: string,
) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  const result = await prisma.$transaction(async (tx) => {
    const found = await tx.candidate.findUnique({ where: { id: input.candidateId }, select: { decisionId: true } });
    if (!found || (decisionId !== undefined && found.decisionId !== decisionId)) throw notFoundError("The candidate");
    await lockEditableDecision(tx, found.decisionId);
    const before = await tx.candidate.findUniqueOrThrow({ where: { id: input.candidateId }, select: CANDIDATE });
    const suites = (
      await tx.leaderboardScore.findMany({
        where: { candidateId: input.candidateId },
        distinct: ["suite"],
        select: { suite: true },
      })
    ).map((s) => s.suite);
    const problem = rationaleProblem(input.shortlistRationale, suites);
    if (problem)
      throw new AppError("VALIDATION", problem, {
        fieldErrors: { shortlistRationale: [problem] },
        issues: [{ field: "shortlistRationale", reason: problem }],
        total: 1,
      });
    const { candidateId, ...data } = input;
    const after = await tx.candidate.update({
      where: { id: candidateId },
      data: {
        ...data,
        operatingThreshold: data.operatingThreshold ?? null,
        priceInputPerMTok: data.priceInputPerMTok ?? null,
        priceOutputPerMTok: data.priceOutputPerMTok ?? null,
        pricePerHour: data.pricePerHour ?? null,
      },
      select: CANDIDATE,
    });
    const { changed, ...change } = changedFields(Object.keys(data) as (keyof typeof data)[], before, after);
    await recordAudit(tx, {
      actor,
      action: "candidate.update",
      entityType: "Candidate",
      entityId: candidateId,
      decisionId: before.decisionId,
      ...change,
      request,
    });
    const recomputing = changed.includes("operatingThreshold")
      ? await markRunsForRecompute(
          tx,
          actor,
          before.decisionId,
          "changed the candidate's operating threshold",
          request,
          candidateId,
        )
      : [];
    return { candidate: after, recomputing };
  });
  await enqueueRecompute(await database(), result.recomputing);
  return result;
}
