import { NextResponse } from "next/server";
import { exportPackJson } from "@/lib/server/pack/export";
import { apiRoute } from "@/lib/server/route";

type Params = { id: string };

/** The evidence pack as JSON for an auditor (audited as export.json). */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params, request }) => {
  const pack = await exportPackJson(actor, params.id, request);
  return new NextResponse(JSON.stringify(pack, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="verdict-pack-${params.id}.json"`,
      "cache-control": "no-store",
    },
  });
});
