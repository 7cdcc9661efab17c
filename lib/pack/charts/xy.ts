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
