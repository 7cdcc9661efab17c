import "server-only";
/**
 * Test-only: holds the in-process job runner (VERDICT_JOBS=inline, lib/server/runs/queue.ts) until the
 * returned function is called, so a test can look at runs while they are still PENDING — without
 * it, a queued job may start (and mark its run RUNNING) before the test's next query. It appends
 * a gate to the runner's one chain of jobs (globalThis.__verdictInline); jobs queued after it
 * wait for it. Release before drainInlineJobs(), which would otherwise wait for ever.
 */
export function holdInlineJobs(): () => void {
  const holder = globalThis as typeof globalThis & { __verdictInline?: Promise<void> };
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  holder.__verdictInline = (holder.__verdictInline ?? Promise.resolve()).then(() => gate);
  return release;
}
