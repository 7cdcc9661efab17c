import "server-only";
import { can } from "@/lib/auth/permissions";
import { rawQuery } from "@/lib/db/connect";
import { exportRow } from "@/lib/ingest/csv-export";
import { database as getDatabase } from "../db";
import { forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";

const PAGE = 10_000;

/** A dataset version as spreadsheet-safe CSV (id,label,slice,text), streamed page by page. */
export async function exportDatasetVersion(
  actor: Actor,
  decisionId: string,
  datasetVersionId: number,
): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  if (!can(actor, "decision.read") && !can(actor, "evidence.import")) throw forbiddenError();
  const database = await getDatabase();
  if (!Number.isSafeInteger(datasetVersionId)) throw notFoundError("The dataset version");
  const version = await database.prisma.datasetVersion.findFirst({
    where: { id: datasetVersionId, dataset: { decisionId } },
    select: { version: true, dataset: { select: { name: true } } },
  });
  if (!version) throw notFoundError("The dataset version");
  const encoder = new TextEncoder();
  let last: string | null = null;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode("id,label,slice,text\r\n"));
        return;
      }
      const rows = await rawQuery<{ itemId: string; label: boolean; slice: string | null; text: string | null }>(
        database,
        `SELECT "itemId", label, slice, text FROM "DatasetItem" WHERE "datasetVersionId" = $1 AND ($2::text IS NULL OR "itemId" > $2) ORDER BY "itemId" LIMIT ${PAGE}`,
        [datasetVersionId, last],
      );
      if (rows.length === 0) {
        controller.close();
        return;
      }
      last = rows[rows.length - 1]!.itemId;
      controller.enqueue(encoder.encode(rows.map((r) => exportRow([r.itemId, r.label, r.slice, r.text])).join("")));
    },
  });
  return { fileName: `${version.dataset.name}-v${version.version}.csv`.replace(/[^\w.-]+/g, "_"), body };
}
