import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { ParseFailure, ParseResult, ParseSuccess } from "./types";

// Test-only helper (not imported by any parser): reads the real sample files copied from
// shared/fixtures/external, each folder with its SOURCE.txt.
const ROOT = path.resolve(import.meta.dirname, "../../../test/fixtures/external");

export function fixture(folder: string, file: string): string {
  return readFileSync(path.join(ROOT, folder, file), "utf8");
}

export function expectOk<R>(result: ParseResult<R>): ParseSuccess<R> {
  if (!result.ok) expect.fail(`expected success, got ${JSON.stringify(result.errors.slice(0, 5), null, 1)}`);
  return result;
}

export function expectFail<R>(result: ParseResult<R>): ParseFailure {
  if (result.ok) expect.fail(`expected failure, got ${result.records.length} records`);
  return result;
}
