import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db";
import { createComment } from "../decisions/comments";
import { setRelevanceNote } from "../decisions/resemblances";
import { importLeaderboard } from "../imports";
import { signPack } from "../signoff/sign-pack";
import { submitForReview } from "../signoff/submit-for-review";
import { makeSignoffDecision, makeSigner, PASSWORD } from "../signoff/fixtures.test-helpers";
import { summarize } from "@/lib/metrics";
import { CITED_SUITE } from "@/test/factories";
import { exportPackJson, exportPackPdf } from "./export";
import type { PackExport } from "./export-model";

/**
 * The record a committee files (issue 25): the JSON export and the PDF name every source file
 * (name, SHA-256, importer, time; a tool run's tool, version and model), the date each leaderboard
 * source states with its age, the analyst's relevance note per suite, and the review — the
 * comment, its resolution, each signature's meaning. The frozen revision holds the record's facts.
 */
const dir = mkdtempSync(path.join(tmpdir(), "verdict-record-"));
const BOARD = "model,suite,metric,value,as_of\n{good},MMLU,acc,0.71,2024-07-19\n{slow},MMLU,acc,0.74,2024-07-19\n";
const COMMENT = "Please add a concurrency sweep before go-live.";
const REPLY = "Sweep reviewed in revision 1: the 32-way row is the SLO's level.";
const NOTE = "HELM Lite's toxicity scenarios are close to our policy, but its prevalence is 50%.";

let pack: PackExport;
let pdfText = "";
let decisionId = "";
let boardSha = "";
let toolRunImport = { fileName: "", sha256: "" };
// The names as stored: printed names are unique in the database the test files share, so a
// factory may have suffixed them.
let analystName = "";
let reviewerName = "";

