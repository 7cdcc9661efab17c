import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { NextConfig } from "next";
import { NON_PAGE_CONTENT_SECURITY_POLICY, staticSecurityHeaders } from "./lib/security/headers";
import { env } from "./lib/env";
import { SERVER_ACTION_MAX_BODY_BYTES } from "./lib/security/body-limits";

// Bodies are bounded before Next reads them, by the guard in front of it (scripts/serve.ts,
// lib/security/body-limits.ts): 413 for a declared oversize body at once, for a chunked one as it
// passes the limit. Next's own limit for server actions is the same (it would answer 500, so the
// guard, which counts the bytes before Next sees them, answers first). Chunked and large POSTs do
// not pass the proxy (proxy.ts), which would read them whole; the copy of a body the proxy gets is
// capped just above the actions' limit all the same.

// Parallel worktrees, sessions and benchmarks can build side by side (NEXT_DIST_DIR=.next-foo).
// Read through lib/env.ts, so a malformed environment fails the build too (no NEXT_PUBLIC_
// variable exists: client code reads no configuration).
const distDir = env().NEXT_DIST_DIR ?? ".next";

/**
 * `next build` adds its distDir's type folders to the tsconfig it uses. For any distDir but the
 * default, that would rewrite the tracked tsconfig.json; such a build type-checks with a copy of
 * it instead (tsconfig.<distDir>.json, git-ignored), written here so it is always current.
 */
function tsconfigFor(dir: string): string {
  if (dir === ".next") return "tsconfig.json";
  const file = `tsconfig.${path
    .basename(dir)
    .replace(/^\.+/, "")
    .replace(/[^\w.-]/g, "-")}.json`;
  writeFileSync(path.join(process.cwd(), file), readFileSync(path.join(process.cwd(), "tsconfig.json"), "utf8"));
  return file;
}

const nextConfig: NextConfig = {
  distDir,
  typescript: { tsconfigPath: tsconfigFor(distDir) },
  // Native, wasm and stream-heavy server packages load from node_modules as they are.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "pg-copy-streams",
    "@prisma/adapter-pg",
    "@node-rs/argon2",
  ],
  experimental: {
    authInterrupts: true,
    serverActions: { bodySizeLimit: SERVER_ACTION_MAX_BODY_BYTES },
    proxyClientMaxBodySize: SERVER_ACTION_MAX_BODY_BYTES + 64 * 1024,
  },
  poweredByHeader: false,
  typedRoutes: false,
  // The analyst's uploads page was at …/evidence until "evidence" came to mean only the pack.
  async redirects() {
    return [{ source: "/decisions/:id/evidence", destination: "/decisions/:id/uploads", permanent: true }];
  },
  async headers() {
    // Pages get their Content-Security-Policy, with a nonce, from proxy.ts; everything else
    // (JSON, exports, assets) the strictest one.
    const nonPage = [{ key: "Content-Security-Policy", value: NON_PAGE_CONTENT_SECURITY_POLICY }];
    return [
      { source: "/:path*", headers: staticSecurityHeaders() },
      ...["/api/:path*", "/_next/:path*", "/favicon.ico", "/robots.txt"].map((source) => ({
        source,
        headers: nonPage,
      })),
    ];
  },
};

export default nextConfig;
