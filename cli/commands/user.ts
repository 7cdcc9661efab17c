import { parseArgs } from "node:util";
import { createUserSchema } from "../../lib/schemas/user.ts";
import { database } from "../../lib/server/db.ts";
import { createUserAsOperator } from "../../lib/server/users.ts";

export const HELP = `usage: verdict user create --email EMAIL --name "PRINTED NAME" --roles ADMIN[,ANALYST,…]

Operator command against the configured database (DATABASE_URL, or the embedded one): creates a
user — typically the first admin of a new installation, who then manages everyone else on the
admin page. The password is read from the VERDICT_PASSWORD environment variable or, when it is
unset, from the first line of standard input (never from the command line, where it would land
in the shell history). At least 12 characters. Audited as user.create with no actor.`;

async function readPassword(): Promise<string> {
  if (process.env.VERDICT_PASSWORD) return process.env.VERDICT_PASSWORD;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== "create") {
    process.stdout.write(HELP + "\n");
    return sub === "--help" || sub === "-h" ? 0 : 2;
  }
  const { values } = parseArgs({ args: rest, strict: true, options: { email: { type: "string" }, name: { type: "string" }, roles: { type: "string" } } });
  const parsed = createUserSchema.safeParse({ email: values.email, name: values.name, roles: (values.roles ?? "").split(",").map((r) => r.trim().toUpperCase()).filter(Boolean), password: await readPassword() });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) process.stderr.write(`verdict user create: ${issue.path.join(".") || "input"}: ${issue.message}\n`);
    return 2;
  }
  const db = await database();
  try {
    const user = await createUserAsOperator(parsed.data);
    process.stdout.write(`Created ${user.email} (${user.roles.join(", ")}).\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`verdict user create: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await db.close();
  }
}