beforeAll(async () => {
  const analyst = await makeSigner(["ANALYST"], "Ada Analyst");
  analystName = analyst.name;
  const made = await makeSignoffDecision(analyst, 2);
  decisionId = made.decisionId;
  const prisma = await db();
  const names = await prisma.candidate.findMany({ where: { decisionId }, select: { id: true, name: true } });
  // Engine-computed metrics, as the export and the PDF read them: 2,000 items, 60 positives.
  const labels = Array.from({ length: 2000 }, (_, i) => (i < 60 ? 1 : 0));
  const scores = labels.map((y, i) => (y ? 0.55 + ((i * 7) % 60) / 150 : ((i * 13) % 1940) / 3000));
  const options = {
    threshold: 0.5,
    prevalence: 0.02,
    costFalseNegative: 50,
    costFalsePositive: 1,
    bootstrap: 50,
    seed: 1,
  };
  const metrics = {
    ...summarize(labels, scores, options),
    input: { scoreKind: "scores", parseFailures: 0, missing: 0 },
  };
  await prisma.evalRun.updateMany({ where: { decisionId }, data: { metrics: JSON.parse(JSON.stringify(metrics)) } });
  const nameOf = (id: string) => names.find((c) => c.id === id)!.name;
  const board = BOARD.replace("{good}", nameOf(made.goodId)).replace("{slow}", nameOf(made.slowId));
  const boardFile = path.join(dir, "leaderboard_2024-07-19.csv");
  writeFileSync(boardFile, board);
  boardSha = createHash("sha256").update(board).digest("hex");
  await importLeaderboard(analyst, decisionId, { name: "leaderboard_2024-07-19.csv", path: boardFile });
  // Slow's run as the item-results importer stores a tool run: its file, tool, version, model, score basis.
  const imp = await prisma.import.create({
    data: {
      decisionId,
      kind: "PREDICTIONS",
      format: "inspect-ai-log",
      fileName: "2026-11-20T10-00-00_moderation.eval",
      sha256: "c".repeat(64),
      sizeBytes: 1234n,
      status: "SUCCEEDED",
      importedById: analyst.id,
    },
    select: { id: true, fileName: true, sha256: true },
  });
  toolRunImport = imp;
  await prisma.evalRun.updateMany({
    where: { decisionId, candidateId: made.slowId },
    data: {
      importId: imp.id,
      scoreBasis: "label-token-probability",
      toolRun: { tool: "inspect-ai", toolVersion: "0.3.90", model: "openai/slow-2026-11", task: "moderation" },
    },
  });
  await setRelevanceNote(analyst, { decisionId, suite: CITED_SUITE, relevanceNote: NOTE });
  const revision = await submitForReview(analyst, decisionId);
  const reviewer = await makeSigner(["REVIEWER"], "Rita Reviewer");
  reviewerName = reviewer.name;
  const comment = await createComment(reviewer, decisionId, { body: COMMENT, stage: 5 });
  await createComment(reviewer, decisionId, { body: REPLY, stage: null, parentId: comment.id });
  await signPack(reviewer, decisionId, {
    email: reviewer.email,
    meaning: "REVIEW",
    password: PASSWORD,
    revisionSha256: revision.sha256,
    reason: "Evidence checked.",
  });
  for (const n of ["Alma Approver", "Ben Approver"]) {
    const approver = await makeSigner(["APPROVER"], n);
    await signPack(approver, decisionId, {
      email: approver.email,
      meaning: "APPROVAL",
      password: PASSWORD,
      revisionSha256: revision.sha256,
      candidateId: made.goodId,
      reason: "Passes every gate.",
    });
  }
  pack = await exportPackJson(reviewer, decisionId);
  const file = path.join(dir, "pack.pdf");
  writeFileSync(file, (await exportPackPdf(reviewer, decisionId)).bytes);
  pdfText = execFileSync("pdftotext", ["-enc", "UTF-8", "-raw", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the record in the JSON export", () => {
  it("names every source file with its SHA-256, importer and time, and what evidence it holds", () => {
    const byName = new Map(pack.provenance.sources.map((s) => [s.name, s]));
    const board = byName.get("leaderboard_2024-07-19.csv")!;
    expect(board).toMatchObject({
      kind: "file",
      sha256: boardSha,
      importedBy: analystName,
      format: "generic-leaderboard-csv",
    });
    expect(board.uses.map((u) => u.asOf)).toEqual([
      expect.stringMatching(/^as of 2024-07, \d+ months before this decision$/),
      expect.stringMatching(/^as of 2024-07, /),
    ]);
    expect(byName.get("evidence.csv")!.uses).toEqual([
      expect.objectContaining({ stage: 3, what: expect.stringMatching(/^eval run #/) }),
    ]);
    expect(byName.get(toolRunImport.fileName)!.tool).toEqual({
      tool: "inspect-ai",
      toolVersion: "0.3.90",
      model: "openai/slow-2026-11",
      task: "moderation",
      scoreBasis: expect.stringMatching(/^label-token probability/),
    });
    // Refs in import order; a leaderboard row made by hand (no file) has no source.
    expect(pack.provenance.sources.map((s) => s.ref)).toEqual(pack.provenance.sources.map((_, i) => `S${i + 1}`));
  });

  it("keeps the source's date apart from the import date, and carries the relevance note", () => {
    const mmlu = pack.evidence.scores.filter((s) => s.suite === "MMLU");
    expect(mmlu.map((s) => s.asOf)).toEqual(["2024-07-19T00:00:00.000Z", "2024-07-19T00:00:00.000Z"]);
    expect(mmlu[0]!.retrievedAt.slice(0, 4)).not.toBe("2024");
    expect(pack.evidence.resemblances.find((r) => r.suite === CITED_SUITE)!.relevanceNote).toBe(NOTE);
  });

  it("states the review: the comment with its author, stage and resolution, each signature's meaning", () => {
    expect(pack.review.comments).toEqual([
      expect.objectContaining({
        author: reviewerName,
        stage: 5,
        revision: 1,
        body: COMMENT,
        resolution: expect.stringContaining(REPLY),
      }),
    ]);
    expect(pack.review.signatures.map((s) => [s.meaning, s.revision])).toEqual([
      ["REVIEW", 1],
      ["APPROVAL", 1],
      ["APPROVAL", 1],
    ]);
    expect(pack.review.signatures[1]!.meaningText).toMatch(/^Approved: /);
  });

  it("freezes the record's facts into the revision the signatures bind to", async () => {
    const prisma = await db();
    const revision = await prisma.packRevision.findFirstOrThrow({ where: { decisionId }, orderBy: { number: "desc" } });
    const frozen = JSON.parse(revision.canonicalJson) as {
      evidence: {
        imports: { fileName: string; sha256: string }[];
        leaderboardScores: { suite: string; asOf?: string }[];
        suiteResemblances: { suite: string; relevanceNote?: string }[];
        evalRuns: { toolRun?: { tool: string }; scoreBasis?: string }[];
      };
    };
    expect(frozen.evidence.imports).toContainEqual(
      expect.objectContaining({ fileName: "leaderboard_2024-07-19.csv", sha256: boardSha }),
    );
    expect(frozen.evidence.leaderboardScores.filter((s) => s.suite === "MMLU").map((s) => s.asOf)).toEqual([
      "2024-07-19T00:00:00.000Z",
      "2024-07-19T00:00:00.000Z",
    ]);
    // Rows whose source states no date carry no asOf key: packs frozen before it keep their bytes.
    expect(frozen.evidence.leaderboardScores.find((s) => s.suite === CITED_SUITE)).not.toHaveProperty("asOf");
    expect(frozen.evidence.suiteResemblances[0]!.relevanceNote).toBe(NOTE);
    expect(frozen.evidence.evalRuns.map((r) => r.toolRun?.tool ?? null).sort()).toEqual(["inspect-ai", null]);
    expect(pack.packRevision!.sha256).toBe(revision.sha256);
  });
});

describe("the record in the PDF", () => {
  it("prints each source file's name and whole SHA-256, the as-of dates and the relevance note", () => {
    expect(pdfText).toContain("Provenance");
    for (const s of pack.provenance.sources) {
      expect(pdfText).toContain(s.name);
      expect(pdfText).toContain(s.sha256!);
    }
    expect(pdfText).toContain(toolRunImport.sha256);
    expect(pdfText).toContain("tool inspect-ai 0.3.90; model as the tool named it: openai/slow-2026-11");
    expect(pdfText).toMatch(/as of 2024-07, \d+ months before this decision/);
    expect(pdfText).toContain("source date not stated");
    expect(pdfText).toContain(NOTE);
  });

  it("prints the review: the comment, its stage, its resolution and what each signature means", () => {
    const review = pdfText.slice(pdfText.indexOf("Review Comment (author, UTC, revision)"));
    expect(review.length).toBeLessThan(pdfText.length);
    expect(review).toContain(COMMENT);
    expect(review).toContain("stage 5 (serving)");
    expect(review).toContain(`Resolved by reply of Rita Reviewer`);
    expect(review).toContain(REPLY);
    expect(review).toContain("Approved: the signer approves deploying the named candidate");
    expect(review).toContain("Reviewed: the signer has examined this revision's evidence");
  });
});
