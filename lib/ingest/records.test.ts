import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { READ_BYTES, readCsvRecords, type RecordEvent } from "./records";
import { fileSource } from "@/lib/files/file-source";

const dir = mkdtempSync(path.join(tmpdir(), "verdict-csv-"));
let n = 0;
async function events(text: string | Buffer): Promise<RecordEvent[]> {
  const file = path.join(dir, `f${n++}.csv`);
  writeFileSync(file, text);
  const out: RecordEvent[] = [];
  for await (const ev of readCsvRecords(fileSource(file))) out.push(ev);
  return out;
}

const quote = (f: string) => (/[",\r\n]/.test(f) || f === "" ? `"${f.replace(/"/g, '""')}"` : f);

describe("streaming CSV reader", () => {
  it("reads what csv-parse reads: quotes, commas, newlines, CRLF, BOM (property)", async () => {
    const field = fc.string({ unit: fc.constantFrom("a", "b", ",", '"', "\n", "\r\n", " ", "é", "="), maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(field, field), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        fc.boolean(),
        async (rows, crlf, bom) => {
          const eol = crlf ? "\r\n" : "\n";
          const text = (bom ? "\uFEFF" : "") + ["a,b", ...rows.map((r) => r.map(quote).join(","))].join(eol) + eol;
          const expected = (
            parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][]
          ).slice(1);
          const got = (await events(text))
            .filter((e) => e.kind === "record")
            .map((e) => (e.kind === "record" ? [e.values.a, e.values.b] : []));
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads across 1 MB chunk boundaries (3 MB of mixed quoted records)", async () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ["x", ",", '"', "\n", "\r\n", "é", "long text "];
    const rows: string[][] = [];
    let size = 0;
    while (size < 3_000_000) {
      const row = [0, 1].map(() =>
        Array.from({ length: Math.floor(rnd() * 12) }, () => pieces[Math.floor(rnd() * pieces.length)]).join(""),
      );
      rows.push(row);
      size += row[0]!.length + row[1]!.length + 6;
    }
    const text = ["a,b", ...rows.map((r) => r.map(quote).join(","))].join("\r\n") + "\r\n";
    const expected = (parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][]).slice(1);
    const got = (await events(text))
      .filter((e) => e.kind === "record")
      .map((e) => (e.kind === "record" ? [e.values.a, e.values.b] : []));
    expect(got.length).toBe(expected.length);
    expect(got).toEqual(expected);
  });

  it("gives each record the line it starts on, past quoted line breaks and empty lines", async () => {
    const evs = await events('id,text\r\n1,"two\nlines"\r\n\r\n2,x\n3,"a ""q"", b"');
    expect(evs).toEqual([
      { kind: "header", line: 1, columns: ["id", "text"], delimiter: "," },
      { kind: "record", line: 2, values: { id: "1", text: "two\nlines" } },
      { kind: "record", line: 5, values: { id: "2", text: "x" } },
      { kind: "record", line: 6, values: { id: "3", text: 'a "q", b' } },
    ]);
  });

  it("names an unclosed quote, a bad field count and invalid UTF-8", async () => {
    expect((await events('id,t\n1,"open\n2,x\n')).at(-1)).toMatchObject({ kind: "file-error", issue: { line: 2 } });
    expect(await events("id,t\n1,2,3\n")).toContainEqual({
      kind: "row-error",
      issue: { line: 2, field: "(row)", value: "3 fields", reason: "has 3 fields, the header has 2" },
    });
    expect((await events(Buffer.from([0x69, 0x64, 0x0a, 0xff, 0x0a]))).at(-1)).toMatchObject({
      kind: "file-error",
      issue: { line: 2, reason: "not valid UTF-8" },
    });
    // A file that ends inside a character (the first two bytes of "€").
    expect((await events(Buffer.from([0x69, 0x64, 0x0a, 0x61, 0x0a, 0xe2, 0x82]))).at(-1)).toMatchObject({
      kind: "file-error",
      issue: { line: 3, reason: "not valid UTF-8" },
    });
  });

  it("reads characters cut by a read boundary, and names a bad byte after it", async () => {
    // Rows "<n>,€x": over ~2 MB, some "€" (3 bytes) straddles a multiple of READ_BYTES.
    const rows = Array.from({ length: 200_000 }, (_, i) => `${i},€x`);
    const text = "id,t\n" + rows.join("\n") + "\n";
    const bytes = Buffer.from(text);
    const straddles = (at: number) => Math.floor(at / READ_BYTES) !== Math.floor((at + 2) / READ_BYTES);
    let cut = false;
    for (let at = bytes.indexOf("€"); at >= 0 && !cut; at = bytes.indexOf("€", at + 3)) cut = straddles(at);
    expect(cut).toBe(true);
    const evs = await events(text);
    const records = evs.filter((e) => e.kind === "record");
    expect(records).toHaveLength(200_000);
    expect(records.every((e) => e.kind === "record" && e.values.t === "€x")).toBe(true);
    const bad = Buffer.concat([Buffer.from(text), Buffer.from([0x39, 0x2c, 0xc3, 0x28, 0x0a])]);
    expect((await events(bad)).at(-1)).toMatchObject({
      kind: "file-error",
      issue: { line: 200_002, reason: "not valid UTF-8" },
    });
  });
});
