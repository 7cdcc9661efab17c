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

/** What the mail server answered to a mail it accepted. */
export interface MailReceipt {
  messageId: string;
  /** The server's final reply, e.g. "250 2.0.0 Ok: queued as 4F3A1". */
  response: string;
  accepted: string[];
  rejected: string[];
}

interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Hands a mail to the SMTP server; throws nodemailer's error (the server's refusal) unchanged. */
async function deliverMail(config: MailConfig, message: MailMessage): Promise<MailReceipt> {
  const transport = nodemailer.createTransport(config.smtpUrl);
  try {
    const info = await transport.sendMail({ from: config.from, ...message });
    const addresses = (list: unknown[]) =>
      list.map((a) => (typeof a === "string" ? a : (a as { address: string }).address));
    return {
      messageId: info.messageId,
      response: info.response,
      accepted: addresses(info.accepted),
      rejected: addresses(info.rejected),
    };
  } finally {
    transport.close();
  }
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function sendMail(config: MailConfig, message: MailMessage): Promise<MailReceipt> {
  try {
    return await deliverMail(config, message);
  } catch (error) {
    throw new AppError(
      "UNAVAILABLE",
      `The mail server did not accept the invitation (${reasonOf(error)}); nothing was recorded.`,
    );
  }
}

/**
 * The operator's check that invitations will arrive (`verdict mail test`): a mail like an
 * invitation, through the same configuration, with a link to the sign-in page instead of a token.
 */
export async function sendTestMail(to: string): Promise<{ config: MailConfig; receipt: MailReceipt }> {
  const config = mailConfig();
  if (!config)
    throw new AppError(
      "UNAVAILABLE",
      "Mail is not configured: VERDICT_SMTP_URL is not set. Set it to your mail server " +
        "(e.g. smtps://user:password@smtp.example.com:465), with VERDICT_MAIL_FROM and VERDICT_PUBLIC_URL.",
    );
  try {
    const receipt = await deliverMail(config, {
      to,
      subject: "Verdict: test mail",
      text:
        "This is a test mail from Verdict. Invitations will arrive like this one, with a one-time link to this server:\n\n" +
        `${config.publicUrl}/sign-in\n\nNo account was created and nothing was recorded.\n`,
    });
    return { config, receipt };
  } catch (error) {
    throw new AppError("UNAVAILABLE", `The mail server did not accept the test mail: ${reasonOf(error)}`);
  }
}

/** The SMTP address with its password replaced, for printing. */
export function redactedSmtpUrl(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(VERDICT_SMTP_URL)";
  }
}

export const mailConfigured = () => Boolean(env().VERDICT_SMTP_URL);
