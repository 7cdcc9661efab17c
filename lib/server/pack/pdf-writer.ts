import "server-only";
import { rgb, type PDFDocument, type PDFPage } from "pdf-lib";
import { axisTitle, orderForAxis, type XyChartModel } from "@/lib/pack/charts/xy";
import { formatTick } from "@/lib/format";
import type { PdfFonts } from "./pdf-fonts";

/**
 * The PDF's layout primitives (pdf.ts composes the pack from them): A4 pages with a margin,
 * wrapped text, tables whose header repeats on each page, and charts drawn as vector paths from
 * the same chart models the page renders.
 */
export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 48;
export const GREY = rgb(0.4, 0.4, 0.4);

export function hex(colour: string) {
  const n = parseInt(colour.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

export class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private doc: PDFDocument,
    readonly fonts: PdfFonts,
  ) {
    this.newPage();
  }
  get width() {
    return A4[0] - 2 * MARGIN;
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  need(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }
  /**
   * Lines of at most `width` points, broken at spaces; a word wider than the column (a SHA-256,
   * an ISO timestamp, a long id) is broken where it must be — never cut, never run into the next
   * column.
   */
  wrap(text: string, size: number, bold: boolean, width: number): string[] {
    const measure = (s: string) => this.fonts.width(s, size, bold);
    const lines: string[] = [];
    for (const para of text.split("\n")) {
      let line = "";
      for (const word of para.split(" ")) {
        const next = line ? `${line} ${word}` : word;
        if (measure(next) <= width) {
          line = next;
          continue;
        }
        if (line) lines.push(line);
        let rest = [...word];
        while (rest.length > 1 && measure(rest.join("")) > width) {
          let n = 1;
          while (n < rest.length - 1 && measure(rest.slice(0, n + 1).join("")) <= width) n++;
          // Rather after a hyphen or slash ("Atlas-70B-" / "Instruct") than mid-syllable.
          const soft = Math.max(...["-", "/", "_"].map((c) => rest.slice(0, n).lastIndexOf(c)));
          if (soft > 0 && soft < n - 1) n = soft + 1;
          lines.push(rest.slice(0, n).join(""));
          rest = rest.slice(n);
        }
        line = rest.join("");
      }
      lines.push(line);
    }
    return lines;
  }
  text(text: string, options: { size?: number; bold?: boolean; gap?: number; colour?: string; indent?: number } = {}) {
    const size = options.size ?? 9;
    const bold = options.bold ?? false;
    const indent = options.indent ?? 0;
    for (const line of this.wrap(text, size, bold, this.width - indent)) {
      this.need(size + 3);
      this.fonts.draw(this.page, line, {
        x: MARGIN + indent,
        y: this.y - size,
        size,
        bold,
        color: options.colour ? hex(options.colour) : rgb(0, 0, 0),
      });
      this.y -= size + 3;
    }
    this.y -= options.gap ?? 2;
  }
  /** A label in bold followed by its value, wrapped as one paragraph (hashes in full). */
  labelled(label: string, value: string, options: { size?: number; indent?: number } = {}) {
    this.text(label, { bold: true, size: options.size, gap: 0, indent: options.indent });
    this.text(value, { size: options.size, indent: (options.indent ?? 0) + 10, gap: 5 });
  }
  heading(text: string, size = 13, colour?: string) {
    this.need(size + 40);
    this.y -= 6;
    this.text(text, { size, bold: true, gap: 4, colour });
  }
  /**
   * A table whose cells wrap inside their column; the header row repeats on each new page. Text
   * wraps, numbers never do: a column narrower than its widest number ("0.05904", "506/1741/17665/88")
   * is widened with room taken from the columns that have text to wrap (`numericWidths`), and
   * only if every column is at its numbers' width does the table's type get smaller.
   */
  table(header: string[], rows: string[][], widths?: number[]) {
    const given = widths ?? header.map(() => this.width / header.length);
    const { size, w } = this.numericWidths([header, ...rows], given);
    const layout = (cells: string[], bold: boolean) => {
      const lines = cells.map((c, i) => this.wrap(c, size, bold, w[i]! - 6));
      return { lines, bold, height: Math.max(...lines.map((l) => l.length)) * (size + 2) + 4 };
    };
    const draw = (row: ReturnType<typeof layout>) => {
      let x = MARGIN;
      row.lines.forEach((lines, i) => {
        lines.forEach((line, j) =>
          this.fonts.draw(this.page, line, { x: x + 3, y: this.y - (j + 1) * (size + 2), size, bold: row.bold }),
        );
        x += w[i]!;
      });
      this.y -= row.height;
      this.page.drawLine({
        start: { x: MARGIN, y: this.y + 1 },
        end: { x: MARGIN + this.width, y: this.y + 1 },
        thickness: 0.3,
        color: rgb(0.7, 0.7, 0.7),
      });
    };
    const head = layout(header, true);
    this.need(head.height + (size + 2) * 2 + 4);
    draw(head);
    for (const cells of rows) {
      const row = layout(cells, false);
      if (this.y - row.height < MARGIN) {
        this.newPage();
        draw(head);
      }
      draw(row);
    }
    this.y -= 6;
  }
  /**
   * Column widths (and the type size) at which no number in `cells` is wrapped inside itself, and
   * no word of the header (`cells[0]`) either ("Precision" must not read "Precisio / n").
   */
  numericWidths(cells: string[][], given: number[]): { size: number; w: number[] } {
    for (let size = 7.5; size > 5; size -= 0.5) {
      const widest = (words: string[]) => Math.max(0, ...words.map((n) => this.fonts.width(n, size, true) + 7));
      const need = given.map((_, i) =>
        Math.max(
          widest((cells[0]?.[i] ?? "").split(/\s+/)),
          widest(cells.flatMap((row) => numericWords(row[i] ?? ""))),
        ),
      );
      const w = widenForNumbers(given, need);
      if (w) return { size, w };
    }
    return { size: 5, w: given };
  }
  chart(model: XyChartModel) {
    const height = 210;
    const plot = { x: MARGIN + 50, w: this.width - 70, h: 140 };
    this.need(height + 20);
    this.text(model.title, { bold: true, size: 9 });
    const frame = chartFrame(this.page, this.fonts, model, plot, this.y - 4);
    drawAxes(frame, model);
    drawReferences(frame, model);
    drawSeries(frame, model);
    this.y = drawLegend(frame, model, MARGIN + this.width) - 10;
  }
}

/**
 * The words of a cell that are numbers — digits with their sign, decimal point, thousands comma,
 * percent, "/" between counts, "#" of a rank and the brackets and comma of an interval — which a
 * table must never break.
 */
export function numericWords(text: string): string[] {
  return text.split(/[\s]+/).filter((word) => /^[[(#<≥≤±−+-]*\d[\d.,/%:]*[\])%,;]*$/.test(word));
}

/**
 * `given` widths with each column at least its `need`, the room taken from the columns with
 * room to spare in proportion to their spare; null when the columns' needs exceed the table.
 */
function widenForNumbers(given: number[], need: number[]): number[] | null {
  const deficit = given.reduce((sum, g, i) => sum + Math.max(0, need[i]! - g), 0);
  if (deficit === 0) return given;
  // A column keeps at least its numbers' width and room for a short word of text.
  const spare = given.map((g, i) => Math.max(0, g - Math.max(need[i]!, 30)));
  const total = spare.reduce((a, b) => a + b, 0);
  if (total < deficit) return null;
  return given.map((g, i) => (need[i]! > g ? need[i]! : g - (spare[i]! / total) * deficit));
}

/** Where a chart is drawn and how its values map onto the page, shared by the parts that draw it. */
interface ChartFrame {
  p: PDFPage;
  f: PdfFonts;
  plot: { x: number; w: number; h: number };
  top: number;
  y0: number;
  log: boolean;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
  /** The measured y values and y reference lines: no y ticks without them. */
  ys: number[];
  /** Whether any series has a measured value on this axis (else the plot says so). */
  measured: boolean;
  tx: (x: number) => number;
  ty: (y: number) => number;
  inside: (x: number, y: number) => boolean;
}

function chartFrame(
  p: PDFPage,
  f: PdfFonts,
  model: XyChartModel,
  plot: { x: number; w: number; h: number },
  top: number,
): ChartFrame {
  const y0 = top - plot.h;
  const all = model.series.flatMap((s) => orderForAxis(s.points, model.x));
  const ys = all
    .map((pt) => pt.y)
    .filter((v): v is number => v !== null)
    .concat(model.references.filter((r) => r.axis === "y").map((r) => r.value));
  const xs = all.map((pt) => pt.x);
  const log = model.x.scale === "log";
  // A chart with nothing measured (e.g. no TPOT in any serving file, and no SLO line) still gets
  // finite axes — Math.max() of nothing is -Infinity, which made every tick NaN — and says so.
  const [xMin, xMax] = model.x.domain ?? (xs.length ? [Math.min(...xs), Math.max(...xs)] : log ? [1, 10] : [0, 1]);
  const [yMin, yMax] = model.y.domain ?? (ys.length ? [Math.min(0, ...ys), Math.max(...ys) * 1.05 || 1] : [0, 1]);
  const tx = (x: number) =>
    plot.x +
    (log ? (Math.log(x) - Math.log(xMin)) / (Math.log(xMax) - Math.log(xMin) || 1) : (x - xMin) / (xMax - xMin || 1)) *
      plot.w;
  const ty = (y: number) => y0 + ((y - yMin) / (yMax - yMin || 1)) * plot.h;
  const inside = (x: number, y: number) =>
    x >= plot.x - 0.5 && x <= plot.x + plot.w + 0.5 && y >= y0 - 0.5 && y <= top + 0.5;
  const measured = all.some((pt) => pt.y !== null);
  return { p, f, plot, top, y0, log, xMin, xMax, yMin, yMax, ys, measured, tx, ty, inside };
}

const ticks = (min: number, max: number, isLog: boolean, given?: number[]) =>
  given ??
  [0, 0.25, 0.5, 0.75, 1].map((t) =>
    isLog ? Math.exp(Math.log(min) + t * (Math.log(max) - Math.log(min))) : min + t * (max - min),
  );

/** The plot's frame, its ticks and grid, the axis titles and the diagonal of a calibration chart. */
function drawAxes(frame: ChartFrame, model: XyChartModel) {
  const { p, f, plot, top, y0, tx, ty, ys } = frame;
  p.drawRectangle({
    x: plot.x,
    y: y0,
    width: plot.w,
    height: plot.h,
    borderColor: rgb(0.5, 0.5, 0.5),
    borderWidth: 0.5,
  });
  if (!frame.measured)
    f.draw(p, "No values measured for this chart.", {
      x: plot.x + 8,
      y: top - 14,
      size: 8,
      color: rgb(0.4, 0.4, 0.4),
    });
  for (const v of ticks(frame.xMin, frame.xMax, frame.log, model.x.ticks)) {
    const label = formatTick(v, model.x.digits ?? 2);
    f.draw(p, label, { x: tx(v) - f.width(label, 6.5) / 2, y: y0 - 9, size: 6.5 });
  }
  for (const v of ys.length ? ticks(frame.yMin, frame.yMax, false) : []) {
    const label = formatTick(v, Math.min(model.y.digits ?? 2, 2));
    f.draw(p, label, { x: plot.x - 4 - f.width(label, 6.5), y: ty(v) - 2, size: 6.5 });
    p.drawLine({
      start: { x: plot.x, y: ty(v) },
      end: { x: plot.x + plot.w, y: ty(v) },
      thickness: 0.2,
      color: rgb(0.85, 0.85, 0.85),
    });
  }
  f.draw(p, axisTitle(model.x), { x: plot.x, y: y0 - 19, size: 7 });
  f.draw(p, axisTitle(model.y), { x: MARGIN + 8, y: y0, size: 7, rotate: 90 });
  if (model.diagonal)
    p.drawLine({
      start: { x: tx(0), y: ty(0) },
      end: { x: tx(1), y: ty(1) },
      thickness: 0.5,
      dashArray: [3, 3],
      color: rgb(0, 0, 0),
    });
}

/** The reference lines (SLOs, chosen thresholds) that fall inside the plot, each labelled beside it. */
function drawReferences(frame: ChartFrame, model: XyChartModel) {
  const { p, f, plot, top, y0, tx, ty, inside } = frame;
  for (const r of model.references) {
    const a = r.axis === "x" ? { x: tx(r.value), y: y0 } : { x: plot.x, y: ty(r.value) };
    const b = r.axis === "x" ? { x: tx(r.value), y: top } : { x: plot.x + plot.w, y: ty(r.value) };
    if (!inside(a.x, a.y) || !inside(b.x, b.y)) continue;
    p.drawLine({ start: a, end: b, thickness: 0.7, dashArray: [4, 2], color: rgb(0, 0, 0) });
    // The label sits inside the plot, beside its line.
    const lw = f.width(r.label, 6);
    const lx = r.axis === "x" && b.x + 2 + lw <= plot.x + plot.w ? b.x + 2 : b.x - lw - 2;
    f.draw(p, r.label, { x: Math.max(plot.x + 2, lx), y: r.axis === "x" ? b.y - 8 : b.y + 2, size: 6 });
  }
}

/**
 * Each series as a line broken at its gaps, with its marker (the operating point) where it has one.
 * A point with no neighbour to join — a candidate measured at one concurrency level — is drawn
 * as a dot labelled with its figure, so no candidate is in the legend only.
 */
function drawSeries(frame: ChartFrame, model: XyChartModel) {
  const { p, tx, ty, inside } = frame;
  for (const s of model.series) {
    const colour = hex(s.colour);
    const points = orderForAxis(s.points, model.x);
    points.forEach((pt, i) => {
      const alone = pt.y !== null && points[i - 1]?.y == null && points[i + 1]?.y == null;
      if (alone) drawLonePoint(frame, { x: pt.x, y: pt.y! }, colour, formatTick(pt.y!, model.y.digits ?? 2));
    });
    let prev: { x: number; y: number } | null = null;
    for (const pt of points) {
      if (pt.y === null) {
        prev = null; // a gap, not a zero
        continue;
      }
      const cur = { x: tx(pt.x), y: ty(pt.y) };
      if (prev && inside(prev.x, prev.y) && inside(cur.x, cur.y))
        p.drawLine({
          start: prev,
          end: cur,
          thickness: 1.2,
          color: colour,
          dashArray: s.dashed ? [4, 2] : undefined,
        });
      prev = cur;
    }
    if (s.marker && s.marker.y !== null && (!frame.log || s.marker.x > 0)) {
      const m = { x: tx(s.marker.x), y: ty(s.marker.y) };
      if (inside(m.x, m.y))
        p.drawCircle({ x: m.x, y: m.y, size: 3.2, color: colour, borderColor: rgb(0, 0, 0), borderWidth: 0.8 });
    }
  }
}

/** A lone measured point: a dot in the series' colour and its figure beside it. */
function drawLonePoint(frame: ChartFrame, pt: { x: number; y: number }, colour: ReturnType<typeof hex>, label: string) {
  const { p, f, plot, tx, ty, inside } = frame;
  const at = { x: tx(pt.x), y: ty(pt.y) };
  if (!inside(at.x, at.y)) return;
  p.drawCircle({ x: at.x, y: at.y, size: 2.6, color: colour });
  const lw = f.width(label, 6.5);
  const lx = at.x + 4 + lw <= plot.x + plot.w ? at.x + 4 : at.x - 4 - lw;
  f.draw(p, label, { x: lx, y: Math.min(at.y + 3, frame.top - 7), size: 6.5, color: colour });
}

/** Legend: one swatch per candidate, the page's colours, wrapping before `right`; returns its last line's y. */
function drawLegend(frame: ChartFrame, model: XyChartModel, right: number): number {
  const { p, f, plot } = frame;
  let lx = plot.x;
  let ly = frame.y0 - 32;
  for (const s of model.series) {
    const w = 16 + f.width(s.name, 7);
    if (lx > plot.x && lx + w > right) {
      lx = plot.x;
      ly -= 11;
    }
    p.drawRectangle({ x: lx, y: ly, width: 8, height: 8, color: hex(s.colour) });
    f.draw(p, s.name, { x: lx + 11, y: ly + 1, size: 7 });
    lx += w;
  }
  return ly;
}

/** The text shortened with "…" to fit `width` (footers only: the body always wraps instead). */
export function fit(fonts: PdfFonts, text: string, size: number, width: number): string {
  if (fonts.width(text, size) <= width) return text;
  const chars = [...text];
  while (chars.length && fonts.width(`${chars.join("")}…`, size) > width) chars.pop();
  return `${chars.join("")}…`;
}
