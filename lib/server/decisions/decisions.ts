import "server-only";
import { z } from "zod";
import { can } from "@/lib/auth/permissions";
import {
  DECISION_DEFAULTS,
  decisionCreateSchema,
  decisionParametersSchema,
  type DecisionCreateInput,
  type DecisionListFilter,
  type DecisionParametersPatch,
} from "@/lib/schemas/decision";
import type { Prisma } from "@/lib/generated/prisma/client";
import { database, db } from "../db";
import { changedFields, recordAudit, type RequestInfo } from "../audit/write";
import { lockDecisionRow, lockEditableDecision } from "./lock";
import { AppError, forbiddenError, notFoundError } from "../errors";
import { enqueueRecompute, markRunsForRecompute, metricInputsChanged } from "../runs/recompute";
import { markComparisonsStale } from "../runs/comparison-state";
import { enqueueComparisons } from "../runs/queue";
import type { Actor } from "../actors";

/** The task parameters of a decision (SPEC §2), as a Prisma select. */
export const TASK_PARAMETERS = {
  id: true,
  title: true,
  description: true,
  positiveClass: true,
  prevalence: true,
  costFn: true,
  costFp: true,
  currency: true,
  recallFloor: true,
  precisionFloor: true,
  operatingThreshold: true,
  operatingRule: true,
  sloP95E2eMs: true,
  sloP95TtftMs: true,
  sloMinThroughputRps: true,
  sloThroughputConcurrency: true,
  sloMaxCostPer1kRequests: true,
  quorum: true,
} as const;

const DECISION_PARAMETERS = {
  ...TASK_PARAMETERS,
  status: true,
  archivedAt: true,
  evaluationDatasetVersionId: true,
  updatedAt: true,
} as const;

const LIST_WHERE: Record<DecisionListFilter, Prisma.DecisionWhereInput> = {
  ACTIVE: { archivedAt: null },
  DRAFT: { archivedAt: null, status: "DRAFT" },
  IN_REVIEW: { archivedAt: null, status: "IN_REVIEW" },
  CHANGES_REQUESTED: { archivedAt: null, status: "CHANGES_REQUESTED" },
  APPROVED: { archivedAt: null, status: "APPROVED" },
  REJECTED: { archivedAt: null, status: "REJECTED" },
  ARCHIVED: { archivedAt: { not: null } },
  ALL: {},
};

/** The decisions list: by default every decision that is not archived, newest change first. */
export async function listDecisions(actor: Actor, filter: DecisionListFilter = "ACTIVE") {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  return prisma.decision.findMany({
    where: LIST_WHERE[filter],
    orderBy: { updatedAt: "desc" },
    select: {
      id: true,
      title: true,
      status: true,
      archivedAt: true,
      positiveClass: true,
      prevalence: true,
      updatedAt: true,
      _count: { select: { candidates: true } },
    },
  });
}

/** Decisions whose parameters a new one may start from (the "Start from an existing decision" list). */
export async function listDecisionTemplates(actor: Actor) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  return prisma.decision.findMany({
    orderBy: { updatedAt: "desc" },
    select: { id: true, title: true, archivedAt: true },
  });
}

/** The task parameters of one decision (to pre-fill a new decision's form from it). */
export async function getDecisionParameters(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const decision = await prisma.decision.findUnique({ where: { id: decisionId }, select: DECISION_PARAMETERS });
  if (!decision) throw notFoundError("The decision");
  return decision;
}

/** Parameters a copy takes from its source: everything but what names the decision. */
const COPIED = (({ id: _i, title: _t, description: _d, ...rest }) => rest)(TASK_PARAMETERS);

/**
 * Analyst: a new decision in DRAFT with every task parameter of SPEC §2. With `copyFrom`, the
 * source's parameters fill what the input leaves out — never its candidates or evidence. The
 * whole is then validated by the form's own schema (a missing or invalid field is a 422 naming
 * it), and the decision and its `decision.create` event are written in one transaction.
 */
export async function createDecision(actor: Actor, input: DecisionCreateInput, request: RequestInfo = {}) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const given = decisionCreateSchema.safeParse(input);
  const raw: Record<string, unknown> =
    typeof input === "object" && input !== null && !Array.isArray(input) ? { ...input } : {};
  const copyFrom = given.success ? given.data.copyFrom : undefined;
  const prisma = await db();
  let copied: Record<string, unknown> = {};
  if (copyFrom) {
    const source = await prisma.decision.findUnique({ where: { id: copyFrom }, select: COPIED });
    if (!source)
      throw new AppError("VALIDATION", "copyFrom: no decision has this id.", {
        issues: [{ field: "copyFrom", reason: "No decision has this id." }],
        total: 1,
      });
    copied = source;
  }
  // Every problem at once: the fields given (their own rules, unknown keys), then the whole set
  // after the copy and the defaults (what is still missing), each field named once.
  delete raw.copyFrom;
  const defined = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  const whole = decisionParametersSchema.safeParse({ ...DECISION_DEFAULTS, ...copied, ...defined });
  if (!given.success || !whole.success) {
    const issues = [...(given.error?.issues ?? [])];
    for (const issue of whole.error?.issues ?? [])
      if (!issues.some((i) => i.path.join(".") === issue.path.join("."))) issues.push(issue);
    throw new z.ZodError(issues);
  }
  const parameters = whole.data;
  return prisma.$transaction(async (tx) => {
    const decision = await tx.decision.create({
      data: { ...parameters, createdById: actor.id },
      select: DECISION_PARAMETERS,
    });
    await recordAudit(tx, {
      actor,
      action: "decision.create",
      entityType: "Decision",
      entityId: decision.id,
      decisionId: decision.id,
      after: { ...parameters, copiedFrom: copyFrom ?? null },
      request,
    });
    return decision;
  });
}

