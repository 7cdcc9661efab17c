import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { inheritedEnv } from "../lib/env.ts";

/** Runs a command to completion, inheriting stdio; rejects on a non-zero exit. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = inheritedEnv()): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
    child.on("error", reject);
  });
}

export function nextBin(): string {
  return path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
}

/**
 * The production server's command: Next behind the body guard (scripts/serve.ts), not bare
 * `next start`, which would let Next read oversize bodies itself.
 */
export function serveArgs(port: string, hostname?: string): string[] {
  return ["--import", "tsx", path.join(process.cwd(), "scripts", "serve.ts"), port, ...(hostname ? [hostname] : [])];
}

/** Starts the production server and forwards signals so Ctrl-C stops it (and frees the PGlite lock). */
export function startNext(port: string, env: NodeJS.ProcessEnv, hostname?: string): ChildProcess {
  const child = spawn(process.execPath, serveArgs(port, hostname), { stdio: "inherit", env });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code) => process.exit(code ?? 0));
  return child;
}

export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { redirect: "manual" });
      if (res.status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** A demo-only AUTH_SECRET, generated once and kept beside the embedded data. */
export function demoAuthSecret(): string {
  const file = path.join(process.cwd(), "data", "demo-auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
