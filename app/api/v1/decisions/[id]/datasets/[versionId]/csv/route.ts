import { apiRoute } from "@/lib/server/route";
import { exportDatasetVersion } from "@/lib/server/imports/export";

export const runtime = "nodejs";

/** GET …/datasets/<datasetVersionId>/csv: the version as spreadsheet-safe CSV (leading = + - @ neutralised). */
export const GET = apiRoute<{ id: string; versionId: string }>("decision.read", async ({ actor, params }) => {
  const { fileName, body } = await exportDatasetVersion(actor, params.id, Number(params.versionId));
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
});
