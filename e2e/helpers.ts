import { expect, type Page } from "@playwright/test";
import { DEMO_USERS } from "../lib/demo/users";

export type DemoRole = "analyst" | "reviewer" | "approver1" | "approver2" | "admin";

export function demoUser(role: DemoRole) {
  const user = DEMO_USERS.find((u) => u.email.startsWith(`${role}@`));
  if (!user) throw new Error(`no demo user ${role}`);
  return user;
}

export async function signIn(page: Page, role: DemoRole, next = "/decisions") {
  const user = demoUser(role);
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The first page after sign-in may be the evidence pack, the heaviest page to render.
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible({ timeout: 30_000 });
  return user;
}
