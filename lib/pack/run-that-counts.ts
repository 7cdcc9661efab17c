/**
 * SPEC §2: "the run that counts" for a candidate is its newest finished eval run on the
 * decision's evaluation dataset version; runs on other versions are shown apart and never
 * compared with it. A decision that has not named a version yet (no dataset uploaded) counts
 * each candidate's newest finished run. The one rule for the pack's pages, its exports, the
 * frozen revision and the paired comparisons.
 */
export interface CountableRun {
  id: number;
  candidateId: string;
  datasetVersionId: number;
  status: string;
}

export function runsThatCount<R extends CountableRun>(
  runs: readonly R[],
  evaluationDatasetVersionId: number | null,
): Map<string, R> {
  const counting = new Map<string, R>();
  for (const run of [...runs].sort((a, b) => b.id - a.id)) {
    if (run.status !== "DONE") continue;
    if (evaluationDatasetVersionId !== null && run.datasetVersionId !== evaluationDatasetVersionId) continue;
    if (!counting.has(run.candidateId)) counting.set(run.candidateId, run);
  }
  return counting;
}
