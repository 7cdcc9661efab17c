import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { db } from "@/lib/server/db";
import { verifyPassword } from "@/lib/server/identity/passwords";
import { acceptInvitation } from "@/lib/server/identity/invitations";
import { actorById } from "@/lib/server/actors";
import { actorForToken, createApiToken } from "@/lib/server/identity/api-tokens";
import { makeActor, unique } from "@/test/factories";
import { dropDatabase, recreateDatabase } from "@/test/database";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// The operator commands, spawned as `npx verdict user …` runs. `create` is for the first admin of
// an installation, so its tests run on a database of their own that starts with no admin.
const fresh = `postgresql://postgres@127.0.0.1:5432/verdict_test_cli_user_${process.pid}`;
const onFresh = (env: Record<string, string> = {}) => ({ DATABASE_URL: fresh, DATABASE_MIGRATION_URL: fresh, ...env });

describe("verdict user create (the first admin)", { timeout: SPAWN_TIMEOUT }, () => {
  const client = new pg.Client({ connectionString: fresh });
  beforeAll(async () => {
    await recreateDatabase(fresh);
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await dropDatabase(fresh);
  });

  it("names the field of a bad email, a short password and an unknown role, creating nothing", async () => {
    const env = onFresh({ VERDICT_PASSWORD: "a-long-first-password" });
    const badEmail = await verdict(["user", "create", "--email", "not-an-email", "--name", "X Y", "--roles", "ADMIN"], {
      env,
    });
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toBe("verdict user create: email: Enter a valid email address.\n");
    const short = await verdict(["user", "create", "--email", "x@verdict.test", "--name", "X Y", "--roles", "ADMIN"], {
      env: onFresh({ VERDICT_PASSWORD: "short" }),
    });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/^verdict user create: password: Use at least 12 characters/);
    const role = await verdict(["user", "create", "--email", "x@verdict.test", "--name", "X Y", "--roles", "OWNER"], {
      env,
    });
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/^verdict user create: roles\.0: /);
    expect((await client.query(`SELECT count(*)::int AS n FROM "User"`)).rows[0].n).toBe(0);
  });

  it("creates the first admin with the password from standard input, audited with no actor; then refuses, pointing to invitations", async () => {
    const email = "first-admin@verdict.test";
    const result = await verdict(
      ["user", "create", "--email", email.toUpperCase(), "--name", "Ada Admin", "--roles", "admin"],
      { env: onFresh(), input: "a-long-first-password\nnot this line\n" },
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`Created ${email} (ADMIN).\n`);
    expect(result.code).toBe(0);
    const { rows } = await client.query(
      `SELECT u.id, u."passwordHash", e."actorId" FROM "User" u JOIN "AuditEvent" e ON e."entityId" = u.id AND e.action = 'user.create' WHERE u.email = $1`,
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].actorId).toBeNull();
    expect(await verifyPassword(rows[0].passwordHash, "a-long-first-password")).toBe(true);

    const second = await verdict(
      ["user", "create", "--email", "second@verdict.test", "--name", "Second Admin", "--roles", "ADMIN"],
      { env: onFresh({ VERDICT_PASSWORD: "a-long-first-password" }) },
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /^verdict user create: An active admin exists \(first-admin@verdict\.test\): enrol users by invitation.*verdict user invite/,
    );
    expect((await client.query(`SELECT count(*)::int AS n FROM "User"`)).rows[0].n).toBe(1);
  });
});

describe("verdict user invite / deactivate / reactivate", { timeout: SPAWN_TIMEOUT }, () => {
  it("invite prints a one-time link on which the person sets their own password", async () => {
    const email = `${unique("invitee")}@verdict.test`;
    const result = await verdict(
      ["user", "invite", "--email", email, "--name", unique("Ivy Invitee"), "--roles", "reviewer,approver"],
      { env: { VERDICT_PUBLIC_URL: "https://verdict.example.com" } },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const link = result.stdout.match(/^https:\/\/verdict\.example\.com\/invite\?token=(vdi_[\w-]+)$/m);
    expect(link, result.stdout).not.toBeNull();
    expect(result.stdout).toContain(`Invitation for ${email} (REVIEWER, APPROVER), valid until `);
    const user = await acceptInvitation(link![1]!, "my own passphrase 2026");
    expect(user).toMatchObject({ email, roles: ["REVIEWER", "APPROVER"] });
    const event = await (
      await db()
    ).auditEvent.findFirstOrThrow({
      where: { action: "user.invite", after: { path: ["email"], equals: email } },
      select: { actorId: true, after: true },
    });
    expect(event).toMatchObject({ actorId: null, after: { via: "operator" } });
    // Four-eyes enrolment: the signing roles await a second person; the operator may be that person.
    const pending = () =>
      db().then((p) => p.user.findUniqueOrThrow({ where: { id: user.id }, select: { signerConfirmedAt: true } }));
    expect((await pending()).signerConfirmedAt).toBeNull();
    const confirmed = await verdict(["user", "confirm", "--email", email]);
    expect(confirmed.stderr).toBe("");
    expect(confirmed.stdout).toBe(`Confirmed ${user.name}'s enrolment (granted by the operator).\n`);
    expect((await pending()).signerConfirmedAt).not.toBeNull();
    const again = await verdict(["user", "confirm", "--email", email]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already confirmed/);
  });

  it("deactivate revokes sessions and tokens at once; reactivate restores sign-in; an unknown email exits 1", async () => {
    const user = await makeActor(["ANALYST"]);
    const { token } = await createApiToken(user, "pipeline");
    const signedIn = Date.now() - 1000;
    const off = await verdict(["user", "deactivate", "--email", user.email]);
    expect(off.stdout).toBe(`Deactivated ${user.email}: sessions and API tokens revoked.\n`);
    expect(off.code).toBe(0);
    expect(await actorById(user.id, signedIn)).toBeNull();
    expect(await actorForToken(token)).toBeNull();
    const on = await verdict(["user", "reactivate", "--email", user.email]);
    expect(on.stdout).toBe(`Reactivated ${user.email}.\n`);
    expect(await actorById(user.id, Date.now() + 1)).not.toBeNull();
    const events = await (
      await db()
    ).auditEvent.findMany({
      where: { entityId: user.id, action: { in: ["user.deactivate", "user.reactivate"] } },
      orderBy: { id: "asc" },
      select: { action: true, actorId: true },
    });
    expect(events).toEqual([
      { action: "user.deactivate", actorId: null },
      { action: "user.reactivate", actorId: null },
    ]);
    const unknown = await verdict(["user", "deactivate", "--email", "nobody@verdict.test"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("verdict user deactivate: No user has the email nobody@verdict.test.\n");
  });
});
