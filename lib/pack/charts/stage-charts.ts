import type { PackCandidate, PackRun, PackServing } from "@/lib/pack/pack-data";
import type { Pct } from "@/lib/pack/serving";
import { formatPercent, formatThreshold } from "@/lib/format";
import type { SeriesStyle } from "./palette";
import type { ReferenceLine, XyChartModel, XyPoint, XySeries } from "./xy";

/**
 * Pure "prepare" functions: stored evidence → chart models. Series follow the decision's
 * candidate order; a candidate without the evidence has no series (and the description says so).
 */
type Styles = ReadonlyMap<string, SeriesStyle>;
type Curve = { x: number[]; y: number[]; thresholds: (number | null)[]; operatingIndex: number | null };

function style(styles: Styles, id: string): SeriesStyle {
  return styles.get(id) ?? { colour: "#999999", dashed: true };
}

/** Drawing precision: 6 significant digits is far below a pixel; thresholds stay exact. */
const draw = (v: number) => Number(v.toPrecision(6));

function curvePoints(curve: Curve): XyPoint[] {
  return curve.x.map((x, i) => ({
    x: draw(x),
    y: Number.isFinite(curve.y[i]) ? draw(curve.y[i]!) : null,
    threshold: curve.thresholds[i] ?? null,
  }));
}

function missingNote(candidates: readonly PackCandidate[], series: readonly XySeries[]): string {
  const missing = candidates.filter((c) => !series.some((s) => s.key === c.id)).map((c) => c.name);
  return missing.length ? ` No evidence for ${missing.join(", ")}.` : "";
}

function concurrencies(serving: readonly PackServing[]): number[] {
  return [...new Set(serving.map((s) => s.concurrency).filter((c): c is number => c !== null && c > 0))].sort(
    (a, b) => a - b,
  );
}

/** One series a candidate of one serving measure against concurrency, lowest first (the serving charts' x). */
function concurrencySeries(
  candidates: readonly PackCandidate[],
  serving: readonly PackServing[],
  styles: Styles,
  y: (row: PackServing) => number | null,
): XySeries[] {
  const series: XySeries[] = [];
  for (const c of candidates) {
    const rows = serving
      .filter((s) => s.candidateId === c.id && s.concurrency !== null)
      .sort((a, b) => a.concurrency! - b.concurrency!);
    if (!rows.length) continue;
    series.push({
      key: c.id,
      name: c.name,
      ...style(styles, c.id),
      points: rows.map((r) => ({ x: r.concurrency!, y: y(r) })),
    });
  }
  return series;
}

/** The serving charts' x axis: every measured concurrency, on a log scale. */
const concurrencyAxis = (serving: readonly PackServing[]): XyChartModel["x"] => ({
  label: "Concurrency",
  unit: "concurrent requests, log scale",
  scale: "log",
  digits: 0,
  ticks: concurrencies(serving),
});

export function prCurvesChart(
  candidates: readonly PackCandidate[],
  runs: readonly PackRun[],
  styles: Styles,
  which: "pr" | "prAtPrevalence",
  prevalence: number,
): XyChartModel {
  const series: XySeries[] = [];
  for (const c of candidates) {
    const m = runs.find((r) => r.candidateId === c.id)?.metrics;
    const curve = m?.curves[which];
    if (!curve) continue;
    const points = curvePoints(curve);
    const op = curve.operatingIndex === null ? undefined : points[curve.operatingIndex];
    series.push({
      key: c.id,
      name: c.name,
      ...style(styles, c.id),
      points,
      marker: op ? { ...op, label: `operating point t = ${formatThreshold(op.threshold)}` } : undefined,
    });
  }
  const atPi = which === "prAtPrevalence";
  return {
    id: atPi ? "pr-at-prevalence" : "pr-curves",
    title: atPi
      ? `Precision–recall curves at π = ${formatPercent(prevalence)}`
      : "Precision–recall curves on the labelled sample",
    description: `${atPi ? `Precision re-weighted to the deployment prevalence ${formatPercent(prevalence)}` : "Precision"} against recall for ${series.map((s) => s.name).join(", ")}, each candidate's operating point marked.${missingNote(candidates, series)}`,
    x: { label: "Recall", unit: "fraction", domain: [0, 1], digits: 3 },
    y: { label: atPi ? "Precision at π" : "Precision", unit: "fraction", domain: [0, 1], digits: 3 },
    series,
    references: [],
  };
}

