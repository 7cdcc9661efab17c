import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, request, test, type Browser, type Page } from "@playwright/test";
import { e2eMailDir, invitationLinkIn, mailsTo } from "../test/smtp-sink";

/**
 * Enrolment as production does it (issue 11 §1): the admin invites a person on the admin page,
 * the invitation mail reaches the e2e server's SMTP sink (scripts/e2e-*-server.ts write every
 * mail into e2eMailDir(port)), and the person opens the link in a browser of their own and
 * chooses their password. THE ONE PLACE the specs enrol users; no spec creates users with passwords.
 * An admin, approver or reviewer role then awaits a second person's confirmation (four-eyes
 * enrolment, lib/auth/enrolment.ts): unless a spec asks for `{ confirm: false }` (to test that
 * step itself), the operator confirms it with `verdict user confirm`, as on a fresh install.
 */
export interface Person {
  name: string;
  email: string;
  password: string;
  /** Role names as the admin page's checkboxes read them: "ANALYST", "APPROVER"… */
  roles: string[];
}

const ROOT = path.resolve(import.meta.dirname, "..");
const mailDir = () => e2eMailDir(new URL(test.info().project.use.baseURL!).port);

const FOUR_EYES = ["ADMIN", "APPROVER", "REVIEWER"];

/** The database of the server this test's project runs against (the production projects have their own). */
function projectDatabaseUrl(): string {
  return test.info().project.name.startsWith("production")
    ? (process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production")
    : (process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e");
}

/** The operator confirms the person's granted role (`verdict user confirm`), when it needs confirming. */
export function confirmByOperator(person: Pick<Person, "email" | "roles">, databaseUrl = projectDatabaseUrl()): void {
  if (!person.roles.some((role) => FOUR_EYES.includes(role))) return;
  const out = spawnSync(
    process.execPath,
    [path.join(ROOT, "bin/verdict.mjs"), "user", "confirm", "--email", person.email],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" },
  );
  expect(out.status, out.stderr).toBe(0);
}

/** The admin (signed in on `admin`) invites `person`; the person accepts in their own browser context. */
export async function enrolByInvitation(
  admin: Page,
  browser: Browser,
  person: Person,
  { confirm = true }: { confirm?: boolean } = {},
): Promise<void> {
  await admin.goto("/admin/users");
  const form = admin.locator("form", { has: admin.getByRole("button", { name: "Send invitation" }) });
  await form.getByLabel("Printed name").fill(person.name);
  await form.getByLabel("Email").fill(person.email);
  for (const role of person.roles) await form.getByRole("checkbox", { name: role.toLowerCase(), exact: true }).check();
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(form.getByRole("status")).toHaveText(`Invitation sent to ${person.email}.`);
  // The admin never sees the link.
  expect(await admin.content()).not.toContain("vdi_");
  await acceptInvitationFromMail(browser, person.email, person.password);
  if (confirm) confirmByOperator(person);
}

/** The newest invitation link mailed to `email`, once the mail has arrived. */
export async function invitationLinkFor(email: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      () => {
        const mails = mailsTo(mailDir(), email);
        link = mails.length ? invitationLinkIn(mails[mails.length - 1]!) : null;
        return link;
      },
      { message: `an invitation mail to ${email}`, timeout: 15_000 },
    )
    .not.toBeNull();
  return link!;
}

/** The invited person opens the mailed link in a fresh browser context and sets their password. */
export async function acceptInvitationFromMail(browser: Browser, email: string, password: string): Promise<void> {
  const link = await invitationLinkFor(email);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Set your password" })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await page.getByLabel("New password").fill(password);
    await page.getByLabel("Repeat the password").fill(password);
    await page.getByRole("button", { name: "Set my password" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your password is set" })).toBeVisible();
  } finally {
    await context.close();
  }
}

/**
 * For API-only specs with no admin in the browser: the operator's `verdict user invite` prints
 * the link, and the person accepts it over HTTP (POST /api/v1/invitations/accept).
 */
export async function enrolByOperator(baseURL: string, databaseUrl: string, person: Person): Promise<void> {
  const out = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "bin/verdict.mjs"),
      "user",
      "invite",
      "--email",
      person.email,
      "--name",
      person.name,
      "--roles",
      person.roles.join(","),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, VERDICT_PUBLIC_URL: baseURL },
      encoding: "utf8",
    },
  );
  expect(out.status, out.stderr).toBe(0);
  const token = out.stdout.match(/\/invite\?token=(vdi_[\w-]+)/)?.[1];
  expect(token, out.stdout).toBeTruthy();
  // A context of its own per call: no kept-alive socket the server may have closed meanwhile.
  const http = await request.newContext({ baseURL });
  try {
    const res = await http.post("/api/v1/invitations/accept", {
      data: { token, password: person.password, confirm: person.password },
    });
    expect(res.status(), await res.text()).toBe(201);
  } finally {
    await http.dispose();
  }
  confirmByOperator(person, databaseUrl);
}
