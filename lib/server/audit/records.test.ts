import { afterAll, describe, expect, it } from "vitest";
import { recordAudit } from "./write";
import { auditHeadWith, verifyAuditChainWith } from "./verify";
import { db } from "../db";
import { signPack } from "../signoff/sign-pack";
import { submitForReview } from "../signoff/submit-for-review";
import { makeSignoffDecision, makeSigner, PASSWORD } from "../signoff/fixtures.test-helpers";
import { openOwner } from "@/test/database";

// Issue 11 item 3 (integration, real PostgreSQL with the two roles of README "Database roles"):
// the app connects as a role that owns no table (DATABASE_URL), the test's owner connection
// (TEST_DATABASE_URL) is the one that migrated. Tampering as the owner happens inside
// transactions that are rolled back, so test files sharing the database never see it.

const owner = openOwner();
afterAll(() => owner.close());
const rollback = new Error("rollback");

/** A decision in review with one approval signature, made through the app. */
async function signedDecision() {
  const analyst = await makeSigner(["ANALYST"], "Ana Lyst");
  const { decisionId, goodId } = await makeSignoffDecision(analyst, 2);
  const revision = await submitForReview(analyst, decisionId);
  const approver = await makeSigner(["APPROVER"], "Avery Approver");
  const { signature } = await signPack(approver, decisionId, {
    email: approver.email,
    meaning: "APPROVAL",
    password: PASSWORD,
    revisionSha256: revision.sha256,
    candidateId: goodId,
    reason: "Best expected cost at our prevalence.",
  });
  const prisma = await db();
  const { id: revisionId } = await prisma.packRevision.findFirstOrThrow({
    where: { decisionId },
    select: { id: true },
  });
  return { decisionId, signatureId: signature.id, revisionId };
}

/** Runs `fn` as the owner in a transaction that is always rolled back. */
async function asOwnerRolledBack(
  fn: (tx: Parameters<Parameters<typeof owner.prisma.$transaction>[0]>[0]) => Promise<void>,
) {
  await expect(
    owner.prisma.$transaction(
      async (tx) => {
        await fn(tx);
        throw rollback;
      },
      { timeout: 60_000, maxWait: 30_000 },
    ),
  ).rejects.toBe(rollback);
}