export function reliabilityChart(
  candidates: readonly PackCandidate[],
  runs: readonly PackRun[],
  styles: Styles,
): XyChartModel {
  const series: XySeries[] = [];
  for (const c of candidates) {
    const bins = runs.find((r) => r.candidateId === c.id)?.metrics?.reliability;
    if (!bins) continue;
    // Empty bins are gaps (null), never zeros.
    series.push({
      key: c.id,
      name: c.name,
      ...style(styles, c.id),
      points: bins.map((b) => ({ x: b.meanPredicted ?? (b.lower + b.upper) / 2, y: b.fractionPositive })),
    });
  }
  return {
    id: "reliability",
    title: "Reliability diagram (10 equal-width bins)",
    description: `Observed fraction of positives against mean predicted score per bin for ${series.map((s) => s.name).join(", ")}; the diagonal is perfect calibration.${missingNote(candidates, series)}`,
    x: { label: "Mean predicted score", unit: "probability", domain: [0, 1], digits: 2 },
    y: { label: "Observed fraction positive", unit: "fraction", domain: [0, 1], digits: 2 },
    series,
    references: [],
    diagonal: true,
  };
}

/** Whether any serving row reports inter-token latency: its chart is drawn only then (few tools report it). */
export function measuresItl(serving: readonly PackServing[]): boolean {
  return serving.some((r) => r.itlMs?.p95 != null);
}

export function servingLatencyChart(
  candidates: readonly PackCandidate[],
  serving: readonly PackServing[],
  styles: Styles,
  metric: "ttftMs" | "tpotMs" | "itlMs" | "e2eMs",
  percentile: keyof Pct,
  slo: number | null,
): XyChartModel {
  const names = {
    ttftMs: "TTFT (time to first token)",
    tpotMs: "TPOT (time per output token)",
    itlMs: "ITL (inter-token latency)",
    e2eMs: "End-to-end latency",
  } as const;
  const series = concurrencySeries(candidates, serving, styles, (r) => r[metric]?.[percentile] ?? null);
  const references: ReferenceLine[] =
    slo === null ? [] : [{ axis: "y", value: slo, label: `SLO ${percentile} ≤ ${slo} ms` }];
  return {
    id: `serving-${metric}-${percentile}`,
    title: `${percentile} ${names[metric]} vs concurrency`,
    description: `${percentile} ${names[metric]} in milliseconds at each measured concurrency for ${series.map((s) => s.name).join(", ")}${slo === null ? "" : `; the SLO line is at ${slo} ms`}.${missingNote(candidates, series)}`,
    x: concurrencyAxis(serving),
    y: { label: `${percentile} ${names[metric]}`, unit: "ms", digits: 0 },
    series,
    references,
  };
}

export function throughputChart(
  candidates: readonly PackCandidate[],
  serving: readonly PackServing[],
  styles: Styles,
  minThroughput: number | null,
  atConcurrency: number | null,
): XyChartModel {
  const series = concurrencySeries(candidates, serving, styles, (r) => r.requestThroughput);
  const references: ReferenceLine[] = [];
  if (minThroughput !== null)
    references.push({ axis: "y", value: minThroughput, label: `SLO ≥ ${minThroughput} req/s` });
  if (atConcurrency !== null)
    references.push({ axis: "x", value: atConcurrency, label: `at concurrency ${atConcurrency}` });
  return {
    id: "serving-throughput",
    title: "Request throughput vs concurrency",
    description: `Requests per second at each measured concurrency for ${series.map((s) => s.name).join(", ")}${minThroughput === null ? "" : `; the SLO asks for at least ${minThroughput} req/s at concurrency ${atConcurrency ?? "any"}`}.${missingNote(candidates, series)}`,
    x: concurrencyAxis(serving),
    y: { label: "Request throughput", unit: "req/s", digits: 1 },
    series,
    references,
  };
}
