import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/server/route";
import { isUploadId, withProgress } from "@/lib/server/imports/progress";
import { importDataset } from "@/lib/server/imports";
import { defaultLimits } from "@/lib/server/imports/files";
import { listField, readUpload } from "@/lib/server/imports/http";

export const runtime = "nodejs";

/**
 * Upload a labelled dataset (CSV / JSONL) as a new version: raw body (?name=&format=&negativeLabels=a,b) or multipart.
 * Its progress is GET …/uploads/<uploadId>; a version as CSV, GET …/datasets/<versionId>/csv.
 */
export const POST = apiRoute<{ id: string }>("evidence.import", async ({ actor, params, request, req }) => {
  const { file, fields } = await readUpload(req, defaultLimits("bulk").maxBytes);
  const uploadId = isUploadId(fields.uploadId) ? fields.uploadId : undefined;
  const result = await withProgress(uploadId, actor.id, () =>
    importDataset(actor, params.id, file, {
      datasetName: fields.name ?? fields.dataset ?? "",
      format: fields.format,
      negativeLabels: listField(fields.negativeLabels),
      idColumn: fields.idColumn,
      labelColumn: fields.labelColumn,
      textColumn: fields.textColumn,
      sliceColumn: fields.sliceColumn,
      request,
      uploadId,
    }),
  );
  return NextResponse.json(result, { status: result.existing ? 200 : 201 });
});
