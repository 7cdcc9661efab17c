import "server-only";
import { can } from "@/lib/auth/permissions";
import { candidateNames } from "@/lib/ingest/model-match";
import { attachModelsSchema } from "@/lib/schemas/candidate";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db, type Tx } from "../db";
import { AppError, forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";
import { lockEditableDecision } from "./lock";

/**
 * One model-name identity per candidate (issue 26 item 4): a spelling the analyst confirms — a
 * `modelMap` entry on an upload, or stranded leaderboard rows attached to a candidate — becomes an
 * alias of that candidate, so the model matcher (lib/ingest/model-match.ts) attaches the next file
 * with that spelling by itself. Both paths write here, inside their own transaction.
 */

const validation = (field: string, reason: string) =>
  new AppError("VALIDATION", `${field}: ${reason}`, {
    issues: [{ field, reason }],
    total: 1,
    fieldErrors: { [field]: [reason] },
  });

const NAME_FIELDS = { id: true, name: true, modelId: true, version: true, aliases: true } as const;

/**
 * Adds the confirmed spellings to the candidate's aliases (those it does not already carry,
 * compared case-insensitively); refuses a spelling that another candidate of the decision carries,
 * which would make it match two candidates. Returns the aliases added.
 */
export async function rememberSpellings(
  tx: Tx,
  decisionId: string,
  candidateId: string,
  spellings: readonly string[],
  field = "modelMap",
): Promise<string[]> {
  const candidates = await tx.candidate.findMany({ where: { decisionId }, select: NAME_FIELDS });
  const candidate = candidates.find((c) => c.id === candidateId);
  if (!candidate) throw notFoundError("The candidate");
  const known = new Set(candidateNames(candidate).map((n) => n.toLowerCase()));
  const added: string[] = [];
  for (const spelling of new Set(spellings.map((s) => s.trim()).filter(Boolean))) {
    const other = candidates.find(
      (c) => c.id !== candidateId && candidateNames(c).some((n) => n.toLowerCase() === spelling.toLowerCase()),
    );
    if (other) throw validation(field, `"${spelling}" already names the candidate ${other.name}.`);
    if (known.has(spelling.toLowerCase())) continue;
    known.add(spelling.toLowerCase());
    added.push(spelling);
  }
  if (added.length)
    await tx.candidate.update({ where: { id: candidateId }, data: { aliases: [...candidate.aliases, ...added] } });
  return added;
}

/**
 * Attaches the decision's stranded leaderboard rows (no candidate) of these model names to the
 * candidate and remembers each name as its alias; audited. Names with no stranded row are refused
 * by item, so a typo changes nothing.
 */
export async function attachStrandedRows(
  tx: Tx,
  actor: Actor,
  decisionId: string,
  candidateId: string,
  models: readonly string[],
  via: string,
  request: RequestInfo,
) {
  const stranded = new Set(
    (
      await tx.leaderboardScore.findMany({
        where: { decisionId, candidateId: null, modelName: { in: [...models] } },
        distinct: ["modelName"],
        select: { modelName: true },
      })
    ).map((r) => r.modelName),
  );
  models.forEach((model, i) => {
    if (!stranded.has(model))
      throw validation(`models.${i}`, `"${model}" has no leaderboard row without a candidate in this decision.`);
  });
  const aliasesAdded = await rememberSpellings(tx, decisionId, candidateId, models, "models");
  const { count } = await tx.leaderboardScore.updateMany({
    where: { decisionId, candidateId: null, modelName: { in: [...models] } },
    data: { candidateId },
  });
  const candidate = await tx.candidate.findUniqueOrThrow({ where: { id: candidateId }, select: { name: true } });
  // The audit event in this transaction is also what invalidates the pack's cached read (pack-cache.ts).
  await recordAudit(tx, {
    actor,
    action: "leaderboard.attach",
    entityType: "Candidate",
    entityId: candidateId,
    decisionId,
    after: { candidate: candidate.name, models: [...models], rowsAttached: count, aliasesAdded, via },
    request,
  });
  return { candidateId, candidate: candidate.name, models: [...models], rowsAttached: count, aliasesAdded };
}

/**
 * Analyst: attaches stranded leaderboard rows (a model name the matcher did not take for any
 * candidate) to an existing candidate — from the edit page, `POST …/candidates/<id>/attach` and
 * `verdict candidate attach`. The spellings become the candidate's aliases.
 */
export async function attachLeaderboardModels(
  actor: Actor,
  decisionId: string,
  raw: unknown,
  request: RequestInfo = {},
) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const input = attachModelsSchema.parse(raw);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, decisionId);
    const candidate = await tx.candidate.findFirst({
      where: { id: input.candidateId, decisionId },
      select: { id: true },
    });
    if (!candidate) throw notFoundError("The candidate");
    return attachStrandedRows(tx, actor, decisionId, candidate.id, input.models, request.via ?? "api", request);
  });
}
