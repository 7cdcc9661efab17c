import "server-only";
import { PDFDocument, rgb, type PDFPage } from "pdf-lib";
import { candidateStyles } from "@/lib/charts/palette";
import { prCurvesChart, reliabilityChart, servingLatencyChart, throughputChart } from "@/lib/charts/evidence-charts";
import { stressCostChart, stressPrChart, stressPrecisionVsPrevalenceChart, type StressCandidate } from "@/lib/charts/stress-charts";
import { axisTitle, orderForAxis, type XyChartModel } from "@/lib/charts/xy";
import { STAGES } from "@/lib/evidence/stages";
import { checkSlos, costPer1kRequests, rowAtSloConcurrency } from "@/lib/evidence/serving";
import { significanceReading } from "@/lib/evidence/significance";
import { MEANING_WORD, STATUS_LABEL, verdictSummaryOf, type VerdictSummary } from "@/lib/evidence/verdict-summary";
import { formatInterval, formatMoney, formatNumber, formatPercent } from "@/lib/format";
import type { PackExport } from "./export-pack";
import { runFigures } from "@/lib/evidence/operating-figures";
import { OPERATING_RULE_LABELS } from "@/lib/decisions/operating-rule";
import { PdfFonts } from "./pdf-fonts";
import { saveSealed, sealingKey, sealStatement, type SealingKey } from "./pdf-seal";

/**
 * The evidence pack as a PDF for the meeting. Page 1 is the verdict: the decision's state, the
 * recommendation, each candidate's gate outcome, why the leaderboard leader is not the
 * recommendation, and the hashes, each labelled with what it covers. Then every stage, its
 * charts drawn as vector paths from the same chart models the page renders, the gate table, the
 * funnel, and the signatures. Every page carries "page k of n" and the pack revision's hash.
 * Text is set in embedded Unicode fonts (pdf-fonts.ts), so nothing is spelled out or replaced.
 */
const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const GREY = rgb(0.4, 0.4, 0.4);

