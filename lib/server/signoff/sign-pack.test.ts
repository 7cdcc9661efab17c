import { describe, expect, it } from "vitest";
import { db } from "../db";
import { verifyAuditChainWith } from "../audit/verify";
import { makeActor } from "@/test/factories";
import { signPack } from "./sign-pack";
import { submitForReview } from "./submit-for-review";
import { requestChanges } from "./request-changes";
import { getReviewState } from "./review-state";
import { addLeaderboardScore, makeSignoffDecision, makeSigner, PASSWORD } from "./fixtures.test-helpers";

const approve = (candidateId: string, revisionSha256: string, extra: Partial<Parameters<typeof signPack>[2]> = {}) => ({
  meaning: "APPROVAL" as const,
  password: PASSWORD,
  revisionSha256,
  candidateId,
  reason: "Best expected cost at our prevalence; meets every SLO.",
  ...extra,
});

async function inReview(quorum = 2) {
  const analyst = await makeSigner(["ANALYST"], "Ana Lyst");
  const fixture = await makeSignoffDecision(analyst, quorum);
  const revision = await submitForReview(analyst, fixture.decisionId);
  return { analyst, ...fixture, revision };
}

const status = async (id: string) =>
  (await (await db()).decision.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;

describe("sign-off", () => {
  it("approves when the quorum of distinct approvers signs the same candidate on the same revision", async () => {
    const { decisionId, goodId, revision } = await inReview();
    expect(revision.sha256).toMatch(/^[0-9a-f]{64}$/);
    const a1 = await makeSigner(["APPROVER"], "Avery Approver");
    const a2 = await makeSigner(["APPROVER"], "Blair Approver");
    const first = await signPack(a1, decisionId, { ...approve(goodId, revision.sha256), email: a1.email });
    expect(first.outcome).toBe("signed");
    expect(await status(decisionId)).toBe("IN_REVIEW");
    const second = await signPack(a2, decisionId, { ...approve(goodId, revision.sha256), email: a2.email });
    expect(second.outcome).toBe("approved");
    expect(await status(decisionId)).toBe("APPROVED");
    // §11.50: printed name, time, meaning, candidate, reason, revision hash.
    expect(second.signature).toMatchObject({
      printedName: "Blair Approver",
      meaning: "APPROVAL",
      candidateId: goodId,
      revisionSha256: revision.sha256,
    });
    expect(second.signature.signedAt).toBeInstanceOf(Date);
    // Never edited or deleted, whoever connects.
    const prisma = await db();
    await expect(
      prisma.$executeRawUnsafe(`UPDATE "Signature" SET reason = 'edited' WHERE id = $1`, first.signature.id),
    ).rejects.toThrow(/append-only|permission denied/);
    await expect(prisma.$executeRawUnsafe(`DELETE FROM "Signature" WHERE id = $1`, first.signature.id)).rejects.toThrow(
      /append-only|permission denied/,
    );
  });

  it("does not count approvals of different candidates towards one quorum, and needs a waiver for a failing gate", async () => {
    const { decisionId, goodId, slowId, revision } = await inReview();
    const a1 = await makeSigner(["APPROVER"]);
    const a2 = await makeSigner(["APPROVER"]);
    await signPack(a1, decisionId, { ...approve(goodId, revision.sha256), email: a1.email });
    await expect(
      signPack(a2, decisionId, { ...approve(slowId, revision.sha256), email: a2.email }),
    ).rejects.toMatchObject({ code: "VALIDATION", message: expect.stringMatching(/p95 E2E latency.*waiver/) });
    const waived = await signPack(a2, decisionId, {
      ...approve(slowId, revision.sha256, {
        waiver: "Latency accepted: the queue is asynchronous, reviewed in batches.",
      }),
      email: a2.email,
    });
    expect(waived.outcome).toBe("signed");
    expect(waived.signature.waiver).toMatch(/asynchronous/);
    expect(await status(decisionId)).toBe("IN_REVIEW");
  });

  it("refuses an analyst, a reviewer approving, and an approver who imported evidence", async () => {
    const { analyst, decisionId, goodId, revision } = await inReview();
    await expect(
      signPack(analyst, decisionId, { ...approve(goodId, revision.sha256), email: analyst.email }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const reviewer = await makeSigner(["REVIEWER"]);
    await expect(
      signPack(reviewer, decisionId, { ...approve(goodId, revision.sha256), email: reviewer.email }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const uploader = await makeSigner(["APPROVER", "ANALYST"]);
    const prisma = await db();
    await prisma.import.create({
      data: {
        decisionId,
        kind: "SERVING",
        format: "test",
        fileName: "bench.json",
        sha256: "c".repeat(64),
        sizeBytes: 1n,
        status: "SUCCEEDED",
        importedById: uploader.id,
      },
    });
    // Refused before the password is even asked for (signingRefusal), whichever revision is named.
    await expect(
      signPack(uploader, decisionId, { ...approve(goodId, revision.sha256), email: uploader.email }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/Separation of duties/) });
    expect(
      await prisma.auditEvent.count({ where: { actorId: uploader.id, action: "signature.failed_password" } }),
    ).toBe(0);
    expect(await prisma.signature.count({ where: { decisionId } })).toBe(0);
  });

  it("records a reviewer's review signature without changing the status", async () => {
    const { decisionId, revision } = await inReview();
    const reviewer = await makeSigner(["REVIEWER"], "Rae Viewer");
    const result = await signPack(reviewer, decisionId, {
      email: reviewer.email,
      meaning: "REVIEW",
      password: PASSWORD,
      revisionSha256: revision.sha256,
      reason: "Read all five stages.",
    });
    expect(result.signature).toMatchObject({ meaning: "REVIEW", candidateId: null, printedName: "Rae Viewer" });
    expect(await status(decisionId)).toBe("IN_REVIEW");
  });

  it("refuses a wrong password, audits it, and rate-limits the sixth attempt even with the right password", async () => {
    const { decisionId, goodId, revision } = await inReview();
    const a1 = await makeSigner(["APPROVER"]);
    for (let i = 0; i < 5; i++) {
      await expect(
        signPack(a1, decisionId, { ...approve(goodId, revision.sha256, { password: "wrong" }), email: a1.email }),
      ).rejects.toMatchObject({ code: "VALIDATION", message: expect.stringMatching(/password/) });
    }
    await expect(
      signPack(a1, decisionId, { ...approve(goodId, revision.sha256), email: a1.email }),
    ).rejects.toMatchObject({ code: "RATE_LIMITED" });
    const prisma = await db();
    expect(await prisma.auditEvent.count({ where: { actorId: a1.id, action: "signature.failed_password" } })).toBe(5);
    expect(await prisma.auditEvent.count({ where: { actorId: a1.id, action: "signature.rate_limited" } })).toBe(1);
    expect(await prisma.signature.count({ where: { decisionId } })).toBe(0);
  });

  it("refuses a second signature by the same approver on one revision", async () => {
    const { decisionId, goodId, revision } = await inReview(3);
    const a1 = await makeSigner(["APPROVER"]);
    await signPack(a1, decisionId, { ...approve(goodId, revision.sha256), email: a1.email });
    await expect(
      signPack(a1, decisionId, { ...approve(goodId, revision.sha256), email: a1.email }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      signPack(a1, decisionId, {
        email: a1.email,
        meaning: "REJECTION",
        password: PASSWORD,
        revisionSha256: revision.sha256,
        reason: "changed my mind",
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await (await db()).signature.count({ where: { decisionId } })).toBe(1);
  });

  it("supersedes a revision when the evidence changes: the old hash cannot be signed, old signatures stay and show as superseded", async () => {
    const { analyst, decisionId, goodId, revision } = await inReview();
    const a1 = await makeSigner(["APPROVER"]);
    const a2 = await makeSigner(["APPROVER"]);
    await signPack(a1, decisionId, { ...approve(goodId, revision.sha256), email: a1.email });
    await addLeaderboardScore(decisionId, goodId, analyst.id);

    const before = await getReviewState(a2, decisionId);
    expect(before.evidenceChanged).toBe(true);
    expect(before.signatures[0]!.superseded).toBe(true);
    expect(
      before.revisions[0]!.diff?.entries.some(
        (e) => e.path.startsWith("evidence.leaderboardScores") && e.kind === "added",
      ),
    ).toBe(true);

    await expect(
      signPack(a2, decisionId, { ...approve(goodId, revision.sha256), email: a2.email }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/superseded/) });
    const after = await getReviewState(a2, decisionId);
    expect(after.revisions.map((r) => [r.number, r.superseded])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(after.evidenceChanged).toBe(false);
    // a1's approval was on revision 1: a2 approving revision 2 alone is not a quorum.
    const r2 = after.latestRevision!.sha256;
    expect((await signPack(a2, decisionId, { ...approve(goodId, r2), email: a2.email })).outcome).toBe("signed");
    expect(await status(decisionId)).toBe("IN_REVIEW");
    expect((await signPack(a1, decisionId, { ...approve(goodId, r2), email: a1.email })).outcome).toBe("approved");
  });

  it("lets an approver request changes and the analyst submit again", async () => {
    const { analyst, decisionId } = await inReview();
    const a1 = await makeSigner(["APPROVER"]);
    await expect(requestChanges(analyst, decisionId, "please")).rejects.toMatchObject({ code: "FORBIDDEN" });
    await requestChanges(a1, decisionId, "Add the serving benchmark at concurrency 64.");
    expect(await status(decisionId)).toBe("CHANGES_REQUESTED");
    await expect(requestChanges(a1, decisionId, "again")).rejects.toMatchObject({ code: "CONFLICT" });
    await submitForReview(analyst, decisionId);
    expect(await status(decisionId)).toBe("IN_REVIEW");
    await expect(submitForReview(analyst, decisionId)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("takes fifty simultaneous approvals: exactly one transition, every signature once, the chain intact", async () => {
    const { decisionId, goodId, revision } = await inReview(50);
    const approvers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => makeSigner(["APPROVER"], `Approver ${i}`)),
    );
    const results = await Promise.allSettled(
      approvers.map((a) => signPack(a, decisionId, { ...approve(goodId, revision.sha256), email: a.email })),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const outcomes = results.map((r) => (r.status === "fulfilled" ? r.value.outcome : "error"));
    expect(outcomes.filter((o) => o === "approved")).toHaveLength(1);
    const prisma = await db();
    expect(await status(decisionId)).toBe("APPROVED");
    expect(await prisma.signature.count({ where: { decisionId } })).toBe(50);
    expect(
      await prisma.auditEvent.count({
        where: { decisionId, action: "decision.transition", after: { path: ["status"], equals: "APPROVED" } },
      }),
    ).toBe(1);
    expect((await verifyAuditChainWith(prisma)).intact).toBe(true);
  });

  it("takes fifty simultaneous signatures by one approver and past the quorum: only what is allowed lands", async () => {
    const { decisionId, goodId, revision } = await inReview(2);
    const one = await makeSigner(["APPROVER"]);
    const same = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        signPack(one, decisionId, { ...approve(goodId, revision.sha256), email: one.email }),
      ),
    );
    expect(same.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const others = await Promise.all(Array.from({ length: 49 }, (_, i) => makeSigner(["APPROVER"], `Other ${i}`)));
    const rest = await Promise.allSettled(
      others.map((a) => signPack(a, decisionId, { ...approve(goodId, revision.sha256), email: a.email })),
    );
    // The second approval reaches the quorum; the decision is then closed to further signatures.
    expect(rest.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      rest.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason.code === "CONFLICT"),
    ).toBe(true);
    const prisma = await db();
    expect(await prisma.signature.count({ where: { decisionId } })).toBe(2);
    expect(await status(decisionId)).toBe("APPROVED");
    expect((await verifyAuditChainWith(prisma)).intact).toBe(true);
  });

  it("lets only one of two simultaneous transitions win", async () => {
    const analyst = await makeSigner(["ANALYST"]);
    const { decisionId } = await makeSignoffDecision(analyst);
    const submits = await Promise.allSettled([
      submitForReview(analyst, decisionId),
      submitForReview(analyst, decisionId),
    ]);
    expect(submits.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const a1 = await makeSigner(["APPROVER"]);
    const a2 = await makeSigner(["APPROVER"]);
    const sha = (submits.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ sha256: string }>).value
      .sha256;
    const race = await Promise.allSettled([
      requestChanges(a1, decisionId, "Add the slice breakdown."),
      signPack(a2, decisionId, {
        email: a2.email,
        meaning: "REJECTION",
        password: PASSWORD,
        revisionSha256: sha,
        reason: "fails the brief",
      }),
    ]);
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const prisma = await db();
    expect(await prisma.auditEvent.count({ where: { decisionId, action: "decision.transition" } })).toBe(2);
    expect(await prisma.packRevision.count({ where: { decisionId } })).toBe(1);
    expect(["CHANGES_REQUESTED", "REJECTED"]).toContain(await status(decisionId));
  });

  it("forbids an actor without a role from submitting", async () => {
    const { decisionId } = await inReview();
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(submitForReview(reviewer, decisionId)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
