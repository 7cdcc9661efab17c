import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { acceptInvitationFromMail } from "./enrol";

test("the server refuses a reviewer's analyst-only mutation and changes nothing", async ({ page, baseURL }) => {
  await signIn(page, "reviewer");
  const before = await (await page.request.get("/api/v1/decisions/demo-moderation")).json();
  // Same-origin request with the reviewer's session cookie: only the role check can refuse it.
  const response = await page.request.patch("/api/v1/decisions/demo-moderation", {
    data: { prevalence: 0.5 },
    headers: { origin: baseURL! },
  });
  expect(response.status()).toBe(403);
  expect((await response.json()).error.code).toBe("FORBIDDEN");
  const after = await (await page.request.get("/api/v1/decisions/demo-moderation")).json();
  expect(after.decision.prevalence).toBe(before.decision.prevalence);
});

test("the same request from the analyst passes the role check", async ({ page, baseURL }) => {
  await signIn(page, "analyst");
  const current = (await (await page.request.get("/api/v1/decisions/demo-moderation")).json()).decision;
  const response = await page.request.patch("/api/v1/decisions/demo-moderation", {
    data: { quorum: current.quorum },
    headers: { origin: baseURL! },
  });
  expect(response.status()).toBe(200);
  const invalid = await page.request.patch("/api/v1/decisions/demo-moderation", {
    data: { prevalence: 1.5 },
    headers: { origin: baseURL! },
  });
  expect(invalid.status()).toBe(422);
});

test("a cross-site mutation with the analyst's cookie is refused", async ({ page }) => {
  await signIn(page, "analyst");
  const response = await page.request.patch("/api/v1/decisions/demo-moderation", {
    data: { quorum: 2 },
    headers: { origin: "https://evil.example" },
  });
  expect(response.status()).toBe(403);
});

test("a reviewer gets the 403 page for the admin area; the API without a session answers 401", async ({
  page,
  playwright,
  baseURL,
}) => {
  await signIn(page, "reviewer");
  const response = await page.goto("/admin/users");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "403 — Not permitted" })).toBeVisible();

  const anonymous = await playwright.request.newContext({ baseURL });
  const api = await anonymous.get("/api/v1/decisions");
  expect(api.status()).toBe(401);
  await anonymous.dispose();
});

test("the admin invites a user with roles; the page never shows the link nor a password hash", async ({
  page,
  browser,
}) => {
  await signIn(page, "admin", "/admin/users");
  const email = `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@verdict.test`;
  const form = page.locator("form", { has: page.getByRole("button", { name: "Send invitation" }) });
  await form.getByLabel("Printed name").fill(`Eve Example ${Date.now()}`);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("reviewer").check();
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(form.getByRole("status")).toContainText(`Invitation sent to ${email}`);
  await expect(page.getByRole("cell", { name: email, exact: true })).toBeVisible();
  expect(await page.content()).not.toMatch(/vdi_|\$argon2/);
  await acceptInvitationFromMail(browser, email, "a-long-enough-password");
  await page.reload();
  await expect(page.getByRole("form", { name: `Roles of ${email}` })).toBeVisible();
});
