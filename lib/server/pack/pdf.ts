import "server-only";
import { PDFDocument } from "pdf-lib";
import { enrolmentLine } from "@/lib/auth/enrolment";
import { candidateStyles } from "@/lib/pack/charts/palette";
import { OPERATING_RULE_LABELS } from "@/lib/decisions/operating-rule";
import { TAU_MEANING, tauTable } from "@/lib/pack/ranks";
import { significanceReading } from "@/lib/pack/significance";
import { MEANING_WORD, STATUS_LABEL, verdictSummaryOf, type VerdictSummary } from "@/lib/pack/verdict-summary";
import { formatInterval, formatMoney, formatNumber, formatPercent, formatThreshold, formatUtc } from "@/lib/format";
import type { PackExport } from "./export-model";
import { PdfFonts } from "./pdf-fonts";
import { saveSealed, sealingKey, sealStatement, type SealingKey } from "./pdf-seal";
import { parametersSection, stagePages, type PdfContext } from "./pdf-stages";
import { provenanceSection, reviewSection } from "./pdf-record";
import { fit, GREY, MARGIN, Writer } from "./pdf-writer";

/**
 * The evidence pack as a PDF for the meeting. Page 1 is the verdict: the decision's state, the
 * recommendation, each candidate's gate outcome, why the leaderboard leader is not the
 * recommendation, and the hashes, each labelled with what it covers. Then the task parameters,
 * every stage (pdf-stages.ts: one function per stage), its charts drawn as vector paths from the
 * same chart models the page renders, the gate table, the funnel, and the signatures. Every page
 * carries "page k of n" and the pack revision's hash. Text is set in embedded Unicode fonts
 * (pdf-fonts.ts), so nothing is spelled out or replaced.
 */
export async function renderPackPdf(pack: PackExport): Promise<Uint8Array> {
  // First: a signing key that cannot be read fails the export before any work.
  const seal = sealingKey();
  const doc = await PDFDocument.create();
  const data = pack.evidence;
  doc.setTitle(`Evidence pack: ${data.decision.title}`);
  doc.setCreator("Verdict");
  const w = new Writer(doc, await PdfFonts.embed(doc, printable(pack)));
  const context: PdfContext = {
    w,
    pack,
    name: (id) => data.candidates.find((c) => c.id === id)?.name ?? id,
    styles: candidateStyles(data.candidates.map((c) => c.id)),
  };
  const summary = packSummary(pack);

  summaryPage(w, pack, summary, seal);
  w.newPage();
  parametersSection(context);
  stagePages(context);
  w.newPage();
  acrossStagesSection(context, summary);
  signaturesSection(context, summary);
  w.newPage();
  provenanceSection(context);
  reviewSection(context);
  footers(doc, w, pack, summary);
  return saveSealed(doc, seal, data.decision.title);
}

/** Every string the PDF may print from the pack: decides whether the CJK fallback font is needed. */
const printable = (pack: PackExport) =>
  JSON.stringify(pack, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));

export function packSummary(pack: PackExport): VerdictSummary {
  return verdictSummaryOf(pack.evidence, pack.results, pack.packRevisions);
}

const STATE_COLOUR: Partial<Record<VerdictSummary["status"], string>> = {
  APPROVED: "#1b6e3a",
  REJECTED: "#a3162b",
  CHANGES_REQUESTED: "#8a5a00",
};

