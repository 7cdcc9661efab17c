import type { NextConfig } from "next";

// Security headers for every response (issue: strict CSP, no framing). Next's inline bootstrap
// scripts need 'unsafe-inline' for scripts unless nonces are used on every page.
const securityHeaders = [
  {
    key: "Content-Security-Policy",
    value: [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'" + (process.env.NODE_ENV === "production" ? "" : " 'unsafe-eval'"),
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ].join("; "),
  },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

const nextConfig: NextConfig = {
  // Parallel worktrees or sessions can build side by side (NEXT_DIST_DIR=.next-foo).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Native, wasm and stream-heavy server packages load from node_modules as they are.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "pg-copy-streams", "@prisma/adapter-pg", "@node-rs/argon2"],
  experimental: { authInterrupts: true },
  poweredByHeader: false,
  typedRoutes: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
