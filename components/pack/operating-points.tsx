import type { OperatingPointRow } from "@/lib/pack/operating-point-rows";
import type { OperatingFigures } from "@/lib/metrics/operating-point";
import { formatInterval, formatMoney, formatNumber, formatThreshold, formatThresholdInterval } from "@/lib/format";
import { TableScroll } from "@/components/ui/table-scroll";

/** A figure with its 95% interval beneath it (money in the decision's currency), or — when there is none. */
function figurePair(
  currency: string,
  f: OperatingFigures | null,
  pick: (f: OperatingFigures) => number | null,
  interval: (f: OperatingFigures) => readonly [number, number] | null,
  money = false,
) {
  return f ? (
    <>
      {money ? formatMoney(pick(f), currency, 1) : formatNumber(pick(f))}
      <small className="block muted">
        {money
          ? interval(f)
            ? `[${formatMoney(interval(f)![0], currency, 1)}, ${formatMoney(interval(f)![1], currency, 1)}]`
            : ""
          : formatInterval(interval(f))}
      </small>
    </>
  ) : (
    "—"
  );
}

/** One candidate's operating point: the threshold, how it was chosen, each figure in-sample beside held out. */
function OperatingPointLine({ row: r, currency }: { row: OperatingPointRow; currency: string }) {
  const pair = (
    f: OperatingFigures | null,
    pick: (f: OperatingFigures) => number | null,
    interval: (f: OperatingFigures) => readonly [number, number] | null,
    money = false,
  ) => figurePair(currency, f, pick, interval, money);
  return (
    <tr data-candidate={r.name}>
      <th scope="row">{r.name}</th>
      <td className="num">
        {formatThreshold(r.threshold)}
        <small className="block muted">{formatThresholdInterval(r.thresholdInterval)}</small>
        {r.thresholdInterval && r.thresholdIntervalCoverage && r.thresholdIntervalCoverage !== "95 %" && (
          <small className="block muted">{r.thresholdIntervalCoverage}</small>
        )}
      </td>
      <td>
        {r.how}
        {r.heldOutCoverage && <small className="block muted">{r.heldOutCoverage}</small>}
        {r.shortfall?.recall != null && (
          <small className="block fail">misses the recall floor by {formatNumber(r.shortfall.recall)}</small>
        )}
        {r.shortfall?.precision != null && (
          <small className="block fail">misses the precision floor by {formatNumber(r.shortfall.precision)}</small>
        )}
      </td>
      <td className="num">
        {pair(
          r.inSample,
          (f) => f.recall,
          (f) => f.recallInterval,
        )}
      </td>
      <td className="num">
        {pair(
          r.heldOut,
          (f) => f.recall,
          (f) => f.recallInterval,
        )}
      </td>
      <td className="num">
        {pair(
          r.inSample,
          (f) => f.precision,
          (f) => f.precisionInterval,
        )}
      </td>
      <td className="num">
        {pair(
          r.heldOut,
          (f) => f.precision,
          (f) => f.precisionInterval,
        )}
      </td>
      <td className="num">
        {pair(
          r.inSample,
          (f) => f.expectedCostPer1k,
          (f) => f.costInterval,
          true,
        )}
      </td>
      <td className="num">
        {pair(
          r.heldOut,
          (f) => f.expectedCostPer1k,
          (f) => f.costInterval,
          true,
        )}
      </td>
    </tr>
  );
}

/**
 * Stage 4's operating points (issue 14): per candidate, the threshold its rule chose with the
 * threshold's bootstrap interval, how it was chosen, and each figure in-sample beside held out,
 * so the committee sees the optimism removed. The gates, funnel and total cost use the held-out one.
 */
export function OperatingPoints({
  rows,
  currency,
  recallFloor,
  precisionFloor,
}: {
  rows: OperatingPointRow[];
  currency: string;
  recallFloor: number;
  precisionFloor: number | null;
}) {
  const rule = rows[0];
  if (!rule || rule.rule === "FIXED")
    return (
      <p className="muted" data-testid="operating-rule">
        Operating-point rule: fixed threshold — every candidate at the decision&apos;s threshold or its own.
      </p>
    );
  return (
    <>
      <h3>Operating points</h3>
      <p className="muted" data-testid="operating-rule">
        Rule: <strong>{rule.ruleLabel}</strong> (recall floor {recallFloor}
        {precisionFloor !== null ? `, precision floor ${precisionFloor}` : ""}). Each candidate&apos;s threshold is
        chosen on one half of the items and its figures are reported on the other half, and the reverse, pooled
        (cross-fitting): the held-out figures are what the gates, the funnel and the total cost use.
      </p>
      <TableScroll label="Operating points">
        <table data-testid="operating-points">
          <caption>
            Threshold with its bootstrap 95% interval (percentiles widened where positives are few, so that it covers
            95% in simulation); each figure in-sample (optimistic) beside held out, with 95% intervals
          </caption>
          <thead>
            <tr>
              <th scope="col">Candidate</th>
              <th scope="col" className="num">
                Threshold
              </th>
              <th scope="col">How chosen</th>
              <th scope="col" className="num">
                Recall in-sample
              </th>
              <th scope="col" className="num">
                Recall held out
              </th>
              <th scope="col" className="num">
                Precision at π in-sample
              </th>
              <th scope="col" className="num">
                Precision at π held out
              </th>
              <th scope="col" className="num">
                Expected cost in-sample
              </th>
              <th scope="col" className="num">
                Expected cost held out
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <OperatingPointLine key={r.candidateId} row={r} currency={currency} />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
