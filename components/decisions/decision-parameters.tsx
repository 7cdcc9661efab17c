import { formatMoney, formatMs, formatPercent, formatThreshold } from "@/lib/format";
import type { TaskParameters } from "@/lib/pack/pack-data";
import { OPERATING_RULE_LABELS } from "@/lib/decisions/operating-rule";

export function DecisionParameters({ decision: d }: { decision: TaskParameters }) {
  const rows: [string, string][] = [
    ["Positive class", d.positiveClass],
    ["Deployment prevalence π", formatPercent(d.prevalence)],
    ["Cost of a false negative (C_FN)", formatMoney(d.costFn, d.currency)],
    ["Cost of a false positive (C_FP)", formatMoney(d.costFp, d.currency)],
    ["Recall floor at π", String(d.recallFloor)],
    ["Precision floor at π", d.precisionFloor === null ? "none" : String(d.precisionFloor)],
    ["Operating-point rule", OPERATING_RULE_LABELS[d.operatingRule ?? "FIXED"]],
    [
      (d.operatingRule ?? "FIXED") === "FIXED" ? "Operating threshold" : "Operating threshold (fixed rule, what-if)",
      formatThreshold(d.operatingThreshold),
    ],
    ["SLO p95 end-to-end latency", d.sloP95E2eMs === null ? "none" : `≤ ${formatMs(d.sloP95E2eMs)}`],
    ["SLO p95 time to first token", d.sloP95TtftMs === null ? "none" : `≤ ${formatMs(d.sloP95TtftMs)}`],
    [
      "SLO throughput",
      d.sloMinThroughputRps === null
        ? "none"
        : `≥ ${d.sloMinThroughputRps} req/s at concurrency ${d.sloThroughputConcurrency ?? "—"}`,
    ],
    [
      "SLO cost per 1,000 requests",
      d.sloMaxCostPer1kRequests === null ? "none" : `≤ ${formatMoney(d.sloMaxCostPer1kRequests, d.currency)}`,
    ],
    ["Quorum of approvers", String(d.quorum)],
  ];
  return (
    <dl className="params">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