/** Analyst: archive (kept, read-only, hidden from the default list) or restore a decision. */
export async function setDecisionArchived(
  actor: Actor,
  decisionId: string,
  archived: boolean,
  request: RequestInfo = {},
) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const before = await lockDecisionRow(tx, decisionId);
    if (Boolean(before.archivedAt) === archived)
      throw new AppError("CONFLICT", archived ? "The decision is already archived." : "The decision is not archived.");
    if (archived && before.status === "IN_REVIEW")
      throw new AppError(
        "CONFLICT",
        "The decision is in review: request changes or finish the sign-off before archiving it.",
      );
    const after = await tx.decision.update({
      where: { id: decisionId },
      data: { archivedAt: archived ? new Date() : null },
      select: { id: true, archivedAt: true, status: true },
    });
    await recordAudit(tx, {
      actor,
      action: archived ? "decision.archive" : "decision.unarchive",
      entityType: "Decision",
      entityId: decisionId,
      decisionId,
      before: { archivedAt: before.archivedAt },
      after: { archivedAt: after.archivedAt },
      request,
    });
    return after;
  });
}

/**
 * Analyst: change task parameters — the one use case behind the edit page, the what-if save,
 * `PATCH /api/v1/decisions/<id>` and the CLI. Under the decision's row lock it checks that the
 * decision is editable, writes the change and its audit event, and marks every run whose stored
 * metrics depend on a changed input (π, costs, threshold) for recomputation; the jobs are queued
 * after the commit. Returns the decision and the ids of the runs being recomputed.
 */
export async function updateDecisionParameters(
  actor: Actor,
  decisionId: string,
  patch: DecisionParametersPatch,
  request: RequestInfo = {},
) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const { prisma } = await database();
  const result = await prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, decisionId);
    const before = await tx.decision.findUniqueOrThrow({ where: { id: decisionId }, select: DECISION_PARAMETERS });
    const after = await tx.decision.update({ where: { id: decisionId }, data: patch, select: DECISION_PARAMETERS });
    const { changed, ...change } = changedFields(Object.keys(patch) as (keyof typeof patch)[], before, after);
    await recordAudit(tx, {
      actor,
      action: "decision.update_parameters",
      entityType: "Decision",
      entityId: decisionId,
      decisionId,
      ...change,
      request,
    });
    const inputs = metricInputsChanged(changed, after.operatingRule);
    const recomputing =
      inputs.length > 0
        ? await markRunsForRecompute(tx, actor, decisionId, `changed ${inputs.join(", ")}`, request)
        : [];
    return { decision: after, recomputing };
  });
  await enqueueRecompute(await database(), result.recomputing);
  return result;
}

/**
 * Analyst: the one dataset version the pack is evaluated on (SPEC §2), while the decision is a
 * draft. The version must belong to one of the decision's datasets. The paired comparisons are
 * marked stale with the change and recomputed by a job queued after the commit.
 */
export async function setEvaluationDatasetVersion(
  actor: Actor,
  decisionId: string,
  datasetVersionId: number,
  request: RequestInfo = {},
) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  const result = await prisma.$transaction(async (tx) => {
    const before = await lockEditableDecision(tx, decisionId);
    const version = await tx.datasetVersion.findFirst({
      where: { id: datasetVersionId, dataset: { decisionId } },
      select: { id: true, version: true, dataset: { select: { name: true } } },
    });
    if (!version)
      throw new AppError("VALIDATION", "datasetVersionId: no dataset version of this decision has this id.", {
        issues: [{ field: "datasetVersionId", reason: "Not a dataset version of this decision." }],
        total: 1,
      });
    if (before.evaluationDatasetVersionId === version.id) return { version, changed: false };
    await tx.decision.update({ where: { id: decisionId }, data: { evaluationDatasetVersionId: version.id } });
    // Which runs count, and so which are paired, depends on the version (runsThatCount).
    await markComparisonsStale(tx, decisionId);
    await recordAudit(tx, {
      actor,
      action: "decision.set_evaluation_dataset",
      entityType: "Decision",
      entityId: decisionId,
      decisionId,
      before: { evaluationDatasetVersionId: before.evaluationDatasetVersionId },
      after: { evaluationDatasetVersionId: version.id, dataset: version.dataset.name, version: version.version },
      request,
    });
    return { version, changed: true };
  });
  if (result.changed) await enqueueComparisons(await database(), decisionId);
  return result.version;
}
