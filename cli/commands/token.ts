import { parseArgs } from "node:util";
import { database } from "../../lib/server/db.ts";
import { actorByEmail } from "../../lib/server/actors.ts";
import { issueApiToken } from "../../lib/server/identity/api-tokens.ts";

export const HELP = `usage: verdict token create --email EMAIL [--name NAME]

Operator command, against the configured database (DATABASE_URL, or the embedded one):
creates an API token for the user and prints it once. Only its SHA-256 is stored; the user
can list and revoke it on their settings page. Use it as "Authorization: Bearer vdt_…".`;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h") {
    process.stdout.write(HELP + "\n");
    return sub ? 0 : 2;
  }
  if (sub !== "create") {
    process.stderr.write(`verdict token: unknown subcommand "${sub}"\n\n${HELP}\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { email: { type: "string" }, name: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  if (!values.email) {
    process.stderr.write("verdict token create: --email is required\n");
    return 2;
  }
  const db = await database();
  try {
    const user = await actorByEmail(values.email);
    if (!user) {
      process.stderr.write(`verdict token create: no active user ${values.email}\n`);
      return 1;
    }
    const name = values.name ?? "created with verdict token create";
    // The operator acts on the user's behalf: the event names the user as actor, via the CLI.
    const { token } = await db.prisma.$transaction((tx) => issueApiToken(tx, user, name, user, {}, "cli"));
    process.stdout.write(token + "\n");
    process.stderr.write(`Token for ${user.email} created; it is shown only this once.\n`);
    return 0;
  } finally {
    await db.close();
  }
}
