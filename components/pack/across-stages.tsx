import { REVERSAL_TAU, TAU_MEANING, tauTable } from "@/lib/pack/ranks";
import type { AcrossStages } from "@/lib/pack/across-stages";
import { significanceReading } from "@/lib/pack/significance";
import type { PackCandidate, PackDecision } from "@/lib/pack/pack-data";
import { formatInterval, formatMoney, formatNumber } from "@/lib/format";
import { TableScroll } from "@/components/ui/table-scroll";

const STAGE_NAME = {
  3: "Stage 3 · Task-specific accuracy",
  4: "Stage 4 · Class-balance stress test",
  5: "Stage 5 · Operational benchmark",
} as const;

type Name = (id: string) => string;

/** Where each candidate fell (stages 3–5), and who passes every gate. */
function Funnel({ candidates, across }: { candidates: PackCandidate[]; across: AcrossStages }) {
  return (
    <>
      <h3 id="funnel-heading">Elimination funnel</h3>
      <ol className="funnel" aria-labelledby="funnel-heading" data-testid="funnel">
        <li>
          <strong>Stages 1–2</strong> (leaderboards, Elo): all {candidates.length} shortlisted — shortlisting evidence
          eliminates no one and selects no one.
        </li>
        {([3, 4, 5] as const).map((stage) => {
          const fell = across.funnel.filter((f) => f.fellAt === stage);
          return (
            <li key={stage}>
              <strong>{STAGE_NAME[stage]}</strong>:{" "}
              {fell.length === 0
                ? "no candidate fell here."
                : fell.map((f) => (
                    <span key={f.candidateId} className="fell">
                      <span className="fail">✗ {f.name}</span> — {f.reasons.join("; ")}.{" "}
                    </span>
                  ))}
            </li>
          );
        })}
        <li>
          <strong>Passing every gate:</strong>{" "}
          {across.funnel
            .filter((f) => f.fellAt === null)
            .map((f) => (
              <span key={f.candidateId} className="pass">
                ✓ {f.name}{" "}
              </span>
            ))}
          {across.funnel.every((f) => f.fellAt !== null) && <span className="fail">none</span>}
        </li>
      </ol>
    </>
  );
}