function hex(colour: string) {
  const n = parseInt(colour.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** ISO-8601 UTC to the second, as the review page shows signatures (§11.50). */
const utcTime = (iso: string | Date) => `${new Date(iso).toISOString().slice(0, 19).replace("T", " ")} UTC`;

class Writer {
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
      this.fonts.draw(this.page, line, { x: MARGIN + indent, y: this.y - size, size, bold, color: options.colour ? hex(options.colour) : rgb(0, 0, 0) });
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
  /** A table whose cells wrap inside their column; the header row repeats on each new page. */
  table(header: string[], rows: string[][], widths?: number[]) {
    const size = 7.5;
    const w = widths ?? header.map(() => this.width / header.length);
    const layout = (cells: string[], bold: boolean) => {
      const lines = cells.map((c, i) => this.wrap(c, size, bold, w[i]! - 6));
      return { lines, bold, height: Math.max(...lines.map((l) => l.length)) * (size + 2) + 4 };
    };
    const draw = (row: ReturnType<typeof layout>) => {
      let x = MARGIN;
      row.lines.forEach((lines, i) => {
        lines.forEach((line, j) => this.fonts.draw(this.page, line, { x: x + 3, y: this.y - (j + 1) * (size + 2), size, bold: row.bold }));
        x += w[i]!;
      });
      this.y -= row.height;
      this.page.drawLine({ start: { x: MARGIN, y: this.y + 1 }, end: { x: MARGIN + this.width, y: this.y + 1 }, thickness: 0.3, color: rgb(0.7, 0.7, 0.7) });
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
  chart(model: XyChartModel) {
    const height = 210;
    const plot = { x: MARGIN + 50, w: this.width - 70, h: 140 };
    const f = this.fonts;
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
    if (!all.some((pt) => pt.y !== null)) f.draw(p, "No values measured for this chart.", { x: plot.x + 8, y: top - 14, size: 8, color: rgb(0.4, 0.4, 0.4) });
    const ticks = (min: number, max: number, isLog: boolean, given?: number[]) => given ?? [0, 0.25, 0.5, 0.75, 1].map((t) => (isLog ? Math.exp(Math.log(min) + t * (Math.log(max) - Math.log(min))) : min + t * (max - min)));
    for (const v of ticks(xMin, xMax, log, model.x.ticks)) {
      const label = formatNumber(v, v >= 100 ? 0 : model.x.digits ?? 2);
      f.draw(p, label, { x: tx(v) - f.width(label, 6.5) / 2, y: y0 - 9, size: 6.5 });
    }
    for (const v of ys.length ? ticks(yMin, yMax, false) : []) {
      const label = formatNumber(v, Math.abs(v) >= 100 ? 0 : Math.min(model.y.digits ?? 2, 2));
      f.draw(p, label, { x: plot.x - 4 - f.width(label, 6.5), y: ty(v) - 2, size: 6.5 });
      p.drawLine({ start: { x: plot.x, y: ty(v) }, end: { x: plot.x + plot.w, y: ty(v) }, thickness: 0.2, color: rgb(0.85, 0.85, 0.85) });
    }
    f.draw(p, axisTitle(model.x), { x: plot.x, y: y0 - 19, size: 7 });
    f.draw(p, axisTitle(model.y), { x: MARGIN + 8, y: y0, size: 7, rotate: 90 });
    if (model.diagonal) p.drawLine({ start: { x: tx(0), y: ty(0) }, end: { x: tx(1), y: ty(1) }, thickness: 0.5, dashArray: [3, 3], color: rgb(0, 0, 0) });
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
    // Legend: one swatch per candidate, the page's colours, wrapping within the page.
    let lx = plot.x;
    let ly = y0 - 32;
    for (const s of model.series) {
      const w = 16 + f.width(s.name, 7);
      if (lx > plot.x && lx + w > MARGIN + this.width) {
        lx = plot.x;
        ly -= 11;
      }
      p.drawRectangle({ x: lx, y: ly, width: 8, height: 8, color: hex(s.colour) });
      f.draw(p, s.name, { x: lx + 11, y: ly + 1, size: 7 });
      lx += w;
    }
    this.y = ly - 10;
  }
}

/** Every string the PDF may print from the pack: decides whether the CJK fallback font is needed. */
const printable = (pack: PackExport) => JSON.stringify(pack, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));

export function packSummary(pack: PackExport): VerdictSummary {
  return verdictSummaryOf(pack.evidence, pack.results, pack.packRevisions);
}

const STATE_COLOUR: Partial<Record<VerdictSummary["status"], string>> = { APPROVED: "#1b6e3a", REJECTED: "#a3162b", CHANGES_REQUESTED: "#8a5a00" };

/** Page 1: the verdict, its state, and the hashes with what each covers. */
function summaryPage(w: Writer, pack: PackExport, summary: VerdictSummary, seal: SealingKey) {
  const d = pack.evidence.decision;
  const money = (v: number | null) => (v === null ? "—" : formatMoney(v, d.currency));
  const current = pack.packRevision ? pack.packRevisions.find((r) => r.number === pack.packRevision!.number) : undefined;

  w.text(`Evidence pack · ${d.title}`, { size: 9, colour: "#555555", gap: 4 });
  w.text(summary.heading, { size: 22, bold: true, gap: 6, colour: STATE_COLOUR[summary.status] });
  w.text(d.title, { size: 13, bold: true, gap: 4 });
  if (d.description) w.text(d.description, { gap: 4 });

  let state: string;
  if (summary.approved) {
    state = `Approved on revision ${summary.approved.revision} by ${summary.approved.signers.join(" and ")} (quorum ${d.quorum}).`;
  } else if (summary.rejected) {
    state = `Rejected on revision ${summary.rejected.revision} by ${summary.rejected.signer}.`;
  } else if (d.status === "IN_REVIEW") {
    const approvals = new Map<string, Set<string>>();
    for (const s of current?.signatures ?? []) if (s.meaning === "APPROVAL" && s.candidateId) approvals.set(s.candidateId, (approvals.get(s.candidateId) ?? new Set()).add(s.signerId));
    const names = [...approvals].map(([id, who]) => `${pack.evidence.candidates.find((c) => c.id === id)?.name ?? id} ${who.size} of ${d.quorum}`);
    state = `In review on revision ${pack.packRevision?.number ?? "—"}: ${names.length ? `approvals ${names.join(", ")}` : "no approval yet"}; ${d.quorum} distinct approvers must approve the same candidate.`;
  } else if (d.status === "CHANGES_REQUESTED") {
    state = "Changes requested: the decision is back with the analyst; no approval is open.";
  } else {
    state = pack.packRevision ? `Draft again after revision ${pack.packRevision.number}: not in review.` : "Draft: not yet submitted for review, so no pack revision is frozen and nobody has signed.";
  }
  w.text(state, { gap: 8 });

  w.heading("Recommendation", 12);
  if (summary.recommendation) {
    w.text(`${summary.recommendation.name}: the lowest total cost per 1,000 items (${money(summary.recommendation.totalPer1k)}, expected error cost at π = ${formatPercent(d.prevalence)} plus serving cost) among the candidates that pass every gate.`, { size: 10, bold: true, gap: 4 });
  } else {
    w.text("No candidate passes every gate, so there is no recommendation: approving any candidate needs a written waiver of its failing gates.", { size: 10, bold: true, gap: 4 });
  }
  if (summary.approved && summary.approved.candidateId !== summary.recommendation?.candidateId) {
    const failed = summary.outcomes.find((o) => o.candidateId === summary.approved!.candidateId)?.failed ?? [];
    w.text(`The approved candidate, ${summary.approved.name}, is not the recommendation${failed.length ? `: it fails ${failed.map((g) => g.label).join("; ")}, waived in writing by its approvers (see the signatures)` : ""}.`, { colour: "#8a5a00" });
  }

  w.heading("Gate outcome per candidate", 12);
  for (const o of summary.outcomes) {
    const total = `total ${money(o.totalPer1k)} per 1,000 items`;
    const line = o.passes
      ? `✓ ${o.name} — passes all ${o.gateCount} gates; ${total}.`
      : `✗ ${o.name} — fails ${o.failed.length} of ${o.gateCount}: ${o.failed.map((g) => `${g.label} (${g.detail})`).join("; ")}; ${total}.`;
    w.text(line, { indent: 4, gap: 3, colour: o.passes ? "#1b6e3a" : undefined });
  }

  w.heading("Why not the leaderboard leader", 12);
  const leader = summary.leader;
  if (!leader) w.text("No leaderboard score ranks the candidates.");
  else if (leader.isRecommendation) w.text(`The leaderboard leader, ${leader.name} (${leader.ranking}), is also the recommendation.`);
  else if (leader.firstFailedGate) {
    const g = leader.firstFailedGate;
    w.text(`${leader.name} is ${leader.ranking}, but fails its first gate, ${g.label}: ${g.detail}. A leaderboard justifies a shortlist; only the task evidence, at this decision's prevalence and costs, justifies the verdict.`);
  } else {
    w.text(`${leader.name} is ${leader.ranking} and passes every gate, but ${summary.recommendation?.name ?? "another candidate"} has the lower total cost per 1,000 items.`);
  }

  w.heading("Hashes", 12);
  if (pack.packRevision) {
    w.labelled(
      `Pack revision ${pack.packRevision.number} SHA-256 — the frozen revision every signature binds to: the canonical JSON of the evidence, the task parameters and the gates as submitted for review (frozen ${utcTime(pack.packRevision.createdAt)})`,
      pack.packRevision.sha256,
    );
  } else {
    w.text("No pack revision is frozen yet: the decision has not been submitted for review, so there is no signed hash.", { gap: 5 });
  }
  w.labelled(
    "Export content SHA-256 — this export's evidence and derived results (gates, funnel, total cost, ranks, significance) in canonical JSON, computed when exporting; it equals the contentSha256 of a JSON export of the same evidence, and is not what signatures bind to",
    pack.contentSha256,
  );
  w.labelled(
    "Audit chain head at export — the newest audit event's sequence number and hash: `npx verdict audit verify --head <this>` (or the audit page) later shows whether any event up to it was deleted or rewritten",
    pack.auditChainHead?.text ?? "the audit trail was empty",
  );
  w.text(`Exported ${utcTime(pack.exportedAt)} by ${pack.exportedBy.name}. ${sealStatement(seal)}`, { size: 8, colour: "#555555" });
}

/** Each candidate's operating point (issue 14): threshold, rule, in-sample beside held-out figures. */
function operatingPointsTable(w: Writer, pack: PackExport, currency: string): void {
  const rows = pack.operatingPoints;
  w.text(`Operating points — rule: ${rows[0]?.ruleLabel ?? "fixed threshold"}${rows[0]?.rule === "FIXED" ? "" : " (chosen on one half of the items, reported on the other, pooled; held-out figures are judged)"}`, { bold: true });
  if (!rows[0] || rows[0].rule === "FIXED") return;
  const cost = (x: number | undefined) => formatMoney(x, currency, 1);
  w.table(["Candidate", "Threshold [95%]", "How chosen", "Recall in-sample / held out", "Precision at π in-sample / held out", "Cost / 1,000 in-sample / held out"], rows.map((r) => [
    r.name,
    `${formatNumber(r.threshold, 4)} ${formatInterval(r.thresholdInterval, 4)}`,
    `${r.how}${r.shortfall?.recall != null ? `; misses the recall floor by ${formatNumber(r.shortfall.recall)}` : ""}${r.shortfall?.precision != null ? `; misses the precision floor by ${formatNumber(r.shortfall.precision)}` : ""}`,
    `${formatNumber(r.inSample?.recall)} / ${formatNumber(r.heldOut?.recall)} ${formatInterval(r.heldOut?.recallInterval)}`,
    `${formatNumber(r.inSample?.precision)} / ${formatNumber(r.heldOut?.precision)}`,
    `${cost(r.inSample?.expectedCostPer1k)} / ${cost(r.heldOut?.expectedCostPer1k)}`,
  ]), [70, 62, 150, 80, 70, w.width - 432]);
}

function signatureHeading(summary: VerdictSummary, quorum: number): string {
  if (summary.approved) return `Signatures — approved: ${summary.approved.name}, quorum of ${quorum} reached on revision ${summary.approved.revision}`;
  if (summary.rejected) return `Signatures — rejected on revision ${summary.rejected.revision}`;
  if (summary.status === "IN_REVIEW") return "Signatures so far — in review, not yet approved";
  return `Signatures — ${STATUS_LABEL[summary.status].toLowerCase()}, not in review`;
}

export async function renderPackPdf(pack: PackExport): Promise<Uint8Array> {
  // First: a signing key that cannot be read fails the export before any work.
  const seal = sealingKey();
  const doc = await PDFDocument.create();
  const data = pack.evidence;
  const d = data.decision;
  doc.setTitle(`Evidence pack: ${d.title}`);
  doc.setCreator("Verdict");
  const fonts = await PdfFonts.embed(doc, printable(pack));
  const w = new Writer(doc, fonts);
  const name = (id: string) => data.candidates.find((c) => c.id === id)?.name ?? id;
  const styles = candidateStyles(data.candidates.map((c) => c.id));
  const pct = formatPercent(d.prevalence);
  const summary = packSummary(pack);

  summaryPage(w, pack, summary, seal);

  w.newPage();
  w.heading("Task parameters");
  w.table(["Parameter", "Value"], [
    ["Positive class", d.positiveClass],
    ["Deployment prevalence π", pct],
    ["Costs", `C_FN = ${d.costFn} ${d.currency}, C_FP = ${d.costFp} ${d.currency}`],
    ["Recall floor at π", String(d.recallFloor)],
    ["Precision floor at π", d.precisionFloor === null ? "none" : String(d.precisionFloor)],
    ["Operating-point rule", OPERATING_RULE_LABELS[d.operatingRule ?? "FIXED"]],
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
      const word = { MATCH: "match", PARTIAL: "partial", MISMATCH: "mismatch" } as const;
      for (const r of data.resemblances) w.text(`Does ${r.suite} resemble this task? Task: ${word[r.task]}${r.taskNote ? ` (${r.taskNote})` : ""}; distribution: ${word[r.distribution]}${r.distributionNote ? ` (${r.distributionNote})` : ""}; prompt and scoring: ${word[r.promptScoring]}${r.promptScoringNote ? ` (${r.promptScoringNote})` : ""}.`);
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
      }), [78, 66, 66, 20, 45, 34, 28, 30, 40, w.width - 407]);
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
        const f = runFigures(m); // held out under an operating-point rule
        const recall = f.report.atThreshold.recall;
        return [c.name, `${formatNumber(recall)} ${formatInterval(f.recallInterval)}`, recall !== null && recall >= d.recallFloor ? "✓ met" : "✗ missed", formatNumber(f.report.reweighted?.precision), formatMoney(f.report.reweighted?.expectedCostPer1k, d.currency, 1), m.costOptimum ? `${formatNumber(m.costOptimum.threshold, 4)} (${formatMoney(m.costOptimum.expectedCostPer1k, d.currency, 1)})` : "—"];
      }));
      operatingPointsTable(w, pack, d.currency);
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
  w.text("Stages 1–2 (leaderboards, Elo): shortlisting only; they eliminate no one.", { indent: 8 });
  for (const f of pack.results.funnel) w.text(f.fellAt === null ? `✓ ${f.name}: passes every gate.` : `✗ ${f.name} fell at stage ${f.fellAt}: ${f.reasons.join("; ")}.`, { indent: 8 });
  w.text("Gate table", { bold: true });
  const keys = [...new Map(pack.results.gates.flatMap((g) => g.gates.map((x) => [x.key, x.label] as const))).entries()];
  w.table(["Gate", ...data.candidates.map((c) => c.name)], keys.map(([key, label]) => [label, ...data.candidates.map((c) => {
    const g = pack.results.gates.find((x) => x.candidateId === c.id)?.gates.find((x) => x.key === key);
    return g ? `${g.pass ? "✓ pass" : "✗ fail"} ${g.detail}` : "—";
  })]));
  w.text("Total cost per 1,000 items (expected error cost at π + serving cost, one request per item; ★ = the recommendation)", { bold: true });
  w.table(["Candidate", "Error cost", "Serving cost", "Total"], pack.results.totalCostPer1k.map((t) => [name(t.candidateId) + (t.candidateId === summary.recommendation?.candidateId ? " ★" : ""), formatMoney(t.errorCostPer1k, d.currency), formatMoney(t.servingCostPer1k, d.currency, 3), formatMoney(t.totalPer1k, d.currency)]));
  w.text("Rank comparison", { bold: true });
  w.table(["Candidate", ...pack.results.rankComparison.rankings.map((r) => `${r.label} (${r.role})`)], data.candidates.map((c) => [c.name, ...pack.results.rankComparison.rankings.map((r) => (r.ranks[c.id] ? `#${r.ranks[c.id]}` : "—"))]));
  w.text(`Kendall's τ: ${pack.results.rankComparison.kendallTau.map((t) => `${t.a} vs ${t.b} = ${formatNumber(t.tau, 2)}`).join("; ")}`);
  for (const r of pack.results.rankComparison.reversals) w.text(`${r.kind === "leader" ? "Rank reversal" : "Orders disagree"}: ${r.text}.`, { indent: 8 });
  if (pack.results.bestCandidateId && pack.results.significance.length) {
    w.text(`Paired significance: ${name(pack.results.bestCandidateId)} against each other candidate`, { bold: true });
    const cur = data.decision.currency;
    w.table(
      ["Against", "Δ expected cost per 1,000 at π", "95% interval", "ΔAP", "95% interval", "Only best right / only other right", "McNemar p"],
      pack.results.significance.map((s) => [
        name(s.candidateBId),
        s.deltaCostPer1k == null ? "—" : formatMoney(s.deltaCostPer1k, cur),
        s.deltaCostInterval ? `[${formatMoney(s.deltaCostInterval[0], cur)}, ${formatMoney(s.deltaCostInterval[1], cur)}]` : "—",
        formatNumber(s.deltaAp, 4),
        formatInterval(s.deltaApInterval, 4),
        `${s.onlyACorrect} / ${s.onlyBCorrect}`,
        s.mcnemarP === null ? "—" : s.mcnemarP < 1e-4 ? "< 0.0001" : formatNumber(s.mcnemarP, 4),
      ]),
    );
    for (const s of pack.results.significance) w.text(significanceReading(s, name, (v) => formatMoney(v, cur)), { indent: 8 });
  }

  w.heading(signatureHeading(summary, d.quorum), 13, STATE_COLOUR[summary.status]);
  const signatures = pack.packRevisions.flatMap((r) => r.signatures.map((s) => ({ ...s, revision: r.number, superseded: r.supersededAt !== null })));
  if (signatures.length === 0) w.text(d.status === "IN_REVIEW" ? "No signatures yet." : "No signatures.");
  else {
    w.table(
      ["Signer", "Meaning", "Candidate", "Reason / waiver", "Signed (UTC)", "Pack revision and its SHA-256"],
      signatures.map((s) => [
        s.signerEmail ? `${s.printedName}\n${s.signerEmail}` : s.printedName,
        MEANING_WORD[s.meaning],
        s.candidateId ? `${name(s.candidateId)}${s.operatingThreshold !== null ? `\nat t = ${formatNumber(s.operatingThreshold, 4)} (${OPERATING_RULE_LABELS[s.operatingRule ?? "FIXED"].toLowerCase()})` : ""}` : "—",
        `${s.reason}${s.waiver ? `\nWaiver: ${s.waiver}` : ""}`,
        utcTime(s.signedAt),
        `#${s.revision}${s.superseded ? " (superseded)" : ""}\n${s.revisionSha256}`,
      ]),
      [72, 46, 72, 117, 64, w.width - 371],
    );
  }
  w.text("Pack revisions", { bold: true });
  if (pack.packRevisions.length === 0) w.text("None frozen yet.");
  else w.table(["Revision", "Frozen (UTC)", "SHA-256", "State"], pack.packRevisions.map((r) => [`#${r.number}`, utcTime(r.createdAt), r.sha256, r.supersededAt ? `superseded ${utcTime(r.supersededAt)}` : "current"]), [44, 64, w.width - 178, 70]);

  // Every page: what it belongs to, the revision hash, and "page k of n".
  const pages = doc.getPages();
  const footerRevision = pack.packRevision ? `Pack revision ${pack.packRevision.number} · SHA-256 ${pack.packRevision.sha256}` : "No pack revision frozen yet";
  pages.forEach((page, i) => {
    const counter = `page ${i + 1} of ${pages.length}`;
    const size = 7;
    const right = MARGIN + w.width;
    fonts.draw(page, counter, { x: right - fonts.width(counter, size), y: 30, size, color: GREY });
    fonts.draw(page, fit(fonts, `Verdict evidence pack · ${d.title} · ${summary.heading}`, size, w.width - fonts.width(counter, size) - 12), { x: MARGIN, y: 30, size, color: GREY });
    fonts.draw(page, fit(fonts, footerRevision, 6.5, w.width), { x: MARGIN, y: 21, size: 6.5, color: GREY });
  });
  return saveSealed(doc, seal, d.title);
}

/** The text shortened with "…" to fit `width` (footers only: the body always wraps instead). */
function fit(fonts: PdfFonts, text: string, size: number, width: number): string {
  if (fonts.width(text, size) <= width) return text;
  const chars = [...text];
  while (chars.length && fonts.width(`${chars.join("")}…`, size) > width) chars.pop();
  return `${chars.join("")}…`;
}
