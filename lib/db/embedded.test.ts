import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openEmbedded } from "./connect";
import { readMigrations } from "./migrations";

// The embedded path (no DATABASE_URL): PGlite in a data folder, migrated when it opens.
const dir = mkdtempSync(path.join(tmpdir(), "verdict-pglite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("embedded PostgreSQL (PGlite)", () => {
  it("applies every migration on open, persists data, and reopens without reapplying", async () => {
    const dataDir = path.join(dir, "db");
    const first = await openEmbedded(dataDir);
    const user = await first.prisma.user.create({
      data: { email: "a@verdict.test", name: "A", roles: ["ANALYST", "REVIEWER"], passwordHash: "x" },
    });
    const applied = await first.pglite.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(applied.rows.map((r) => r.migration_name)).toEqual(readMigrations().map((m) => m.name));
    await first.close();

    const second = await openEmbedded(dataDir);
    const found = await second.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { roles: true } });
    expect(found.roles).toEqual(["ANALYST", "REVIEWER"]);
    const count = await second.pglite.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_prisma_migrations"`);
    expect(count.rows[0]!.n).toBe(readMigrations().length);
    // The audit trigger exists here too.
    await expect(second.pglite.query(`TRUNCATE "AuditEvent"`)).rejects.toThrow(/append-only/);
    await second.close();
  });

  it("refuses a second opener of the same folder while the first holds it, and takes over a stale lock", async () => {
    const dataDir = path.join(dir, "locked");
    const db = await openEmbedded(dataDir);
    // Simulate another live process holding the lock (pid 1 is always alive).
    writeFileSync(`${dataDir}.lock`, "1");
    await expect(openEmbedded(dataDir)).rejects.toThrow(/open in another process/);
    // A lock left by a process that no longer exists is stale.
    writeFileSync(`${dataDir}.lock`, "999999999");
    await db.close();
    const again = await openEmbedded(dataDir);
    await again.close();
  });
});
