import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/canonical-json";
import { auditHashPayload, chainHash, GENESIS_HASH } from "@/lib/server/audit";
import { dropDatabase, recreateDatabase } from "@/test/database";

// A database of its own: this test tampers with the chain for good, which would break the
// chain checks of tests sharing the run's database.
const url = `postgresql://postgres@127.0.0.1:5432/verdict_test_cli_${process.pid}`;
const bin = path.resolve(import.meta.dirname, "../../bin/verdict.mjs");
const verify = () => spawnSync(process.execPath, [bin, "audit", "verify"], { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8", timeout: 120_000 });

describe("verdict audit verify", () => {
  const client = new pg.Client({ connectionString: url });
  beforeAll(async () => {
    await recreateDatabase(url);
    await client.connect();
    let prev = GENESIS_HASH;
    for (let i = 0; i < 3; i++) {
      const event = { actorId: null, actorRoles: [], action: "demo.seed", entityType: "Test", entityId: `e${i}`, decisionId: null, before: null, after: { i }, ip: null, userAgent: null, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) };
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

  it("exits 0 on an intact chain and 1 with the first broken link after a row is changed with the trigger disabled", async () => {
    const intact = verify();
    expect(intact.stdout).toMatch(/intact: 3 events/);
    expect(intact.status).toBe(0);

    await expect(client.query(`UPDATE "AuditEvent" SET "after" = '{"i": 9}' WHERE "entityId" = 'e1'`)).rejects.toThrow(/append-only/);
    await client.query(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
    await client.query(`UPDATE "AuditEvent" SET "after" = '{"i": 9}' WHERE "entityId" = 'e1'`);
    await client.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"`);
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "AuditEvent" WHERE "entityId" = 'e1'`);

    const broken = verify();
    expect(broken.stdout).toContain(`BROKEN at event ${rows[0]!.id} (content-hash-mismatch)`);
    expect(broken.status).toBe(1);
  });
});
