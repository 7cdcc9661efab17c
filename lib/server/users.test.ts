import { describe, expect, it } from "vitest";
import { db } from "./db";
import { createUser, listUsers, updateUserRoles } from "./users";
import { verifyPassword } from "./passwords";
import { makeActor, unique } from "@/test/factories";

describe("user administration", () => {
  it("an admin creates a user with an argon2id hash; nothing returned carries the hash", async () => {
    const admin = await makeActor(["ADMIN"]);
    const email = `${unique("new")}@verdict.test`;
    const user = await createUser(admin, { name: "New Person", email, password: "correct horse battery", roles: ["REVIEWER"] });
    expect(user).not.toHaveProperty("passwordHash");
    expect(JSON.stringify(await listUsers(admin))).not.toContain("argon2");
    const prisma = await db();
    const stored = await prisma.user.findUniqueOrThrow({ where: { email }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored.passwordHash, "correct horse battery")).toBe(true);
    expect(await verifyPassword(stored.passwordHash, "wrong")).toBe(false);
    const events = await prisma.auditEvent.findMany({ where: { entityId: user.id, action: "user.create" } });
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0]!.after)).not.toContain("argon2");
    expect(events[0]!.actorId).toBe(admin.id);
    expect(events[0]!.actorRoles).toEqual(["ADMIN"]);
  });

  it("refuses non-admins and changes nothing", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const email = `${unique("x")}@verdict.test`;
    await expect(createUser(analyst, { name: "X Y", email, password: "correct horse battery", roles: ["ADMIN"] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listUsers(analyst)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(updateUserRoles(analyst, analyst.id, ["ADMIN"])).rejects.toMatchObject({ code: "FORBIDDEN" });
    const prisma = await db();
    expect(await prisma.user.count({ where: { email } })).toBe(0);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: analyst.id } })).roles).toEqual(["ANALYST"]);
  });

  it("a duplicate email is a conflict and writes no audit event", async () => {
    const admin = await makeActor(["ADMIN"]);
    const email = `${unique("dup")}@verdict.test`;
    await createUser(admin, { name: "First", email, password: "correct horse battery", roles: ["ANALYST"] });
    await expect(createUser(admin, { name: "Second", email, password: "correct horse battery", roles: ["ANALYST"] })).rejects.toMatchObject({ code: "CONFLICT" });
    const prisma = await db();
    expect(await prisma.auditEvent.count({ where: { action: "user.create", actorId: admin.id } })).toBe(1);
  });

  it("records role changes with before and after; an admin cannot drop their own admin role", async () => {
    const admin = await makeActor(["ADMIN"]);
    const other = await makeActor(["REVIEWER"]);
    await updateUserRoles(admin, other.id, ["REVIEWER", "APPROVER"]);
    const prisma = await db();
    const event = await prisma.auditEvent.findFirstOrThrow({ where: { entityId: other.id, action: "user.update_roles" } });
    expect(event.before).toEqual({ roles: ["REVIEWER"] });
    expect(event.after).toEqual({ roles: ["REVIEWER", "APPROVER"] });
    await expect(updateUserRoles(admin, admin.id, ["ANALYST"])).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
