import "server-only";
import os from "node:os";

/**
 * The job log an operator follows (issue 30): one JSON line per job start, finish, failure and
 * recovery, naming the process (role, host, pid), the job, its decision and run, and the duration.
 * Failures go to stderr, the rest to stdout. The CLI (and the tests, which run as it) prints only
 * failures: its stdout is its answer, JSON a script reads, and that answer already says how the
 * job it ran inline ended; an operator follows the servers' and workers' lines.
 */
export type ProcessRole = "server" | "worker" | "cli";

const holder = globalThis as typeof globalThis & { __verdictRole?: ProcessRole };

/** Set once at start: instrumentation.ts (server), scripts/worker.ts (worker); else the CLI. */
export function setProcessRole(role: ProcessRole): void {
  holder.__verdictRole = role;
}

export const processRole = (): ProcessRole => holder.__verdictRole ?? "cli";

export interface JobFields {
  job: string;
  jobId?: string | null;
  decision?: string | null;
  run?: number | null;
  [detail: string]: unknown;
}

export function logLine(event: string, fields: Record<string, unknown>, stream: "out" | "err" = "out"): void {
  if (stream === "out" && processRole() === "cli") return;
  const line = JSON.stringify({
    time: new Date().toISOString(),
    event,
    role: processRole(),
    host: os.hostname(),
    pid: process.pid,
    ...fields,
  });
  if (stream === "err") console.error(line);
  else console.log(line);
}

/** Runs a job between its start line and its finish (with what it returned) or failure line; rethrows. */
export async function loggedJob<T extends Record<string, unknown> | void>(
  fields: JobFields,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  logLine("job.start", fields);
  const durationMs = () => Math.round(performance.now() - started);
  try {
    const result = await work();
    logLine("job.finish", { ...fields, durationMs: durationMs(), ...(result ?? {}) });
    return result;
  } catch (error) {
    logLine(
      "job.failure",
      { ...fields, durationMs: durationMs(), error: error instanceof Error ? error.message : String(error) },
      "err",
    );
    throw error;
  }
}
