"use client";

import {
  CartesianGrid,
  Legend,
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
import { axisTitle, orderForAxis, type XyChartModel } from "@/lib/pack/charts/xy";
import { formatTick } from "@/lib/format";
import { ChartTable } from "./chart-table";

const fmt =
  (digits = 3) =>
  (v: number) =>
    formatTick(v, digits);

/**
 * Renders a prepared chart model (lib/pack/charts). The chart is an image with the model's
 * description as its accessible name; the same data is one click away as a table. It takes its
 * container's width, so a phone sees the whole chart, operating points included. The chart itself
 * is drawn in the browser only (the container has no width on the server, so recharts renders
 * nothing there): the server sends the prepared series and a box of the chart's height, and
 * spends no time rendering SVG for nine charts per request (issue 12).
 */
export function XyChart({ model, height = 340 }: { model: XyChartModel; height?: number }) {
  const xFormat = fmt(model.x.digits);
  const yFormat = fmt(model.y.digits);
  const log = model.x.scale === "log";
  return (
    <figure className="chart" data-chart={model.id} aria-labelledby={`${model.id}-title`}>
      <figcaption id={`${model.id}-title`} className="chart-title">
        {model.title}
      </figcaption>
      <div role="img" aria-label={model.description} className="chart-canvas">
        <ResponsiveContainer width="100%" height={height} minWidth={0}>
          <LineChart margin={{ top: 10, right: 16, bottom: 36, left: 20 }} accessibilityLayer>
            <CartesianGrid stroke="#e3e3e0" />
            <XAxis
              type="number"
              dataKey="x"
              scale={log ? "log" : "linear"}
              domain={model.x.domain ?? (log ? ["auto", "auto"] : ["auto", "auto"])}
              allowDataOverflow={false}
              tickFormatter={xFormat}
              ticks={model.x.ticks}
              label={{ value: axisTitle(model.x), position: "insideBottom", offset: -22, fill: "#333" }}
              allowDuplicatedCategory={false}
            />
            <YAxis
              type="number"
              domain={model.y.domain ?? ["auto", "auto"]}
              tickFormatter={yFormat}
              width={64}
              label={{
                value: axisTitle(model.y),
                angle: -90,
                position: "insideLeft",
                offset: -6,
                style: { textAnchor: "middle" },
                fill: "#333",
              }}
            />
            <Tooltip
              formatter={(v) => (typeof v === "number" ? yFormat(v) : String(v))}
              labelFormatter={(v) => `${model.x.label}: ${typeof v === "number" ? xFormat(v) : v}`}
            />
            {/* Legend in the decision's candidate order (recharts sorts by name by default). */}
            <Legend verticalAlign="top" itemSorter={(item) => model.series.findIndex((x) => x.name === item.value)} />
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
                label={{
                  value: r.label,
                  position: r.axis === "x" ? "top" : "insideTopRight",
                  fill: REFERENCE_COLOUR,
                  fontSize: 12,
                }}
              />
            ))}
            {model.series.map((s) => (
              <Line
                key={s.key}
                data={orderForAxis(s.points, model.x)}
                dataKey="y"
                name={s.name}
                stroke={s.colour}
                strokeWidth={2}
                strokeDasharray={s.dashed ? "5 3" : undefined}
                dot={model.series.length && s.points.length <= 12 ? { r: 3, fill: s.colour } : false}
                connectNulls={false}
                isAnimationActive={false}
                type="linear"
              />
            ))}
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
      {model.note && <p className="muted chart-note">{model.note}</p>}
      <ChartTable model={model} />
    </figure>
  );
}
