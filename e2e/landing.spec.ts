import { expect, test, type Page } from "@playwright/test";
import { demoUser, type DemoRole } from "./helpers";

/**
 * Each role's first screen is where its work is (lib/auth/home.ts): after a plain sign-in — no
 * page asked for — an admin lands on user administration, everyone else on the decisions list;
 * `/` sends a signed-in user to the same place. No first screen is a 403 or logs a console error.
 */
const LANDINGS: [DemoRole, RegExp, string][] = [
  ["admin", /\/admin\/users$/, "Users and roles"],
  ["analyst", /\/decisions$/, "Decisions"],
  ["reviewer", /\/decisions$/, "Decisions"],
  ["approver1", /\/decisions$/, "Decisions"],
];

function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

for (const [role, landing, heading] of LANDINGS) {
  test(`the ${role} signs in and lands on "${heading}", as \`/\` shows them too`, async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const user = demoUser(role);
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(landing, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByText("403 — Not permitted")).toHaveCount(0);

    await page.goto("/");
    await expect(page).toHaveURL(landing);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    // Already signed in, the sign-in page sends the user home as well.
    await page.goto("/sign-in");
    await expect(page).toHaveURL(landing);
    expect(errors).toEqual([]);
  });
}
