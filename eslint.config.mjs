import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Layer rules (STYLE.md): lib/metrics is pure; client components never import server code.
const serverOnlyModules = [
  "@/lib/server/*",
  "@/lib/server/**",
  "@prisma/*",
  "@/lib/generated/*",
  "@/lib/generated/**",
  "pg",
  "server-only",
];

// Node's I/O modules, with and without the node: prefix. Pure code may use node:buffer,
// node:perf_hooks or node:string_decoder: they compute, they do not reach outside the process.
const nodeIo = ["fs", "fs/*", "net", "http", "https", "http2", "dns", "dns/*", "child_process", "tls", "dgram"].flatMap(
  (name) => [name, `node:${name}`],
);

/** A no-restricted-imports rule for folders that must stay pure: no Prisma, Next, React, server code or Node I/O. */
function pureFolders(folders, except) {
  return folders.map((folder) => ({
    files: [`${folder}/**/*.ts`],
    ignores: ["**/*.test.ts", "**/*.test-helpers.ts", ...except],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [...serverOnlyModules, "@/lib/db/*", "@/lib/db/**", "undici"],
              message: `${folder} is pure: no server code, database or HTTP client (lib/server calls it, not the other way).`,
            },
            {
              group: ["next", "next/*", "react", "react-dom", "react/*", ...nodeIo],
              message: `${folder} is pure TypeScript: no Next, React or Node I/O.`,
            },
          ],
        },
      ],
    },
  }));
}

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".next-*/**",
    "node_modules/**",
    "lib/generated/**",
    "data/**",
    "next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
  ]),
  // lib/metrics, lib/pack, lib/ingest and lib/harness are pure: data in, data out. Their tests
  // may read fixture files; the harness's network client (its folder network/) is the one place
  // where the harness talks to an endpoint.
  ...pureFolders(["lib/metrics", "lib/pack", "lib/ingest", "lib/harness", "lib/identity"], ["lib/harness/network/**"]),
  {
    files: ["components/**/*.tsx", "components/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: serverOnlyModules,
              message: "components render data handed to them; data access lives in lib/server.",
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
]);
