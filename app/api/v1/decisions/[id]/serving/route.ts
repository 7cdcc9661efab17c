import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/server/route";
import { isUploadId, withProgress } from "@/lib/server/imports/progress";
import { importServing } from "@/lib/server/imports";
import { defaultLimits } from "@/lib/server/imports/files";
import { boolField, jsonField, readUpload } from "@/lib/server/imports/http";

export const runtime = "nodejs";

/**
 * Import a serving benchmark file, format detected from its content unless ?format= names it.
 * Unmatched model names → 422 { kind: "UNMATCHED_MODELS", unmatched, candidates }; resolve with
 * ?modelMap={"<name>":"<candidateId>" or null} or ?skipUnmatched=1. Extra inputs: ?model=, ?runSpec=.
 */
export const POST = apiRoute<{ id: string }>("evidence.import", async ({ actor, params, request, req }) => {
  const { file, fields } = await readUpload(req, defaultLimits("public").maxBytes);
  const uploadId = isUploadId(fields.uploadId) ? fields.uploadId : undefined;
  const result = await withProgress(uploadId, () => importServing(actor, params.id, file, {
    format: fields.format,
    modelMap: jsonField<Record<string, string | null>>(fields.modelMap, "modelMap"),
    skipUnmatched: boolField(fields.skipUnmatched),
    parseOptions: { model: fields.model, runSpec: fields.runSpec, individualResponses: fields.individualResponses },
    request,
    uploadId,
  }));
  return NextResponse.json(result, { status: result.existing ? 200 : 201 });
});
