#!/usr/bin/env node
// Launcher for the TypeScript CLI (cli/verdict.ts): registers tsx's loader in this process,
// resolved from this package, so it works from any working directory and through `npx verdict`.
// Commands that run the server's code path (decision, candidate, import, token, user, mail, audit, items, run) need Node's "react-server" export
// condition (lib/server modules import "server-only"), which can only be set at start-up: they
// run in a child Node process started with it, the tsx loader and this package's tsconfig.
import { register } from "tsx/esm/api";

const SERVER_COMMANDS = new Set(["decision", "candidate", "import", "token", "user", "mail", "audit", "items", "run"]);

if (SERVER_COMMANDS.has(process.argv[2]) && !process.execArgv.includes("--conditions=react-server")) {
  const { spawn } = await import("node:child_process");
  const { fileURLToPath } = await import("node:url");
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      import.meta.resolve("tsx"),
      fileURLToPath(new URL("../cli/verdict.ts", import.meta.url)),
      ...process.argv.slice(2),
    ],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: process.env.TSX_TSCONFIG_PATH ?? fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
      },
    },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
} else {
  register();
  await import(new URL("../cli/verdict.ts", import.meta.url).href);
}
