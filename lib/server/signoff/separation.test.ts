import { describe, expect, it } from "vitest";
import { db } from "../db";
import { updateDecisionParameters } from "../decisions/decisions";
import { updateCandidate } from "../decisions/candidates";
import { confirmSigner } from "../identity/enrolment";
import { updateUserRoles } from "../identity/users";
import { CITED_SUITE, makeActor, rationaleCiting } from "@/test/factories";
import { signPack } from "./sign-pack";
import { submitForReview } from "./submit-for-review";
import { requestChanges } from "./request-changes";
import { reopenDraft } from "./reopen-draft";
import { makeSignoffDecision, makeSigner, PASSWORD } from "./fixtures.test-helpers";

const approval = (signer: { email: string }, candidateId: string, revisionSha256: string) => ({
  meaning: "APPROVAL" as const,
  email: signer.email,
  password: PASSWORD,
  revisionSha256,
  candidateId,
  reason: "Best expected cost at our prevalence.",
});
const failedPasswords = async (actorId: string) =>
  (await db()).auditEvent.count({ where: { actorId, action: "signature.failed_password" } });

async function inReview(quorum = 1, prepare?: (decisionId: string) => Promise<void>) {
  const analyst = await makeSigner(["ANALYST"]);
  const fixture = await makeSignoffDecision(analyst, quorum);
  await prepare?.(fixture.decisionId);
  const revision = await submitForReview(analyst, fixture.decisionId);
  return { analyst, ...fixture, revision };
}

describe("signingRefusal: who cannot sign a revision", () => {
  it("an API token cannot sign: 403 with the reason, before any password attempt", async () => {
    const approver = await makeSigner(["APPROVER"]);
    const { decisionId, goodId, revision } = await inReview();
    await expect(
      signPack(approver, decisionId, approval(approver, goodId, revision.sha256), { via: "token" }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/interactive session.*API tokens cannot sign/),
    });
    expect(await failedPasswords(approver.id)).toBe(0);
    expect(
      (await signPack(approver, decisionId, approval(approver, goodId, revision.sha256), { via: "session" })).outcome,
    ).toBe("approved");
  });

  it("both components: the signed-in user's own email and password, else a counted failure", async () => {
    const approver = await makeSigner(["APPROVER"]);
    const other = await makeSigner(["APPROVER"]);
    const { decisionId, goodId, revision } = await inReview();
    await expect(signPack(approver, decisionId, approval(other, goodId, revision.sha256))).rejects.toMatchObject({
      code: "VALIDATION",
      message: expect.stringMatching(/email or password is not correct/),
    });
    expect(await failedPasswords(approver.id)).toBe(1);
    const { signature } = await signPack(
      approver,
      decisionId,
      approval({ email: approver.email.toUpperCase() }, goodId, revision.sha256),
    );
    expect(signature).toMatchObject({ signerEmail: approver.email, printedName: approver.name });
  });

  it("an account created, or granted APPROVER, after the revision was frozen cannot sign it", async () => {
    const { decisionId, goodId, revision } = await inReview();
    const prisma = await db();
    const late = await makeSigner(["APPROVER"]);
    await prisma.user.update({ where: { id: late.id }, data: { createdAt: new Date(), approverSince: new Date() } });
    await expect(signPack(late, decisionId, approval(late, goodId, revision.sha256))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/account was created after revision 1 was frozen/),
    });

    const admin = await makeActor(["ADMIN"]);
    const reviewer = await makeSigner(["REVIEWER"]);
    const promoted = { ...reviewer, roles: ["REVIEWER", "APPROVER"] as const };
    await updateUserRoles(admin, reviewer.id, ["REVIEWER", "APPROVER"]);
    await expect(
      signPack({ ...promoted, roles: [...promoted.roles] }, decisionId, approval(reviewer, goodId, revision.sha256)),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/became an approver after revision 1/),
    });
    // Their review, as the reviewer they were, counts once a second person confirms the new grant
    // (four-eyes enrolment: a new signing role puts the account's grant up for confirmation again).
    await confirmSigner(await makeActor(["ADMIN"]), reviewer.id);
    const review = await signPack({ ...promoted, roles: [...promoted.roles] }, decisionId, {
      meaning: "REVIEW",
      email: reviewer.email,
      password: PASSWORD,
      revisionSha256: revision.sha256,
      reason: "Read all five stages.",
    });
    expect(review.outcome).toBe("signed");
    expect(await prisma.signature.count({ where: { decisionId, meaning: "APPROVAL" } })).toBe(0);
    expect(await failedPasswords(late.id)).toBe(0);
  });

  it("who changed the gate-relevant parameters or the candidates cannot approve the revision carrying the change", async () => {
    const both = await makeSigner(["ANALYST", "APPROVER"]);
    const { decisionId, goodId, revision } = await inReview(1, async (id) => {
      // The attack: lower the recall floor, quorum 1, submit, approve alone.
      await updateDecisionParameters(both, id, { recallFloor: 0.5, quorum: 1 });
    });
    await expect(signPack(both, decisionId, approval(both, goodId, revision.sha256))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/you set the gate-relevant parameters .* cannot approve/),
    });

    // A title is not gate-relevant; a candidate change is.
    const titler = await makeSigner(["ANALYST", "APPROVER"]);
    const editor = await makeSigner(["ANALYST", "APPROVER"]);
    const second = await inReview(1, async (id) => {
      await updateDecisionParameters(titler, id, { title: "Renamed decision" });
      const prisma = await db();
      const good = await prisma.candidate.findFirstOrThrow({
        where: { decisionId: id, name: { startsWith: "Good" } },
        select: { id: true, name: true },
      });
      await updateCandidate(
        editor,
        {
          candidateId: good.id,
          name: good.name,
          version: "",
          shortlistRationale: rationaleCiting(CITED_SUITE),
          provider: "another provider",
          pricePerHour: 2,
        },
        {},
        id,
      );
    });
    await expect(
      signPack(editor, second.decisionId, approval(editor, second.goodId, second.revision.sha256)),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/you set the candidates/) });
    expect(
      (await signPack(titler, second.decisionId, approval(titler, second.goodId, second.revision.sha256))).outcome,
    ).toBe("approved");
  });
});

