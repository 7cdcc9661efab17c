"use client";

import { useState } from "react";
import { formatNumber, formatThreshold } from "@/lib/format";
import { axisTitle, tableRows, type XyChartModel } from "@/lib/pack/charts/xy";

/**
 * The "show as table" alternative of a chart: the marked points first, then the series' points.
 * The table is rendered when opened (it is as large as the chart's data, which the page already
 * holds), so a closed table costs the page nothing; printing opens nothing either way.
 */
export function ChartTable({ model }: { model: XyChartModel }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="chart-table" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Show as table</summary>
      {open && <ChartTableBody model={model} />}
    </details>
  );
}

function ChartTableBody({ model }: { model: XyChartModel }) {
  const hasThresholds = model.series.some((s) => s.points.some((p) => p.threshold !== undefined));
  return (
    <>
      <table>
        <caption>{model.title}</caption>
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            <th scope="col">Point</th>
            <th scope="col" className="num">
              {axisTitle(model.x)}
            </th>
            <th scope="col" className="num">
              {axisTitle(model.y)}
            </th>
            {hasThresholds && (
              <th scope="col" className="num">
                Threshold
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {model.series.flatMap((s) => [
            ...(s.marker
              ? [
                  <tr key={`${s.key}-m`}>
                    <th scope="row">{s.name}</th>
                    <td>
                      <strong>{s.marker.label}</strong>
                    </td>
                    <td className="num">{formatNumber(s.marker.x, model.x.digits)}</td>
                    <td className="num">{formatNumber(s.marker.y, model.y.digits)}</td>
                    {hasThresholds && <td className="num">{formatThreshold(s.marker.threshold)}</td>}
                  </tr>,
                ]
              : []),
            ...tableRows(s.points).map((p, i) => (
              <tr key={`${s.key}-${i}`}>
                <th scope="row">{s.name}</th>
                <td>curve</td>
                <td className="num">{formatNumber(p.x, model.x.digits)}</td>
                <td className="num">{formatNumber(p.y, model.y.digits)}</td>
                {hasThresholds && <td className="num">{p.threshold === null ? "+∞" : formatThreshold(p.threshold)}</td>}
              </tr>
            )),
          ])}
        </tbody>
      </table>
      {model.series.some((s) => s.points.length > 25) && (
        <p className="muted">Curves are shown at up to 25 evenly spaced stored points each.</p>
      )}
      {model.references.length > 0 && (
        <p className="muted">Reference lines: {model.references.map((r) => r.label).join("; ")}.</p>
      )}
    </>
  );
}
