import type { XyChartModel } from "@/lib/pack/charts/xy";
import type { PackCandidate, PackDecision, PackServing } from "@/lib/pack/pack-data";
import { checkSlos, costPer1kRequests, highestPassingConcurrency, rowAtSloConcurrency } from "@/lib/pack/serving";
import { formatMoney, formatMs, formatNumber, formatPercent, formatThroughput } from "@/lib/format";
import { XyChart } from "@/components/charts/xy-chart";
import { TableScroll } from "@/components/ui/table-scroll";

const P = ["p50", "p90", "p95", "p99"] as const;

/** One candidate against each SLO at the SLO's concurrency, its cost, and the highest concurrency meeting them all. */
function SloRow({
  decision,
  candidate: c,
  serving,
}: {
  decision: PackDecision;
  candidate: PackCandidate;
  serving: PackServing[];
}) {
  const rows = serving.filter((s) => s.candidateId === c.id);
  const row = rowAtSloConcurrency(decision, rows);
  const best = highestPassingConcurrency(decision, c, rows);
  if (!rows.length)
    return (
      <tr>
        <th scope="row">{c.name}</th>
        <td colSpan={3} className="muted">
          No serving benchmark
        </td>
      </tr>
    );
  return (
    <tr data-candidate={c.name}>
      <th scope="row">{c.name}</th>
      <td>
        {row ? (
          <ul className="plain">
            {checkSlos(decision, c, row).map((k) => (
              <li key={k.key} className={k.pass ? "pass" : "fail"}>
                {k.pass ? "✓ pass" : "✗ fail"} — {k.label}:{" "}
                {k.key === "throughput"
                  ? formatThroughput(k.actual)
                  : k.key === "cost"
                    ? formatMoney(k.actual, decision.currency, 3)
                    : formatMs(k.actual)}
              </li>
            ))}
          </ul>
        ) : (
          <span className="fail">✗ not measured at the SLO&apos;s concurrency</span>
        )}
      </td>
      <td className="num">{row ? formatMoney(costPer1kRequests(c, row), decision.currency, 3) : "—"}</td>
      <td className="num">
        {best ? (
          `${best.concurrency} (${formatMoney(costPer1kRequests(c, best), decision.currency, 3)} per 1,000)`
        ) : (
          <span className="fail">none</span>
        )}
      </td>
    </tr>
  );
}

/** What both serving tables show: the decision's SLOs, the candidates and their benchmark rows. */
interface ServingTablesProps {
  decision: PackDecision;
  candidates: PackCandidate[];
  serving: PackServing[];
}

/** Pass or fail per SLO for every candidate. */
function SloTable({ decision, candidates, serving }: ServingTablesProps) {
  return (
    <TableScroll label="SLO checks per candidate">
      <table data-testid="slo-table">
        <caption>
          SLOs at concurrency {decision.sloThroughputConcurrency ?? "(highest measured)"}: p95 E2E ≤{" "}
          {decision.sloP95E2eMs ?? "—"} ms, p95 TTFT ≤ {decision.sloP95TtftMs ?? "—"} ms, throughput ≥{" "}
          {decision.sloMinThroughputRps ?? "—"} req/s, cost ≤{" "}
          {formatMoney(decision.sloMaxCostPer1kRequests, decision.currency)} per 1,000 requests
        </caption>
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            <th scope="col">Pass / fail per SLO</th>
            <th scope="col" className="num">
              Cost per 1,000 requests
            </th>
            <th scope="col" className="num">
              Highest concurrency meeting every SLO
            </th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => (
            <SloRow key={c.id} decision={decision} candidate={c} serving={serving} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** One load level of one candidate: latency percentiles, throughput, errors and cost. */
function ServingRow({
  decision,
  candidate: c,
  row: r,
}: {
  decision: PackDecision;
  candidate: PackCandidate;
  row: PackServing;
}) {
  return (
    <tr>
      <th scope="row">{c.name}</th>
      <td className="num">{r.concurrency ?? "—"}</td>
      <td>
        {r.tool}
        {r.tpotSource ? <small className="block muted">TPOT: {r.tpotSource}</small> : null}
      </td>
      {P.map((p) => (
        <td key={`t${p}`} className="num">
          {formatNumber(r.ttftMs[p], 0)}
        </td>
      ))}
      {P.map((p) => (
        <td key={`o${p}`} className="num">
          {formatNumber(r.tpotMs[p], 1)}
        </td>
      ))}
      {P.map((p) => (
        <td key={`i${p}`} className="num">
          {formatNumber(r.itlMs?.[p], 1)}
        </td>
      ))}
      {P.map((p) => (
        <td key={`e${p}`} className="num">
          {formatNumber(r.e2eMs[p], 0)}
        </td>
      ))}
      <td className="num">{formatNumber(r.requestThroughput, 1)}</td>
      <td className="num">{formatNumber(r.outputTokenThroughput, 0)}</td>
      <td className="num">{formatNumber(r.goodput, 1)}</td>
      <td className="num">{formatPercent(r.failed / Math.max(1, r.completed + r.failed))}</td>
      <td className="num">{formatMoney(costPer1kRequests(c, r), decision.currency, 3)}</td>
    </tr>
  );
}

/** Every load level of every candidate, folded away under the charts. */
function ServingDetail({ decision, candidates, serving }: ServingTablesProps) {
  return (
    <details className="serving-detail">
      <summary>Every load level (percentiles in ms)</summary>
      <TableScroll label="Serving benchmarks per candidate and concurrency">
        <table>
          <caption>Serving benchmarks per candidate and concurrency</caption>
          <thead>
            <tr>
              <th scope="col">Candidate</th>
              <th scope="col" className="num">
                Concurrency
              </th>
              <th scope="col">Tool</th>
              {P.map((p) => (
                <th key={`t${p}`} scope="col" className="num">
                  TTFT {p}
                </th>
              ))}
              {P.map((p) => (
                <th key={`o${p}`} scope="col" className="num">
                  TPOT {p}
                </th>
              ))}
              {P.map((p) => (
                <th key={`i${p}`} scope="col" className="num">
                  ITL {p}
                </th>
              ))}
              {P.map((p) => (
                <th key={`e${p}`} scope="col" className="num">
                  E2E {p}
                </th>
              ))}
              <th scope="col" className="num">
                req/s
              </th>
              <th scope="col" className="num">
                output tok/s
              </th>
              <th scope="col" className="num">
                Goodput (req/s)
              </th>
              <th scope="col" className="num">
                Error rate
              </th>
              <th scope="col" className="num">
                Cost per 1,000 requests
              </th>
            </tr>
          </thead>
          <tbody>
            {candidates.flatMap((c) =>
              serving
                .filter((s) => s.candidateId === c.id)
                .map((r) => <ServingRow key={`${c.id}-${r.concurrency}`} decision={decision} candidate={c} row={r} />),
            )}
          </tbody>
        </table>
      </TableScroll>
    </details>
  );
}

/** Stage 5: latency percentiles and throughput against concurrency, each SLO judged where it is stated. */
export function OperationalStage({
  decision,
  candidates,
  serving,
  charts,
}: {
  decision: PackDecision;
  candidates: PackCandidate[];
  serving: PackServing[];
  charts: XyChartModel[];
}) {
  return (
    <div>
      <SloTable decision={decision} candidates={candidates} serving={serving} />
      <div className="chart-grid">
        {charts.map((m) => (
          <XyChart key={m.id} model={m} />
        ))}
      </div>
      <ServingDetail decision={decision} candidates={candidates} serving={serving} />
    </div>
  );
}
