import { expect, test, type Browser, type Page } from "@playwright/test";
import { demoUser, signIn, type DemoRole } from "./helpers";
import { cloneDemoDecision, importLeaderboardScore } from "./signoff-fixture";

const CHOICE = "Sentry-Guard-13B";

async function as(browser: Browser, role: DemoRole, path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, role, path);
  await page.goto(path);
  return page;
}

async function approve(page: Page, role: DemoRole, candidate: string) {
  await page.getByRole("button", { name: /Sign revision \d+…/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Meaning of the signature").selectOption("APPROVAL");
  await dialog.getByLabel("Candidate approved").selectOption({ label: candidate });
  await dialog.getByLabel("Reason").fill(`Lowest expected cost at π = 2% above the recall floor; meets every SLO (${role}).`);
  await dialog.getByLabel("Password (re-enter to sign)").fill(demoUser(role).password);
  await dialog.getByRole("button", { name: "Sign", exact: true }).click();
}

test("two approvers approve the same candidate on the same revision; a later change of evidence supersedes their signatures", async ({ browser }) => {
  test.setTimeout(120_000);
  const id = `e2e-signoff-${Date.now()}`;
  const path = `/decisions/${id}/review`;
  await cloneDemoDecision(id, "E2E sign-off decision");

  const analyst = await as(browser, "analyst", path);
  await analyst.getByRole("button", { name: "Submit for review" }).click();
  await expect(analyst.getByRole("status").filter({ hasText: "Submitted for review" })).toBeVisible();
  await expect(analyst.getByText("Current revision 1")).toBeVisible();

  const approver1 = await as(browser, "approver1", path);
  // A wrong password records nothing.
  await approver1.getByRole("button", { name: "Sign revision 1…" }).click();
  const dialog = approver1.getByRole("dialog");
  await dialog.getByLabel("Candidate approved").selectOption({ label: CHOICE });
  await dialog.getByLabel("Reason").fill("trying");
  await dialog.getByLabel("Password (re-enter to sign)").fill("not-my-password");
  await dialog.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(dialog.getByText("The password is not correct")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await approver1.reload();
  await expect(approver1.getByText("No signatures yet.")).toBeVisible();

  await approve(approver1, "approver1", CHOICE);
  await expect(approver1.getByTestId("signature-row")).toHaveCount(1);
  await expect(approver1.getByText(`${CHOICE} 1/2`)).toBeVisible();

  const approver2 = await as(browser, "approver2", path);
  await approve(approver2, "approver2", CHOICE);
  await expect(approver2.getByRole("region", { name: "Status" }).locator(".badge").first()).toHaveText("Approved");
  await approver2.reload();

  // The signatures in their §11.50 form.
  const rows = approver2.getByTestId("signature-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Amara Approver");
  await expect(rows.nth(1)).toContainText("Bo Approver");
  for (const i of [0, 1]) {
    await expect(rows.nth(i)).toContainText("Approved");
    await expect(rows.nth(i)).toContainText(CHOICE);
    await expect(rows.nth(i)).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    await expect(rows.nth(i)).toContainText(/[0-9a-f]{64}/);
    await expect(rows.nth(i)).toContainText("Current");
  }

  // Evidence changes after the approval (a new leaderboard import).
  await importLeaderboardScore(id, CHOICE);
  await approver1.reload();
  await expect(approver1.getByRole("alert").filter({ hasText: "The evidence changed after revision 1 was frozen" })).toBeVisible();
  await expect(approver1.getByTestId("signature-row").filter({ hasText: "Superseded" })).toHaveCount(2);
  await expect(approver1.getByText(/evidence\.leaderboardScores\[id=.*late-score\]/)).toBeVisible();

  // The analyst puts the changed evidence back into review: revision 2, revision 1 superseded.
  await analyst.reload();
  await analyst.getByRole("button", { name: "Submit the changed evidence for review" }).click();
  await expect(analyst.getByText("Current revision 2")).toBeVisible();
  const revisions = analyst.getByTestId("revision");
  // Newest first.
  await expect(revisions.nth(0)).toContainText(/Revision 2\s*Current/);
  await expect(revisions.nth(1)).toContainText(/Revision 1\s*Superseded/);
  await expect(analyst.getByTestId("signature-row").filter({ hasText: "Superseded" })).toHaveCount(2);
});
