import { parseArgs } from "node:util";
import { AppError } from "../../lib/server/errors.ts";
import { redactedSmtpUrl, sendTestMail } from "../../lib/server/identity/mail.ts";

export const HELP = `usage: verdict mail test --to ADDRESS

Operator command: sends a test mail, like an invitation, through the mail server of
VERDICT_SMTP_URL (from VERDICT_MAIL_FROM, with a link to VERDICT_PUBLIC_URL) and prints the
server's answer — its reply and the message id — so you know invitations will arrive.
Touches no database and records nothing.

Exit code 0: the server accepted the mail. 1: mail is not configured, or the server refused it
(its reason is printed). 2: invalid options.`;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h") {
    process.stdout.write(HELP + "\n");
    return sub ? 0 : 2;
  }
  if (sub !== "test") {
    process.stderr.write(`verdict mail: unknown subcommand "${sub}"\n\n${HELP}\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { to: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  if (!values.to || !/^[^\s@]+@[^\s@]+$/.test(values.to)) {
    process.stderr.write("verdict mail test: --to is required: the address to send the test mail to\n");
    return 2;
  }
  try {
    const { config, receipt } = await sendTestMail(values.to);
    process.stdout.write(
      [
        `Sent a test mail to ${values.to} through ${redactedSmtpUrl(config.smtpUrl)}, from ${config.from}.`,
        `Server answer: ${receipt.response}`,
        `Message id: ${receipt.messageId}`,
        `Accepted: ${receipt.accepted.join(", ") || "none"}; rejected: ${receipt.rejected.join(", ") || "none"}`,
      ].join("\n") + "\n",
    );
    return receipt.accepted.length > 0 ? 0 : 1;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    process.stderr.write(`verdict mail test: ${error.message}\n`);
    return 1;
  }
}
