import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("the drill-down on the embedded database (PGlite)", () => {
  it("writes a run's items with its metrics job, pages them by cursor and exports the errors as CSV", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_DATA_DIR: "memory://", VERDICT_JOBS: "" };
    delete env.DATABASE_URL;
    const out = execFileSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "test/fixtures/drill-down/embedded-child.ts"],
      { cwd: ROOT, env, encoding: "utf8" },
    );
    const result = JSON.parse(out.trim().split("\n").pop()!);
    // c has no prediction (a false negative), d a negative scored 0.7 (a false positive at t = 0.5).
    expect(result).toEqual({
      first: [
        ["c", "FN"],
        ["d", "FP"],
      ],
      next: [
        ["a", "TP"],
        ["b", "TN"],
      ],
      previous: true,
      csv: "id,cell,label,score,predicted,parse_failure,missing,slice,text\r\nc,FN,1,,,0,1,,free money\r\nd,FP,0,0.7,,0,0,,minutes\r\n",
    });
  }, 120_000);
});
