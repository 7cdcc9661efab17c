import { beforeAll, describe, expect, it, vi } from "vitest";
import { db, database } from "../db";
import { seedDemo } from "../seed/demo-seed";
import { exportPackJson, exportPackPdf } from "./export-pack";
import { pdfSafe, renderPackPdf } from "./pdf";
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
    expect(pack.results.funnel.find((f) => f.candidateId === atlas.id)!.fellAt).toBe(4);
    expect(pack.results.significance.length).toBe(3);
    const pdf = await exportPackPdf(reviewer, "demo-moderation");
    expect(Buffer.from(pdf.bytes.slice(0, 5)).toString("latin1")).toBe("%PDF-");
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

  it("spells out symbols the standard PDF fonts cannot encode", () => {
    expect(pdfSafe("recall ≥ 0.85 at π ✓ — ok")).toBe("recall >= 0.85 at pi PASS — ok");
  });
});
