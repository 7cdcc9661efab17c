/**
 * `verdict` command line: a small dispatcher, one module per command in ./commands.
 * Each command exports `run(argv): Promise<number>` (the process exit code).
 */
import { checkEnv } from "../lib/env.ts";

type Command = { summary: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> };

const commands: Record<string, Command> = {
  metrics: {
    summary: "compute evaluation metrics of labelled scores (CSV, JSONL or Parquet; a file or stdin)",
    load: () => import("./commands/metrics"),
  },
  decision: {
    summary: "create a decision from a JSON file (the body of POST /api/v1/decisions)",
    load: () => import("./commands/decision"),
  },
  import: {
    summary: "import a dataset, predictions, a leaderboard or a serving benchmark into a decision",
    load: () => import("./commands/import"),
  },
  candidate: {
    summary: "attach stranded leaderboard rows to a candidate; their model names become its aliases",
    load: () => import("./commands/candidate"),
  },
  user: { summary: "create a user, e.g. the first admin (operator command)", load: () => import("./commands/user") },
  token: { summary: "create an API token for a user (operator command)", load: () => import("./commands/token") },
  mail: {
    summary: "send a test mail through VERDICT_SMTP_URL and print the server's answer (operator command)",
    load: () => import("./commands/mail"),
  },
  items: {
    summary: "list an eval run's items behind a figure of the pack (a cell, slice or operating point; CSV)",
    load: () => import("./commands/items"),
  },
  run: {
    summary:
      "run a candidate's endpoint over the evaluation dataset: start, sweep, watch, cancel; set the protocol and endpoints",
    load: () => import("./commands/run"),
  },
  audit: {
    summary: "verify the audit trail's hash chain, signatures and revisions; print its head",
    load: () => import("./commands/audit"),
  },
};

export function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return [
    "usage: verdict <command> [options]",
    "",
    "commands:",
    ...lines,
    "",
    "Run `verdict <command> --help` for a command's options.",
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage() + "\n");
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`verdict: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  // A malformed variable stops every command, named (the CLI signs no sessions: no AUTH_SECRET needed).
  checkEnv({ production: false });
  return (await command.load()).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`verdict: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
