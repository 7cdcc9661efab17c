import "server-only";
import { randomUUID } from "node:crypto";
import { can } from "@/lib/auth/permissions";
import { canonicalJson } from "@/lib/canonical-json";
import { protocolSchema } from "@/lib/harness/protocol";
import { runStartSchema, sweepStartSchema } from "@/lib/schemas/harness";
import { recordAudit, type RequestInfo } from "../audit/write";
import { database, db, type Tx } from "../db";
import { lockEditableDecision } from "../decisions/lock";
import { AppError, fieldProblems, forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";
import { protocolSha256, PUBLIC_ENDPOINT } from "./endpoints";
import { abortLocalChunks, type EndpointSnapshot } from "./execute-chunk";
import { enqueueRun } from "./queue";

const validation = (field: string, reason: string) =>
  new AppError("VALIDATION", `${field}: ${reason}`, {
    issues: [{ field, reason }],
    total: 1,
    fieldErrors: { [field]: [reason] },
  });

function parse<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import("zod").ZodError } },
  input: unknown,
): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = fieldProblems(parsed.error);
  throw new AppError("VALIDATION", issues.map((i) => `${i.field}: ${i.reason}`).join("; "), {
    issues,
    total: issues.length,
  });
}

/** Items per chunk: enough that a chunk keeps its requests in flight most of its time. */
export const chunkSizeFor = (concurrency: number) => Math.max(256, concurrency * 16);

/** What a run needs, read under the decision's lock: the protocol, the evaluation version, the endpoint. */
async function runInputs(tx: Tx, decisionId: string, candidateId: string) {
  const decision = await lockEditableDecision(tx, decisionId);
  const row = await tx.decision.findUniqueOrThrow({
    where: { id: decisionId },
    select: { evalProtocol: true, evaluationDatasetVersion: { select: { id: true, itemCount: true } } },
  });
  if (row.evalProtocol === null)
    throw validation("protocol", "Set the decision's evaluation protocol before running a candidate.");
  if (!row.evaluationDatasetVersion || decision.evaluationDatasetVersionId === null)
    throw validation("datasetVersion", "Upload the evaluation dataset first: a run evaluates the candidate on it.");
  const candidate = await tx.candidate.findFirst({
    where: { id: candidateId, decisionId },
    select: {
      id: true,
      name: true,
      // The endpoint as a reader may see it (never the key); its candidate is the one selected here.
      endpoint: { select: { ...PUBLIC_ENDPOINT, candidateId: false } },
    },
  });
  if (!candidate) throw notFoundError("The candidate");
  if (!candidate.endpoint) throw validation("candidateId", `Configure ${candidate.name}'s endpoint before running it.`);
  const protocol = protocolSchema.parse(row.evalProtocol);
  return {
    protocol,
    version: row.evaluationDatasetVersion,
    candidate,
    endpoint: candidate.endpoint satisfies EndpointSnapshot,
  };
}

export const RUN_VIEW = {
  id: true,
  decisionId: true,
  candidateId: true,
  datasetVersionId: true,
  kind: true,
  sweepId: true,
  concurrency: true,
  protocolSha256: true,
  endpoint: true,
  status: true,
  itemCount: true,
  doneCount: true,
  error: true,
  evalRunId: true,
  servingBenchmarkId: true,
  createdAt: true,
  finishedAt: true,
} as const;

type RunInputs = Awaited<ReturnType<typeof runInputs>>;

/** What a single run and a sweep level set differently. */
interface RunShape {
  kind: "EVAL" | "SWEEP";
  sweepId?: string;
  concurrency: number;
  itemCount: number;
  chunkSize: number;
  itemLimit: number | null;
}

/**
 * Creates one run row with the protocol (canonical, with its SHA-256) and the endpoint (without
 * its key) frozen into it, so a later edit of either never changes what the run ran with.
 */
