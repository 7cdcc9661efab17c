import { parseArgs } from "node:util";
import { createUserSchema, inviteUserSchema } from "../../lib/schemas/user.ts";
import { database } from "../../lib/server/db.ts";
import { env } from "../../lib/env.ts";
import { createUserAsOperator, setUserActive, userIdByEmail } from "../../lib/server/identity/users.ts";
import { inviteUserAsOperator } from "../../lib/server/identity/invitations.ts";
import { confirmSigner } from "../../lib/server/identity/enrolment.ts";

export const HELP = `usage: verdict user create --email EMAIL --name "PRINTED NAME" --roles ADMIN[,ANALYST,…]
       verdict user invite --email EMAIL --name "PRINTED NAME" --roles APPROVER[,…]
       verdict user deactivate --email EMAIL
       verdict user reactivate --email EMAIL
       verdict user confirm --email EMAIL

Operator commands against the configured database (DATABASE_URL, or the embedded one).

create      The FIRST admin of a new installation only (refused once an active admin exists).
            The password is read from VERDICT_PASSWORD or, when it is unset, from the first line
            of standard input (never from the command line). At least 12 characters.
invite      Enrols a user by a one-time link, valid 72 hours, printed here (the person chooses
            their password on it). Links start with VERDICT_PUBLIC_URL (or AUTH_URL). Admins
            invite on the admin page, where the link goes by mail.
deactivate  Ends the user's access at once: sessions and API tokens are revoked.
reactivate  Restores sign-in (old sessions and tokens stay revoked); admin, approver and reviewer
            roles then await confirmation again.
confirm     Confirms, as the operator, the admin, approver or reviewer role someone granted the user
            (four-eyes enrolment): until a second person confirms it — another admin or a confirmed
            approver in the app, or the operator here — the account cannot sign. On a fresh install
            with one admin, this is how its first signers are confirmed.
All are audited (no actor: the operator).`;

async function readPassword(): Promise<string> {
  const { VERDICT_PASSWORD } = env();
  if (VERDICT_PASSWORD) return VERDICT_PASSWORD;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
}

const OPTIONS = { email: { type: "string" }, name: { type: "string" }, roles: { type: "string" } } as const;
const rolesOf = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((r) => r.trim().toUpperCase())
    .filter(Boolean);

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!["create", "invite", "deactivate", "reactivate", "confirm"].includes(sub ?? "")) {
    process.stdout.write(HELP + "\n");
    return sub === "--help" || sub === "-h" ? 0 : 2;
  }
  const fail = (message: string) => {
    process.stderr.write(`verdict user ${sub}: ${message}\n`);
    return 1;
  };
  const { values } = parseArgs({ args: rest, strict: true, options: OPTIONS });
  const input =
    sub === "create"
      ? createUserSchema.safeParse({
          email: values.email,
          name: values.name,
          roles: rolesOf(values.roles),
          password: await readPassword(),
        })
      : sub === "invite"
        ? inviteUserSchema.safeParse({ email: values.email, name: values.name, roles: rolesOf(values.roles) })
        : null;
  if (input && !input.success) {
    for (const issue of input.error.issues)
      process.stderr.write(`verdict user ${sub}: ${issue.path.join(".") || "input"}: ${issue.message}\n`);
    return 2;
  }
  if (!input && !values.email) {
    fail("--email is required.");
    return 2;
  }
  const db = await database();
  try {
    if (sub === "create" && input?.success) {
      const user = await createUserAsOperator(createUserSchema.parse(input.data));
      process.stdout.write(`Created ${user.email} (${user.roles.join(", ")}).\n`);
    } else if (sub === "invite" && input?.success) {
      const { invitation, link, hasBase } = await inviteUserAsOperator(input.data);
      process.stdout.write(
        `Invitation for ${invitation.email} (${invitation.roles.join(", ")}), valid until ${invitation.expiresAt.toISOString()}:\n${link}\n`,
      );
      if (!hasBase)
        process.stdout.write("(VERDICT_PUBLIC_URL is not set: prefix the link with this server's address.)\n");
    } else if (sub === "confirm") {
      const user = await confirmSigner({ operator: true }, await userIdByEmail(values.email!));
      process.stdout.write(`Confirmed ${user.name}'s enrolment (granted by ${user.grantedBy}).\n`);
    } else {
      const user = await setUserActive({ operator: true }, await userIdByEmail(values.email!), sub === "reactivate");
      process.stdout.write(
        sub === "reactivate"
          ? `Reactivated ${user.email}.\n`
          : `Deactivated ${user.email}: sessions and API tokens revoked.\n`,
      );
    }
    return 0;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  } finally {
    await db.close();
  }
}
