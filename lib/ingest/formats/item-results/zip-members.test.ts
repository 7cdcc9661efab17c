import { compress as zstdCompress, init as initZstd } from "@bokuweb/zstd-wasm";
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader, ZipWriter, type FileEntry } from "@zip.js/zip.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import type { AsyncBuffer } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import { EXTERNAL } from "../../../../test/item-results/sources";
import { ZipFile } from "./zip-members";

// Every archive here is written by another implementation (zip.js, Python's zipfile, Inspect
// itself) and read back member by member: names, methods and bytes must be exactly theirs.

const INSPECT = path.join(EXTERNAL, "inspect-ai", "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval");

const asyncBuffer = (bytes: Buffer): AsyncBuffer => ({
  byteLength: bytes.length,
  slice: async (start: number, end?: number) => Uint8Array.from(bytes.subarray(start, end)).buffer,
});

/** The members as zip.js reads them: name → bytes. */
async function zipJsMembers(bytes: Buffer): Promise<Map<string, Buffer>> {
  const reader = new ZipReader(new Uint8ArrayReader(bytes), { useWebWorkers: false });
  const out = new Map<string, Buffer>();
  for (const entry of (await reader.getEntries()) as FileEntry[])
    if (entry.compressionMethod !== 93)
      out.set(entry.filename, Buffer.from(await entry.getData(new Uint8ArrayWriter())));
  return out;
}

async function ourMembers(bytes: Buffer): Promise<Map<string, { method: number; data: Buffer }>> {
  const zip = new ZipFile(asyncBuffer(bytes));
  const out = new Map<string, { method: number; data: Buffer }>();
  for (const member of await zip.members())
    out.set(member.name, { method: member.method, data: await zip.read(member) });
  return out;
}

const texts = Array.from(
  { length: 40 },
  (_, i) => [`samples/${i}_epoch_1.json`, JSON.stringify({ id: i, text: "x".repeat(i * 97) })] as const,
);

async function written(options: { zip64?: boolean; level?: number; zstd?: boolean }): Promise<Buffer> {
  const writer = new ZipWriter(new Uint8ArrayWriter(), {
    useWebWorkers: false,
    zip64: options.zip64,
    level: options.level,
  });
  for (const [name, text] of texts) {
    const data = Buffer.from(text);
    if (options.zstd)
      await writer.add(name, new Uint8ArrayReader(zstdCompress(data, 3)), {
        passThrough: true,
        compressionMethod: 93,
        uncompressedSize: data.length,
        signature: crc32(data),
      });
    else await writer.add(name, new Uint8ArrayReader(data));
  }
  return Buffer.from(await writer.close());
}

beforeAll(async () => {
  await initZstd();
});

describe("ZIP members through the central directory", () => {
  it("reads Inspect's own .eval member for member as zip.js does", async () => {
    const bytes = readFileSync(INSPECT);
    const ours = await ourMembers(bytes);
    const theirs = await zipJsMembers(bytes);
    expect([...ours.keys()]).toEqual([...theirs.keys()]);
    for (const [name, data] of theirs) expect(ours.get(name)!.data.equals(data), name).toBe(true);
    expect(ours.has("header.json")).toBe(true);
  });

  it.each([
    ["deflate", { level: 6 }, 8],
    ["stored", { level: 0 }, 0],
    ["ZIP64 records", { zip64: true }, 8],
    ["zstd (method 93)", { zstd: true }, 93],
  ] as const)("reads an archive with %s", async (_, options, method) => {
    const ours = await ourMembers(await written(options));
    expect([...ours.keys()]).toEqual(texts.map(([name]) => name));
    for (const [name, text] of texts) {
      expect(ours.get(name)!.method).toBe(method);
      expect(ours.get(name)!.data.toString("utf8")).toBe(text);
    }
  });

  it("reads what Python's zipfile writes (sizes in the local headers, no data descriptors)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "verdict-zip-"));
    const file = path.join(dir, "py.zip");
    const script = `import zipfile,sys\nwith zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED) as z:\n  [z.writestr(f's{i}.json','{"i":%d}'%i*(i+1)) for i in range(30)]`;
    writeFileSync(path.join(dir, "w.py"), script);
    execFileSync("python3", [path.join(dir, "w.py"), file]);
    const bytes = readFileSync(file);
    const ours = await ourMembers(bytes);
    const theirs = await zipJsMembers(bytes);
    expect(ours.size).toBe(30);
    for (const [name, data] of theirs) expect(ours.get(name)!.data.equals(data), name).toBe(true);
  });

  it("refuses an archive cut short, and names what is missing", async () => {
    const bytes = await written({ level: 6 });
    await expect(new ZipFile(asyncBuffer(bytes.subarray(0, bytes.length - 10))).members()).rejects.toThrow(
      /no end of central directory|past the end|damaged/,
    );
    await expect(new ZipFile(asyncBuffer(Buffer.from("not a zip at all"))).members()).rejects.toThrow(
      /no end of central directory/,
    );
  });
});
