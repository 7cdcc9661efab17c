import { expect, test } from "@playwright/test";
import { signIn, type DemoRole } from "./helpers";

test("a signed-out visitor is redirected to sign-in, and comes back after signing in", async ({ page }) => {
  await page.goto("/decisions/demo-moderation");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdecisions%2Fdemo-moderation/);
  await expect(page.getByRole("heading", { name: "Sign in to Verdict" })).toBeVisible();
  await page.getByLabel("Email").fill("reviewer@verdict.demo");
  await page.getByLabel("Password").fill("demo-reviewer-2026");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/decisions\/demo-moderation$/);
});

for (const role of ["analyst", "reviewer", "approver1", "approver2", "admin"] as DemoRole[]) {
  test(`the demo ${role} signs in and out`, async ({ page }) => {
    const user = await signIn(page, role, role === "admin" ? "/admin/users" : "/decisions");
    await expect(page.getByRole("banner")).toContainText(user.name);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/decisions");
    await expect(page).toHaveURL(/\/sign-in/);
  });
}

test("a wrong password and an unknown email get the same message", async ({ page }) => {
  const messages: string[] = [];
  for (const [email, password] of [
    ["analyst@verdict.demo", "wrong-password"],
    ["nobody@verdict.demo", "wrong-password"],
  ]) {
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(email!);
    await page.getByLabel("Password").fill(password!);
    await page.getByRole("button", { name: "Sign in" }).click();
    const status = page.locator("#sign-in-error");
    await expect(status).toBeVisible();
    messages.push((await status.textContent()) ?? "");
  }
  expect(messages[0]).toBe(messages[1]);
});
