import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { authConfig } from "@/lib/auth/config";

// The proxy only redirects signed-out visitors to sign-in; every page, action and route handler
// checks the user's permission on the server itself.
const { auth } = NextAuth(authConfig);

export default auth((req) => {
  if (req.auth?.user) return;
  const { pathname, search } = req.nextUrl;
  const url = new URL("/sign-in", req.nextUrl.origin);
  if (pathname !== "/") url.searchParams.set("callbackUrl", pathname + search);
  return NextResponse.redirect(url);
});

export const config = {
  // Not: sign-in, Auth.js's own routes, the JSON API (answers 401 itself), Next's assets.
  matcher: ["/((?!sign-in|api/|_next/|favicon\\.ico|robots\\.txt).*)"],
};
