import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db";
import { acceptInvitation, invitationPreview, inviteUser, inviteUserAsOperator } from "./invitations";
import { changePassword } from "./account";
import { actorById } from "../actors";
import { actorForToken, createApiToken } from "./api-tokens";
import { createUserAsOperator, setUserActive } from "./users";
import { verifyPassword } from "./passwords";
import { makeActor, unique } from "@/test/factories";
import { invitationLinkIn, mailsTo, startSmtpSink } from "@/test/smtp-sink";

const PASSWORD = "a passphrase of my own 2026";
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
const person = (name = unique("Invited Person")) => ({
  name,
  email: `${unique("invited")}@verdict.test`,
  roles: ["APPROVER" as const],
});

let folder = "";
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "verdict-identity-mail-"));
  sink = await startSmtpSink(folder);
});
afterAll(async () => {
  await sink.close();
  rmSync(folder, { recursive: true, force: true });
  delete process.env.VERDICT_SMTP_URL;
});

function withMail<T>(run: () => Promise<T>): Promise<T> {
  process.env.VERDICT_SMTP_URL = sink.url;
  process.env.VERDICT_PUBLIC_URL = "https://verdict.example.com";
  return run().finally(() => {
    delete process.env.VERDICT_SMTP_URL;
    delete process.env.VERDICT_PUBLIC_URL;
  });
}

describe("enrolment by invitation", () => {
  it("an admin's invitation goes by mail only; the person sets their own password on the one-time link", async () => {
    const admin = await makeActor(["ADMIN"]);
    const invitee = person();
    const invitation = await withMail(() => inviteUser(admin, invitee, { ip: "203.0.113.9" }));
    expect(JSON.stringify(invitation)).not.toMatch(/vdi_|token/i);
    const [mail] = mailsTo(folder, invitee.email);
    const link = invitationLinkIn(mail!);
    expect(link).toMatch(/^https:\/\/verdict\.example\.com\/invite\?token=vdi_/);
    const prisma = await db();
    const row = await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.tokenHash).not.toContain(tokenOf(link!));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(72 * 3600 * 1000);
    expect(await invitationPreview(tokenOf(link!))).toMatchObject({
      ok: true,
      email: invitee.email,
      name: invitee.name,
    });

    const user = await acceptInvitation(tokenOf(link!), PASSWORD);
    const stored = await prisma.user.findUniqueOrThrow({
      where: { id: user.id },
      select: { passwordHash: true, approverSince: true },
    });
    expect(await verifyPassword(stored.passwordHash, PASSWORD)).toBe(true);
    expect(stored.approverSince).not.toBeNull();
    const events = await prisma.auditEvent.findMany({
      where: { OR: [{ entityId: invitation.id }, { entityId: user.id }] },
      orderBy: { id: "asc" },
      select: { action: true, actorId: true, after: true },
    });
    expect(events.map((e) => e.action)).toEqual(["user.invite", "user.create"]);
    expect(events[0]!.actorId).toBe(admin.id);
    expect(events[1]).toMatchObject({ actorId: user.id, after: { via: "invitation", invitedById: admin.id } });
    expect(JSON.stringify(events)).not.toContain("vdi_");

    // Single use.
    await expect(acceptInvitation(tokenOf(link!), "another passphrase 2026")).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/already used/),
    });
    expect(
      await verifyPassword((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash, PASSWORD),
    ).toBe(true);
  });

  it("without SMTP the admin's invitation is refused with how to configure it, and nothing is recorded", async () => {
    const admin = await makeActor(["ADMIN"]);
    const invitee = person();
    await expect(inviteUser(admin, invitee)).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringMatching(/VERDICT_SMTP_URL.*verdict user invite/),
    });
    const prisma = await db();
    expect(await prisma.invitation.count({ where: { email: invitee.email } })).toBe(0);
    const analyst = await makeActor(["ANALYST"]);
    await expect(withMail(() => inviteUser(analyst, person()))).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("the operator's invitation prints the link; an expired or replaced link is refused", async () => {
    const invitee = person();
    const first = await inviteUserAsOperator(invitee);
    const second = await inviteUserAsOperator(invitee);
    expect(first.link).toMatch(/\/invite\?token=vdi_/);
    await expect(acceptInvitation(tokenOf(`http://x${first.link}`), PASSWORD)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/replaced by a newer one/),
    });
    const prisma = await db();
    await prisma.invitation.update({
      where: { id: second.invitation.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(acceptInvitation(tokenOf(`http://x${second.link}`), PASSWORD)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/expired/),
    });
    expect(await prisma.user.count({ where: { email: invitee.email } })).toBe(0);
    await expect(acceptInvitation("vdi_unknown", PASSWORD)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/not valid/),
    });
  });

  it("printed names are unique among active users as read (look-alikes too), invitations included", async () => {
    const taken = await makeActor(["APPROVER"], unique("Dana Signer"));
    await expect(inviteUserAsOperator(person(taken.name.toUpperCase()))).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining(`reads like "${taken.name}", the printed name of an active user`),
      details: { fieldErrors: { name: expect.any(Array) } },
    });
    // A Cyrillic а, or a doubled space holding a zero-width space, reads as the same name.
    for (const lookAlike of [taken.name.replace("a", "\u0430"), taken.name.replace(" ", " \u200B ")])
      await expect(inviteUserAsOperator(person(lookAlike))).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining(`reads like "${taken.name}"`),
      });
    const pending = person();
    await inviteUserAsOperator(pending);
    await expect(inviteUserAsOperator(person(pending.name))).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/pending invitation/),
    });
    // The database holds the rule too, whatever writes the row.
    const prisma = await db();
    await expect(
      prisma.user.create({
        data: { email: `${unique("raw")}@verdict.test`, name: taken.name, roles: ["ANALYST"], passwordHash: "x" },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
    // A deactivated user's name is free again; reactivating them while it is taken is refused.
    const admin = await makeActor(["ADMIN"]);
    await setUserActive(admin, taken.id, false);
    const successor = await makeActor(["ANALYST"], taken.name);
    expect(successor.name).toBe(taken.name);
    await expect(setUserActive(admin, taken.id, true)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/printed name/),
    });
  });

  it("`user create` is for the first admin only", async () => {
    await makeActor(["ADMIN"]);
    await expect(createUserAsOperator({ ...person(), roles: ["ADMIN"], password: PASSWORD })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/invitation/),
    });
  });
});