function createRunRow(
  tx: Tx,
  actor: Actor,
  decisionId: string,
  candidateId: string,
  inputs: RunInputs,
  shape: RunShape,
) {
  return tx.harnessRun.create({
    data: {
      decisionId,
      candidateId,
      datasetVersionId: inputs.version.id,
      ...shape,
      protocol: JSON.parse(canonicalJson(inputs.protocol)) as object,
      protocolSha256: protocolSha256(inputs.protocol),
      endpoint: inputs.endpoint,
      createdById: actor.id,
    },
    select: RUN_VIEW,
  });
}

/**
 * Analyst: runs a candidate's endpoint over the decision's evaluation dataset version with the
 * decision's protocol, both frozen into the run (the protocol's SHA-256, the endpoint without its
 * key). Audited; the chunks are queued after the commit.
 */
export async function startHarnessRun(actor: Actor, decisionId: string, input: unknown, request: RequestInfo = {}) {
  if (!can(actor, "evidence.import")) throw forbiddenError();
  const i = parse(runStartSchema, input);
  const prisma = await db();
  const run = await prisma.$transaction(async (tx) => {
    const inputs = await runInputs(tx, decisionId, i.candidateId);
    const { version, endpoint } = inputs;
    const concurrency = i.concurrency ?? endpoint.concurrency;
    if (concurrency > endpoint.concurrency)
      throw validation("concurrency", `At most the endpoint's limit of ${endpoint.concurrency} requests in flight.`);
    const itemCount = Math.min(i.limit ?? version.itemCount, version.itemCount);
    const run = await createRunRow(tx, actor, decisionId, i.candidateId, inputs, {
      kind: "EVAL",
      concurrency,
      itemCount,
      chunkSize: chunkSizeFor(concurrency),
      itemLimit: i.limit ?? null,
    });
    await recordAudit(tx, {
      actor,
      action: "harness_run.start",
      entityType: "HarnessRun",
      entityId: String(run.id),
      decisionId,
      after: {
        candidateId: run.candidateId,
        datasetVersionId: run.datasetVersionId,
        concurrency,
        itemCount,
        protocolSha256: run.protocolSha256,
        endpoint,
      },
      request,
    });
    return run;
  });
  await enqueueRun(await database(), run.id);
  return run;
}

/**
 * Analyst: a load sweep — one serving measurement per concurrency level (ascending), each over the
 * first `limit` items, run one level after another so levels never load the endpoint together.
 */
export async function startSweep(actor: Actor, decisionId: string, input: unknown, request: RequestInfo = {}) {
  if (!can(actor, "evidence.import")) throw forbiddenError();
  const i = parse(sweepStartSchema, input);
  const levels = [...new Set(i.levels)].sort((a, b) => a - b);
  const prisma = await db();
  const runs = await prisma.$transaction(async (tx) => {
    const inputs = await runInputs(tx, decisionId, i.candidateId);
    const { version, endpoint } = inputs;
    const over = levels.find((l) => l > endpoint.concurrency);
    if (over !== undefined)
      throw validation(
        "levels",
        `${over} is above the endpoint's limit of ${endpoint.concurrency} requests in flight.`,
      );
    const sweepId = randomUUID();
    const itemCount = Math.min(i.limit, version.itemCount);
    const runs = [];
    for (const concurrency of levels) {
      runs.push(
        await createRunRow(tx, actor, decisionId, i.candidateId, inputs, {
          kind: "SWEEP",
          sweepId,
          concurrency,
          itemCount,
          chunkSize: Math.max(itemCount, 1),
          itemLimit: i.limit,
        }),
      );
    }
    await recordAudit(tx, {
      actor,
      action: "harness_run.start",
      entityType: "HarnessRun",
      entityId: sweepId,
      decisionId,
      after: { sweep: true, candidateId: i.candidateId, levels, itemCount, runIds: runs.map((r) => r.id), endpoint },
      request,
    });
    return runs;
  });
  await enqueueRun(await database(), runs[0]!.id);
  return { sweepId: runs[0]!.sweepId, runs };
}

