import type { OtherRun, PackCandidate } from "@/lib/pack/pack-data";
import { datasetVersionLabel } from "@/lib/decisions/labels";

/** Runs that do not count (SPEC §2), listed apart: never in the ranks, charts, gates or significance. */
export function OtherRuns({ runs, candidates }: { runs: OtherRun[]; candidates: PackCandidate[] }) {
  if (runs.length === 0) return null;
  const name = (id: string) => candidates.find((c) => c.id === id)?.name ?? id;
  return (
    <details className="other-runs" data-testid="other-runs">
      <summary>
        {runs.length} other run{runs.length === 1 ? "" : "s"}, not compared
      </summary>
      <table>
        <caption>Runs that are not the run that counts: listed for the record only</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Candidate</th>
            <th scope="col">Dataset</th>
            <th scope="col">Why it does not count</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.runId}>
              <td>#{r.runId}</td>
              <td>{name(r.candidateId)}</td>
              <td>{datasetVersionLabel(r.dataset.name, r.dataset)}</td>
              <td>{r.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