describe("password change and deactivation", () => {
  it("a password change needs the current password and ends every other session", async () => {
    const invitee = person();
    const { link } = await inviteUserAsOperator(invitee);
    const user = await acceptInvitation(tokenOf(`http://x${link}`), PASSWORD);
    const actor = (await actorById(user.id))!;
    const signedIn = Date.now() - 1000;
    await expect(
      changePassword(
        actor,
        { currentPassword: "wrong password here", newPassword: "my new passphrase 2026" },
        "this-session",
      ),
    ).rejects.toMatchObject({ code: "VALIDATION", details: { fieldErrors: { currentPassword: expect.any(Array) } } });
    expect(await actorById(user.id, signedIn, "other-session")).not.toBeNull();
    await changePassword(actor, { currentPassword: PASSWORD, newPassword: "my new passphrase 2026" }, "this-session");
    expect(await actorById(user.id, signedIn, "other-session")).toBeNull();
    expect(await actorById(user.id, signedIn, "this-session")).not.toBeNull();
    const prisma = await db();
    expect(
      await verifyPassword(
        (await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash,
        "my new passphrase 2026",
      ),
    ).toBe(true);
    expect(await prisma.auditEvent.count({ where: { entityId: user.id, action: "user.change_password" } })).toBe(1);
  });

  it("deactivation revokes sessions and API tokens at once, audited; reactivation restores sign-in only", async () => {
    const admin = await makeActor(["ADMIN"]);
    const user = await makeActor(["APPROVER"]);
    const { token } = await createApiToken(user, "pipeline");
    const signedIn = Date.now() - 1000;
    expect(await actorForToken(token)).not.toBeNull();
    await expect(setUserActive(admin, admin.id, false)).rejects.toMatchObject({ code: "CONFLICT" });
    await setUserActive(admin, user.id, false, { ip: "198.51.100.4" });
    expect(await actorById(user.id, signedIn)).toBeNull();
    expect(await actorForToken(token)).toBeNull();
    await setUserActive(admin, user.id, true);
    expect(await actorById(user.id, signedIn)).toBeNull(); // the old session stays void
    expect(await actorById(user.id, Date.now() + 1)).not.toBeNull(); // a new sign-in works
    expect(await actorForToken(token)).toBeNull(); // and so does the token's revocation
    const prisma = await db();
    const events = await prisma.auditEvent.findMany({
      where: { entityId: user.id, action: { in: ["user.deactivate", "user.reactivate"] } },
      orderBy: { id: "asc" },
      select: { action: true, actorId: true, after: true, ip: true },
    });
    expect(events).toMatchObject([
      { action: "user.deactivate", actorId: admin.id, after: { active: false, tokensRevoked: 1 }, ip: "198.51.100.4" },
      { action: "user.reactivate", actorId: admin.id },
    ]);
    // Reactivation restarts the approver clock.
    const { approverSince } = await prisma.user.findUniqueOrThrow({
      where: { id: user.id },
      select: { approverSince: true },
    });
    expect(Date.now() - approverSince!.getTime()).toBeLessThan(60_000);
  });
});
