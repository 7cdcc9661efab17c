import { spawn } from "node:child_process";
import path from "node:path";

/** The repository root: the installed binary is `bin/verdict.mjs` there (`npx verdict`). */
export const root = path.resolve(import.meta.dirname, "../..");

/**
 * Per-test time limit: each run starts Node (twice for the server commands, under tsx) and a
 * test makes several; with every test file spawning at once on a small machine, 60 s is too tight.
 */
export const SPAWN_TIMEOUT = 240_000;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command line as a user does: a new Node process on bin/verdict.mjs, from the repository
 * root, with this test run's environment (DATABASE_URL is the run's test database). Variables
 * that would say who acts or hold a password are cleared unless the test sets them.
 */
export function verdict(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string | Buffer; cwd?: string } = {},
): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VERDICT_TOKEN: undefined,
    VERDICT_PASSWORD: undefined,
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    // From the root as `bin/verdict.mjs`; from elsewhere (`cwd`) by its absolute path.
    const bin = options.cwd ? path.join(root, "bin/verdict.mjs") : "bin/verdict.mjs";
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd ?? root,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
    child.stdin.on("error", () => {}); // a command that does not read stdin may exit before it is written
    child.stdin.end(options.input ?? "");
  });
}
