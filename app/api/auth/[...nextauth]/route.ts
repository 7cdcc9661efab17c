import { NextRequest } from "next/server";
import { handlers } from "@/lib/server/identity/auth";
import { errorResponse, readBoundedBody } from "@/lib/server/route";
import { SIGN_IN_MAX_BODY_BYTES } from "@/lib/security/body-limits";

export const { GET } = handlers;

/**
 * Auth.js reads the whole body before it looks at it: bound it first (413 beyond
 * SIGN_IN_MAX_BODY_BYTES, counted as it streams in), then hand Auth.js the bytes read.
 */
export async function POST(req: NextRequest): Promise<Response> {
  let body: Buffer;
  try {
    body = await readBoundedBody(req, SIGN_IN_MAX_BODY_BYTES, "A sign-in request");
  } catch (error) {
    return errorResponse(error);
  }
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  return handlers.POST(new NextRequest(req.url, { method: "POST", headers, body: new Uint8Array(body) }));
}
