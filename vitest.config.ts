import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit and integration tests. Integration tests use a real PostgreSQL: a dedicated database per
// run (so two runs never drop each other's), created and migrated by test/global-setup.ts and
// dropped after the run.
// TEST_DATABASE_URL is the owner (migrates, and tampers where a test says so); the app code
// under test connects as DATABASE_URL, a role that owns nothing (test/database.ts).
const testDatabaseUrl =
  (process.env.TEST_DATABASE_URL ??= `postgresql://postgres@127.0.0.1:5432/verdict_test_${process.pid}`);
const appUrl = new URL(testDatabaseUrl);
appUrl.username = "verdict_app";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Vitest runs outside React Server Components, where "server-only" would throw.
      "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts"),
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", "data/**"],
    environment: "node",
    globalSetup: ["test/global-setup.ts"],
    env: {
      DATABASE_URL: appUrl.toString(),
      DATABASE_MIGRATION_URL: testDatabaseUrl,
      TEST_DATABASE_URL: testDatabaseUrl,
    },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