/** Page 1: the verdict, its state, and the hashes with what each covers. */
function summaryPage(w: Writer, pack: PackExport, summary: VerdictSummary, seal: SealingKey) {
  const d = pack.evidence.decision;
  const money = (v: number | null) => (v === null ? "—" : formatMoney(v, d.currency));

  w.text(`Evidence pack · ${d.title}`, { size: 9, colour: "#555555", gap: 4 });
  w.text(summary.heading, { size: 22, bold: true, gap: 6, colour: STATE_COLOUR[summary.status] });
  w.text(d.title, { size: 13, bold: true, gap: 4 });
  if (d.description) w.text(d.description, { gap: 4 });

  w.text(stateLine(pack, summary), { gap: 8 });

  w.heading("Recommendation", 12);
  if (summary.recommendation) {
    w.text(
      `${summary.recommendation.name}: the lowest total cost per 1,000 items (${money(summary.recommendation.totalPer1k)}, expected error cost at π = ${formatPercent(d.prevalence)} plus serving cost) among the candidates that pass every gate.`,
      { size: 10, bold: true, gap: 4 },
    );
  } else {
    w.text(
      "No candidate passes every gate, so there is no recommendation: approving any candidate needs a written waiver of its failing gates.",
      { size: 10, bold: true, gap: 4 },
    );
  }
  if (summary.approved && summary.approved.candidateId !== summary.recommendation?.candidateId) {
    const failed = summary.outcomes.find((o) => o.candidateId === summary.approved!.candidateId)?.failed ?? [];
    w.text(
      `The approved candidate, ${summary.approved.name}, is not the recommendation${failed.length ? `: it fails ${failed.map((g) => g.label).join("; ")}, waived in writing by its approvers (see the signatures)` : ""}.`,
      { colour: "#8a5a00" },
    );
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
  else if (leader.isRecommendation)
    w.text(`The leaderboard leader, ${leader.name} (${leader.ranking}), is also the recommendation.`);
  else if (leader.firstFailedGate) {
    const g = leader.firstFailedGate;
    w.text(
      `${leader.name} is ${leader.ranking}, but fails its first gate, ${g.label}: ${g.detail}. A leaderboard justifies a shortlist; only the task evidence, at this decision's prevalence and costs, justifies the verdict.`,
    );
  } else {
    w.text(
      `${leader.name} is ${leader.ranking} and passes every gate, but ${summary.recommendation?.name ?? "another candidate"} has the lower total cost per 1,000 items.`,
    );
  }

  hashesSection(w, pack, seal);
}

/** Where the decision stands: approved, rejected, in review with its approvals so far, or not in review. */
function stateLine(pack: PackExport, summary: VerdictSummary): string {
  const d = pack.evidence.decision;
  const current = pack.packRevision
    ? pack.packRevisions.find((r) => r.number === pack.packRevision!.number)
    : undefined;
  if (summary.approved) {
    return `Approved on revision ${summary.approved.revision} by ${summary.approved.signers.join(" and ")} (quorum ${d.quorum}).`;
  } else if (summary.rejected) {
    return `Rejected on revision ${summary.rejected.revision} by ${summary.rejected.signer}.`;
  } else if (d.status === "IN_REVIEW") {
    const approvals = new Map<string, Set<string>>();
    for (const s of current?.signatures ?? [])
      if (s.meaning === "APPROVAL" && s.candidateId)
        approvals.set(s.candidateId, (approvals.get(s.candidateId) ?? new Set()).add(s.signerId));
    const names = [...approvals].map(
      ([id, who]) => `${pack.evidence.candidates.find((c) => c.id === id)?.name ?? id} ${who.size} of ${d.quorum}`,
    );
    return `In review on revision ${pack.packRevision?.number ?? "—"}: ${names.length ? `approvals ${names.join(", ")}` : "no approval yet"}; ${d.quorum} distinct approvers must approve the same candidate.`;
  } else if (d.status === "CHANGES_REQUESTED") {
    return "Changes requested: the decision is back with the analyst; no approval is open.";
  } else {
    return pack.packRevision
      ? `Draft again after revision ${pack.packRevision.number}: not in review.`
      : "Draft: not yet submitted for review, so no pack revision is frozen and nobody has signed.";
  }
}

/** The hashes with what each covers, and who exported the pack when, under which seal. */
function hashesSection(w: Writer, pack: PackExport, seal: SealingKey) {
  w.heading("Hashes", 12);
  if (pack.packRevision) {
    w.labelled(
      `Pack revision ${pack.packRevision.number} SHA-256 — the frozen revision every signature binds to: the canonical JSON of the evidence, the task parameters and the gates as submitted for review (frozen ${formatUtc(pack.packRevision.createdAt, "second")})`,
      pack.packRevision.sha256,
    );
  } else {
    w.text(
      "No pack revision is frozen yet: the decision has not been submitted for review, so there is no signed hash.",
      { gap: 5 },
    );
  }
  w.labelled(
    "Export content SHA-256 — this export's evidence and derived results (gates, funnel, total cost, ranks, significance) in canonical JSON, computed when exporting; it equals the contentSha256 of a JSON export of the same evidence, and is not what signatures bind to",
    pack.contentSha256,
  );
  w.labelled(
    "Audit chain head at export — the newest audit event's sequence number and hash: `npx verdict audit verify --head <this>` (or the audit page) later shows whether any event up to it was deleted or rewritten",
    pack.auditChainHead?.text ?? "the audit trail was empty",
  );
  w.text(`Exported ${formatUtc(pack.exportedAt, "second")} by ${pack.exportedBy.name}. ${sealStatement(seal)}`, {
    size: 8,
    colour: "#555555",
  });
}

/** The funnel, the gate table, total cost, ranks and paired significance (SPEC §3 "Across stages"). */
function acrossStagesSection({ w, pack, name }: PdfContext, summary: VerdictSummary): void {
  const data = pack.evidence;
  const d = data.decision;
  w.heading("Across stages", 15);
  w.text("Elimination funnel", { bold: true });
  w.text("Stages 1–2 (leaderboards, Elo): shortlisting only; they eliminate no one.", { indent: 8 });
  for (const f of pack.results.funnel)
    w.text(
      f.fellAt === null
        ? `✓ ${f.name}: passes every gate.`
        : `✗ ${f.name} fell at stage ${f.fellAt}: ${f.reasons.join("; ")}.`,
      { indent: 8 },
    );
  w.text("Gate table", { bold: true });
  const keys = [...new Map(pack.results.gates.flatMap((g) => g.gates.map((x) => [x.key, x.label] as const))).entries()];
  w.table(
    ["Gate", ...data.candidates.map((c) => c.name)],
    keys.map(([key, label]) => [
      label,
      ...data.candidates.map((c) => {
        const g = pack.results.gates.find((x) => x.candidateId === c.id)?.gates.find((x) => x.key === key);
        return g ? `${g.pass ? "✓ pass" : "✗ fail"} ${g.detail}` : "—";
      }),
    ]),
  );
  w.text(
    "Total cost per 1,000 items (expected error cost at π + serving cost, one request per item; ★ = the recommendation)",
    { bold: true },
  );
  w.table(
    ["Candidate", "Error cost", "Serving cost", "Total"],
    pack.results.totalCostPer1k.map((t) => [
      name(t.candidateId) + (t.candidateId === summary.recommendation?.candidateId ? " ★" : ""),
      formatMoney(t.errorCostPer1k, d.currency),
      formatMoney(t.servingCostPer1k, d.currency, 3),
      formatMoney(t.totalPer1k, d.currency),
    ]),
  );
  w.text("Rank comparison", { bold: true });
  w.table(
    ["Candidate", ...pack.results.rankComparison.rankings.map((r) => `${r.label} (${r.role})`)],
    data.candidates.map((c) => [
      c.name,
      ...pack.results.rankComparison.rankings.map((r) => (r.ranks[c.id] ? `#${r.ranks[c.id]}` : "—")),
    ]),
  );
  kendallTauTable(w, pack);
  for (const r of pack.results.rankComparison.reversals)
    w.text(`${r.kind === "leader" ? "Rank reversal" : "Orders disagree"}: ${r.text}.`, { indent: 8 });
  if (pack.results.bestCandidateId && pack.results.significance.length) {
    w.text(`Paired significance: ${name(pack.results.bestCandidateId)} against each other candidate`, { bold: true });
    const cur = data.decision.currency;
    w.table(
      [
        "Against",
        "Δ expected cost per 1,000 at π",
        "95% interval",
        "ΔAP",
        "95% interval",
        "Only best right / only other right",
        "McNemar p",
      ],
      pack.results.significance.map((s) => [
        name(s.candidateBId),
        s.deltaCostPer1k == null ? "—" : formatMoney(s.deltaCostPer1k, cur),
        s.deltaCostInterval
          ? `[${formatMoney(s.deltaCostInterval[0], cur)}, ${formatMoney(s.deltaCostInterval[1], cur)}]`
          : "—",
        formatNumber(s.deltaAp, 4),
        formatInterval(s.deltaApInterval, 4),
        `${s.onlyACorrect} / ${s.onlyBCorrect}`,
        s.mcnemarP === null ? "—" : s.mcnemarP < 1e-4 ? "< 0.0001" : formatNumber(s.mcnemarP, 4),
      ]),
    );
    for (const s of pack.results.significance)
      w.text(
        significanceReading(s, name, (v) => formatMoney(v, cur)),
        { indent: 8 },
      );
  }
}

/** Kendall's τ as a table — pairs ordered alike, pairs swapped, τ — and what τ means in one sentence. */
function kendallTauTable(w: Writer, pack: PackExport): void {
  const rows = tauTable(pack.results.rankComparison.rankings);
  if (rows.length === 0) return;
  w.text("Kendall's τ: shortlisting rankings against the verdict's", { bold: true });
  w.table(
    ["Shortlisting ranking", "Verdict ranking", "Pairs that agree", "Pairs that disagree", "τ"],
    rows.map((r) => [r.shortlisting, r.verdict, String(r.agree), String(r.disagree), formatNumber(r.tau, 2)]),
    [120, 130, 70, 80, w.width - 400],
  );
  w.text(TAU_MEANING, { gap: 6 });
}

/** The signatures on every revision, then the revisions themselves with their hashes. */
function signaturesSection({ w, pack, name }: PdfContext, summary: VerdictSummary): void {
  const d = pack.evidence.decision;
  w.heading(signatureHeading(summary, d.quorum), 13, STATE_COLOUR[summary.status]);
  const signatures = pack.packRevisions.flatMap((r) =>
    r.signatures.map((s) => ({ ...s, revision: r.number, superseded: r.supersededAt !== null })),
  );
  if (signatures.length === 0) w.text(d.status === "IN_REVIEW" ? "No signatures yet." : "No signatures.");
  else {
    w.table(
      ["Signer", "Meaning", "Candidate", "Reason / waiver", "Signed (UTC)", "Pack revision and its SHA-256"],
      signatures.map((s) => [
        [s.printedName, s.signerEmail, enrolmentLine(s)].filter(Boolean).join("\n"),
        MEANING_WORD[s.meaning],
        s.candidateId
          ? `${name(s.candidateId)}${s.operatingThreshold !== null ? `\nat t = ${formatThreshold(s.operatingThreshold)} (${OPERATING_RULE_LABELS[s.operatingRule ?? "FIXED"].toLowerCase()})` : ""}`
          : "—",
        `${s.reason}${s.waiver ? `\nWaiver: ${s.waiver}` : ""}`,
        formatUtc(s.signedAt, "second"),
        `#${s.revision}${s.superseded ? " (superseded)" : ""}\n${s.revisionSha256}`,
      ]),
      [72, 46, 72, 117, 64, w.width - 371],
    );
  }
  w.text("Pack revisions", { bold: true });
  if (pack.packRevisions.length === 0) w.text("None frozen yet.");
  else
    w.table(
      ["Revision", "Frozen (UTC)", "SHA-256", "State"],
      pack.packRevisions.map((r) => [
        `#${r.number}`,
        formatUtc(r.createdAt, "second"),
        r.sha256,
        r.supersededAt ? `superseded ${formatUtc(r.supersededAt, "second")}` : "current",
      ]),
      [44, 64, w.width - 178, 70],
    );
}

function signatureHeading(summary: VerdictSummary, quorum: number): string {
  if (summary.approved)
    return `Signatures — approved: ${summary.approved.name}, quorum of ${quorum} reached on revision ${summary.approved.revision}`;
  if (summary.rejected) return `Signatures — rejected on revision ${summary.rejected.revision}`;
  if (summary.status === "IN_REVIEW") return "Signatures so far — in review, not yet approved";
  return `Signatures — ${STATUS_LABEL[summary.status].toLowerCase()}, not in review`;
}

/** Every page: what it belongs to, the revision hash, and "page k of n". */
function footers(doc: PDFDocument, w: Writer, pack: PackExport, summary: VerdictSummary): void {
  const fonts = w.fonts;
  const d = pack.evidence.decision;
  const pages = doc.getPages();
  const footerRevision = pack.packRevision
    ? `Pack revision ${pack.packRevision.number} · SHA-256 ${pack.packRevision.sha256}`
    : "No pack revision frozen yet";
  pages.forEach((page, i) => {
    const counter = `page ${i + 1} of ${pages.length}`;
    const size = 7;
    const right = MARGIN + w.width;
    fonts.draw(page, counter, { x: right - fonts.width(counter, size), y: 30, size, color: GREY });
    fonts.draw(
      page,
      fit(
        fonts,
        `Verdict evidence pack · ${d.title} · ${summary.heading}`,
        size,
        w.width - fonts.width(counter, size) - 12,
      ),
      { x: MARGIN, y: 30, size, color: GREY },
    );
    fonts.draw(page, fit(fonts, footerRevision, 6.5, w.width), { x: MARGIN, y: 21, size: 6.5, color: GREY });
  });
}
