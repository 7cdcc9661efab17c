import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_FUNCTION_LINES, functionLengths } from "./function-length";

const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  total += ${i};`).join("\n");

describe("function length check", () => {
  it("measures every function, nested callbacks on their own", () => {
    const text = `export function outer() {\n  let total = 0;\n  [1].map(() => {\n${body(130)}\n  });\n  return total;\n}\n`;
    const found = functionLengths("x.ts", text);
    expect(found.map((fn) => [fn.name, fn.lines])).toEqual([
      ["outer", 134],
      ["callback of [1].map", 130],
    ]);
  });

  it("fails on a function over the limit and passes at it, run as npm run check runs it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fn-length-"));
    const run = () =>
      spawnSync(process.execPath, ["--import", "tsx", "scripts/function-length.ts", "--repo", dir], {
        encoding: "utf8",
      });
    fs.mkdirSync(path.join(dir, "lib"));
    fs.writeFileSync(
      path.join(dir, "lib/ok.ts"),
      `export function ok() {\n  let total = 0;\n${body(MAX_FUNCTION_LINES - 1)}\n}\n`,
    );
    expect(run().status).toBe(0);
    fs.writeFileSync(
      path.join(dir, "lib/long.ts"),
      `export function long() {\n  let total = 0;\n${body(MAX_FUNCTION_LINES + 1)}\n}\n`,
    );
    const failed = run();
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain("lib/long.ts:1 long — 122 lines");
  });
});
