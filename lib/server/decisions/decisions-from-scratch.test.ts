import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { createCandidate } from "./candidates";
import { db } from "../db";
import { createDecision, listDecisions, setDecisionArchived, updateDecisionParameters } from "./decisions";
import { AppError } from "../errors";
import { submitForReview } from "../signoff/submit-for-review";
import { makeActor, makeCompleteDecision, makeDecision, unique } from "@/test/factories";

// A decision from an empty database (integration, real PostgreSQL): create, copy, archive.

/** Every field the decision form asks for (SPEC §2), as a client would send them. */
const parameters = () => ({
  title: unique("Spam filter"),
  description: "Flag spam in the support inbox.",
  positiveClass: "spam",
  prevalence: 0.05,
  costFn: 10,
  costFp: 2,
  currency: "EUR",
  recallFloor: 0.8,
  operatingThreshold: 0.4,
  sloP95E2eMs: 900,
  quorum: 2,
});

/** The transaction id that last wrote the row: rows written in one transaction share it. */
async function writtenBy(table: "Decision" | "AuditEvent", where: string, value: string | bigint) {
  const prisma = await db();
  const rows = await prisma.$queryRawUnsafe<{ xmin: string }[]>(
    `SELECT xmin::text AS xmin FROM "${table}" WHERE ${where} = $1`,
    value,
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.xmin;
}

async function countByTitle(title: string) {
  return (await db()).decision.count({ where: { title } });
}

describe("createDecision", () => {
  it("writes the decision and its decision.create event in one transaction", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const input = parameters();
    const decision = await createDecision(analyst, input, { ip: "203.0.113.7", userAgent: "vitest" });
    expect(decision).toMatchObject({
      ...input,
      status: "DRAFT",
      archivedAt: null,
      evaluationDatasetVersionId: null,
      precisionFloor: null,
      sloP95TtftMs: null,
    });
    const prisma = await db();
    const events = await prisma.auditEvent.findMany({
      where: { decisionId: decision.id },
      select: { id: true, action: true, actorId: true, entityType: true, entityId: true, after: true, ip: true },
    });
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      action: "decision.create",
      actorId: analyst.id,
      entityType: "Decision",
      entityId: decision.id,
      ip: "203.0.113.7",
    });
    expect(event!.after).toMatchObject({ ...input, copiedFrom: null });
    // Same PostgreSQL transaction id on both rows: one commit wrote them.
    expect(await writtenBy("AuditEvent", "id", event!.id)).toBe(await writtenBy("Decision", "id", decision.id));
  });

  it("a missing or invalid field is a ZodError naming the field, and nothing is created", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const prisma = await db();
    const events = await prisma.auditEvent.count({ where: { actorId: analyst.id } });

    const { positiveClass: _p, ...missing } = parameters();
    const noClass = await createDecision(analyst, missing).catch((e: unknown) => e);
    expect(noClass).toBeInstanceOf(ZodError);
    expect((noClass as ZodError).issues.map((i) => i.path.join("."))).toEqual(["positiveClass"]);
    expect(await countByTitle(missing.title)).toBe(0);

    const badPrevalence = { ...parameters(), prevalence: 1.5 };
    const tooHigh = await createDecision(analyst, badPrevalence).catch((e: unknown) => e);
    expect(tooHigh).toBeInstanceOf(ZodError);
    expect((tooHigh as ZodError).issues).toEqual([
      expect.objectContaining({ path: ["prevalence"], message: "Prevalence π must be below 1." }),
    ]);
    expect(await countByTitle(badPrevalence.title)).toBe(0);

    const badCost = { ...parameters(), costFn: "a lot" };
    const notNumber = await createDecision(analyst, badCost as unknown as Parameters<typeof createDecision>[1]).catch(
      (e: unknown) => e,
    );
    expect((notNumber as ZodError).issues.map((i) => i.path.join("."))).toEqual(["costFn"]);
    expect(await countByTitle(badCost.title)).toBe(0);

    expect(await prisma.auditEvent.count({ where: { actorId: analyst.id } })).toBe(events);
  });

  it("copyFrom copies the task parameters, not the title or description, and never candidates or evidence", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const prisma = await db();
    const { decisionId: sourceId } = await makeCompleteDecision(analyst, { quorum: 3 });
    await prisma.decision.update({
      where: { id: sourceId },
      data: { prevalence: 0.07, costFn: 80, precisionFloor: 0.4, sloP95TtftMs: 250, operatingThreshold: 0.35 },
    });
    const source = await prisma.decision.findUniqueOrThrow({ where: { id: sourceId } });

    const title = unique("Copy");
    const copy = await createDecision(analyst, { title, copyFrom: sourceId, costFp: 3 });
    const row = await prisma.decision.findUniqueOrThrow({ where: { id: copy.id } });
    const copied = [
      "positiveClass",
      "prevalence",
      "costFn",
      "currency",
      "recallFloor",
      "precisionFloor",
      "operatingThreshold",
      "sloP95E2eMs",
      "sloP95TtftMs",
      "sloMinThroughputRps",
      "sloThroughputConcurrency",
      "sloMaxCostPer1kRequests",
      "quorum",
    ] as const;
    for (const k of copied) expect(row[k], k).toEqual(source[k]);
    // A given field wins over the source's; the name and description are the copy's own.
    expect(row.costFp).toBe(3);
    expect(row.title).toBe(title);
    expect(row.description).toBe("");
    expect(row).toMatchObject({
      status: "DRAFT",
      archivedAt: null,
      evaluationDatasetVersionId: null,
      createdById: analyst.id,
    });
    const counts = await Promise.all([
      prisma.candidate.count({ where: { decisionId: copy.id } }),
      prisma.leaderboardScore.count({ where: { decisionId: copy.id } }),
      prisma.suiteResemblance.count({ where: { decisionId: copy.id } }),
      prisma.dataset.count({ where: { decisionId: copy.id } }),
      prisma.import.count({ where: { decisionId: copy.id } }),
    ]);
    expect(counts).toEqual([0, 0, 0, 0, 0]);
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { decisionId: copy.id, action: "decision.create" },
      select: { after: true },
    });
    expect(event.after).toMatchObject({ copiedFrom: sourceId, prevalence: 0.07, costFp: 3 });
    // The source is untouched.
    expect(await prisma.candidate.count({ where: { decisionId: sourceId } })).toBe(2);
  });

  it("a copyFrom naming no decision is a VALIDATION AppError on copyFrom, and nothing is created", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const title = unique("Orphan copy");
    const error = await createDecision(analyst, { title, copyFrom: "no-such-decision" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "VALIDATION", details: { issues: [{ field: "copyFrom" }] } });
    expect(await countByTitle(title)).toBe(0);
  });

  it("a reviewer, an approver or an admin cannot create a decision", async () => {
    for (const role of ["REVIEWER", "APPROVER", "ADMIN"] as const) {
      const actor = await makeActor([role]);
      const input = parameters();
      await expect(createDecision(actor, input)).rejects.toMatchObject({ code: "FORBIDDEN" });
      expect(await countByTitle(input.title)).toBe(0);
    }
  });
});

