import { inflateRawSync } from "node:zlib";
import { decompress as zstdDecompress } from "fzstd";
import type { AsyncBuffer } from "hyparquet";

/**
 * The members of a ZIP archive (an Inspect `.eval`), found through its central directory and read
 * one at a time by random access, through a read-ahead window: a log of 1 GB is never in memory
 * whole. Decompression is the libraries': deflate (method 8) by Node's zlib, zstd (method 93, which
 * Inspect writes since 0.3.206) by fzstd.
 *
 * Why not a ZIP library's reader: per member, zip.js takes ≈ 1.5 ms (a web-streams pipeline and a
 * codec per member, ≈ 100 µs just to list one), yauzl ≈ 0.18 ms (a stream per read) and fflate's
 * streaming Unzip ≈ 0.06 ms but keeps every member it is not asked to decode; this walk takes
 * ≈ 0.018 ms including the inflate and JSON.parse (10,000 samples, bench/tool-files.ts). An Inspect
 * log has one member per sample, so that is the whole import's speed (bench/tool-import.ts).
 * zip.js stays the writer of the tests' archives, so each reading is checked against another
 * implementation.
 */

export interface ZipMember {
  name: string;
  /** 0 stored, 8 deflate, 93 zstd. */
  method: number;
  compressedSize: number;
  size: number;
  /** Where the member's local header starts. */
  localOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;
const ZSTD = 93;
/** Bytes read ahead: one read serves many small neighbouring members or directory entries. */
const WINDOW = 1 << 20;
/** The largest output buffer allocated up front from a member's stated size (a damaged directory may state anything). */
const MAX_CHUNK = 16 << 20;

export class ZipError extends Error {}

/** Random access through a read-ahead window. */
export class ZipFile {
  private windowStart = 0;
  private window = Buffer.alloc(0);

  constructor(private readonly file: AsyncBuffer) {}

  get size(): number {
    return this.file.byteLength;
  }

  async bytes(at: number, length: number): Promise<Buffer> {
    const end = at + length;
    if (at < 0 || end > this.file.byteLength) throw new ZipError(`truncated: bytes ${at}–${end} are past the end`);
    if (at < this.windowStart || end > this.windowStart + this.window.length) {
      const stop = Math.min(this.file.byteLength, Math.max(end, at + WINDOW));
      this.window = Buffer.from(await this.file.slice(at, stop));
      this.windowStart = at;
    }
    return this.window.subarray(at - this.windowStart, end - this.windowStart);
  }

  /** The archive's members, in central-directory order. */
  async members(): Promise<ZipMember[]> {
    const { count, offset, size } = await this.directory();
    const members: ZipMember[] = [];
    let at = offset;
    for (let k = 0; k < count; k++) {
      const fixed = await this.bytes(at, 46);
      if (fixed.readUInt32LE(0) !== CENTRAL) throw new ZipError(`central directory entry ${k + 1} is damaged`);
      const nameLength = fixed.readUInt16LE(28);
      const extraLength = fixed.readUInt16LE(30);
      const variable = await this.bytes(at + 46, nameLength + extraLength);
      members.push(centralEntry(fixed, variable, nameLength));
      at += 46 + nameLength + extraLength + fixed.readUInt16LE(32);
    }
    if (at > offset + size) throw new ZipError("the central directory runs past its stated size");
    return members;
  }

  /** A member's bytes, decompressed. */
  async read(member: ZipMember): Promise<Buffer> {
    const local = await this.bytes(member.localOffset, 30);
    if (local.readUInt32LE(0) !== LOCAL) throw new ZipError(`${member.name}: local header is damaged`);
    const dataAt = member.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    const raw = await this.bytes(dataAt, member.compressedSize);
    switch (member.method) {
      case STORED:
        return raw;
      case DEFLATE:
        // The output in one buffer of the size the directory states (zlib's default is 16 KiB
        // chunks, then a copy): an Inspect log inflates one small member per sample.
        return inflateRawSync(raw, { chunkSize: Math.min(Math.max(64, member.size + 1), MAX_CHUNK) });
      case ZSTD:
        return Buffer.from(zstdDecompress(raw));
      default:
        throw new ZipError(`${member.name}: compression method ${member.method} is not deflate (8) or zstd (93)`);
    }
  }

  /** The end-of-central-directory record (ZIP64's when the classic one overflows). */
  private async directory(): Promise<{ count: number; offset: number; size: number }> {
    const tailLength = Math.min(this.size, 22 + 0xffff);
    const tail = await this.bytes(this.size - tailLength, tailLength);
    let at = tail.length - 22;
    while (at >= 0 && tail.readUInt32LE(at) !== EOCD) at--;
    if (at < 0) throw new ZipError("no end of central directory: not a ZIP archive, or cut short");
    const count = tail.readUInt16LE(at + 10);
    const size = tail.readUInt32LE(at + 12);
    const offset = tail.readUInt32LE(at + 16);
    if (count !== 0xffff && offset !== 0xffffffff && size !== 0xffffffff) return { count, offset, size };
    const locatorAt = this.size - tailLength + at - 20;
    const locator = await this.bytes(locatorAt, 20);
    if (locator.readUInt32LE(0) !== ZIP64_LOCATOR) throw new ZipError("ZIP64 locator missing");
    const record = await this.bytes(Number(locator.readBigUInt64LE(8)), 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipError("ZIP64 end of central directory is damaged");
    return {
      count: Number(record.readBigUInt64LE(32)),
      size: Number(record.readBigUInt64LE(40)),
      offset: Number(record.readBigUInt64LE(48)),
    };
  }
}

/** One central-directory entry; sizes and offset from the ZIP64 extra field (id 1) where they overflow. */
function centralEntry(fixed: Buffer, variable: Buffer, nameLength: number): ZipMember {
  const member: ZipMember = {
    name: variable.toString("utf8", 0, nameLength),
    method: fixed.readUInt16LE(10),
    compressedSize: fixed.readUInt32LE(20),
    size: fixed.readUInt32LE(24),
    localOffset: fixed.readUInt32LE(42),
  };
  const fields = ["size", "compressedSize", "localOffset"] as const;
  if (!fields.some((f) => member[f] === 0xffffffff)) return member;
  let at = nameLength;
  while (at + 4 <= variable.length) {
    const id = variable.readUInt16LE(at);
    const length = variable.readUInt16LE(at + 2);
    if (id === 1) {
      let field = at + 4;
      for (const f of fields)
        if (member[f] === 0xffffffff && field + 8 <= at + 4 + length) {
          member[f] = Number(variable.readBigUInt64LE(field));
          field += 8;
        }
      break;
    }
    at += 4 + length;
  }
  return member;
}
