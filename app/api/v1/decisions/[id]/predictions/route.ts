import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/server/route";
import { isUploadId, withProgress } from "@/lib/server/imports/progress";
import { importPredictions } from "@/lib/server/imports";
import { defaultLimits } from "@/lib/server/imports/files";
import { listField, readUpload } from "@/lib/server/imports/http";

export const runtime = "nodejs";

/**
 * Upload a candidate's predictions on a dataset version (?candidateId=&datasetVersionId=&format=).
 * 201 with the run id; the metrics are computed in the background (GET …/runs/{runId}).
 */
export const POST = apiRoute<{ id: string }>("evidence.import", async ({ actor, params, request, req }) => {
  const { file, fields } = await readUpload(req, defaultLimits("bulk").maxBytes);
  const uploadId = isUploadId(fields.uploadId) ? fields.uploadId : undefined;
  const result = await withProgress(uploadId, actor.id, () =>
    importPredictions(actor, params.id, fields.candidateId ?? "", Number(fields.datasetVersionId), file, {
      format: fields.format,
      negativeLabels: listField(fields.negativeLabels),
      idColumn: fields.idColumn,
      scoreColumn: fields.scoreColumn,
      predictedColumn: fields.predictedColumn,
      request,
      uploadId,
    }),
  );
  return NextResponse.json(result, { status: result.existing ? 200 : 201 });
});
