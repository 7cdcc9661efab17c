import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { formatThreshold } from "@/lib/format";
import { summarize } from "@/lib/metrics";
import { db, database } from "../db";
import { seedDemo } from "../seed/demo-seed";
import { signPack } from "../signoff/sign-pack";
import { submitForReview } from "../signoff/submit-for-review";
import { makeSignoffDecision, makeSigner, PASSWORD } from "../signoff/fixtures.test-helpers";
import { exportPackJson, exportPackPdf } from "./export";
import { packResults } from "@/lib/pack/pack-results";
import { renderPackPdf } from "./pdf";
import { makeActor } from "@/test/factories";

describe("pack exports", () => {
  beforeAll(async () => {
    vi.stubEnv("VERDICT_DEMO", "1");
    await seedDemo(await database(), () => {});
    vi.unstubAllEnvs();
  }, 120_000);

  it("exports the demo pack as JSON (figures, gates, hashes) and PDF, each audited; admins are refused", async () => {
    const reviewer = await makeActor(["REVIEWER"]);
    const pack = await exportPackJson(reviewer, "demo-moderation");
    expect(pack.evidence.candidates).toHaveLength(4);
    expect(pack.contentSha256).toMatch(/^[0-9a-f]{64}$/);
    const atlas = pack.evidence.candidates.find((c) => c.name.startsWith("Atlas"))!;
    // Each candidate at its own cost-optimal threshold (issue 14): the leader meets the recall floor
    // there (held out), but at a higher total cost than the recommendation.
    expect(pack.results.funnel.find((f) => f.candidateId === atlas.id)!.fellAt).toBe(null);
    expect(pack.results.bestCandidateId).not.toBe(atlas.id);
    const total = (id: string | null) => pack.results.totalCostPer1k.find((t) => t.candidateId === id)!.totalPer1k!;
    expect(total(atlas.id)).toBeGreaterThan(total(pack.results.bestCandidateId));
    // The JSON carries each candidate's threshold, rule and held-out figures.
    expect(pack.operatingPoints).toHaveLength(4);
    for (const op of pack.operatingPoints) {
      expect(op).toMatchObject({
        rule: "COST_OPTIMAL",
        threshold: expect.any(Number),
        heldOut: { recall: expect.any(Number), expectedCostPer1k: expect.any(Number) },
      });
    }
    expect(pack.results.significance.length).toBe(3);
    const pdf = await exportPackPdf(reviewer, "demo-moderation");
    expect(Buffer.from(pdf.bytes.slice(0, 5)).toString("latin1")).toBe("%PDF-");
    // The PDF states each candidate's operating point: rule, threshold, in-sample and held-out figures.
    const dir = mkdtempSync(path.join(tmpdir(), "verdict-pdf-op-"));
    try {
      writeFileSync(path.join(dir, "demo.pdf"), pdf.bytes);
      const text = pdftotext(path.join(dir, "demo.pdf")).replace(/\s+/g, " ");
      expect(text).toContain("Operating points — rule: Cost-optimal within the floors");
      for (const op of pack.operatingPoints) expect(text).toContain(formatThreshold(op.threshold));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const prisma = await db();
    const events = await prisma.auditEvent.findMany({ where: { actorId: reviewer.id }, select: { action: true } });
    expect(events.map((e) => e.action).sort()).toEqual(["export.json", "export.pdf"]);
    const admin = await makeActor(["ADMIN"]);
    await expect(exportPackJson(admin, "demo-moderation")).rejects.toMatchObject({ code: "FORBIDDEN" });
  }, 120_000);

  it("renders a chart with nothing measured — no TPOT in any serving file — as an empty plot instead of failing", async () => {
    const pack = await exportPackJson(await makeActor(["REVIEWER"]), "demo-moderation");
    for (const row of pack.evidence.serving) row.tpotMs = {};
    const bytes = await renderPackPdf(pack);
    expect(Buffer.from(bytes.slice(0, 5)).toString("latin1")).toBe("%PDF-");
  });

  it("prints a throughput below 0.1 req/s as measured and a harness run's threshold to four significant digits", async () => {
    const pack = await exportPackJson(await makeActor(["REVIEWER"]), "demo-moderation");
    const best = pack.results.bestCandidateId!;
    for (const row of pack.evidence.serving) if (row.candidateId === best) row.requestThroughput = 0.03;
    const run = pack.evidence.runs.find((r) => r.candidateId === best)!;
    run.metrics!.report.atThreshold.threshold = 0.05903958599083124;
    pack.evidence.decision.sloMinThroughputRps = 0.05;
    pack.results = packResults(pack.evidence);
    const text = flat(await pdfText(await renderPackPdf(pack)));
    const name = pack.evidence.candidates.find((c) => c.id === best)!.name;
    // The gate table and the funnel: a failed gate that reads as what was measured, not as zero.
    expect(text).toContain(`${name} fell at stage 5: Throughput ≥ 0.05 req/s: measured 0.03 req/s`);
    expect(text).not.toContain("0.0 req/s");
    // Stage 3's threshold column (its layout is checked by the PDF layout test).
    expect(text.replace(/\s/g, "")).toContain("0.05904");
    expect(text).not.toContain("0.0590395");
  });

  it("prints the verdict first, page numbers, π, ≤, ★, non-Latin printed names and full hashes (text extracted by pdftotext)", async () => {
    const analyst = await makeSigner(["ANALYST"], "Ana Lyst");
    const { decisionId, goodId, slowId } = await makeSignoffDecision(analyst, 2);
    const prisma = await db();
    // Engine-computed metrics (curves included), so every chart is drawn: 2,000 items, 60 positives.
    const labels = Array.from({ length: 2000 }, (_, i) => (i < 60 ? 1 : 0));
    for (const [candidateId, shift] of [
      [goodId, 0],
      [slowId, 0.05],
    ] as const) {
      const scores = labels.map((y, i) => (y ? 0.55 + ((i * 7) % 60) / 150 - shift : ((i * 13) % 1940) / 3000 + shift));
      const metrics = summarize(labels, scores, {
        threshold: 0.5,
        prevalence: 0.02,
        costFalseNegative: 50,
        costFalsePositive: 1,
        bootstrap: 50,
        seed: 1,
      });
      await prisma.evalRun.updateMany({
        where: { decisionId, candidateId },
        data: {
          metrics: JSON.parse(
            JSON.stringify({ ...metrics, input: { scoreKind: "scores", parseFailures: 0, missing: 0 } }),
          ),
        },
      });
    }
    // Slow leads the leaderboard and fails the p95 latency SLO: the leader is not the recommendation.
    await prisma.leaderboardScore.updateMany({ where: { decisionId, candidateId: slowId }, data: { value: 0.9 } });
    const [good, slow] = await Promise.all(
      [goodId, slowId].map((id) => prisma.candidate.findUniqueOrThrow({ where: { id }, select: { name: true } })),
    );
    const revision = await submitForReview(analyst, decisionId);

    const text = async (who: Awaited<ReturnType<typeof makeActor>>) => {
      const dir = mkdtempSync(path.join(tmpdir(), "verdict-pdf-"));
      try {
        const file = path.join(dir, "pack.pdf");
        writeFileSync(file, (await exportPackPdf(who, decisionId)).bytes);
        return pdftotext(file);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    const reviewer = await makeSigner(["REVIEWER"], "Ελένη Παπαδοπούλου");
    const inReview = await text(reviewer);
    expect(flat(inReview.split("\f")[0]!)).toMatch(
      new RegExp(
        `^Evidence pack · \\S+ In review .*Recommendation ${good!.name}: the lowest total cost per 1,000 items`,
      ),
    );
    expect(flat(inReview)).toContain("Signatures so far — in review, not yet approved No signatures yet.");

    await signPack(reviewer, decisionId, {
      email: reviewer.email,
      meaning: "REVIEW",
      password: PASSWORD,
      revisionSha256: revision.sha256,
      reason: "Ανασκόπηση: the evidence holds at π = 2%.",
    });
    for (const name of ["王小明", "Zoë Ångström"]) {
      const approver = await makeSigner(["APPROVER"], name);
      await signPack(approver, decisionId, {
        email: approver.email,
        meaning: "APPROVAL",
        password: PASSWORD,
        revisionSha256: revision.sha256,
        candidateId: goodId,
        reason: "Lowest total cost; passes every gate.",
      });
    }
    const all = await text(reviewer);
    const first = flat(all.split("\f")[0]!);
    // Page 1 is the verdict: the state with the approved candidate, then the recommendation, the
    // gate outcomes, why the leaderboard leader loses, and each hash labelled.
    expect(first).toMatch(new RegExp(`^Evidence pack · \\S+ Approved: ${good!.name} .*Recommendation`));
    expect(first).toMatch(/Approved on revision 1 by (王小明 and Zoë Ångström|Zoë Ångström and 王小明)/);
    expect(first).toContain(`✓ ${good!.name} — passes all`);
    expect(first).toContain(`✗ ${slow!.name} — fails 1 of`);
    expect(first).toMatch(
      new RegExp(`${slow!.name} is #1 on HELM Lite, but fails its first gate, p95 E2E latency ≤ 800 ms`),
    );
    expect(first).toContain(`Pack revision 1 SHA-256 — the frozen revision every signature binds to`);
    expect(first).toContain(revision.sha256);
    expect(first).toContain("Export content SHA-256 — this export's evidence and derived results");
    expect(first).not.toContain("Stage 1");
    const pages = all.split("\f").filter((p) => p.trim());
    pages.forEach((p, i) => expect(p).toContain(`page ${i + 1} of ${pages.length}`));
    for (const s of ["π", "≤", "★", "王小明", "Zoë Ångström", "Ελένη Παπαδοπούλου", "Ανασκόπηση"])
      expect(flat(all)).toContain(s);
    expect(all).not.toMatch(/\bpi\b|<=|APPROVAL|Signatures so far|\uFFFD/);
    expect(flat(all)).toContain(`Signatures — approved: ${good!.name}, quorum of 2 reached on revision 1`);
    // Meanings in words.
    expect(all).toMatch(/\bApproval\b/);
    expect(all).toMatch(/\bReview\b/);
    // The signature table wraps each full hash in its column (no line is cut or overprinted).
    const signatureRows = all.slice(all.indexOf("Signatures — approved"));
    expect(signatureRows.replace(/\s+/g, "")).toContain(`#1${revision.sha256}`);
  }, 120_000);
});

/** Text with every run of white space as one space (lines wrap where the layout wants). */
const flat = (text: string) => text.replace(/\s+/g, " ").trim();

/** The text of a PDF's bytes, through pdftotext. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "verdict-pdf-text-"));
  try {
    writeFileSync(path.join(dir, "pack.pdf"), bytes);
    return pdftotext(path.join(dir, "pack.pdf"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF's text, pages split by form feeds, as Debian's poppler-utils extracts it (installed by .ci/run and scripts/test-prerequisites.sh). */
function pdftotext(file: string): string {
  try {
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new Error("pdftotext is missing: apt-get install -y poppler-utils");
    throw error;
  }
}
