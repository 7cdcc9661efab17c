import { EXTERNAL, collect, type Collected } from "./sources";
import type { ByteSource } from "../../lib/ingest/byte-source";
import type { ItemResultParser, ItemResultReadOptions } from "../../lib/ingest/formats/item-results/types";

// Test-only helpers: the real sample files copied from shared/fixtures/external (each folder
// with its SOURCE.txt), and bytes made in a test, read through a parser into plain arrays.
export { EXTERNAL };

/** Bytes held in memory as a byte source, cut into small chunks so lines and entries straddle them. */
export function bytesSource(bytes: Buffer, chunk = 97): ByteSource {
  return {
    head: async (n) => bytes.subarray(0, n),
    async *chunks() {
      for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
    },
    all: async () => bytes,
    randomAccess: async () => ({
      byteLength: bytes.length,
      slice: async (start: number, end?: number) => {
        const part = bytes.subarray(start, end);
        return part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength) as ArrayBuffer;
      },
    }),
  };
}

export interface ReadAll extends Collected {
  /** The kinds in the order yielded, batches collapsed: "run" must come first. */
  order: string[];
}

export async function readAll(
  parser: ItemResultParser,
  source: ByteSource,
  options?: ItemResultReadOptions,
): Promise<ReadAll> {
  const out = await collect(parser.read(source, options));
  return { ...out, order: out.order.filter((kind, i, order) => order[i - 1] !== kind) };
}
