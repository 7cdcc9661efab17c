import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/server/route";
import { defaultLimits } from "@/lib/server/imports/files";
import { readUpload } from "@/lib/server/imports/http";
import { previewFromFields } from "@/lib/server/imports/item-results/http";

export const runtime = "nodejs";

/**
 * What another eval tool's per-item results file holds before it is imported (?format=&datasetVersionId=):
 * its format and run, item count, score basis, the fields that may hold the item id (with how
 * many sampled values are ids of the dataset version), labels, repeats, models, a suggested
 * mapping and the candidates proposed for its models. Writes nothing.
 */
export const POST = apiRoute<{ id: string }>("evidence.import", async ({ actor, params, req }) => {
  const { files, fields } = await readUpload(req, defaultLimits("bulk").maxBytes);
  return NextResponse.json(await previewFromFields(actor, params.id, files, fields));
});
