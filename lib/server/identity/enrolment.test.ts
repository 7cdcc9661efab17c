import { describe, expect, it } from "vitest";
import { db } from "../db";
import { verifyAuditChainWith } from "../audit/verify";
import { makeActor, unique } from "@/test/factories";
import { makeSignoffDecision, makeSigner, PASSWORD } from "../signoff/fixtures.test-helpers";
import { signPack } from "../signoff/sign-pack";
import { submitForReview } from "../signoff/submit-for-review";
import { getReviewState } from "../signoff/review-state";
import { confirmSigner } from "./enrolment";
import { acceptInvitation, inviteUserAsOperator } from "./invitations";
import { updateUserRoles } from "./users";

const approve = (a: { email: string }, candidateId: string, revisionSha256: string) => ({
  meaning: "APPROVAL" as const,
  email: a.email,
  password: PASSWORD,
  revisionSha256,
  candidateId,
  reason: "Best expected cost at our prevalence.",
});

/** Two analysts the admin makes approvers: their grants await a second person. */
async function grantedByOneAdmin() {
  const admin = await makeActor(["ADMIN"], unique("Solo Admin"));
  const people = [await makeSigner(["ANALYST"]), await makeSigner(["ANALYST"])];
  for (const p of people) await updateUserRoles(admin, p.id, ["APPROVER"]);
  return { admin, approvers: people.map((p) => ({ ...p, roles: ["APPROVER" as const] })) };
}

describe("four-eyes enrolment", () => {
  it("one admin's approvers cannot sign until a second person confirms them; the signatures then name both", async () => {
    const analyst = await makeSigner(["ANALYST"]);
    const { decisionId, goodId } = await makeSignoffDecision(analyst, 2);
    const { admin, approvers } = await grantedByOneAdmin();
    const [a1, a2] = approvers as [(typeof approvers)[0], (typeof approvers)[0]];
    // Role grants made now would be too late for a revision frozen before them; submit after.
    const revision = await submitForReview(analyst, decisionId);

    await expect(signPack(a1, decisionId, approve(a1, goodId, revision.sha256))).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining(
        `awaits confirmation by a second person (four-eyes enrolment): it was granted by ${admin.name}`,
      ),
    });
    expect((await getReviewState(a1, decisionId)).awaitingConfirmation).toMatch(/awaits confirmation/);

    // Not the granter, not oneself, not an admin whose own grant awaits confirmation.
    await expect(confirmSigner(admin, a1.id)).rejects.toMatchObject({ code: "FORBIDDEN", message: /You granted/ });
    await expect(confirmSigner(a1, a2.id)).rejects.toMatchObject({ code: "FORBIDDEN", message: /Your own enrolment/ });
    await expect(confirmSigner(a1, a1.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const puppet = await makeSigner(["ANALYST"]);
    await updateUserRoles(admin, puppet.id, ["ADMIN"]);
    await expect(confirmSigner({ ...puppet, roles: ["ADMIN"] }, a1.id)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: /Your own enrolment awaits/,
    });
    const prisma = await db();
    expect(await prisma.user.count({ where: { id: { in: [a1.id, a2.id] }, signerConfirmedAt: { not: null } } })).toBe(
      0,
    );

    const second = await makeActor(["ADMIN"], unique("Second Admin"));
    for (const a of [a1, a2]) await confirmSigner(second, a.id, { ip: "127.0.0.1" });
    await expect(confirmSigner(second, a1.id)).rejects.toMatchObject({ code: "CONFLICT" });
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { entityId: a1.id, action: "user.confirm_signer" },
    });
    expect(event).toMatchObject({ actorId: second.id });
    expect(event.after).toMatchObject({ grantedById: admin.id, grantedBy: admin.name, confirmedBy: second.name });

    await signPack(a1, decisionId, approve(a1, goodId, revision.sha256));
    const last = await signPack(a2, decisionId, approve(a2, goodId, revision.sha256));
    expect(last.outcome).toBe("approved");
    expect(last.signature).toMatchObject({ enrolledBy: admin.name, confirmedBy: second.name });
    const verification = await verifyAuditChainWith(prisma);
    expect(verification.recordProblems.filter((p) => p.id === last.signature.id)).toEqual([]);
  });

  it("a new signing role by a role change or by invitation awaits confirmation; the operator may confirm", async () => {
    const invited = {
      name: unique("Invited Signer"),
      email: `${unique("inv")}@verdict.test`,
      roles: ["REVIEWER" as const],
    };
    const { link } = await inviteUserAsOperator(invited);
    const user = await acceptInvitation(new URL(`http://x${link}`).searchParams.get("token")!, PASSWORD);
    const prisma = await db();
    const row = () =>
      prisma.user.findUniqueOrThrow({
        where: { id: user.id },
        select: { signerConfirmedAt: true, signerConfirmedById: true },
      });
    expect((await row()).signerConfirmedAt).toBeNull();
    await expect(confirmSigner({ operator: true }, user.id)).resolves.toMatchObject({ confirmedBy: "the operator" });
    expect((await row()).signerConfirmedAt).not.toBeNull();
    // Adding APPROVER to a confirmed reviewer is a new grant: confirmed again, by someone else.
    const admin = await makeActor(["ADMIN"]);
    await updateUserRoles(admin, user.id, ["REVIEWER", "APPROVER"]);
    expect((await row()).signerConfirmedAt).toBeNull();
    // Dropping a role is no new grant.
    await confirmSigner(await makeActor(["APPROVER"]), user.id);
    await updateUserRoles(admin, user.id, ["REVIEWER"]);
    expect((await row()).signerConfirmedAt).not.toBeNull();
  });
});
