import path from "node:path";
import { existsSync } from "node:fs";
import { defineConfig } from "prisma/config";

// Prisma's CLI wants to download a native schema engine that this network cannot reach.
// `prisma generate` never runs it, so any existing file satisfies the check; migrations run
// through the WebAssembly engine instead (scripts/migrate.ts). Where the native engine is
// installed, an explicit PRISMA_SCHEMA_ENGINE_BINARY wins.
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(process.env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = path.resolve("package.json");
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict" },
});