describe("archiving", () => {
  const ids = async (...args: Parameters<typeof listDecisions>) => (await listDecisions(...args)).map((d) => d.id);

  it("hides an archived decision from the default list, shows it under ARCHIVED, refuses changes, and restores it; each step audited", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const reviewer = await makeActor(["REVIEWER"]);
    const { id } = await makeDecision(analyst);
    expect(await ids(reviewer)).toContain(id);

    const archived = await setDecisionArchived(analyst, id, true);
    expect(archived.archivedAt).toBeInstanceOf(Date);
    expect(await ids(reviewer)).not.toContain(id);
    expect(await ids(reviewer, "DRAFT")).not.toContain(id);
    expect(await ids(reviewer, "ARCHIVED")).toContain(id);
    expect(await ids(reviewer, "ALL")).toContain(id);

    await expect(updateDecisionParameters(analyst, id, { prevalence: 0.3 })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/archived/),
    });
    await expect(
      createCandidate(analyst, {
        decisionId: id,
        name: unique("M"),
        provider: "p",
        modelId: "",
        version: "",
        aliases: [],
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(submitForReview(analyst, id)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(setDecisionArchived(analyst, id, true)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(setDecisionArchived(reviewer, id, false)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const prisma = await db();
    expect(await prisma.candidate.count({ where: { decisionId: id } })).toBe(0);
    expect((await prisma.decision.findUniqueOrThrow({ where: { id }, select: { prevalence: true } })).prevalence).toBe(
      0.02,
    );

    const restored = await setDecisionArchived(analyst, id, false);
    expect(restored.archivedAt).toBeNull();
    expect(await ids(reviewer)).toContain(id);
    expect(await ids(reviewer, "ARCHIVED")).not.toContain(id);
    expect((await updateDecisionParameters(analyst, id, { prevalence: 0.3 })).decision.prevalence).toBe(0.3);

    const events = await prisma.auditEvent.findMany({
      where: { decisionId: id, action: { in: ["decision.archive", "decision.unarchive"] } },
      orderBy: { id: "asc" },
      select: { action: true, actorId: true, before: true, after: true },
    });
    expect(events.map((e) => e.action)).toEqual(["decision.archive", "decision.unarchive"]);
    expect(events.every((e) => e.actorId === analyst.id)).toBe(true);
    expect(events[0]).toMatchObject({
      before: { archivedAt: null },
      after: { archivedAt: archived.archivedAt!.toISOString() },
    });
    expect(events[1]).toMatchObject({
      before: { archivedAt: archived.archivedAt!.toISOString() },
      after: { archivedAt: null },
    });
  });

  it("refuses to archive a decision in review", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id } = await makeDecision(analyst, { status: "IN_REVIEW" });
    await expect(setDecisionArchived(analyst, id, true)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/in review/),
    });
    expect(
      (await (await db()).decision.findUniqueOrThrow({ where: { id }, select: { archivedAt: true } })).archivedAt,
    ).toBeNull();
  });
});