describe("records no one can erase", () => {
  it("the app's role owns no table and may not TRUNCATE, DELETE, UPDATE a record nor ALTER a trigger", async () => {
    const prisma = await db();
    const { signatureId, revisionId } = await signedDecision();
    const [me] = await prisma.$queryRaw<{ role: string }[]>`SELECT current_user AS role`;
    expect(me?.role).toBe("verdict_app");
    const owned = await prisma.$queryRaw<
      { tablename: string }[]
    >`SELECT tablename FROM pg_tables WHERE schemaname IN ('public', 'pgboss') AND tableowner = current_user`;
    expect(owned).toEqual([]);

    for (const sql of [
      `TRUNCATE "Signature"`,
      `TRUNCATE "PackRevision" CASCADE`,
      `TRUNCATE "AuditEvent"`,
      `DELETE FROM "PackRevision" WHERE id = '${revisionId}'`,
      `DELETE FROM "Signature" WHERE id = '${signatureId}'`,
      `UPDATE "PackRevision" SET "canonicalJson" = '{}' WHERE id = '${revisionId}'`,
      `UPDATE "Signature" SET reason = 'edited' WHERE id = '${signatureId}'`,
    ]) {
      await expect(prisma.$executeRawUnsafe(sql), sql).rejects.toThrow(/permission denied|append-only/);
    }
    for (const table of ["Signature", "PackRevision", "AuditEvent"]) {
      await expect(prisma.$executeRawUnsafe(`ALTER TABLE "${table}" DISABLE TRIGGER ALL`)).rejects.toThrow(
        /must be owner/,
      );
    }
    await expect(
      prisma.$executeRawUnsafe(`ALTER TABLE "Signature" DISABLE TRIGGER "Signature_append_only"`),
    ).rejects.toThrow(/must be owner/);
    await expect(prisma.$executeRawUnsafe(`CREATE TABLE "Sneaky" (id int)`)).rejects.toThrow(/permission denied/);
    expect(await prisma.signature.count({ where: { id: signatureId } })).toBe(1);
    expect(await prisma.packRevision.count({ where: { id: revisionId } })).toBe(1);
  });

  it("the triggers refuse the owner too: TRUNCATE and DELETE of signatures and revisions, any change of a revision but marking it superseded", async () => {
    const { revisionId } = await signedDecision();
    for (const sql of [
      `TRUNCATE "Signature"`,
      `TRUNCATE "PackRevision" CASCADE`,
      `DELETE FROM "PackRevision" WHERE id = '${revisionId}'`,
      `UPDATE "PackRevision" SET sha256 = 'x' WHERE id = '${revisionId}'`,
    ]) {
      await asOwnerRolledBack(async (tx) => {
        await expect(tx.$executeRawUnsafe(sql), sql).rejects.toThrow(/append-only/);
      });
    }
    await asOwnerRolledBack(async (tx) => {
      expect(
        await tx.$executeRawUnsafe(
          `UPDATE "PackRevision" SET "supersededAt" = now() WHERE id = $1 AND "supersededAt" IS NULL`,
          revisionId,
        ),
      ).toBe(1);
    });
  });

  it("verify finds a signature or a revision the owner changed or deleted with the triggers disabled, though the chain is whole", async () => {
    const { signatureId, revisionId } = await signedDecision();
    const prisma = await db();
    const clean = await verifyAuditChainWith(prisma);
    expect(clean).toMatchObject({ intact: true, firstBroken: null, recordProblems: [] });
    expect(clean.records.signatures).toBeGreaterThan(0);

    await asOwnerRolledBack(async (tx) => {
      await tx.$executeRawUnsafe(`ALTER TABLE "Signature" DISABLE TRIGGER "Signature_append_only"`);
      await tx.$executeRawUnsafe(
        `UPDATE "Signature" SET reason = 'I never approved this', "printedName" = 'Someone Else' WHERE id = $1`,
        signatureId,
      );
      const result = await verifyAuditChainWith(tx);
      expect(result.intact).toBe(false);
      expect(result.recordProblems).toContainEqual(
        expect.objectContaining({
          id: signatureId,
          reason: "record-mismatch",
          message: expect.stringMatching(/printedName, reason/),
        }),
      );
    });
    await asOwnerRolledBack(async (tx) => {
      await tx.$executeRawUnsafe(`ALTER TABLE "Signature" DISABLE TRIGGER ALL`);
      await tx.$executeRawUnsafe(`TRUNCATE "Signature"`);
      const result = await verifyAuditChainWith(tx);
      expect(result.intact).toBe(false);
      expect(result.recordProblems).toContainEqual(
        expect.objectContaining({ id: signatureId, reason: "record-missing" }),
      );
    });
    await asOwnerRolledBack(async (tx) => {
      await tx.$executeRawUnsafe(`ALTER TABLE "PackRevision" DISABLE TRIGGER ALL`);
      await tx.$executeRawUnsafe(
        `UPDATE "PackRevision" SET "canonicalJson" = replace("canonicalJson", '"quorum":2', '"quorum":1') WHERE id = $1`,
        revisionId,
      );
      const result = await verifyAuditChainWith(tx);
      expect(result.recordProblems).toContainEqual(
        expect.objectContaining({
          id: revisionId,
          reason: "record-mismatch",
          message: expect.stringMatching(/no longer hashes/),
        }),
      );
    });
    // Rolled back: intact again.
    expect((await verifyAuditChainWith(prisma)).intact).toBe(true);
  });

  it("deleting the newest events breaks no link, but verifying against an earlier head finds it", async () => {
    const actor = await makeSigner(["ADMIN"], "Ada Min");
    await asOwnerRolledBack(async (tx) => {
      // Nobody else appends meanwhile, so the two events below are the tail.
      await tx.$executeRawUnsafe(`LOCK TABLE "AuditEvent" IN EXCLUSIVE MODE`);
      await recordAudit(tx, { actor, action: "user.create", entityType: "User", entityId: actor.id, after: { n: 1 } });
      await recordAudit(tx, {
        actor,
        action: "user.update_roles",
        entityType: "User",
        entityId: actor.id,
        after: { n: 2 },
      });
      const head = (await auditHeadWith(tx))!;
      expect((await verifyAuditChainWith(tx, head)).intact).toBe(true);

      await tx.$executeRawUnsafe(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
      const removed = await tx.$executeRawUnsafe(`DELETE FROM "AuditEvent" WHERE "entityId" = $1`, actor.id);
      expect(removed).toBe(2);
      expect((await verifyAuditChainWith(tx)).intact).toBe(true); // the gap the head closes
      const result = await verifyAuditChainWith(tx, head);
      expect(result).toMatchObject({
        intact: false,
        firstBroken: { id: head.seq, reason: "head-missing", message: expect.stringMatching(/were deleted/) },
      });

      // A tail rewritten under the same sequence number shows as another hash.
      await tx.$executeRawUnsafe(
        `INSERT INTO "AuditEvent" (id, "actorRoles", action, "entityType", "entityId", "createdAt", "prevHash", hash) SELECT $1::bigint, '{}', 'user.create', 'User', 'x', now(), hash, repeat('f', 64) FROM "AuditEvent" ORDER BY id DESC LIMIT 1`,
        head.seq,
      );
      expect((await verifyAuditChainWith(tx, head)).firstBroken).toMatchObject({
        id: head.seq,
        reason: expect.stringMatching(/content-hash-mismatch|head-mismatch/),
      });
    });
  });
});
