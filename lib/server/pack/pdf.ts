import "server-only";
import { PDFDocument, StandardFonts, degrees, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { candidateStyles } from "@/lib/charts/palette";
import { prCurvesChart, reliabilityChart, servingLatencyChart, throughputChart } from "@/lib/charts/evidence-charts";
import { stressCostChart, stressPrChart, stressPrecisionVsPrevalenceChart, type StressCandidate } from "@/lib/charts/stress-charts";
import { axisTitle, orderForAxis, type XyChartModel } from "@/lib/charts/xy";
import { STAGES } from "@/lib/evidence/stages";
import { checkSlos, costPer1kRequests, rowAtSloConcurrency } from "@/lib/evidence/serving";
import { formatInterval, formatMoney, formatNumber, formatPercent } from "@/lib/format";
import type { PackExport } from "./export-pack";

/**
 * The evidence pack as a PDF for the meeting: every stage, its charts drawn as vector paths from
 * the same chart models the page renders, the gate table, the funnel, the signatures so far, the
 * pack revision's hash and the export time. The standard PDF fonts encode WinAnsi only, so a few
 * symbols are spelled out (π → pi, ≥ → >=, ✓ → PASS).
 */
const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const SYMBOLS: Record<string, string> = { "π": "pi", "≥": ">=", "≤": "<=", "✓": "PASS", "✗": "FAIL", "Δ": "delta ", "τ": "tau", "★": "*", "→": "->", "∞": "inf", "−": "-", "₀": "0", "₁": "1", "₂": "2" };

export function pdfSafe(text: string): string {
  return [...text].map((ch) => SYMBOLS[ch] ?? (/^[\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u00b7]$/.test(ch) ? ch : "?")).join("");
}

function hex(colour: string) {
  const n = parseInt(colour.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

class Writer {
  page!: PDFPage;
  y = 0;
  constructor(private doc: PDFDocument, private font: PDFFont, private bold: PDFFont, private footer: string) {
    this.newPage();
  }
  get width() {
    return A4[0] - 2 * MARGIN;
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
    this.page.drawText(pdfSafe(this.footer), { x: MARGIN, y: 24, size: 7, font: this.font, color: rgb(0.4, 0.4, 0.4) });
  }
  need(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }
  wrap(text: string, size: number, font: PDFFont, width: number): string[] {
    const lines: string[] = [];
    for (const para of pdfSafe(text).split("\n")) {
      let line = "";
      for (const word of para.split(" ")) {
        const next = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(next, size) > width && line) {
          lines.push(line);
          line = word;
        } else line = next;
      }
      lines.push(line);
    }
    return lines;
  }
  text(text: string, options: { size?: number; bold?: boolean; gap?: number; colour?: string; indent?: number } = {}) {
    const size = options.size ?? 9;
    const font = options.bold ? this.bold : this.font;
    for (const line of this.wrap(text, size, font, this.width - (options.indent ?? 0))) {
      this.need(size + 3);
      this.page.drawText(line, { x: MARGIN + (options.indent ?? 0), y: this.y - size, size, font, color: options.colour ? hex(options.colour) : rgb(0, 0, 0) });
      this.y -= size + 3;
    }
    this.y -= options.gap ?? 2;
  }
  heading(text: string, size = 13) {
    this.need(size + 40);
    this.y -= 6;
    this.text(text, { size, bold: true, gap: 4 });
  }
  table(header: string[], rows: string[][], widths?: number[]) {
    const size = 7.5;
    const w = widths ?? header.map(() => this.width / header.length);
    const drawRow = (cells: string[], bold: boolean) => {
      const wrapped = cells.map((c, i) => this.wrap(c, size, bold ? this.bold : this.font, w[i]! - 4));
      const height = Math.max(...wrapped.map((l) => l.length)) * (size + 2) + 4;
      this.need(height);
      let x = MARGIN;
      wrapped.forEach((lines, i) => {
        lines.forEach((line, j) => this.page.drawText(line, { x: x + 2, y: this.y - (j + 1) * (size + 2), size, font: bold ? this.bold : this.font }));
        x += w[i]!;
      });
      this.y -= height;
      this.page.drawLine({ start: { x: MARGIN, y: this.y + 1 }, end: { x: MARGIN + this.width, y: this.y + 1 }, thickness: 0.3, color: rgb(0.7, 0.7, 0.7) });
    };
    drawRow(header, true);
    for (const r of rows) drawRow(r, false);
    this.y -= 6;
  }
  chart(model: XyChartModel) {
    const height = 210;
    const plot = { x: MARGIN + 50, w: this.width - 70, h: 140 };
    this.need(height + 20);
    this.text(model.title, { bold: true, size: 9 });
    const top = this.y - 4;
    const y0 = top - plot.h;
    const all = model.series.flatMap((s) => orderForAxis(s.points, model.x));
    const ys = all.map((p) => p.y).filter((v): v is number => v !== null).concat(model.references.filter((r) => r.axis === "y").map((r) => r.value));
    const xs = all.map((p) => p.x);
    const log = model.x.scale === "log";
    // A chart with nothing measured (e.g. no TPOT in any serving file, and no SLO line) still gets
    // finite axes — Math.max() of nothing is -Infinity, which made every tick NaN — and says so.
    const [xMin, xMax] = model.x.domain ?? (xs.length ? [Math.min(...xs), Math.max(...xs)] : log ? [1, 10] : [0, 1]);
    const [yMin, yMax] = model.y.domain ?? (ys.length ? [Math.min(0, ...ys), Math.max(...ys) * 1.05 || 1] : [0, 1]);
    const tx = (x: number) => plot.x + (log ? (Math.log(x) - Math.log(xMin)) / (Math.log(xMax) - Math.log(xMin) || 1) : (x - xMin) / (xMax - xMin || 1)) * plot.w;
    const ty = (y: number) => y0 + ((y - yMin) / (yMax - yMin || 1)) * plot.h;
    const inside = (x: number, y: number) => x >= plot.x - 0.5 && x <= plot.x + plot.w + 0.5 && y >= y0 - 0.5 && y <= top + 0.5;
    const p = this.page;
    p.drawRectangle({ x: plot.x, y: y0, width: plot.w, height: plot.h, borderColor: rgb(0.5, 0.5, 0.5), borderWidth: 0.5 });
    if (!all.some((pt) => pt.y !== null)) p.drawText("No values measured for this chart.", { x: plot.x + 8, y: top - 14, size: 8, font: this.font, color: rgb(0.4, 0.4, 0.4) });
    const ticks = (min: number, max: number, isLog: boolean, given?: number[]) => given ?? [0, 0.25, 0.5, 0.75, 1].map((f) => (isLog ? Math.exp(Math.log(min) + f * (Math.log(max) - Math.log(min))) : min + f * (max - min)));
    for (const v of ticks(xMin, xMax, log, model.x.ticks)) {
      const label = formatNumber(v, v >= 100 ? 0 : model.x.digits ?? 2);
      p.drawText(label, { x: tx(v) - this.font.widthOfTextAtSize(label, 6.5) / 2, y: y0 - 9, size: 6.5, font: this.font });
    }
    for (const v of ys.length ? ticks(yMin, yMax, false) : []) {
      const label = formatNumber(v, Math.abs(v) >= 100 ? 0 : Math.min(model.y.digits ?? 2, 2));
      p.drawText(label, { x: plot.x - 4 - this.font.widthOfTextAtSize(label, 6.5), y: ty(v) - 2, size: 6.5, font: this.font });
      p.drawLine({ start: { x: plot.x, y: ty(v) }, end: { x: plot.x + plot.w, y: ty(v) }, thickness: 0.2, color: rgb(0.85, 0.85, 0.85) });
    }
    p.drawText(pdfSafe(axisTitle(model.x)), { x: plot.x, y: y0 - 19, size: 7, font: this.font });
    p.drawText(pdfSafe(axisTitle(model.y)), { x: MARGIN + 8, y: y0, size: 7, font: this.font, rotate: degrees(90) });
    if (model.diagonal) p.drawLine({ start: { x: tx(0), y: ty(0) }, end: { x: tx(1), y: ty(1) }, thickness: 0.5, dashArray: [3, 3], color: rgb(0, 0, 0) });
    for (const r of model.references) {
      const a = r.axis === "x" ? { x: tx(r.value), y: y0 } : { x: plot.x, y: ty(r.value) };
      const b = r.axis === "x" ? { x: tx(r.value), y: top } : { x: plot.x + plot.w, y: ty(r.value) };
      if (!inside(a.x, a.y) || !inside(b.x, b.y)) continue;
      p.drawLine({ start: a, end: b, thickness: 0.7, dashArray: [4, 2], color: rgb(0, 0, 0) });
      p.drawText(pdfSafe(r.label), { x: b.x - 60, y: b.y + 2, size: 6, font: this.font });
    }
    for (const s of model.series) {
      const colour = hex(s.colour);
      let prev: { x: number; y: number } | null = null;
      for (const pt of orderForAxis(s.points, model.x)) {
        if (pt.y === null) {
          prev = null; // a gap, not a zero
          continue;
        }
        const cur = { x: tx(pt.x), y: ty(pt.y) };
        if (prev && inside(prev.x, prev.y) && inside(cur.x, cur.y)) p.drawLine({ start: prev, end: cur, thickness: 1.2, color: colour, dashArray: s.dashed ? [4, 2] : undefined });
        prev = cur;
      }
      if (s.marker && s.marker.y !== null && (!log || s.marker.x > 0)) {
        const m = { x: tx(s.marker.x), y: ty(s.marker.y) };
        if (inside(m.x, m.y)) p.drawCircle({ x: m.x, y: m.y, size: 3.2, color: colour, borderColor: rgb(0, 0, 0), borderWidth: 0.8 });
      }
    }
    // Legend: one swatch per candidate, the page's colours.
    let lx = plot.x;
    const ly = y0 - 32;
    for (const s of model.series) {
      p.drawRectangle({ x: lx, y: ly, width: 8, height: 8, color: hex(s.colour) });
      p.drawText(pdfSafe(s.name), { x: lx + 11, y: ly + 1, size: 7, font: this.font });
      lx += 16 + this.font.widthOfTextAtSize(pdfSafe(s.name), 7);
    }
    this.y = ly - 10;
  }
}

export async function renderPackPdf(pack: PackExport): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const data = pack.evidence;
  const d = data.decision;
  doc.setTitle(pdfSafe(`Evidence pack: ${d.title}`));
  doc.setCreator("Verdict");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const rev = pack.packRevision ? `pack revision ${pack.packRevision.number}, SHA-256 ${pack.packRevision.sha256}` : "no pack revision frozen yet";
  const w = new Writer(doc, font, bold, `Verdict evidence pack - ${d.title} - exported ${pack.exportedAt} - ${rev}`);
  const name = (id: string) => data.candidates.find((c) => c.id === id)?.name ?? id;
  const styles = candidateStyles(data.candidates.map((c) => c.id));
  const pct = formatPercent(d.prevalence);

  w.text("Evidence pack", { size: 10, colour: "#555555" });
  w.text(d.title, { size: 18, bold: true, gap: 6 });
  if (d.description) w.text(d.description);
  w.text(`Status: ${d.status}. Exported ${pack.exportedAt} by ${pack.exportedBy.name}.`);
  w.text(`Pack revision: ${pack.packRevision ? `#${pack.packRevision.number}, SHA-256 ${pack.packRevision.sha256}` : "none frozen yet (the decision has not been submitted for review)"}.`);
  w.text(`Content SHA-256 of this export's evidence and results: ${pack.contentSha256}`);
  w.heading("Task parameters");
  w.table(["Parameter", "Value"], [
    ["Positive class", d.positiveClass],
    ["Deployment prevalence π", pct],
    ["Costs", `C_FN = ${d.costFn} ${d.currency}, C_FP = ${d.costFp} ${d.currency}`],
    ["Recall floor at π", String(d.recallFloor)],
    ["Precision floor at π", d.precisionFloor === null ? "none" : String(d.precisionFloor)],
    ["Operating threshold", String(d.operatingThreshold)],
    ["SLOs", `p95 E2E ≤ ${d.sloP95E2eMs ?? "—"} ms; p95 TTFT ≤ ${d.sloP95TtftMs ?? "—"} ms; ≥ ${d.sloMinThroughputRps ?? "—"} req/s at concurrency ${d.sloThroughputConcurrency ?? "—"}; ≤ ${formatMoney(d.sloMaxCostPer1kRequests, d.currency)} per 1,000 requests`],
    ["Quorum", String(d.quorum)],
  ], [140, w.width - 140]);
  w.heading("Candidates and their shortlist rationale");
  for (const c of data.candidates) w.text(`${c.name} (${c.provider}${c.version ? `, ${c.version}` : ""}): ${c.shortlistRationale || "no rationale written"}`, { gap: 4 });

  for (const stage of STAGES) {
    w.newPage();
    w.heading(`Stage ${stage.number} · ${stage.name}`, 15);
    w.text(`Question answered: ${stage.question}`);
    w.text(`Evidence class: ${stage.evidenceClass}. Owns the verdict? ${stage.ownsVerdict}.`, { gap: 8 });
    if (stage.key === "leaderboard" || stage.key === "preference") {
      w.text("SHORTLISTING ONLY: this stage can justify a shortlist, never the verdict.", { bold: true });
      const ofStage = data.scores.filter((s) => s.stage === (stage.key === "leaderboard" ? "LEADERBOARD" : "PREFERENCE"));
      w.table(["Candidate", "Suite / metric", "Score", "Interval", "Source, retrieved", "Relevance note"], ofStage.map((s) => [
        name(s.candidateId), `${s.suite} / ${s.metric}`, formatNumber(s.value, Math.abs(s.value) >= 100 ? 0 : 3),
        s.ciLow !== null && s.ciHigh !== null ? formatInterval([s.ciLow, s.ciHigh], Math.abs(s.value) >= 100 ? 0 : 3) : s.stderr !== null ? `± ${formatNumber(s.stderr)}` : "—",
        `${s.source}, ${s.retrievedAt.slice(0, 10)}`, s.relevanceNote,
      ]), [70, 80, 40, 60, 120, w.width - 370]);
      for (const r of data.resemblances) w.text(`${r.suite} resemblance: task ${r.task}${r.taskNote ? ` (${r.taskNote})` : ""}; distribution ${r.distribution}${r.distributionNote ? ` (${r.distributionNote})` : ""}; prompt and scoring ${r.promptScoring}${r.promptScoringNote ? ` (${r.promptScoringNote})` : ""}.`);
    }
    if (stage.key === "task-accuracy") {
      const ds = data.runs.find((r) => r.dataset)?.dataset;
      if (ds) w.text(`Dataset ${ds.name}, version ${ds.version}: ${ds.itemCount} items, ${ds.positiveCount} positives.`);
      w.table(["Candidate", "AP [95%]", "ROC-AUC [95%]", "t", "Precision", "Recall", "F1", "Brier", "Parse failures", "TP/FP/TN/FN"], data.candidates.map((c) => {
        const run = data.runs.find((r) => r.candidateId === c.id);
        const r = run?.metrics?.report;
        if (!run || !r) return [c.name, "no run", "", "", "", "", "", "", "", ""];
        const a = r.atThreshold;
        return [c.name, `${formatNumber(r.averagePrecision)} ${formatInterval(r.intervals?.averagePrecision)}`, `${formatNumber(r.rocAuc)} ${formatInterval(r.intervals?.rocAuc)}`, String(a.threshold), formatNumber(a.precision), formatNumber(a.recall), formatNumber(a.f1), formatNumber(r.brier), formatPercent(run.parseFailureCount / Math.max(1, run.itemCount)), `${a.tp}/${a.fp}/${a.tn}/${a.fn}`];
      }), [62, 70, 70, 22, 40, 36, 32, 32, 44, w.width - 408]);
      w.chart(prCurvesChart(data.candidates, data.runs, styles, "pr", 0));
      w.chart(reliabilityChart(data.candidates, data.runs, styles));
    }
    if (stage.key === "class-balance") {
      const stress: StressCandidate[] = data.candidates.map((c) => {
        const m = data.runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
        return { candidate: c, style: styles.get(c.id)!, roc: m?.curves.roc ?? null, pr: m?.curves.pr ?? null, positives: m?.positives ?? 0, negatives: m?.negatives ?? 0, threshold: m?.parameters.threshold ?? d.operatingThreshold };
      });
      const settings = { threshold: null, prevalence: d.prevalence, costFn: d.costFn, costFp: d.costFp, currency: d.currency };
      w.table(["Candidate", "Recall [95%]", `Floor ${d.recallFloor}`, "Precision at π", "Expected cost / 1,000", "Cost-optimal t"], data.candidates.map((c) => {
        const m = data.runs.find((r) => r.candidateId === c.id)?.metrics;
        if (!m) return [c.name, "no run", "", "", "", ""];
        const recall = m.report.atThreshold.recall;
        return [c.name, `${formatNumber(recall)} ${formatInterval(m.recallInterval)}`, recall !== null && recall >= d.recallFloor ? "✓ met" : "✗ missed", formatNumber(m.report.reweighted?.precision), formatMoney(m.report.reweighted?.expectedCostPer1k, d.currency, 1), m.costOptimum ? `${formatNumber(m.costOptimum.threshold, 4)} (${formatMoney(m.costOptimum.expectedCostPer1k, d.currency, 1)})` : "—"];
      }));
      w.chart(stressPrChart(stress, settings));
      w.chart(stressCostChart(stress, settings));
      w.chart(stressPrecisionVsPrevalenceChart(stress, settings));
      const slices = [...new Set(data.runs.flatMap((r) => r.metrics?.slices?.map((s) => s.slice) ?? []))].sort();
      if (slices.length) {
        w.text("Recall per slice of positives [Wilson 95%] (! = too few positives for a defensible recall)", { bold: true });
        w.table(["Slice", ...data.candidates.map((c) => c.name)], slices.map((s) => [s, ...data.candidates.map((c) => {
          const x = data.runs.find((r) => r.candidateId === c.id)?.metrics?.slices?.find((y) => y.slice === s);
          return x ? `${x.tooFewPositives ? "! " : ""}${formatNumber(x.recall)} ${formatInterval(x.interval)}` : "—";
        })]));
      }
      for (const r of data.runs) for (const warning of r.metrics?.warnings ?? []) w.text(`Warning (${name(r.candidateId)}): ${warning}`, { colour: "#8a5a00" });
    }
    if (stage.key === "operational") {
      w.table(["Candidate", "SLOs at the stated concurrency", "Cost / 1,000 requests", "Highest concurrency meeting every SLO"], data.candidates.map((c) => {
        const rows = data.serving.filter((s) => s.candidateId === c.id);
        const row = rowAtSloConcurrency(d, rows);
        const head = pack.results.sloHeadroom.find((h) => h.candidateId === c.id);
        return [c.name, row ? checkSlos(d, c, row).map((k) => `${k.pass ? "✓" : "✗"} ${k.label}`).join("; ") : "no row at the SLO concurrency", row ? formatMoney(costPer1kRequests(c, row), d.currency, 3) : "—", head?.concurrency ? String(head.concurrency) : "none"];
      }), [80, 220, 80, w.width - 380]);
      w.chart(servingLatencyChart(data.candidates, data.serving, styles, "ttftMs", "p95", d.sloP95TtftMs));
      w.chart(servingLatencyChart(data.candidates, data.serving, styles, "e2eMs", "p95", d.sloP95E2eMs));
      w.chart(servingLatencyChart(data.candidates, data.serving, styles, "tpotMs", "p95", null));
      w.chart(throughputChart(data.candidates, data.serving, styles, d.sloMinThroughputRps, d.sloThroughputConcurrency));
    }
  }

  w.newPage();
  w.heading("Across stages", 15);
  w.text("Elimination funnel", { bold: true });
  w.text("Stages 1-2 (leaderboards, Elo): shortlisting only; they eliminate no one.", { indent: 8 });
  for (const f of pack.results.funnel) w.text(f.fellAt === null ? `✓ ${f.name}: passes every gate.` : `✗ ${f.name} fell at stage ${f.fellAt}: ${f.reasons.join("; ")}.`, { indent: 8 });
  w.text("Gate table", { bold: true });
  const keys = [...new Map(pack.results.gates.flatMap((g) => g.gates.map((x) => [x.key, x.label] as const))).entries()];
  w.table(["Gate", ...data.candidates.map((c) => c.name)], keys.map(([key, label]) => [label, ...data.candidates.map((c) => {
    const g = pack.results.gates.find((x) => x.candidateId === c.id)?.gates.find((x) => x.key === key);
    return g ? `${g.pass ? "✓ pass" : "✗ fail"} ${g.detail}` : "—";
  })]));
  w.text("Total cost per 1,000 items (expected error cost at π + serving cost, one request per item)", { bold: true });
  w.table(["Candidate", "Error cost", "Serving cost", "Total"], pack.results.totalCostPer1k.map((t) => [name(t.candidateId) + (t.candidateId === pack.results.bestCandidateId ? " ★" : ""), formatMoney(t.errorCostPer1k, d.currency), formatMoney(t.servingCostPer1k, d.currency, 3), formatMoney(t.totalPer1k, d.currency)]));
  w.text("Rank comparison", { bold: true });
  w.table(["Candidate", ...pack.results.rankComparison.rankings.map((r) => `${r.label} (${r.role})`)], data.candidates.map((c) => [c.name, ...pack.results.rankComparison.rankings.map((r) => (r.ranks[c.id] ? `#${r.ranks[c.id]}` : "—"))]));
  w.text(`Kendall's τ: ${pack.results.rankComparison.kendallTau.map((t) => `${t.a} vs ${t.b} = ${formatNumber(t.tau, 2)}`).join("; ")}`);
  for (const r of pack.results.rankComparison.reversals) w.text(`Rank reversal: ${r.text}.`, { indent: 8 });
  if (pack.results.bestCandidateId && pack.results.significance.length) {
    w.text(`Paired significance: ${name(pack.results.bestCandidateId)} against each other candidate`, { bold: true });
    w.table(["Against", "ΔAP", "95% interval", "Only best right / only other right", "McNemar p"], pack.results.significance.map((s) => [name(s.candidateBId), formatNumber(s.deltaAp, 4), formatInterval(s.deltaApInterval, 4), `${s.onlyACorrect} / ${s.onlyBCorrect}`, s.mcnemarP === null ? "—" : s.mcnemarP < 1e-4 ? "< 0.0001" : formatNumber(s.mcnemarP, 4)]));
  }

  w.heading("Signatures so far", 13);
  const signatures = pack.packRevisions.flatMap((r) => r.signatures.map((s) => ({ ...s, revision: r.number, superseded: r.supersededAt !== null })));
  if (signatures.length === 0) w.text("No signatures yet.");
  else w.table(["Signer", "Meaning", "Candidate", "Reason / waiver", "Signed", "Revision hash"], signatures.map((s) => [s.printedName, s.meaning, s.candidateId ? name(s.candidateId) : "—", `${s.reason}${s.waiver ? ` (waiver: ${s.waiver})` : ""}`, s.signedAt, `#${s.revision}${s.superseded ? " (superseded)" : ""} ${s.revisionSha256.slice(0, 16)}…`]));
  w.text(`Pack revisions: ${pack.packRevisions.length ? pack.packRevisions.map((r) => `#${r.number} ${r.sha256}${r.supersededAt ? " (superseded)" : ""}`).join("; ") : "none"}.`);
  return doc.save();
}
