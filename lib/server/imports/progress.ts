import "server-only";

/**
 * Progress of uploads being processed in this process, keyed by a client-chosen upload id, so a
 * browser can show rows as they are validated and loaded (polled; kept 10 minutes). Per process:
 * with several web processes behind a balancer a poll may land elsewhere and see nothing, which
 * the page shows as "processing".
 */
export interface UploadProgress {
  phase: "receiving" | "validating" | "done" | "failed";
  bytes: number;
  rows: number;
  updatedAt: number;
}

const holder = globalThis as typeof globalThis & { __verdictUploads?: Map<string, UploadProgress> };
const uploads = (holder.__verdictUploads ??= new Map());
const TTL_MS = 10 * 60_000;

export function reportProgress(uploadId: string | undefined, patch: Partial<Omit<UploadProgress, "updatedAt">>): void {
  if (!uploadId) return;
  const now = Date.now();
  const current = uploads.get(uploadId) ?? { phase: "receiving", bytes: 0, rows: 0, updatedAt: now };
  uploads.set(uploadId, { ...current, ...patch, updatedAt: now });
  if (uploads.size > 1000) for (const [id, p] of uploads) if (now - p.updatedAt > TTL_MS) uploads.delete(id);
}

export function getProgress(uploadId: string): UploadProgress | null {
  return uploads.get(uploadId) ?? null;
}

export const isUploadId = (id: string | null | undefined): id is string => typeof id === "string" && /^[A-Za-z0-9_-]{8,64}$/.test(id);

/** Runs an import under an upload id, publishing "done" or "failed" at the end. */
export async function withProgress<T extends { rowCount?: number }>(uploadId: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    const result = await fn();
    reportProgress(uploadId, { phase: "done", ...(result.rowCount !== undefined ? { rows: result.rowCount } : {}) });
    return result;
  } catch (error) {
    reportProgress(uploadId, { phase: "failed" });
    throw error;
  }
}
