import "server-only";
import { can } from "@/lib/auth/permissions";
import { EVAL_RUN_COUNTS, LISTED_IMPORT } from "../decisions/fields";
import { database as getDatabase } from "../db";
import { forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";

/** A run's state for polling (status, progress, counts; no metrics payload). */
export async function getRunStatus(actor: Actor, decisionId: string, runId: number) {
  if (!can(actor, "decision.read") && !can(actor, "evidence.import")) throw forbiddenError();
  if (!Number.isSafeInteger(runId)) throw notFoundError("The run");
  const prisma = (await getDatabase()).prisma;
  const run = await prisma.evalRun.findFirst({
    where: { id: runId, decisionId },
    select: {
      id: true,
      status: true,
      progress: true,
      ...EVAL_RUN_COUNTS,
      error: true,
      createdAt: true,
      computedAt: true,
      candidate: { select: { id: true, name: true } },
      datasetVersion: { select: { id: true, version: true, dataset: { select: { name: true } } } },
      import: { select: { id: true, fileName: true, rowCount: true, sha256: true, format: true } },
    },
  });
  if (!run) throw notFoundError("The run");
  return run;
}

/** What the uploads page shows: candidates, dataset versions, recent imports and runs. */
export async function getUploadsOverview(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read") && !can(actor, "evidence.import")) throw forbiddenError();
  const prisma = (await getDatabase()).prisma;
  const decision = await prisma.decision.findUnique({
    where: { id: decisionId },
    select: {
      id: true,
      title: true,
      status: true,
      archivedAt: true,
      evaluationDatasetVersionId: true,
      positiveClass: true,
      candidates: { orderBy: { createdAt: "asc" }, select: { id: true, name: true } },
      datasets: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          name: true,
          versions: {
            orderBy: { version: "desc" },
            select: { id: true, version: true, itemCount: true, positiveCount: true, createdAt: true },
          },
        },
      },
      imports: {
        orderBy: { createdAt: "desc" },
        take: 50,
        select: { ...LISTED_IMPORT, importedBy: { select: { name: true } } },
      },
      evalRuns: {
        orderBy: { id: "desc" },
        take: 50,
        select: {
          id: true,
          status: true,
          progress: true,
          itemCount: true,
          missingCount: true,
          candidate: { select: { name: true } },
          datasetVersion: { select: { id: true, version: true, dataset: { select: { name: true } } } },
        },
      },
    },
  });
  if (!decision) throw notFoundError("The decision");
  return { ...decision, imports: decision.imports.map((i) => ({ ...i, sizeBytes: Number(i.sizeBytes) })) };
}
