import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit and integration tests. Integration tests talk to a real PostgreSQL (see test/global-setup.ts);
// files run one at a time so they never race on the shared test database.
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts"),
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", "data/**"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
