import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("uploads on the embedded database (PGlite)", () => {
  it("load, reject duplicates, join and compute the run in-process", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_DATA_DIR: "memory://", VERDICT_JOBS: "" };
    delete env.DATABASE_URL;
    const out = execFileSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "test/fixtures/ingest/embedded-child.ts"],
      { cwd: ROOT, env, encoding: "utf8" },
    );
    const result = JSON.parse(out.trim().split("\n").pop()!);
    expect(result).toEqual({
      duplicate: [{ line: 5, field: "id", value: "a", reason: "duplicate id (first seen on line 2)" }],
      dataset: { itemCount: 3, positiveCount: 2 },
      run: { status: "DONE", itemCount: 3, missingCount: 1 },
      items: 3,
      imports: 2,
    });
  }, 120_000);
});
