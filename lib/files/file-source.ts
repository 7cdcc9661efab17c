import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { asyncBufferFromFile } from "hyparquet";
import type { ByteSource } from "@/lib/ingest/byte-source";

/** A file on disk as the parsers' byte source (lib/ingest reads bytes, never paths). */
export function fileSource(path: string): ByteSource {
  return {
    async head(bytes) {
      const handle = await open(path, "r");
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async *chunks(chunkBytes) {
      for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes })) yield chunk as Buffer;
    },
    all: () => readFile(path),
    randomAccess: () => asyncBufferFromFile(path),
  };
}
