import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readMigrations } from "../lib/db/migrations";
import { checkEnv as assertProductionSecrets } from "../lib/env";
import { dropDatabase, recreateDatabase } from "../test/database";

/** The environment of a spawned `npm start`: this run's, without any database or embedded opt-in. */
function startEnv(values: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, AUTH_SECRET: "a-secret", ...values };
  for (const name of [
    "DATABASE_URL",
    "DATABASE_MIGRATION_URL",
    "VERDICT_EMBEDDED_DATABASE",
    "VERDICT_PUBLIC_URL",
    "AUTH_URL",
  ])
    if (!(name in values)) delete env[name];
  return env;
}

/**
 * Runs `npm start` (scripts/start.ts) until its log names the public URL — the last line before
 * Next starts — then stops it and waits for it to end (the embedded database's lock with it).
 */
function startLog(env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      if (/public URL/.test(stdout)) child.kill("SIGTERM");
    });
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", () => resolve({ stdout, stderr }));
  });
}

describe("production start", () => {
  it("`npm start` refuses to run without AUTH_SECRET, with a message that says what to do", () => {
    const env = { ...process.env, AUTH_SECRET: "", PORT: "3999" };
    delete (env as Record<string, string | undefined>).AUTH_SECRET;
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/refuses to start: AUTH_SECRET is not set/);
    expect(result.stderr).toMatch(/openssl rand/);
  });

  it("`npm start` without DATABASE_URL refuses the embedded database, naming the opt-in, and creates nothing", () => {
    const dataDir = path.join(tmpdir(), `verdict-start-refused-${process.pid}`);
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      env: startEnv({ PORT: "3999", VERDICT_DATA_DIR: dataDir }),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/refuses to start: DATABASE_URL is not set/);
    expect(result.stderr).toMatch(/VERDICT_EMBEDDED_DATABASE=1/);
    expect(result.stderr).toContain(dataDir);
    expect(result.stdout).not.toMatch(/migrations/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("with VERDICT_EMBEDDED_DATABASE=1 it runs on PGlite, logging its folder, the migrations applied, then none pending", async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "verdict-start-")), "pglite");
    const migrations = readMigrations().map((m) => m.name);
    try {
      const env = startEnv({ PORT: "3998", VERDICT_DATA_DIR: dataDir, VERDICT_EMBEDDED_DATABASE: "1" });
      const first = await startLog(env);
      expect(first.stdout).toContain(`Verdict: database embedded PGlite in ${dataDir}\n`);
      expect(first.stdout).toContain(`Verdict: migrations applied ${migrations.length}: ${migrations.join(", ")}\n`);
      expect(first.stdout).toMatch(/Verdict: public URL http:\/\/localhost:3998 — set VERDICT_PUBLIC_URL/);
      const second = await startLog(env);
      expect(second.stdout).toContain(`Verdict: migrations none pending (${migrations.length} applied earlier)\n`);
    } finally {
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  }, 240_000);

  it("on a PostgreSQL server it logs host, database and role but never the password, and the public URL", async () => {
    const url = `postgresql://postgres:never-printed-pw@127.0.0.1:5432/verdict_test_start_${process.pid}`;
    await recreateDatabase(url, { migrate: false });
    try {
      const { stdout, stderr } = await startLog(
        startEnv({ PORT: "3997", DATABASE_URL: url, VERDICT_PUBLIC_URL: "https://verdict.example.com/" }),
      );
      expect(stdout).toContain(
        `Verdict: database PostgreSQL 127.0.0.1:5432/verdict_test_start_${process.pid} as postgres\n`,
      );
      expect(stdout).toMatch(new RegExp(`Verdict: migrations applied ${readMigrations().length}: `));
      expect(stdout).toContain("Verdict: public URL https://verdict.example.com (listening on port 3997)\n");
      expect(stdout + stderr).not.toContain("never-printed-pw");
    } finally {
      await dropDatabase(url);
    }
  }, 240_000);

  it("`npm start`, the worker and the CLI refuse a malformed variable, naming it and what it expects", () => {
    const env = { ...process.env, AUTH_SECRET: "a-secret", PORT: "3999", DATABASE_POOL_SIZE: "ten" };
    const commands = [
      ["--import", "tsx", "scripts/start.ts"],
      ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"],
      ["bin/verdict.mjs", "user", "create", "--email", "a@b.c"],
    ];
    for (const args of commands) {
      const result = spawnSync(process.execPath, args, { env, encoding: "utf8", timeout: 30_000 });
      expect(result.status, args.join(" ")).toBe(1);
      expect(result.stderr).toMatch(/refuses to start/);
      expect(result.stderr).toMatch(
        /DATABASE_POOL_SIZE="ten": expected the pg pool size per app server, a positive whole number/,
      );
    }
  });

  it("the server's own start hook refuses too (a bare `next start` in production)", () => {
    const exit = process.exit;
    const error = console.error;
    const env = { ...process.env };
    let code: number | undefined;
    let message = "";
    try {
      process.env.AUTH_SECRET = "";
      (process.env as Record<string, string>).NODE_ENV = "production";
      process.exit = ((c?: number) => {
        code = c;
        throw new Error("exit");
      }) as typeof process.exit;
      console.error = (m: string) => void (message += m);
      expect(() => assertProductionSecrets()).toThrow("exit");
      expect(code).toBe(1);
      expect(message).toMatch(/AUTH_SECRET is not set/);
    } finally {
      process.exit = exit;
      console.error = error;
      Object.assign(process.env, env);
    }
  });
});
