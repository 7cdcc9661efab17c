import { NextResponse } from "next/server";
import { exportRunItemsCsv, listRunItems } from "@/lib/server/pack/drill-down";
import { apiRoute } from "@/lib/server/route";

export const runtime = "nodejs";

type Params = { id: string; runId: string };

/**
 * The items behind a figure of the pack (lib/server/pack/drill-down.ts): ?cell=FN|FP|TP|TN|errors|all
 * &threshold=&slice=&vs=<runId>&after|before=<cursor>&limit=, or format=csv for the whole list
 * streamed. Whoever may read the pack may read its items.
 */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params, req }) => {
  const query = Object.fromEntries(req.nextUrl.searchParams);
  const runId = /^\d+$/.test(params.runId) ? Number(params.runId) : NaN;
  if (query.format === "csv") {
    const { fileName, body } = await exportRunItemsCsv(actor, params.id, runId, query);
    return new NextResponse(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
        "cache-control": "no-store",
      },
    });
  }
  return listRunItems(actor, params.id, runId, query);
});
