import { describe, expect, it } from "vitest";
import { db } from "../db";
import { auditHashPayload, chainHash, GENESIS_HASH, recordAudit } from "./write";
import { makeActor, unique } from "@/test/factories";

describe("audit trail", () => {
  it("chains every event to the previous one, also under concurrent writers", async () => {
    const prisma = await db();
    const actor = await makeActor(["ANALYST"]);
    const entity = unique("entity");
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        prisma.$transaction((tx) =>
          recordAudit(tx, {
            actor,
            action: "decision.update_parameters",
            entityType: "Test",
            entityId: entity,
            after: { i, x: 0.1 + 0.2 },
          }),
        ),
      ),
    );
    const events = await prisma.auditEvent.findMany({ orderBy: { id: "asc" } });
    let prev = GENESIS_HASH;
    for (const e of events) {
      expect(e.prevHash).toBe(prev);
      const payload = auditHashPayload({ ...e, actorRoles: e.actorRoles, before: e.before, after: e.after });
      expect(e.hash).toBe(chainHash(prev, payload));
      prev = e.hash;
    }
    expect(events.filter((e) => e.entityId === entity)).toHaveLength(12);
  });

  it("is append-only in the database: UPDATE, DELETE and TRUNCATE are refused", async () => {
    const prisma = await db();
    const actor = await makeActor(["ADMIN"]);
    await prisma.$transaction((tx) =>
      recordAudit(tx, { actor, action: "user.create", entityType: "User", entityId: actor.id }),
    );
    await expect(
      prisma.$executeRawUnsafe(`UPDATE "AuditEvent" SET action = 'tampered' WHERE "entityId" = $1`, actor.id),
    ).rejects.toThrow(/append-only|permission denied/);
    await expect(prisma.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "entityId" = $1`, actor.id)).rejects.toThrow(
      /append-only|permission denied/,
    );
    await expect(prisma.$executeRawUnsafe(`TRUNCATE "AuditEvent"`)).rejects.toThrow(
      /append-only|cannot truncate|permission denied/,
    );
    expect(await prisma.auditEvent.count({ where: { entityId: actor.id, action: "user.create" } })).toBe(1);
  });

  it("rolls back with the change it records", async () => {
    const prisma = await db();
    const actor = await makeActor(["ADMIN"]);
    const entity = unique("rolled-back");
    await expect(
      prisma.$transaction(async (tx) => {
        await recordAudit(tx, { actor, action: "user.update_roles", entityType: "User", entityId: entity });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await prisma.auditEvent.count({ where: { entityId: entity } })).toBe(0);
  });
});
