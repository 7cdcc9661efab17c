import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/canonical-json";
import { auditHashPayload, chainHash, GENESIS_HASH } from "@/lib/server/audit/write";
import { dropDatabase, recreateDatabase } from "@/test/database";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// A database of its own: this test tampers with the chain for good, which would break the
// chain checks of tests sharing the run's database.
const url = `postgresql://postgres@127.0.0.1:5432/verdict_test_cli_${process.pid}`;
const verify = (...args: string[]) => verdict(["audit", "verify", ...args], { env: { DATABASE_URL: url } });

describe("verdict audit verify", { timeout: SPAWN_TIMEOUT }, () => {
  const client = new pg.Client({ connectionString: url });
  beforeAll(async () => {
    await recreateDatabase(url);
    await client.connect();
    let prev = GENESIS_HASH;
    for (let i = 0; i < 3; i++) {
      const event = {
        actorId: null,
        actorRoles: [],
        action: "demo.seed",
        entityType: "Test",
        entityId: `e${i}`,
        decisionId: null,
        before: null,
        after: { i },
        ip: null,
        userAgent: null,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      };
      const hash = chainHash(prev, auditHashPayload(event));
      await client.query(
        `INSERT INTO "AuditEvent" ("actorRoles", action, "entityType", "entityId", "after", "createdAt", "prevHash", hash) VALUES ('{}', $1, $2, $3, $4::jsonb, $5, $6, $7)`,
        [event.action, event.entityType, event.entityId, canonicalJson(event.after), event.createdAt, prev, hash],
      );
      prev = hash;
    }
  });
  afterAll(async () => {
    await client.end();
    await dropDatabase(url);
  });

  it("rejects an unknown subcommand or option with exit 2", async () => {
    expect((await verdict(["audit", "check"], { env: { DATABASE_URL: url } })).code).toBe(2);
    expect((await verify("--yaml")).code).toBe(2);
  });

  it("exits 0 on an intact chain, also after the CLI's own audited writes, and 1 with the first broken link after a row is changed with the trigger disabled", async () => {
    const intact = await verify();
    expect(intact.stdout).toMatch(/intact: 3 events/);
    expect(intact.code).toBe(0);

    // Events the command line itself writes extend the same chain.
    const env = { DATABASE_URL: url, VERDICT_PASSWORD: "a-long-first-password" };
    expect(
      (
        await verdict(
          ["user", "create", "--email", "chain@verdict.test", "--name", "Chain Keeper", "--roles", "ADMIN"],
          { env },
        )
      ).code,
    ).toBe(0);
    expect((await verdict(["token", "create", "--email", "chain@verdict.test"], { env })).code).toBe(0);
    const json = await verify("--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ intact: true, checked: 5 });
    expect(json.code).toBe(0);

    await expect(client.query(`UPDATE "AuditEvent" SET "after" = '{"i": 9}' WHERE "entityId" = 'e1'`)).rejects.toThrow(
      /append-only/,
    );
    await client.query(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
    await client.query(`UPDATE "AuditEvent" SET "after" = '{"i": 9}' WHERE "entityId" = 'e1'`);
    await client.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"`);
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "AuditEvent" WHERE "entityId" = 'e1'`);

    const broken = await verify();
    expect(broken.stdout).toContain(`BROKEN at event ${rows[0]!.id} (content-hash-mismatch)`);
    expect(broken.code).toBe(1);
  });
});
