import "server-only";
import { createHash } from "node:crypto";
import { can } from "@/lib/auth/permissions";
import { canonicalJson } from "@/lib/canonical-json";
import { packResults } from "@/lib/pack/pack-results";
import { operatingPointRows } from "@/lib/pack/operating-point-rows";
import { auditHeadWith, formatHead } from "../audit/verify";
import { db } from "../db";
import { forbiddenError } from "../errors";
import { getPackSignoff } from "./get-pack";
import { readPackModel } from "./read-model";
import { readProvenance } from "./record";
import { readReview } from "./review-record";
import type { Actor } from "../actors";

// The export model lives apart from export.ts so the PDF renderer can read its type without
// importing the use cases that call the renderer (export.ts → pdf.ts, never back).

export const EXPORT_FORMAT = "verdict.evidence-pack-export/1";

/**
 * The evidence pack for an auditor: the stored evidence and every derived result (gates, funnel,
 * ranks, total cost, significance), the pack revisions with their SHA-256 and the signatures so
 * far (so signatures can be checked offline against the revisions' hashes), the provenance of
 * every source file and harness run, the review (comments, resolutions, signatures' meanings), and
 * the SHA-256 of this export's own evidence-and-results content in canonical JSON.
 */
export async function buildPackExport(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const [{ otherRuns, ...data }, revisions, head, review] = await Promise.all([
    readPackModel(prisma, decisionId),
    getPackSignoff(actor, decisionId),
    auditHeadWith(prisma),
    readReview(prisma, decisionId),
  ]);
  // Where each figure's evidence came from (issue 25): part of the content its hash covers.
  const provenance = await readProvenance(prisma, decisionId, data.runs, data.decision.evaluationDatasetVersionId);
  // Each candidate's threshold, rule and held-out figures, stated once for the auditor (issue 14).
  const operatingPoints = operatingPointRows(data.decision.operatingRule ?? "FIXED", data.candidates, data.runs);
  const content = { evidence: data, otherRuns, results: packResults(data), operatingPoints, provenance };
  const contentSha256 = createHash("sha256").update(canonicalJson(content), "utf8").digest("hex");
  const current = revisions.find((r) => r.supersededAt === null) ?? revisions[0] ?? null;
  return {
    format: EXPORT_FORMAT,
    exportedAt: new Date().toISOString(),
    exportedBy: { id: actor.id, name: actor.name },
    decisionId,
    contentSha256,
    packRevision: current ? { number: current.number, sha256: current.sha256, createdAt: current.createdAt } : null,
    packRevisions: revisions,
    // The audit chain's head when exporting: `verdict audit verify --head <seq>:<hash>` later shows
    // whether any event up to it was deleted or rewritten since.
    auditChainHead: head ? { ...head, text: formatHead(head) } : null,
    ...content,
    // The review on the revisions (comments, their resolution, the signatures' meanings): the
    // workflow around the signed content, so outside contentSha256.
    review,
  };
}

export type PackExport = Awaited<ReturnType<typeof buildPackExport>>;
