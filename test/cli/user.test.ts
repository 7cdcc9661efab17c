import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { verifyPassword } from "@/lib/server/passwords";
import { unique } from "@/test/factories";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// The operator command, spawned as `npx verdict user create` runs, against this run's test database.
describe("verdict user create", { timeout: SPAWN_TIMEOUT }, () => {
  it("creates an admin with the password from VERDICT_PASSWORD, audited with no actor", async () => {
    const email = `${unique("first-admin")}@verdict.test`;
    const result = await verdict(["user", "create", "--email", email.toUpperCase(), "--name", "Ada Admin", "--roles", "admin"], { env: { VERDICT_PASSWORD: "a-long-env-password" } });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`Created ${email} (ADMIN).\n`);
    expect(result.code).toBe(0);
    const prisma = await db();
    const user = await prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true, roles: true, passwordHash: true, active: true } });
    expect(user).toMatchObject({ roles: ["ADMIN"], active: true });
    expect(await verifyPassword(user.passwordHash, "a-long-env-password")).toBe(true);
    const event = await prisma.auditEvent.findFirstOrThrow({ where: { entityId: user.id, action: "user.create" } });
    expect(event.actorId).toBeNull();
  });

  it("reads the password from the first line of standard input when VERDICT_PASSWORD is unset", async () => {
    const email = `${unique("admin")}@verdict.test`;
    const result = await verdict(["user", "create", "--email", email, "--name", "Olu Operator", "--roles", "ADMIN,ANALYST"], { input: "a-long-first-password\nnot this line\n" });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const user = await (await db()).user.findUniqueOrThrow({ where: { email }, select: { roles: true, passwordHash: true } });
    expect(user.roles).toEqual(["ADMIN", "ANALYST"]);
    expect(await verifyPassword(user.passwordHash, "a-long-first-password")).toBe(true);
  });

  it("names the field of a bad email, a short password and an unknown role, creating nothing", async () => {
    const env = { VERDICT_PASSWORD: "a-long-first-password" };
    const badEmail = await verdict(["user", "create", "--email", "not-an-email", "--name", "X Y", "--roles", "ADMIN"], { env });
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toBe("verdict user create: email: Enter a valid email address.\n");
    expect(badEmail.stdout).toBe("");

    const email = `${unique("bad")}@verdict.test`;
    const short = await verdict(["user", "create", "--email", email, "--name", "X Y", "--roles", "ADMIN"], { env: { VERDICT_PASSWORD: "short" } });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/^verdict user create: password: Use at least 12 characters/);
    const role = await verdict(["user", "create", "--email", email, "--name", "X Y", "--roles", "OWNER"], { env });
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/^verdict user create: roles\.0: /);
    const prisma = await db();
    expect(await prisma.user.count({ where: { email } })).toBe(0);
    expect(await prisma.user.count({ where: { email: "not-an-email" } })).toBe(0);
  });

  it("refuses a second user with the same email (exit 1)", async () => {
    const email = `${unique("twice")}@verdict.test`;
    const env = { VERDICT_PASSWORD: "a-long-first-password" };
    expect((await verdict(["user", "create", "--email", email, "--name", "One", "--roles", "ANALYST"], { env })).code).toBe(0);
    const again = await verdict(["user", "create", "--email", email, "--name", "Two", "--roles", "ANALYST"], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^verdict user create: /);
  });
});
