import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileSource } from "@/lib/files/file-source";
import type { ByteSource } from "../../lib/ingest/byte-source";
import type { ParseIssue } from "../../lib/ingest/formats/types";
import type { ItemResultEvent, ToolItem, ToolRun } from "../../lib/ingest/formats/item-results/types";

// Test-only helpers (not imported by any parser): the real fixtures in shared/fixtures/external,
// and variants of them written to a temporary file so they are read through the same file source.
export const EXTERNAL = path.resolve(import.meta.dirname, "../fixtures/external");

export function externalSource(relative: string): ByteSource {
  return fileSource(path.join(EXTERNAL, relative));
}

const dir = mkdtempSync(path.join(tmpdir(), "verdict-item-results-"));
let written = 0;

/** A variant of a fixture, written to disk and read back through `fileSource`. */
export function textSource(text: string, name = "variant.json"): ByteSource {
  written += 1;
  const file = path.join(dir, `${written}-${name}`);
  writeFileSync(file, text);
  return fileSource(file);
}

export type Collected = { runs: ToolRun[]; items: ToolItem[]; issues: ParseIssue[]; order: string[] };

export async function collect(events: AsyncGenerator<ItemResultEvent>): Promise<Collected> {
  const out: Collected = { runs: [], items: [], issues: [], order: [] };
  for await (const event of events) {
    out.order.push(event.kind);
    if (event.kind === "run") out.runs.push(event.run);
    else if (event.kind === "items") out.items.push(...event.items);
    else out.issues.push(event.issue);
  }
  return out;
}
