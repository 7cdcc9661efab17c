import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { readFile, rm, mkdtemp, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { env } from "../../env";
import { uploadMaxBytes } from "@/lib/security/body-limits";
import { AppError } from "../errors";
import { reportProgress } from "./progress";

/**
 * An uploaded file: a path on disk (CLI) or a byte stream (HTTP body). Streams are spooled to a
 * temporary file while their SHA-256 is computed, so a request body is never held in memory and
 * the parser can read it (twice on the error path) from disk.
 */
export type UploadFile = { name: string; path: string } | { name: string; stream: AsyncIterable<Uint8Array> };

export interface ImportLimits {
  /** Largest accepted file, in bytes. */
  maxBytes: number;
  /** Most data rows accepted in one file. */
  maxRows: number;
  /** Files up to this size keep their bytes in Import.content; larger ones only sha256 + size. */
  keepContentBytes: number;
}

/** Defaults (env overrides): bulk evidence up to 2 GiB / 20 M rows; public files up to 50 MB. */
export function defaultLimits(kind: "bulk" | "public"): ImportLimits {
  const { VERDICT_IMPORT_MAX_ROWS, VERDICT_IMPORT_KEEP_BYTES } = env();
  return {
    maxBytes: uploadMaxBytes(kind),
    maxRows: VERDICT_IMPORT_MAX_ROWS,
    keepContentBytes: VERDICT_IMPORT_KEEP_BYTES,
  };
}

export const tooLarge = (what: string, limit: number, unit: string) =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    `The file is too large: ${what} exceeds the limit of ${limit.toLocaleString("en-US")} ${unit}.`,
    { limit, unit },
  );

export interface SpooledFile {
  name: string;
  path: string;
  sha256: string;
  sizeBytes: number;
  /** The original bytes when they are at most `keepContentBytes`, else null. */
  content(): Promise<Buffer | null>;
  cleanup(): Promise<void>;
}

export async function spool(file: UploadFile, limits: ImportLimits, uploadId?: string): Promise<SpooledFile> {
  const name = safeFileName(file.name);
  const hash = createHash("sha256");
  let size = 0;
  let filePath: string;
  let cleanup = async () => {};
  if ("path" in file) {
    filePath = file.path;
    for await (const chunk of createReadStream(filePath, { highWaterMark: 1 << 20 })) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBytes) throw tooLarge("its size", limits.maxBytes, "bytes");
      hash.update(chunk as Buffer);
    }
  } else {
    const scratch = await scratchDirectory();
    filePath = path.join(scratch.dir, randomBytes(8).toString("hex"));
    cleanup = scratch.cleanup;
    const out = createWriteStream(filePath);
    try {
      for await (const chunk of file.stream) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) throw tooLarge("its size", limits.maxBytes, "bytes");
        hash.update(chunk);
        if (uploadId && (size & 0xfffff) < chunk.byteLength)
          reportProgress(uploadId, { phase: "receiving", bytes: size });
        if (!out.write(chunk)) await once(out, "drain");
      }
      out.end();
      await once(out, "finish");
    } catch (error) {
      out.destroy();
      await cleanup();
      throw error;
    }
  }
  const sizeBytes = size;
  reportProgress(uploadId, { phase: "validating", bytes: size });
  return {
    name,
    path: filePath,
    sha256: hash.digest("hex"),
    sizeBytes,
    content: async () => (sizeBytes <= limits.keepContentBytes ? readFile(filePath) : null),
    cleanup,
  };
}

/**
 * A folder for an import's own scratch files (the tool importer's side file of checks), named like
 * a spool folder so the recovery sweep removes it if the process dies; `cleanup` removes it.
 */
export async function scratchDirectory(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `${SPOOL_PREFIX}${process.pid}-`));
  liveSpools.add(dir);
  const cleanup = async () => {
    await rm(dir, { recursive: true, force: true });
    liveSpools.delete(dir);
  };
  return { dir, cleanup };
}

/**
 * Spool folders are `<tmp>/verdict-upload-<pid>-<random>`: a process killed mid-upload leaves its
 * folder behind, and the recovery sweep (lib/server/maintenance/recovery.ts) removes it. A folder is
 * orphaned when it is older than `olderThanMs` and its process is gone — or it names this very
 * process (a pid reused after a restart, as in a container) but is none of this process's live
 * spools. Folders of the format before the pid was in the name are orphaned by age alone.
 */
const SPOOL_PREFIX = "verdict-upload-";
const spoolHolder = globalThis as typeof globalThis & { __verdictSpools?: Set<string> };
const liveSpools = (spoolHolder.__verdictSpools ??= new Set<string>());

export async function removeOrphanedSpools(
  dir = tmpdir(),
  olderThanMs = 10 * 60_000,
  now = Date.now(),
): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(SPOOL_PREFIX)) continue;
    const full = path.join(dir, name);
    const info = await stat(full).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs < olderThanMs) continue;
    const pid = Number(name.slice(SPOOL_PREFIX.length).match(/^(\d+)-/)?.[1] ?? NaN);
    const orphaned = !Number.isFinite(pid) || (pid === process.pid ? !liveSpools.has(full) : !processAlive(pid));
    if (!orphaned) continue;
    await rm(full, { recursive: true, force: true });
    removed.push(full);
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The base name only, without control characters, at most 255 characters. */
export function safeFileName(name: string): string {
  const base = path
    .basename(name.replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  return (base || "upload").slice(0, 255);
}

/** Text of a small public file (leaderboards, serving reports), decoded leniently: the parsers reject U+FFFD. */
export async function readText(file: SpooledFile): Promise<string> {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(await readFile(file.path));
}