/** Every gate per candidate, then the recall interval's lower bound against the floor. */
function GateTable({ candidates, across }: { candidates: PackCandidate[]; across: AcrossStages }) {
  const gateKeys = [...new Map(across.gates.flatMap((g) => g.gates.map((x) => [x.key, x.label] as const))).entries()];
  return (
    <TableScroll label="Gate table">
      <table data-testid="gate-table">
        <caption>Gate table (missing evidence fails a gate)</caption>
        <thead>
          <tr>
            <th scope="col">Gate</th>
            {candidates.map((c) => (
              <th key={c.id} scope="col">
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {gateKeys.map(([key, label]) => (
            <tr key={key} data-gate={key}>
              <th scope="row">{label}</th>
              {candidates.map((c) => {
                const g = across.gates.find((x) => x.candidateId === c.id)?.gates.find((x) => x.key === key);
                if (!g)
                  return (
                    <td key={c.id} className="muted">
                      —
                    </td>
                  );
                return (
                  <td key={c.id} className={g.pass ? "pass" : "fail"}>
                    {g.pass ? "✓ pass" : "✗ fail"}
                    <small className="block muted">{g.detail}</small>
                  </td>
                );
              })}
            </tr>
          ))}
          <tr>
            <th scope="row">Recall interval&apos;s lower bound ≥ floor</th>
            {candidates.map((c) => {
              const v = across.gates.find((x) => x.candidateId === c.id)?.recallLowerBoundMeetsFloor ?? null;
              return (
                <td key={c.id} className={v ? "pass" : v === false ? "warn" : "muted"}>
                  {v === null ? "—" : v ? "✓ yes" : "! no"}
                </td>
              );
            })}
          </tr>
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Error cost plus serving cost per 1,000 items, and the lowest total. */
function TotalCost({ decision, across, name }: { decision: PackDecision; across: AcrossStages; name: Name }) {
  return (
    <>
      <h3>Total cost per 1,000 items</h3>
      <TableScroll label="Total cost per 1,000 items">
        <table data-testid="total-cost">
          <caption>
            Expected error cost at π (stage 4) + serving cost at the SLO concurrency (stage 5), one request per item, in{" "}
            {decision.currency}
          </caption>
          <thead>
            <tr>
              <th scope="col">Candidate</th>
              <th scope="col" className="num">
                Error cost
              </th>
              <th scope="col" className="num">
                Serving cost
              </th>
              <th scope="col" className="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {across.totals.map((t) => (
              <tr key={t.candidateId} data-candidate={name(t.candidateId)}>
                <th scope="row">
                  {name(t.candidateId)}
                  {t.candidateId === across.bestCandidateId ? " ★" : ""}
                </th>
                <td className="num">{formatMoney(t.errorCostPer1k, decision.currency, 2)}</td>
                <td className="num">{formatMoney(t.servingCostPer1k, decision.currency, 3)}</td>
                <td className="num">
                  <strong>{formatMoney(t.totalPer1k, decision.currency, 2)}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {across.bestCandidateId && (
        <p>
          ★ {name(across.bestCandidateId)}: the lowest total cost{" "}
          {across.funnel.some((f) => f.fellAt === null)
            ? "among the candidates passing every gate"
            : "at π (no candidate passes every gate)"}
          . The committee decides; this is the evidence.
        </p>
      )}
    </>
  );
}

/** Ranks by stage side by side, Kendall's τ between them, and the reversals. */
function RankComparison({
  candidates,
  across,
  apDropped,
}: {
  candidates: PackCandidate[];
  across: AcrossStages;
  apDropped: boolean;
}) {
  return (
    <>
      <h3>Rank comparison</h3>
      <TableScroll label="Rank comparison">
        <table data-testid="rank-comparison">
          <caption>
            Ranks by stage: shortlisting (public suites) beside the verdict&apos;s evidence (your data at your π and
            costs)
          </caption>
          <thead>
            <tr>
              <th scope="col">Candidate</th>
              {across.ranks.rankings.map((r) => (
                <th key={r.key} scope="col" className="num">
                  {r.label}
                  <small className="block muted">{r.role}</small>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {candidates.map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                {across.ranks.rankings.map((r) => (
                  <td key={r.key} className="num">
                    {r.ranking.has(c.id) ? `#${r.ranking.get(c.id)}` : "—"}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {apDropped && (
        <p className="muted">AP at π needs every item: at a what-if prevalence it is not recomputed (—).</p>
      )}
      <KendallTau rankings={across.ranks.rankings} />
      {across.ranks.reversals.length > 0 ? (
        <ul data-testid="rank-reversals" className="reversals">
          {across.ranks.reversals.map((r) => (
            <li key={r.text}>
              <strong>{r.kind === "leader" ? "Rank reversal" : "Orders disagree"}</strong> — {r.text}.
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">
          No rank reversals: no leaderboard leader loses first place on the task evidence, and no leaderboard order
          disagrees with it overall (Kendall&apos;s τ ≥ {REVERSAL_TAU}).
        </p>
      )}
    </>
  );
}

/**
 * Kendall's τ as the PDF shows it (lib/pack/ranks.ts `tauTable`, one rule for both): each
 * shortlisting ranking against each verdict ranking — the pairs of candidates they order alike,
 * the pairs they swap, τ — and what τ means, in one sentence.
 */
function KendallTau({ rankings }: { rankings: AcrossStages["ranks"]["rankings"] }) {
  const rows = tauTable(rankings.map((r) => ({ label: r.label, role: r.role, ranks: Object.fromEntries(r.ranking) })));
  if (rows.length === 0)
    return <p className="muted">Kendall&apos;s τ: — (no shortlisting and verdict ranking to compare).</p>;
  return (
    <>
      <TableScroll label="Kendall's τ">
        <table data-testid="kendall-tau">
          <caption>Kendall&apos;s τ: shortlisting rankings against the verdict&apos;s</caption>
          <thead>
            <tr>
              <th scope="col">Shortlisting ranking</th>
              <th scope="col">Verdict ranking</th>
              <th scope="col" className="num">
                Pairs that agree
              </th>
              <th scope="col" className="num">
                Pairs that disagree
              </th>
              <th scope="col" className="num">
                τ
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.shortlisting}|${r.verdict}`}>
                <th scope="row">{r.shortlisting}</th>
                <td>{r.verdict}</td>
                <td className="num">{r.agree}</td>
                <td className="num">{r.disagree}</td>
                <td className="num">{formatNumber(r.tau, 2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="muted">{TAU_MEANING}</p>
    </>
  );
}

/** The best candidate paired against each other one on the same items. */
function SignificanceTable({ decision, sig, name }: { decision: PackDecision; sig: AcrossStages; name: Name }) {
  if (!(sig.bestCandidateId && sig.significance.length > 0))
    return <p className="muted">No paired comparisons computed yet (they are computed with the eval runs).</p>;
  return (
    <TableScroll label="Significance">
      <table data-testid="significance">
        <caption>
          {name(sig.bestCandidateId)} against each other candidate, paired on the same items: expected cost at π with
          Newcombe&apos;s paired interval, ΔAP with a paired bootstrap interval, and the exact McNemar test on errors,
          on the predictions the verdict counts (held out where the decision&apos;s rule chooses the threshold)
        </caption>
        <thead>
          <tr>
            <th scope="col">Against</th>
            <th scope="col" className="num">
              Δ expected cost per 1,000 at π
            </th>
            <th scope="col" className="num">
              95% interval
            </th>
            <th scope="col" className="num">
              ΔAP
            </th>
            <th scope="col" className="num">
              95% interval
            </th>
            <th scope="col" className="num">
              Only {name(sig.bestCandidateId)} right / only other right
            </th>
            <th scope="col" className="num">
              McNemar p
            </th>
            <th scope="col">What it means for this decision</th>
          </tr>
        </thead>
        <tbody>
          {sig.significance.map((s) => (
            <tr key={s.candidateBId}>
              <th scope="row">{name(s.candidateBId)}</th>
              <td className="num">
                {s.deltaCostPer1k == null ? "—" : formatMoney(s.deltaCostPer1k, decision.currency)}
              </td>
              <td className="num">
                {s.deltaCostInterval
                  ? `[${formatMoney(s.deltaCostInterval[0], decision.currency)}, ${formatMoney(s.deltaCostInterval[1], decision.currency)}]`
                  : "—"}
              </td>
              <td className="num">{formatNumber(s.deltaAp, 4)}</td>
              <td className="num">{formatInterval(s.deltaApInterval, 4)}</td>
              <td className="num">
                {s.onlyACorrect.toLocaleString("en-US")} / {s.onlyBCorrect.toLocaleString("en-US")}
              </td>
              <td className="num">
                {s.mcnemarP === null ? "—" : s.mcnemarP < 1e-4 ? "< 0.0001" : formatNumber(s.mcnemarP, 4)}
              </td>
              <td>{significanceReading(s, name, (v) => formatMoney(v, decision.currency))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * The verdict's evidence across stages: funnel, gates, rank reversals, total cost, significance.
 * `storedSignificance` is given while a what-if is shown: the paired comparisons are computed over
 * the items at the stored parameters, so they are shown as stored, and say so.
 */
export function AcrossStagesView({
  decision,
  candidates,
  across,
  storedSignificance = null,
}: {
  decision: PackDecision;
  candidates: PackCandidate[];
  across: AcrossStages;
  storedSignificance?: AcrossStages | null;
}) {
  const name = (id: string) => candidates.find((c) => c.id === id)?.name ?? id;
  const sig = storedSignificance ?? across;
  const apDropped =
    storedSignificance !== null &&
    across.ranks.rankings.some((r) => r.key === "ap-at-prevalence" && r.ranking.size === 0);
  return (
    <div>
      <Funnel candidates={candidates} across={across} />

      <GateTable candidates={candidates} across={across} />

      <TotalCost decision={decision} across={across} name={name} />

      <RankComparison candidates={candidates} across={across} apDropped={apDropped} />

      <h3>Is the difference significant on this data?</h3>
      {storedSignificance && (
        <p className="figures-shown" data-figures="stored">
          <span className="figures-tag">Stored figures</span> The paired comparisons are computed over the items at the
          stored π and thresholds; the what-if does not change them.
        </p>
      )}
      <SignificanceTable decision={decision} sig={sig} name={name} />
    </div>
  );
}
