import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";

/**
 * The processes of the scale-out spec (e2e/scale-out.spec.ts), started as an operator starts them:
 * `npm start` servers and `npm run worker` workers, each in a process group of its own, so that
 * `kill9` ends a server together with the `next start` child its start script runs — as `kill -9`
 * of a service's processes would. Each keeps its output, and the JSON job log lines it printed.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

export type JobLine = { time: string; event: string; job?: string; run?: number | null; pid: number } & Record<
  string,
  unknown
>;

export class AppProcess {
  readonly lines: JobLine[] = [];
  output = "";
  private readonly exited: Promise<unknown>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    let partial = "";
    child.stdout!.on("data", (d: Buffer) => {
      this.output += String(d);
      const lines = (partial + String(d)).split("\n");
      partial = lines.pop()!;
      for (const line of lines) if (line.startsWith("{")) this.lines.push(JSON.parse(line) as JobLine);
    });
    child.stderr!.on("data", (d: Buffer) => (this.output += String(d)));
    this.exited = once(child, "exit");
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL to the whole process group: no handler runs, sockets are closed by the kernel. */
  async kill9(): Promise<void> {
    if (this.alive) process.kill(-this.child.pid!, "SIGKILL");
    await this.exited;
  }
}

function startIn(name: string, args: string[], env: NodeJS.ProcessEnv): AppProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  return new AppProcess(name, child);
}

/** `npm start` (scripts/start.ts through tsx, as package.json runs it). */
export const startServer = (name: string, env: NodeJS.ProcessEnv) =>
  startIn(name, [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/start.ts"], env);

/** `npm run worker` (the same node command as package.json's). */
export const startWorker = (name: string, env: NodeJS.ProcessEnv) =>
  startIn(name, ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"], env);

export async function waitFor(ok: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
