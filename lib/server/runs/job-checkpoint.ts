import "server-only";

/**
 * The steps of a compute job where a crash leaves derived state behind (issue 30): the recovery
 * test's child process kills itself at one of them (test/fixtures/jobs/compute-child.ts) to show
 * that recovery ends with every run and pair current. A no-op unless such a hook is installed.
 */
export type JobStep = "metrics-computed" | "metrics-stored" | "comparison-pair";

type Hook = (step: JobStep) => void | Promise<void>;
const holder = globalThis as typeof globalThis & { __verdictJobCheckpoint?: Hook };

export async function jobCheckpoint(step: JobStep): Promise<void> {
  await holder.__verdictJobCheckpoint?.(step);
}

/** Test-only: installs the hook (a child process that dies at a step). */
export function setJobCheckpointHook(hook: Hook | undefined): void {
  holder.__verdictJobCheckpoint = hook;
}
