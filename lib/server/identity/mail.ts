import "server-only";
import nodemailer from "nodemailer";
import { env, publicUrlOf } from "../../env";
import { AppError } from "../errors";

/**
 * Outgoing mail (invitations). The operator configures it with environment variables; without
 * VERDICT_SMTP_URL the app sends nothing and the admin's invitation is refused with this message,
 * because showing the link to the admin would let them enrol as anyone.
 */
export const SMTP_HELP =
  "Invitations go by email, and no mail server is configured. Set VERDICT_SMTP_URL (e.g. smtps://user:password@smtp.example.com), " +
  "VERDICT_MAIL_FROM and VERDICT_PUBLIC_URL (this server's address) and restart, or have the operator run `npx verdict user invite` on the server.";

export interface MailConfig {
  smtpUrl: string;
  from: string;
  publicUrl: string;
}

export function mailConfig(): MailConfig | null {
  const { VERDICT_SMTP_URL: smtpUrl, VERDICT_MAIL_FROM } = env();
  if (!smtpUrl) return null;
  const publicUrl = publicBaseUrl();
  if (!publicUrl)
    throw new AppError(
      "UNAVAILABLE",
      "VERDICT_SMTP_URL is set but VERDICT_PUBLIC_URL (or AUTH_URL) is not: the invitation mail needs this server's address for its link.",
    );
  return { smtpUrl, from: VERDICT_MAIL_FROM || "Verdict <verdict@localhost>", publicUrl };
}

/** The address users reach this server at, for links in mails and printed by the CLI. */
export function publicBaseUrl(): string | null {
  return publicUrlOf(env());
}

export async function sendMail(
  config: MailConfig,
  message: { to: string; subject: string; text: string },
): Promise<void> {
  const transport = nodemailer.createTransport(config.smtpUrl);
  try {
    await transport.sendMail({ from: config.from, ...message });
  } catch (error) {
    throw new AppError(
      "UNAVAILABLE",
      `The mail server did not accept the invitation (${error instanceof Error ? error.message : String(error)}); nothing was recorded.`,
    );
  } finally {
    transport.close();
  }
}

export const mailConfigured = () => Boolean(env().VERDICT_SMTP_URL);
