import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/**
 * A local SMTP server for the tests: every delivered mail is written, raw, into `folder` as
 * `<n>-<recipient>.eml`, where a test (vitest or an e2e spec in another process) reads it back.
 * No TLS and no authentication: it listens on 127.0.0.1 only.
 */
export async function startSmtpSink(
  folder: string,
  port = 0,
): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  mkdirSync(folder, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        writeFileSync(
          path.join(folder, `${String(++count).padStart(4, "0")}-${to.replace(/[^a-z0-9@._-]/gi, "_")}.eml`),
          Buffer.concat(chunks),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const actual = typeof address === "object" && address ? address.port : port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The mails delivered to `to` so far, oldest first, as raw text. */
export function mailsTo(folder: string, to: string): string[] {
  let files: string[] = [];
  try {
    files = readdirSync(folder).sort();
  } catch {
    return [];
  }
  return files
    .filter((f) => f.slice(5).startsWith(to.replace(/[^a-z0-9@._-]/gi, "_")))
    .map((f) => readFileSync(path.join(folder, f), "utf8"));
}

/** The invitation link of a raw mail (its body may be quoted-printable: soft line breaks and =XX). */
export function invitationLinkIn(raw: string): string | null {
  const text = raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text.match(/https?:\/\/\S+\/invite\?token=vdi_[A-Za-z0-9_-]+/)?.[0] ?? null;
}

/** Where an e2e server's SMTP sink writes the mails of the app on `port` (the specs read them there). */
export const e2eMailDir = (port: number | string) => path.join(tmpdir(), `verdict-e2e-mail-${port}`);
