import { describe, expect, it } from "vitest";
import { db } from "../db";
import { importDataset, importLeaderboard, type UploadFile } from ".";
import { makeActor, makeDecision } from "@/test/factories";

const upload = (name: string, content: string): UploadFile => ({
  name,
  stream: (async function* () {
    yield Buffer.from(content, "utf8");
  })(),
});

describe("a rejected import is audited (evidence.import_failed), without the file's content", () => {
  it("rows rejected: the refusal is audited in its own transaction; nothing else is written", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const secret = "row-with-confidential-text";
    const error = await importDataset(
      analyst,
      decisionId,
      upload("holdout.csv", `id,label,text\na,1,ok\nb,maybe,${secret}\n`),
      { datasetName: "holdout" },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION", details: { errorCount: 1 } });
    const prisma = await db();
    const events = await prisma.auditEvent.findMany({ where: { decisionId } });
    expect(events.map((e) => e.action)).toEqual(["evidence.import_failed"]);
    expect(events[0]).toMatchObject({ actorId: analyst.id, entityType: "Import" });
    expect(events[0]!.after).toMatchObject({
      kind: "DATASET",
      fileName: "holdout.csv",
      errorCount: 1,
      code: "VALIDATION",
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      sizeBytes: expect.any(Number),
    });
    const stored = JSON.stringify({ ...events[0], id: String(events[0]!.id) });
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain("maybe");
    expect(await prisma.import.count({ where: { decisionId } })).toBe(0);
    expect(await prisma.dataset.count({ where: { decisionId } })).toBe(0);
  });

  it("a file over the size limit is audited too; a refusal before the file is looked at (no permission) is not", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const tooLarge = await importLeaderboard(
      analyst,
      decisionId,
      upload("scores.csv", "model,suite,score\n" + "m,s,0.5\n".repeat(200)),
      { limits: { maxBytes: 100 } },
    ).catch((e: unknown) => e);
    expect(tooLarge).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(
      importDataset(reviewer, decisionId, upload("x.csv", "id,label\na,1\n"), { datasetName: "x" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const events = await (await db()).auditEvent.findMany({ where: { decisionId } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: "evidence.import_failed",
      after: { kind: "LEADERBOARD", fileName: "scores.csv", code: "PAYLOAD_TOO_LARGE", sha256: null },
    });
  });
});