/** Analyst: cancels a queued or running run (every level of its sweep); stored items stay. */
export async function cancelHarnessRun(actor: Actor, decisionId: string, runId: number, request: RequestInfo = {}) {
  if (!can(actor, "evidence.import")) throw forbiddenError();
  const prisma = await db();
  const ids = await prisma.$transaction(async (tx) => {
    const run = await tx.harnessRun.findFirst({
      where: { id: runId, decisionId },
      select: { id: true, sweepId: true, status: true },
    });
    if (!run) throw notFoundError("The run");
    const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
      `UPDATE "HarnessRun" SET status = 'CANCELLED', "finishedAt" = now() WHERE (id = $1 OR ("sweepId" IS NOT NULL AND "sweepId" = $2)) AND status IN ('QUEUED', 'RUNNING') RETURNING id`,
      run.id,
      run.sweepId,
    );
    if (rows.length === 0)
      throw new AppError(
        "CONFLICT",
        `The run is ${run.status.toLowerCase()}: only a queued or running run can be cancelled.`,
      );
    await recordAudit(tx, {
      actor,
      action: "harness_run.cancel",
      entityType: "HarnessRun",
      entityId: String(run.id),
      decisionId,
      before: { status: run.status },
      after: { status: "CANCELLED", runIds: rows.map((r) => r.id) },
      request,
    });
    return rows.map((r) => r.id);
  });
  for (const id of ids) abortLocalChunks(id);
  return { cancelled: ids };
}

/** A run with its progress and what its stored items say so far (parse failures, failed requests, tokens). */
export async function getHarnessRun(actor: Actor, decisionId: string, runId: number) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const run = await prisma.harnessRun.findFirst({ where: { id: runId, decisionId }, select: RUN_VIEW });
  if (!run) throw notFoundError("The run");
  return { ...run, ...(await itemSummaries(prisma, [run.id])).get(run.id) };
}

/** The decision's runs, newest first, with their progress. */
export async function listHarnessRuns(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const runs = await prisma.harnessRun.findMany({
    where: { decisionId },
    orderBy: { id: "desc" },
    take: 50,
    select: RUN_VIEW,
  });
  const summaries = await itemSummaries(
    prisma,
    runs.map((r) => r.id),
  );
  return runs.map((r) => ({ ...r, ...summaries.get(r.id) }));
}

async function itemSummaries(prisma: Awaited<ReturnType<typeof db>>, runIds: number[]) {
  const rows = runIds.length
    ? await prisma.$queryRawUnsafe<
        {
          id: number;
          parseFailures: number;
          failedRequests: number;
          retried: number;
          inputTokens: number | null;
          outputTokens: number | null;
        }[]
      >(
        `SELECT "harnessRunId" AS id, count(*) FILTER (WHERE "parseFailure" IS NOT NULL)::int AS "parseFailures", count(*) FILTER (WHERE NOT completed)::int AS "failedRequests",
                count(*) FILTER (WHERE attempts > 1)::int AS retried, sum("inputTokens")::int AS "inputTokens", sum("outputTokens")::int AS "outputTokens"
           FROM "HarnessItem" WHERE "harnessRunId" = ANY($1::int[]) GROUP BY "harnessRunId"`,
        runIds,
      )
    : [];
  const empty = { parseFailures: 0, failedRequests: 0, retried: 0, inputTokens: 0, outputTokens: 0 };
  return new Map(
    runIds.map((id) => {
      const r = rows.find((x) => x.id === id);
      return [
        id,
        r
          ? {
              parseFailures: r.parseFailures,
              failedRequests: r.failedRequests,
              retried: r.retried,
              inputTokens: r.inputTokens ?? 0,
              outputTokens: r.outputTokens ?? 0,
            }
          : empty,
      ];
    }),
  );
}

/** A run number from a path or an option; anything else names no run. */
export function parseRunId(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new AppError("NOT_FOUND", "The run was not found.");
  return Number(value);
}
