import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/server/route";
import { isUploadId, withProgress } from "@/lib/server/imports/progress";
import { importPredictions } from "@/lib/server/imports";
import { defaultLimits } from "@/lib/server/imports/files";
import { listField, readUpload } from "@/lib/server/imports/http";
import { importItemResultsFromFields, routeItemResults } from "@/lib/server/imports/item-results/http";

export const runtime = "nodejs";

/**
 * Upload a candidate's predictions on a dataset version (?candidateId=&datasetVersionId=&format=).
 * 201 with the run id; the metrics are computed in the background (GET …/runs/{runId}).
 * Another eval tool's per-item results (Inspect, lm-eval samples, HELM, promptfoo, OpenAI Evals)
 * are detected, or named by `format`; they need the analyst's mapping (`mapping` JSON, or
 * `idField`, `positiveLabels`, `repeat`, `model`) — without it, 422 MAPPING_REQUIRED with the
 * preview and a suggested mapping. HELM's partner file goes as a further `file` part.
 */
export const POST = apiRoute<{ id: string }>("evidence.import", async ({ actor, params, request, req }) => {
  const { files, fields } = await readUpload(req, defaultLimits("bulk").maxBytes);
  const uploadId = isUploadId(fields.uploadId) ? fields.uploadId : undefined;
  // The first bytes may have been read to recognise the file: go on with the files routeItemResults hands back.
  const routed = await routeItemResults(files, fields);
  const result = await withProgress(uploadId, actor.id, () =>
    routed.itemResults
      ? importItemResultsFromFields(actor, params.id, routed.files, fields, { request, uploadId })
      : importPredictions(
          actor,
          params.id,
          fields.candidateId ?? "",
          Number(fields.datasetVersionId),
          routed.files[0]!,
          {
            format: fields.format,
            negativeLabels: listField(fields.negativeLabels),
            idColumn: fields.idColumn,
            scoreColumn: fields.scoreColumn,
            predictedColumn: fields.predictedColumn,
            request,
            uploadId,
          },
        ),
  );
  return NextResponse.json(result, { status: result.existing ? 200 : 201 });
});
