import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { db } from "../db";

/**
 * Progress of uploads being processed, keyed by a client-chosen upload id, so a browser can show
 * bytes and rows as they are received, validated and loaded (polled). Stored in the database
 * (UploadProgress) so that a poll answered by any app process behind a balancer sees it; only the
 * uploader reads it; kept PROGRESS_TTL_MS.
 *
 * The importers report often (every batch of rows): reports are merged in memory and written at
 * most every FLUSH_MS per upload, off the import's path; the end ("done" / "failed") is written at
 * once and awaited, and a late periodic write never overwrites it.
 */
export interface UploadProgress {
  phase: "receiving" | "validating" | "done" | "failed";
  bytes: number;
  rows: number;
  updatedAt: number;
}

type Patch = Partial<Omit<UploadProgress, "updatedAt">>;

export const PROGRESS_TTL_MS = 10 * 60_000;
const FLUSH_MS = 300;

const holder = globalThis as typeof globalThis & {
  __verdictUploadPatches?: Map<string, { patch: Patch; timer: NodeJS.Timeout | null; writing: Promise<void> }>;
};
const pending = (holder.__verdictUploadPatches ??= new Map());

export const isUploadId = (id: string | null | undefined): id is string =>
  typeof id === "string" && /^[A-Za-z0-9_-]{8,64}$/.test(id);

/** Publishes a change of an upload's progress (merged, written within FLUSH_MS). */
export function reportProgress(uploadId: string | undefined, patch: Patch): void {
  if (!uploadId) return;
  const entry = pending.get(uploadId) ?? { patch: {}, timer: null, writing: Promise.resolve() };
  entry.patch = { ...entry.patch, ...patch };
  pending.set(uploadId, entry);
  if (!entry.timer) {
    entry.timer = setTimeout(() => {
      entry.timer = null;
      const patchNow = entry.patch;
      entry.patch = {};
      entry.writing = entry.writing
        .then(async () => writeProgress(await db(), uploadId, patchNow))
        .catch((error: unknown) =>
          console.error(`upload progress ${uploadId}:`, error instanceof Error ? error.message : error),
        );
    }, FLUSH_MS);
    entry.timer.unref();
  }
}

/** Writes a patch to an upload's row unless the upload has ended (a late write must not undo "done"). */
export async function writeProgress(
  prisma: PrismaClient,
  uploadId: string,
  patch: Patch,
  { final = false } = {},
): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await prisma.uploadProgress.updateMany({
    where: final ? { id: uploadId } : { id: uploadId, phase: { notIn: ["done", "failed"] } },
    data: patch,
  });
}

/** The progress of one of the actor's uploads; null when unknown, expired or someone else's. */
export async function readProgress(
  prisma: PrismaClient,
  uploadId: string,
  userId: string,
): Promise<UploadProgress | null> {
  const row = await prisma.uploadProgress.findUnique({
    where: { id: uploadId },
    select: { userId: true, phase: true, bytes: true, rows: true, updatedAt: true },
  });
  if (!row || row.userId !== userId || Date.now() - row.updatedAt.getTime() > PROGRESS_TTL_MS) return null;
  return {
    phase: row.phase as UploadProgress["phase"],
    bytes: row.bytes,
    rows: row.rows,
    updatedAt: row.updatedAt.getTime(),
  };
}

export async function getProgress(uploadId: string, userId: string): Promise<UploadProgress | null> {
  return readProgress(await db(), uploadId, userId);
}

/** Starts an upload's progress row, owned by its uploader (an id already taken by someone else is left alone). */
export async function startProgress(prisma: PrismaClient, uploadId: string, userId: string): Promise<void> {
  await prisma.uploadProgress.createMany({
    data: [{ id: uploadId, userId, phase: "receiving" }],
    skipDuplicates: true,
  });
}

/** Runs an import under an upload id, publishing "done" (with its row count) or "failed" at the end. */
export async function withProgress<T extends { rowCount?: number }>(
  uploadId: string | undefined,
  userId: string,
  fn: () => Promise<T>,
): Promise<T> {
  if (!uploadId) return fn();
  const prisma = await db();
  await startProgress(prisma, uploadId, userId);
  const finish = async (patch: Patch) => {
    const entry = pending.get(uploadId);
    pending.delete(uploadId);
    if (entry?.timer) clearTimeout(entry.timer);
    await entry?.writing;
    await writeProgress(prisma, uploadId, { ...entry?.patch, ...patch }, { final: true }).catch((error: unknown) =>
      console.error(`upload progress ${uploadId}:`, error instanceof Error ? error.message : error),
    );
  };
  try {
    const result = await fn();
    await finish({ phase: "done", ...(result.rowCount !== undefined ? { rows: result.rowCount } : {}) });
    return result;
  } catch (error) {
    await finish({ phase: "failed" });
    throw error;
  }
}

/** Drops progress rows older than PROGRESS_TTL_MS (the periodic sweep). */
export async function forgetOldProgress(now = Date.now()): Promise<number> {
  const { count } = await (
    await db()
  ).uploadProgress.deleteMany({ where: { updatedAt: { lt: new Date(now - PROGRESS_TTL_MS) } } });
  return count;
}
