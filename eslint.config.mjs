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
  {
    files: ["lib/metrics/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/server/*", "@/lib/server/**", "../server/*", "../../lib/server/*"],
              message: "lib/metrics is pure: no server code.",
            },
            {
              group: [
                "@prisma/*",
                "pg",
                "next",
                "next/*",
                "react",
                "react-dom",
                "@/lib/generated/**",
                "server-only",
                "node:*",
                "fs",
                "path",
              ],
              message: "lib/metrics is pure TypeScript: no Prisma, Next, React or Node I/O.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/charts/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: serverOnlyModules, message: "lib/charts is pure: no server code." }] },
      ],
    },
  },
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
