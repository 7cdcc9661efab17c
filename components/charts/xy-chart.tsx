"use client";

import {
  CartesianGrid,
  LabelList,
  Line,
  LineChart,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { REFERENCE_COLOUR } from "@/lib/pack/charts/palette";
import { axisTitle, orderForAxis, pointLabels, type PointLabel, type XyChartModel } from "@/lib/pack/charts/xy";
import { formatTick } from "@/lib/format";
import { ChartTable } from "./chart-table";

const fmt =
  (digits = 3) =>
  (v: number) =>
    formatTick(v, digits);

/** A line sample for the key: the series' colour and dash, or a reference line's. */
function KeySwatch({ colour, dash }: { colour: string; dash?: string }) {
  return (
    <svg width="22" height="10" aria-hidden="true" className="chart-key-swatch">
      <line x1="0" y1="5" x2="22" y2="5" stroke={colour} strokeWidth="2" strokeDasharray={dash} />
    </svg>
  );
}

/**
 * The chart's key, in HTML above the plot: each candidate (in the decision's order) and each
 * reference line with its label ("π = 3.0%", "SLO ≥ 20 req/s", "at concurrency 32"). Written
 * outside the SVG it wraps on a phone and can never sit on a tick, a line label or the plot.
 */
function ChartKey({ model }: { model: XyChartModel }) {
  return (
    <ul className="chart-key" aria-label={`Key: ${model.title}`}>
      {model.series.map((s) => (
        <li key={s.key}>
          <KeySwatch colour={s.colour} dash={s.dashed ? "5 3" : undefined} />
          {s.name}
        </li>
      ))}
      {model.references.map((r) => (
        <li key={`${r.axis}-${r.value}`} className="chart-key-reference">
          <KeySwatch colour={REFERENCE_COLOUR} dash="6 3" />
          {r.label}
        </li>
      ))}
    </ul>
  );
}

/** The figure written beside a series' only point (a candidate measured at one level). */
function pointLabel(label: PointLabel) {
  function PointLabelText(props: { x?: number | string; y?: number | string }) {
    const x = Number(props.x ?? 0);
    const y = Number(props.y ?? 0);
    return (
      <text
        className="chart-point-label"
        x={x + (label.anchor === "start" ? 9 : -9)}
        y={y + (label.below ? 18 : -9)}
        textAnchor={label.anchor}
        fontSize={12}
        fill="#333"
      >
        {label.text}
      </text>
    );
  }
  return PointLabelText;
}

/**
 * Renders a prepared chart model (lib/pack/charts). The chart is an image with the model's
 * description as its accessible name; the same data is one click away as a table. It takes its
 * container's width, so a phone sees the whole chart, operating points included. The chart itself
 * is drawn in the browser only (the container has no width on the server, so recharts renders
 * nothing there): the server sends the prepared series and a box of the chart's height, and
 * spends no time rendering SVG for nine charts per request (issue 12).
 * The words — the key, the axis titles — are HTML around the plot (issue 26 item 8): they wrap
 * instead of being cut ("probabilit…") and cannot overlap a tick label; inside the SVG there are
 * only the ticks and the figure beside a lone point, placed towards the plot's middle.
 */
export function XyChart({ model, height = 300 }: { model: XyChartModel; height?: number }) {
  const xFormat = fmt(model.x.digits);
  const yFormat = fmt(model.y.digits);
  const log = model.x.scale === "log";
  const labels = pointLabels(model);
  return (
    <figure className="chart" data-chart={model.id} aria-labelledby={`${model.id}-title`}>
      <figcaption id={`${model.id}-title`} className="chart-title">
        {model.title}
      </figcaption>
      <ChartKey model={model} />
      <p className="chart-axis chart-axis-y">↑ {axisTitle(model.y)}</p>
      <div role="img" aria-label={model.description} className="chart-canvas">
        <ResponsiveContainer width="100%" height={height} minWidth={0}>
          <LineChart margin={{ top: 12, right: 28, bottom: 0, left: 0 }} accessibilityLayer>
            <CartesianGrid stroke="#e3e3e0" />
            <XAxis
              type="number"
              dataKey="x"
              scale={log ? "log" : "linear"}
              domain={model.x.domain ?? ["auto", "auto"]}
              allowDataOverflow={false}
              tickFormatter={xFormat}
              ticks={model.x.ticks}
              // Room between the y axis and the first x tick: their labels never meet at the corner.
              padding={{ left: 16 }}
              interval="preserveStartEnd"
              minTickGap={8}
              allowDuplicatedCategory={false}
            />
            {/* As wide as its longest tick label ("16,000" at a what-if π): never cut at the chart's left edge. */}
            <YAxis type="number" domain={model.y.domain ?? ["auto", "auto"]} tickFormatter={yFormat} width="auto" />
            <Tooltip
              formatter={(v) => (typeof v === "number" ? yFormat(v) : String(v))}
              labelFormatter={(v) => `${model.x.label}: ${typeof v === "number" ? xFormat(v) : v}`}
            />
            {model.diagonal && (
              <ReferenceLine
                segment={[
                  { x: 0, y: 0 },
                  { x: 1, y: 1 },
                ]}
                stroke={REFERENCE_COLOUR}
                strokeDasharray="4 4"
                ifOverflow="hidden"
              />
            )}
            {model.references.map((r) => (
              <ReferenceLine
                key={`${r.axis}-${r.value}`}
                {...(r.axis === "x" ? { x: r.value } : { y: r.value })}
                stroke={REFERENCE_COLOUR}
                strokeDasharray="6 3"
              />
            ))}
            {model.series.map((s) => {
              const label = labels.get(s.key);
              return (
                <Line
                  key={s.key}
                  data={orderForAxis(s.points, model.x)}
                  dataKey="y"
                  name={s.name}
                  stroke={s.colour}
                  strokeWidth={2}
                  strokeDasharray={s.dashed ? "5 3" : undefined}
                  dot={model.series.length && s.points.length <= 12 ? { r: label ? 5 : 3, fill: s.colour } : false}
                  connectNulls={false}
                  isAnimationActive={false}
                  type="linear"
                >
                  {label && <LabelList dataKey="y" content={pointLabel(label)} />}
                </Line>
              );
            })}
            {model.series.map((s) =>
              s.marker && s.marker.y !== null && (!log || s.marker.x > 0) ? (
                <ReferenceDot
                  key={`${s.key}-marker`}
                  x={s.marker.x}
                  y={s.marker.y}
                  r={6}
                  fill={s.colour}
                  stroke="#000"
                  strokeWidth={1.5}
                  ifOverflow="extendDomain"
                />
              ) : null,
            )}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <p className="chart-axis chart-axis-x">{axisTitle(model.x)} →</p>
      {model.note && <p className="muted chart-note">{model.note}</p>}
      <ChartTable model={model} />
    </figure>
  );
}
