import { describe, expect, it } from "vitest";
import { db } from "../db";
import { recordAudit } from "./write";
import { verifyAuditChainWith } from "./verify";
import { makeActor, unique } from "@/test/factories";
import { openOwner } from "@/test/database";

describe("audit chain verification", () => {
  it("finds the chain intact after normal writes", async () => {
    const prisma = await db();
    const actor = await makeActor(["ADMIN"]);
    await prisma.$transaction((tx) =>
      recordAudit(tx, { actor, action: "user.create", entityType: "User", entityId: actor.id, after: { n: 0.1 } }),
    );
    const result = await verifyAuditChainWith(prisma);
    expect(result).toMatchObject({ intact: true, firstBroken: null });
    expect(result.checked).toBeGreaterThan(0);
  });

  it("refuses UPDATE and DELETE of audit rows in SQL", async () => {
    const prisma = await db();
    const actor = await makeActor(["ADMIN"]);
    await prisma.$transaction((tx) =>
      recordAudit(tx, { actor, action: "user.create", entityType: "User", entityId: actor.id }),
    );
    await expect(
      prisma.$executeRawUnsafe(`UPDATE "AuditEvent" SET "after" = '{"x":1}' WHERE "entityId" = $1`, actor.id),
    ).rejects.toThrow(/append-only|permission denied/);
    await expect(prisma.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "entityId" = $1`, actor.id)).rejects.toThrow(
      /append-only|permission denied/,
    );
  });

  // The tampering happens inside a transaction that is rolled back, so tests running in parallel
  // on the same database never see the altered row (DDL is transactional in PostgreSQL).
  it("finds a row changed with the trigger disabled (by the owner: the app's role may not), and a deleted row", async () => {
    const prisma = await db();
    const owner = openOwner();
    const actor = await makeActor(["ADMIN"]);
    const entity = unique("victim");
    for (let i = 0; i < 3; i++)
      await prisma.$transaction((tx) =>
        recordAudit(tx, {
          actor,
          action: "decision.update_parameters",
          entityType: "Decision",
          entityId: entity,
          after: { prevalence: 0.02 + i },
        }),
      );
    const rows = await prisma.auditEvent.findMany({
      where: { entityId: entity },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    const middle = rows[1]!.id;
    const rollback = new Error("rollback");

    const edited = owner.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
        await tx.$executeRawUnsafe(`UPDATE "AuditEvent" SET "after" = '{"prevalence": 0.5}' WHERE id = $1`, middle);
        const result = await verifyAuditChainWith(tx);
        expect(result.intact).toBe(false);
        expect(result.firstBroken).toMatchObject({ id: middle.toString(), reason: "content-hash-mismatch" });
        throw rollback;
      },
      { timeout: 60_000 },
    );
    await expect(edited).rejects.toBe(rollback);

    const deleted = owner.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
        await tx.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE id = $1`, middle);
        const result = await verifyAuditChainWith(tx);
        expect(result.firstBroken).toMatchObject({ id: rows[2]!.id.toString(), reason: "prev-hash-mismatch" });
        throw rollback;
      },
      { timeout: 60_000 },
    );
    await expect(deleted).rejects.toBe(rollback);

    // Rolled back: the trigger is enabled again and the chain is whole.
    await expect(
      owner.prisma.$executeRawUnsafe(`UPDATE "AuditEvent" SET action = 'x' WHERE id = $1`, middle),
    ).rejects.toThrow(/append-only/);
    expect((await verifyAuditChainWith(prisma)).intact).toBe(true);
    await owner.close();
  });
});
