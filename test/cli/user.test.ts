import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { verifyPassword } from "@/lib/server/passwords";
import { unique } from "@/test/factories";

// The operator command runs against the test database (DATABASE_URL of this run).
const verdict = (args: string[], env: Record<string, string> = {}, input?: string) =>
  spawnSync(process.execPath, ["bin/verdict.mjs", ...args], { env: { ...process.env, ...env }, input, encoding: "utf8", timeout: 60_000 });

describe("verdict user create", () => {
  it("creates the first admin with the password from stdin, audited with no actor", async () => {
    const email = `${unique("admin")}@verdict.test`;
    const result = verdict(["user", "create", "--email", email, "--name", "Olu Operator", "--roles", "admin"], { VERDICT_PASSWORD: "" }, "a-long-first-password\n");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const prisma = await db();
    const user = await prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true, roles: true, passwordHash: true } });
    expect(user.roles).toEqual(["ADMIN"]);
    expect(await verifyPassword(user.passwordHash, "a-long-first-password")).toBe(true);
    const event = await prisma.auditEvent.findFirstOrThrow({ where: { entityId: user.id, action: "user.create" } });
    expect(event.actorId).toBeNull();
  });

  it("refuses a short password and an unknown role, creating nothing", async () => {
    const email = `${unique("bad")}@verdict.test`;
    const short = verdict(["user", "create", "--email", email, "--name", "X Y", "--roles", "ADMIN"], { VERDICT_PASSWORD: "short" });
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/password: Use at least 12 characters/);
    const role = verdict(["user", "create", "--email", email, "--name", "X Y", "--roles", "OWNER"], { VERDICT_PASSWORD: "a-long-first-password" });
    expect(role.status).toBe(2);
    expect(role.stderr).toMatch(/roles/);
    expect(await (await db()).user.count({ where: { email } })).toBe(0);
  });
});
