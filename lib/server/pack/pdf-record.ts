import "server-only";
import { formatUtc } from "@/lib/format";
import { MEANING_WORD } from "@/lib/pack/verdict-summary";
import type { StageKey } from "@/lib/pack/stages";
import type { PdfContext } from "./pdf-stages";
import { sourceRefs, type SourceUse } from "./record";

/**
 * The record's own sections of the PDF (issue 25): the sources each stage's table cites, the
 * "Provenance" section (one row per source file or harness run: name, SHA-256, importer, time,
 * tool) and the "Review" section (every comment with its author, time, stage and resolution,
 * every signature with what it means). A committee member answers "where did this AP come
 * from, and when?" from these alone.
 */
const STAGE_OF: Record<StageKey, SourceUse["stage"]> = {
  leaderboard: 1,
  preference: 2,
  "task-accuracy": 3,
  "class-balance": 3,
  operational: 5,
};

/** One line under a stage: each candidate's sources, by the refs of the Provenance section. */
export function stageSources({ w, pack }: PdfContext, key: StageKey): void {
  const stage = STAGE_OF[key];
  const parts = pack.evidence.candidates
    .map((c) => ({ name: c.name, refs: sourceRefs(pack.provenance, stage, c.id) }))
    .filter((p) => p.refs !== "—")
    .map((p) => `${p.name}: ${p.refs}`);
  if (stage === 3) {
    const dataset = sourceRefs(pack.provenance, "dataset", null);
    if (dataset !== "—") parts.unshift(`dataset: ${dataset}`);
  }
  if (parts.length) w.text(`Sources (see Provenance): ${parts.join(" · ")}.`, { size: 8, gap: 6 });
}

function sourceFacts(s: PdfContext["pack"]["provenance"]["sources"][number]): string {
  if (s.harness)
    return `Verdict called the endpoint itself: ${s.harness.endpoint}; concurrency ${s.harness.concurrency}; protocol SHA-256 ${s.harness.protocolSha256}`;
  const lines = [
    `${s.format ?? "unknown format"}${s.producerVersion ? ` ${s.producerVersion}` : ""}, ${s.sizeBytes ?? 0} bytes`,
  ];
  if (s.tool)
    lines.push(
      `tool ${s.tool.tool}${s.tool.toolVersion ? ` ${s.tool.toolVersion}` : ""}; model as the tool named it: ${s.tool.model ?? "not stated"}${s.tool.task ? `; task ${s.tool.task}` : ""}${s.tool.scoreBasis ? `; scores: ${s.tool.scoreBasis}` : ""}`,
    );
  return lines.join("\n");
}

/** One row per source file or harness run, with what it holds. */
export function provenanceSection({ w, pack, name }: PdfContext): void {
  w.heading("Provenance", 13);
  const p = pack.provenance;
  w.text(
    `Every figure's evidence and where it came from. Each stage's tables cite these refs. Leaderboard ages are counted from when this decision was opened (${formatUtc(p.decisionOpenedAt, "day")}).`,
    { gap: 6 },
  );
  if (p.sources.length === 0) {
    w.text("No evidence imported.");
    return;
  }
  const use = (u: SourceUse) =>
    `${u.stage === "dataset" ? "dataset" : `stage ${u.stage}`}${u.candidateId ? ` ${name(u.candidateId)}` : ""}: ${u.what}${u.asOf ? ` (${u.asOf})` : ""}`;
  w.table(
    ["Ref", "Source file / run", "Imported by, at (UTC)", "Format, tool", "Evidence it holds"],
    p.sources.map((s) => [
      s.ref,
      s.name,
      s.importedBy ? `${s.importedBy}\n${formatUtc(s.importedAt!, "minute", false)}` : "—",
      sourceFacts(s),
      s.uses.map(use).join("\n"),
    ]),
    [24, 100, 80, 130, w.width - 334],
  );
  // Each hash whole on one line (never wrapped inside), so it can be compared or searched as printed.
  w.text("SHA-256 of each source file", { bold: true, gap: 2 });
  for (const s of p.sources) if (s.sha256) w.text(`${s.ref}  ${s.sha256}  ${s.name}`, { size: 7.5, gap: 1 });
}

/** Every comment thread with its resolution, then every signature with what it means. */
export function reviewSection({ w, pack, name }: PdfContext): void {
  w.heading("Review", 13);
  const { comments, signatures } = pack.review;
  if (comments.length === 0) w.text("No review comments.", { gap: 6 });
  else
    w.table(
      ["Comment (author, UTC, revision)", "On", "Comment", "Resolution"],
      comments.map((c) => [
        `${c.author}\n${formatUtc(c.createdAt, "minute", false)}${c.revision === null ? "" : `\nrevision ${c.revision}`}`,
        c.stageLabel,
        [c.body, ...c.replies.map((r) => `↳ ${r.author}, ${formatUtc(r.createdAt, "minute", false)}: ${r.body}`)].join(
          "\n",
        ),
        c.resolution,
      ]),
      [90, 70, 170, w.width - 330],
    );
  if (signatures.length === 0) {
    w.text("No signatures.");
    return;
  }
  w.table(
    ["Signer", "Meaning", "What the signature means", "Candidate, reason", "Signed (UTC), revision"],
    signatures.map((s) => [
      s.signerEmail ? `${s.printedName}\n${s.signerEmail}` : s.printedName,
      MEANING_WORD[s.meaning],
      s.meaningText,
      `${s.candidateId ? name(s.candidateId) : "—"}: ${s.reason}${s.waiver ? `\nWaiver: ${s.waiver}` : ""}`,
      `${formatUtc(s.signedAt, "second", false)}\nrevision ${s.revision}`,
    ]),
    [80, 48, 150, 120, w.width - 398],
  );
}
