import "server-only";
import { createHash } from "node:crypto";
import { can } from "@/lib/auth/permissions";
import { canonicalJson } from "@/lib/canonical-json";
import { packResults } from "@/lib/pack/pack-results";
import { operatingPointRows } from "@/lib/pack/operating-point-rows";
import type { PackData } from "@/lib/pack/pack-data";
import { recordAudit, type RequestInfo } from "../audit/write";
import { auditHeadWith, formatHead } from "../audit/verify";
import { db } from "../db";
import { forbiddenError } from "../errors";
import { getPackSignoff } from "./get-pack";
import { readPackModel } from "./read-model";
import type { Actor } from "../session";
import { renderPackPdf } from "./pdf";

export const EXPORT_FORMAT = "verdict.evidence-pack-export/1";

/**
 * The evidence pack for an auditor: the stored evidence and every derived result (gates, funnel,
 * ranks, total cost, significance), the pack revisions with their SHA-256 and the signatures so
 * far (so signatures can be checked offline against the revisions' hashes), and the SHA-256 of
 * this export's own evidence-and-results content in canonical JSON.
 */
export async function buildPackExport(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const [{ otherRuns, ...data }, revisions, head] = await Promise.all([
    readPackModel(prisma, decisionId),
    getPackSignoff(actor, decisionId),
    auditHeadWith(prisma),
  ]);
  // Each candidate's threshold, rule and held-out figures, stated once for the auditor (issue 14).
  const operatingPoints = operatingPointRows(data.decision.operatingRule ?? "FIXED", data.candidates, data.runs);
  const content = { evidence: data, otherRuns, results: packResults(data), operatingPoints };
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
  };
}

export type PackExport = Awaited<ReturnType<typeof buildPackExport>>;

async function audit(
  actor: Actor,
  action: "export.json" | "export.pdf",
  decisionId: string,
  contentSha256: string,
  request: RequestInfo,
) {
  const prisma = await db();
  await prisma.$transaction((tx) =>
    recordAudit(tx, {
      actor,
      action,
      entityType: "Decision",
      entityId: decisionId,
      decisionId,
      after: { contentSha256 },
      request,
    }),
  );
}

export async function exportPackJson(actor: Actor, decisionId: string, request: RequestInfo = {}): Promise<PackExport> {
  const pack = await buildPackExport(actor, decisionId);
  await audit(actor, "export.json", decisionId, pack.contentSha256, request);
  return pack;
}

export async function exportPackPdf(
  actor: Actor,
  decisionId: string,
  request: RequestInfo = {},
): Promise<{ bytes: Uint8Array; title: string }> {
  const pack = await buildPackExport(actor, decisionId);
  const bytes = await renderPackPdf(pack);
  await audit(actor, "export.pdf", decisionId, pack.contentSha256, request);
  return { bytes, title: pack.evidence.decision.title };
}

export type { PackData };
