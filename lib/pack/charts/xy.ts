import { formatNumber } from "@/lib/format";
import type { SeriesStyle } from "./palette";

/**
 * The chart model every evidence chart renders (components/charts/xy-chart.tsx): prepared here,
 * purely, so the page, the "show as table" alternative and the PDF draw the same thing.
 * A missing value is a gap (y = null), never a zero.
 */
export interface Axis {
  label: string;
  unit: string;
  domain?: [number, number];
  scale?: "linear" | "log";
  /** Digits for ticks and table cells. */
  digits?: number;
  /** Tick positions (log axes read better at round values). */
  ticks?: number[];
}

export interface XyPoint {
  x: number;
  y: number | null;
  /** The threshold of a curve point, shown in the table and tooltip. */
  threshold?: number | null;
}

export interface XySeries extends SeriesStyle {
  key: string;
  name: string;
  points: XyPoint[];
  /** The operating point (or the cost optimum) marked on the curve. */
  marker?: XyPoint & { label: string };
}

export interface ReferenceLine {
  axis: "x" | "y";
  value: number;
  label: string;
}

export interface XyChartModel {
  id: string;
  title: string;
  /** The chart's accessible name: what it shows, in words. */
  description: string;
  x: Axis;
  y: Axis;
  series: XySeries[];
  references: ReferenceLine[];
  /** Draw y = x (reliability diagram). */
  diagonal?: boolean;
  /** Step-like curves (PR) are drawn point to point; lines for everything. */
  note?: string;
}

export function axisTitle(axis: Axis): string {
  return axis.unit ? `${axis.label} (${axis.unit})` : axis.label;
}

/** At most `max` points of a series for the table alternative: evenly spaced, ends and marker kept. */
export function tableRows(points: readonly XyPoint[], max = 25): XyPoint[] {
  if (points.length <= max) return [...points];
  const step = (points.length - 1) / (max - 1);
  const picked = new Set<number>();
  for (let i = 0; i < max; i++) picked.add(Math.round(i * step));
  return [...picked].sort((a, b) => a - b).map((i) => points[i]!);
}

/** Sorts a series by x and drops points that cannot be drawn on a log axis (x ≤ 0). */
export function orderForAxis(points: readonly XyPoint[], axis: Axis): XyPoint[] {
  return points.filter((p) => Number.isFinite(p.x) && (axis.scale !== "log" || p.x > 0));
}

/** The figure written beside a series' only point, and which side of it keeps the text inside the plot. */
export interface PointLabel {
  text: string;
  /** "start": the text runs right of the point; "end": left of it. */
  anchor: "start" | "end";
  /** Below the point (it is near the top of the plot), else above. */
  below: boolean;
}

/** Where a value sits between lo and hi, 0…1 (½ when they are equal), on the axis' scale. */
function along(value: number, lo: number, hi: number, log: boolean): number {
  const f = (v: number) => (log ? Math.log(Math.max(v, Number.MIN_VALUE)) : v);
  return hi > lo ? (f(value) - f(lo)) / (f(hi) - f(lo)) : 0.5;
}

/**
 * A candidate measured at one level only (one serving concurrency) is a lone dot, not a line
 * (issue 25 item 4): it carries its figure ("412 ms") so a reader need not hover. The text runs
 * towards the plot's middle, so it stays inside the plot, away from the tick labels.
 */
export function pointLabels(model: XyChartModel): Map<string, PointLabel> {
  const drawn = model.series.map((s) => ({
    key: s.key,
    points: orderForAxis(s.points, model.x).filter((p): p is XyPoint & { y: number } => p.y !== null),
  }));
  const xs = drawn.flatMap((s) => s.points.map((p) => p.x)).concat(model.x.ticks ?? []);
  const ys = drawn
    .flatMap((s) => s.points.map((p) => p.y))
    .concat(model.references.filter((r) => r.axis === "y").map((r) => r.value));
  const [xLo, xHi] = model.x.domain ?? [Math.min(...xs), Math.max(...xs)];
  const [yLo, yHi] = model.y.domain ?? [Math.min(...ys), Math.max(...ys)];
  const labels = new Map<string, PointLabel>();
  for (const s of drawn) {
    if (s.points.length !== 1) continue;
    const p = s.points[0]!;
    labels.set(s.key, {
      text: `${formatNumber(p.y, model.y.digits ?? 3)}${model.y.unit ? ` ${model.y.unit}` : ""}`,
      anchor: along(p.x, xLo, xHi, model.x.scale === "log") > 0.6 ? "end" : "start",
      below: along(p.y, yLo, yHi, false) > 0.8,
    });
  }
  return labels;
}
