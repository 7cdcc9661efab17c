import { NextResponse } from "next/server";
import { AppError } from "@/lib/server/errors";
import { apiRoute } from "@/lib/server/route";
import { getProgress, isUploadId, withProgress } from "@/lib/server/imports/progress";
import { importDataset } from "@/lib/server/imports";
import { defaultLimits } from "@/lib/server/imports/files";
import { listField, readUpload } from "@/lib/server/imports/http";
import { exportDatasetVersion } from "@/lib/server/imports/export";

export const runtime = "nodejs";

/** Upload a labelled dataset (CSV / JSONL) as a new version: raw body (?name=&format=&negativeLabels=a,b) or multipart. */
export const POST = apiRoute<{ id: string }>("evidence.import", async ({ actor, params, request, req }) => {
  const { file, fields } = await readUpload(req, defaultLimits("bulk").maxBytes);
  const uploadId = isUploadId(fields.uploadId) ? fields.uploadId : undefined;
  const result = await withProgress(uploadId, actor.id, () => importDataset(actor, params.id, file, {
    datasetName: fields.name ?? fields.dataset ?? "",
    format: fields.format,
    negativeLabels: listField(fields.negativeLabels),
    idColumn: fields.idColumn,
    labelColumn: fields.labelColumn,
    textColumn: fields.textColumn,
    sliceColumn: fields.sliceColumn,
    request,
    uploadId,
  }));
  return NextResponse.json(result, { status: result.existing ? 200 : 201 });
});

/**
 * GET …/datasets?export=<datasetVersionId>: the version as spreadsheet-safe CSV (leading = + - @ neutralised).
 * GET …/datasets?uploadId=ID: progress of an upload being processed (any kind) → { progress }.
 */
export const GET = apiRoute<{ id: string }>("decision.read", async ({ actor, params, req }) => {
  const exportId = req.nextUrl.searchParams.get("export");
  if (exportId !== null) {
    const { fileName, body } = await exportDatasetVersion(actor, params.id, Number(exportId));
    return new Response(body, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${fileName}"`, "X-Content-Type-Options": "nosniff" } });
  }
  const uploadId = req.nextUrl.searchParams.get("uploadId");
  if (!isUploadId(uploadId)) throw new AppError("VALIDATION", "Give export=<datasetVersionId> or uploadId=<id>.");
  return { progress: await getProgress(uploadId, actor.id) };
});
