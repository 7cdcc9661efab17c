import type { UploadFile } from "../lib/server/imports/index.ts";
import { db } from "../lib/server/db.ts";

/** An upload of these bytes, as the browser or the API hands it over. */
export const bytes = (name: string, content: string | Buffer): UploadFile => ({
  name,
  stream: (async function* () {
    yield typeof content === "string" ? Buffer.from(content, "utf8") : content;
  })(),
});

/**
 * Row counts of everything an import may write, scoped to one decision. A rejected file writes
 * nothing but its refusal's audit event (evidence.import_failed, counted apart as `refused`).
 */
export async function counts(decisionId: string) {
  const prisma = await db();
  const [imports, datasets, versions, items, runs, predictions, scores, serving, audit, refused] = await Promise.all([
    prisma.import.count({ where: { decisionId } }),
    prisma.dataset.count({ where: { decisionId } }),
    prisma.datasetVersion.count({ where: { dataset: { decisionId } } }),
    prisma.datasetItem.count({ where: { datasetVersion: { dataset: { decisionId } } } }),
    prisma.evalRun.count({ where: { decisionId } }),
    prisma.prediction.count({ where: { set: { evalRun: { decisionId } } } }),
    prisma.leaderboardScore.count({ where: { decisionId } }),
    prisma.servingBenchmark.count({ where: { decisionId } }),
    prisma.auditEvent.count({ where: { decisionId, action: { not: "evidence.import_failed" } } }),
    prisma.auditEvent.count({ where: { decisionId, action: "evidence.import_failed" } }),
  ]);
  return { imports, datasets, versions, items, runs, predictions, scores, serving, audit, refused };
}
