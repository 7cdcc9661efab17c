import { NextResponse } from "next/server";
import { getPageView } from "@/lib/server/pack/get-pack";
import { apiRoute } from "@/lib/server/route";

type Params = { id: string };

/**
 * The decision page's view (lib/pack/page/page-view.ts): chart series and stored curves, which the
 * page fetches instead of carrying them in its HTML. `?state=<tag>` names the evidence state the
 * page was rendered at: when it is the current one the answer never changes (immutable, private
 * to the signed-in browser); otherwise it is the current view, not to be kept. The ETag is the tag.
 */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params, req }) => {
  const view = await getPageView(actor, params.id);
  const etag = `"${view.tag}"`;
  const current = req.nextUrl.searchParams.get("state") === view.tag;
  const headers = {
    ETag: etag,
    "Cache-Control": current ? "private, max-age=31536000, immutable" : "private, no-cache",
  };
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return NextResponse.json(view, { headers });
});
