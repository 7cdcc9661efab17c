import { spawnSync } from "node:child_process";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { enrolByInvitation, enrolByOperator, invitationLinkFor, type Person } from "./enrol";

/**
 * Identity on the production server (issue 11 §1–2): no demo logins, mail through the SMTP sink
 * of scripts/e2e-production-server.ts. An admin (enrolled by the operator's invitation) invites a
 * user from the admin page; the link works once; the user signs in with the password they chose,
 * changes it (their other session ends), cannot sign with an API token, and is deactivated by
 * the admin (their session and token end at once) and reactivated.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const id = randomUUID().slice(0, 8);
const admin: Person = {
  name: `Identity Admin ${id}`,
  email: `identity-admin-${id}@acme.test`,
  password: "the admin's own passphrase",
  roles: ["ADMIN"],
};
const approver: Person = {
  name: `Ines Approver ${id}`,
  email: `ines-${id}@acme.test`,
  password: "ines chose this passphrase",
  roles: ["APPROVER"],
};

/** `next: null` signs in from the bare sign-in page: the user lands on their role's home. */
async function signIn(page: Page, person: Pick<Person, "email" | "password">, next: string | null = "/settings") {
  await page.goto(next ? `/sign-in?callbackUrl=${encodeURIComponent(next)}` : "/sign-in");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible({ timeout: 30_000 });
}

test.describe.serial("identity on the production server", () => {
  test.describe.configure({ timeout: 90_000 });

  test("an admin invites from the admin page; the mailed link sets the user's own password, once", async ({
    browser,
    baseURL,
  }) => {
    await enrolByOperator(baseURL!, DATABASE_URL, admin);
    const page = await (await browser.newContext()).newPage();
    // No page asked for: the admin's first screen is user administration, not a 403 (lib/auth/home.ts).
    await signIn(page, admin, null);
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole("heading", { level: 1, name: "Users and roles" })).toBeVisible();
    await enrolByInvitation(page, browser, approver);
    // The link is spent: opening it again says so and offers no form.
    const reopened = await (await browser.newContext()).newPage();
    await reopened.goto(await invitationLinkFor(approver.email));
    await expect(reopened.getByRole("alert").filter({ hasText: "already used" })).toBeVisible();
    await expect(reopened.getByLabel("New password")).toHaveCount(0);
    // The admin sees the user, never the link.
    await page.goto("/admin/users");
    await expect(page.getByRole("form", { name: `Roles of ${approver.email}` })).toBeVisible();
    expect(await page.content()).not.toContain("vdi_");
  });

  test("the user signs in with their password and changes it; their other session ends, this one stays", async ({
    browser,
  }) => {
    const first = await (await browser.newContext()).newPage();
    const second = await (await browser.newContext()).newPage();
    await signIn(first, approver);
    await signIn(second, approver);
    await second.goto("/settings/password");
    await second.getByLabel("Current password").fill(approver.password);
    await second.getByLabel("New password", { exact: true }).fill("ines changed her passphrase");
    await second.getByLabel("Repeat the new password").fill("ines changed her passphrase");
    await second.getByRole("button", { name: "Change password" }).click();
    await expect(second.getByRole("status")).toHaveText("Password changed. Your other sessions are signed out.");
    approver.password = "ines changed her passphrase";
    await second.goto("/settings");
    await expect(second.getByRole("button", { name: "Sign out" })).toBeVisible();
    await first.goto("/settings");
    await expect(first).toHaveURL(/\/sign-in/);
  });

  test("an API token cannot sign; deactivation ends the session and the token at once; reactivation restores sign-in", async ({
    browser,
    playwright,
    baseURL,
  }) => {
    const tokenOut = spawnSync(
      process.execPath,
      [path.join(ROOT, "bin/verdict.mjs"), "token", "create", "--email", approver.email],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL }, encoding: "utf8" },
    );
    expect(tokenOut.status, tokenOut.stderr).toBe(0);
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${tokenOut.stdout.trim()}` },
    });
    const signed = await api.post("/api/v1/decisions/any-decision/signatures", {
      data: {
        meaning: "APPROVAL",
        candidateId: "x",
        reason: "by script",
        email: approver.email,
        password: approver.password,
        revisionSha256: "0".repeat(64),
      },
    });
    expect(signed.status()).toBe(403);
    expect((await signed.json()).error.message).toMatch(/API tokens cannot sign/);
    expect((await api.get("/api/v1/decisions")).status()).toBe(200);

    const user = await (await browser.newContext()).newPage();
    await signIn(user, approver);
    const page = await (await browser.newContext()).newPage();
    await signIn(page, admin, "/admin/users");
    const account = page.getByRole("form", { name: `Account of ${approver.email}` });
    await account.getByRole("button", { name: `Deactivate ${approver.email}` }).click();
    await expect(account.getByRole("status")).toContainText("deactivated: their sessions and API tokens are revoked");
    await user.goto("/settings");
    await expect(user).toHaveURL(/\/sign-in/);
    expect((await api.get("/api/v1/decisions")).status()).toBe(401);
    await page.goto("/admin/users"); // the admin's own session is untouched
    await page
      .getByRole("form", { name: `Account of ${approver.email}` })
      .getByRole("button", { name: `Reactivate ${approver.email}` })
      .click();
    await expect(page.getByRole("form", { name: `Account of ${approver.email}` }).getByRole("status")).toContainText(
      "reactivated",
    );
    await signIn(user, approver);
    expect((await api.get("/api/v1/decisions")).status()).toBe(401); // the token stays revoked
    await api.dispose();
  });
});