describe("a revision's cause", () => {
  it("evidence changed outside the app yields a revision that says so, attributed to no one", async () => {
    const approver = await makeSigner(["APPROVER"]);
    const { decisionId, goodId, revision } = await inReview();
    const prisma = await db();
    // Rows changed directly in the database, with no app mutation.
    await prisma.$executeRaw`UPDATE "ServingBenchmark" SET "requestThroughput" = 99 WHERE "decisionId" = ${decisionId}`;
    await expect(signPack(approver, decisionId, approval(approver, goodId, revision.sha256))).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/superseded/),
    });
    const r2 = await prisma.packRevision.findFirstOrThrow({
      where: { decisionId, number: 2 },
      select: { id: true, createdById: true, cause: true },
    });
    expect(r2.createdById).toBeNull();
    expect(r2.cause).toMatch(/^changed outside the app/);
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "pack_revision.create", entityId: r2.id },
      select: { actorId: true, after: true },
    });
    expect(event.actorId).toBeNull();
    expect(event.after).toMatchObject({
      revision: 2,
      cause: expect.stringMatching(/changed outside the app/),
      noticedBy: approver.id,
    });
  });

  it("a change made in the app names its audited actions", async () => {
    const approver = await makeSigner(["APPROVER"]);
    const { analyst, decisionId } = await inReview();
    await requestChanges(approver, decisionId, "Tighten the recall floor.");
    await reopenDraft(analyst, decisionId);
    await updateDecisionParameters(analyst, decisionId, { recallFloor: 0.61 });
    await submitForReview(analyst, decisionId);
    const prisma = await db();
    const r2 = await prisma.packRevision.findFirstOrThrow({
      where: { decisionId, number: 2 },
      select: { createdById: true, cause: true },
    });
    expect(r2).toEqual({
      createdById: analyst.id,
      cause: "changed in the app since revision 1 (decision.update_parameters)",
    });
    const r1 = await prisma.packRevision.findFirstOrThrow({
      where: { decisionId, number: 1 },
      select: { cause: true },
    });
    expect(r1.cause).toBe("submitted for review");
  });
});
