import "server-only";
import type { PackData } from "@/lib/pack/pack-data";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db } from "../db";
import type { Actor } from "../actors";
import { buildPackExport, type PackExport } from "./export-model";
import { renderPackPdf } from "./pdf";

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
