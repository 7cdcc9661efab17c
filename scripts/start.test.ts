import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { checkEnv as assertProductionSecrets } from "../lib/env";

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
