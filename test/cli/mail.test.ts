import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import { mailsTo, startSmtpSink } from "@/test/smtp-sink";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// `npx verdict mail test`, spawned as an operator runs it, against the tests' SMTP sink and a
// server that refuses every recipient.
const mailEnv = (smtpUrl: string | undefined) => ({
  VERDICT_SMTP_URL: smtpUrl,
  VERDICT_MAIL_FROM: "Verdict <verdict@mail-test.test>",
  VERDICT_PUBLIC_URL: "https://verdict.example.com",
});

describe("verdict mail test", { timeout: SPAWN_TIMEOUT }, () => {
  const folder = mkdtempSync(path.join(tmpdir(), "verdict-mail-test-"));
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const refusing = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onRcptTo(address, _session, callback) {
      const error = new Error(`mailbox ${address.address} unavailable`) as Error & { responseCode: number };
      error.responseCode = 550;
      callback(error);
    },
  });
  let refusingUrl = "";

  beforeAll(async () => {
    sink = await startSmtpSink(folder);
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", () => resolve()));
    const address = refusing.server.address();
    refusingUrl = `smtp://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await sink.close();
    await new Promise<void>((resolve) => refusing.close(() => resolve()));
    rmSync(folder, { recursive: true, force: true });
  });

  it("sends an invitation-style mail through VERDICT_SMTP_URL and prints the server's answer", async () => {
    const result = await verdict(["mail", "test", "--to", "ops@verdict.test"], { env: mailEnv(sink.url) });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `Sent a test mail to ops@verdict.test through ${sink.url}, from Verdict <verdict@mail-test.test>.\n`,
    );
    expect(result.stdout).toMatch(/^Server answer: 250 .+$/m);
    const messageId = result.stdout.match(/^Message id: (<[^>]+>)$/m)?.[1];
    expect(messageId).toBeDefined();
    expect(result.stdout).toContain("Accepted: ops@verdict.test; rejected: none\n");
    const [mail, ...more] = mailsTo(folder, "ops@verdict.test");
    expect(more).toEqual([]);
    expect(mail).toContain(`Message-ID: ${messageId}`);
    expect(mail).toContain("Subject: Verdict: test mail");
    expect(mail).toContain("https://verdict.example.com/sign-in");
  });

  it("says mail is not configured, naming VERDICT_SMTP_URL, and that the server refused, with its reason", async () => {
    const unset = await verdict(["mail", "test", "--to", "ops@verdict.test"], { env: mailEnv(undefined) });
    expect(unset.code).toBe(1);
    expect(unset.stdout).toBe("");
    expect(unset.stderr).toMatch(/^verdict mail test: Mail is not configured: VERDICT_SMTP_URL is not set\./);

    const refused = await verdict(["mail", "test", "--to", "ops@verdict.test"], { env: mailEnv(refusingUrl) });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(
      /^verdict mail test: The mail server did not accept the test mail: .*550.*unavailable/,
    );
  });

  it("asks for --to and names an unknown subcommand (exit 2)", async () => {
    const missing = await verdict(["mail", "test"], { env: mailEnv(sink.url) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--to is required/);
    const unknown = await verdict(["mail", "send"], { env: mailEnv(sink.url) });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown subcommand "send"/);
  });
});
