import type { AsyncBuffer } from "hyparquet";

/**
 * Where a parser's bytes come from. lib/ingest is pure: it never opens a file itself, so its
 * callers (the upload, the CLI) hand it a source — `fileSource(path)` from lib/files for a file
 * on disk, or any other store of bytes.
 */
export interface ByteSource {
  /** At most `bytes` bytes from the start (format detection). */
  head(bytes: number): Promise<Buffer>;
  /** Every byte in order, about `chunkBytes` at a time, never the whole in memory. */
  chunks(chunkBytes: number): AsyncIterable<Buffer>;
  /** Every byte at once: only error paths use it (to find the line of a fault). */
  all(): Promise<Buffer>;
  /** Random access, for Parquet's footer and row groups (hyparquet). */
  randomAccess(): Promise<AsyncBuffer>;
}
