import "server-only";
import { NextResponse } from "next/server";
import { apiRoute } from "../route";
import type { Actor } from "../actors";
import { defaultLimits, type UploadFile } from "./files";
import { boolField, jsonField, readUpload } from "./http";
import { isUploadId, withProgress } from "./progress";
import type { PublicImportOptions, PublicImportResult } from "./benchmark-files";

/**
 * The POST handler shared by the leaderboard and serving upload routes: format detected from the
 * content unless ?format= names it; unmatched model names → 422 { kind: "UNMATCHED_MODELS",
 * unmatched, candidates }, resolved with ?modelMap={"<name>":"<candidateId>" or null} or
 * ?skipUnmatched=1; extra parser inputs ?model=, ?runSpec=, ?individualResponses=.
 */
export function publicImportRoute(
  importFile: (
    actor: Actor,
    decisionId: string,
    file: UploadFile,
    options: PublicImportOptions,
  ) => Promise<PublicImportResult>,
) {
  return apiRoute<{ id: string }>("evidence.import", async ({ actor, params, request, req }) => {
    const { file, fields } = await readUpload(req, defaultLimits("public").maxBytes);
    const uploadId = isUploadId(fields.uploadId) ? fields.uploadId : undefined;
    const result = await withProgress(uploadId, actor.id, () =>
      importFile(actor, params.id, file, {
        format: fields.format,
        modelMap: jsonField<Record<string, string | null>>(fields.modelMap, "modelMap"),
        skipUnmatched: boolField(fields.skipUnmatched),
        parseOptions: { model: fields.model, runSpec: fields.runSpec, individualResponses: fields.individualResponses },
        request,
        uploadId,
      }),
    );
    return NextResponse.json(result, { status: result.existing ? 200 : 201 });
  });
}
