import { candidateStyles } from "@/lib/pack/charts/palette";
import type { PackCandidate } from "@/lib/pack/pack-data";

/** The candidates with their colour (the same in every chart) and the analyst's shortlist rationale. */
export function CandidateList({ candidates }: { candidates: PackCandidate[] }) {
  const styles = candidateStyles(candidates.map((c) => c.id));
  return (
    <dl className="candidates">
      {candidates.map((c) => (
        <div key={c.id}>
          <dt>
            <span className="swatch" style={{ background: styles.get(c.id)?.colour }} aria-hidden="true" />{" "}
            <strong>{c.name}</strong>{" "}
            <span className="muted">
              — {c.provider}
              {c.version ? `, ${c.version}` : ""}
            </span>
          </dt>
          <dd>{c.shortlistRationale || <span className="muted">No rationale written yet.</span>}</dd>
        </div>
      ))}
    </dl>
  );
}
