import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import { makeActor, makeDecision } from "@/test/factories";

const ROOT = path.resolve(import.meta.dirname, "../../..");

async function bigDataset(file: string, rows: number) {
  const out = createWriteStream(file);
  out.write("id,label,text\n");
  let chunk = "";
  for (let i = 0; i < rows; i++) {
    chunk += `item-${i.toString().padStart(9, "0")},${i % 7 === 0 ? 1 : 0},some text for row ${i}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}

describe("a process killed in the middle of an import", () => {
  it("leaves no partial rows and no Import row", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const dir = await mkdtemp(path.join(tmpdir(), "verdict-kill-"));
    const file = path.join(dir, "big.csv");
    await bigDataset(file, 3_000_000);
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      const child = spawn(
        process.execPath,
        [
          "--conditions=react-server",
          "--import",
          "tsx",
          "test/fixtures/ingest/import-child.ts",
          decisionId,
          analyst.id,
          file,
        ],
        {
          cwd: ROOT,
          env: { ...process.env },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      child.stdout.on("data", (d) => (output += String(d)));
      child.stderr.on("data", (d) => (output += String(d)));
      const exited = once(child, "exit");
      // Wait until its COPY into DatasetItem is running and has loaded rows, then SIGKILL it.
      const started = Date.now();
      let copying = false;
      while (Date.now() - started < 60_000) {
        const { rows } = await pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY "DatasetItem"%' AND state = 'active'`,
        );
        if (rows[0].n > 0) {
          copying = true;
          break;
        }
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(copying, output).toBe(true);
      await new Promise((r) => setTimeout(r, 400));
      child.kill("SIGKILL");
      const [code, signal] = await exited;
      expect(signal).toBe("SIGKILL");
      expect(code).toBeNull();
      expect(output).not.toContain("finished");
      // The server notices the dropped connection and aborts the transaction.
      for (let i = 0; i < 100; i++) {
        const { rows } = await pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY "DatasetItem"%'`,
        );
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const prisma = await db();
      expect(await prisma.import.count({ where: { decisionId } })).toBe(0);
      expect(await prisma.dataset.count({ where: { decisionId } })).toBe(0);
      expect(await prisma.datasetVersion.count({ where: { dataset: { decisionId } } })).toBe(0);
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM "DatasetItem" WHERE "itemId" LIKE 'item-%' AND "datasetVersionId" NOT IN (SELECT id FROM "DatasetVersion")`,
      );
      expect(rows[0].n).toBe(0);
      expect(await prisma.auditEvent.count({ where: { decisionId } })).toBe(0);
    } finally {
      await pool.end();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
