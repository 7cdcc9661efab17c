import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { authConfig } from "@/lib/auth/config";
import { PEER_MARK_HEADER, peerMark, trustedProxies } from "@/lib/security/client-ip";
import { newNonce, pageContentSecurityPolicy } from "@/lib/security/headers";

// The proxy sees every page request (not the JSON API, Auth.js's routes or static assets). It
// 1. gives the page a fresh CSP nonce: the policy goes on the response, and on the request so
//    that Next puts the nonce on its own scripts (pages are dynamically rendered: they read the
//    session);
// 2. without a trusted proxy in front, drops a client-written X-Forwarded-For, so that Next fills
//    it with the socket's address, and marks the request so lib/security/client-ip.ts believes it;
// 3. redirects signed-out visitors to sign-in. It decides nothing else: every page, action and
//    route handler checks the user's permission on the server itself.
const { auth } = NextAuth(authConfig);

// Pages a signed-out visitor may open: sign-in, and the invitation link where a new user sets a password.
const PUBLIC_PAGES = new Set(["/sign-in", "/invite"]);

export default auth((req) => {
  const nonce = newNonce();
  const policy = pageContentSecurityPolicy(nonce);
  const { pathname, search } = req.nextUrl;
  let response: NextResponse;
  if (!req.auth?.user && !PUBLIC_PAGES.has(pathname)) {
    const url = new URL("/sign-in", req.nextUrl.origin);
    if (pathname !== "/") url.searchParams.set("callbackUrl", pathname + search);
    response = NextResponse.redirect(url);
  } else {
    const headers = new Headers(req.headers);
    headers.set("content-security-policy", policy);
    headers.delete(PEER_MARK_HEADER);
    if (trustedProxies().kind === "none") {
      headers.delete("x-forwarded-for");
      headers.set(PEER_MARK_HEADER, peerMark());
    }
    response = NextResponse.next({ request: { headers } });
  }
  response.headers.set("Content-Security-Policy", policy);
  return response;
});

export const config = {
  matcher: [
    {
      // Not: Auth.js's own routes and the JSON API (they answer 401 themselves and bound or
      // stream their bodies), Next's assets.
      source: "/((?!api/|_next/|favicon\\.ico|robots\\.txt).*)",
      // Nor a POST whose body is chunked or declares a megabyte or more: Next reads the whole
      // body of a request it passes to the proxy (keeping a copy of its start) before going on.
      // Such a body meets the body guard in front of Next instead (scripts/serve.ts), which
      // answers 413 as it passes the limit. Browsers send forms and actions with a Content-Length.
      missing: [
        { type: "header", key: "transfer-encoding" },
        { type: "header", key: "content-length", value: "\\d{7,}" },
      ],
    },
  ],
};
