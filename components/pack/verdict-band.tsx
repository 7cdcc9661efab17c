import type { VerdictSummary } from "@/lib/pack/verdict-summary";
import { formatMoney } from "@/lib/format";

/**
 * The verdict on page one (under the title): the state, the recommendation, each candidate's gate
 * outcome in one line and why the leaderboard leader is not the recommendation — the same summary
 * as the PDF's first page (lib/pack/verdict-summary.ts).
 */
export function VerdictBand({
  summary,
  currency,
  shown,
}: {
  summary: VerdictSummary;
  currency: string;
  shown?: React.ReactNode;
}) {
  const money = (v: number | null) => (v === null ? "—" : formatMoney(v, currency));
  return (
    <section
      className={`verdict-band card verdict-${summary.status.toLowerCase()}`}
      aria-labelledby="verdict-heading"
      data-testid="verdict-band"
    >
      <h2 id="verdict-heading">{summary.heading}</h2>
      {shown}
      {summary.approved && (
        <p>
          Approved on revision {summary.approved.revision} by {summary.approved.signers.join(", ")}.
        </p>
      )}
      {summary.rejected && (
        <p>
          Rejected on revision {summary.rejected.revision} by {summary.rejected.signer}.
        </p>
      )}
      <p className="verdict-recommendation">
        {summary.recommendation ? (
          <>
            <strong>Recommendation: {summary.recommendation.name}</strong> — the lowest total cost per 1,000 items (
            {money(summary.recommendation.totalPer1k)}) among the candidates that pass every gate.
          </>
        ) : (
          <strong>No candidate passes every gate: the evidence recommends none.</strong>
        )}
      </p>
      <ul className="verdict-outcomes">
        {summary.outcomes.map((o) => (
          <li key={o.candidateId} data-candidate={o.name}>
            <span aria-hidden="true">{o.passes ? "✓" : "✗"}</span> <strong>{o.name}</strong>{" "}
            {o.passes ? `passes all ${o.gateCount} gates` : `fails ${o.failed.map((g) => g.label).join("; ")}`}
            <span className="muted"> · total {money(o.totalPer1k)} per 1,000 items</span>
          </li>
        ))}
      </ul>
      {summary.leader && !summary.leader.isRecommendation && (
        <p className="verdict-leader">
          The leaderboard leader, {summary.leader.name} ({summary.leader.ranking}), is not the recommendation
          {summary.leader.firstFailedGate ? (
            <>
              : it fails {summary.leader.firstFailedGate.label} — {summary.leader.firstFailedGate.detail}.
            </>
          ) : (
            <>: another candidate costs less per 1,000 items.</>
          )}
        </p>
      )}
    </section>
  );
}
