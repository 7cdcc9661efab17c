import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { cloneDemoDecision, tamperWithAuditRow, tryToEditAudit } from "./signoff-fixture";

test("the audit page verifies the chain and lists the decision's sign-off events", async ({ page }) => {
  const id = `e2e-audit-${Date.now()}`;
  await cloneDemoDecision(id, "E2E audit decision");
  const analyst = page;
  await signIn(analyst, "analyst", `/decisions/${id}/review`);
  await analyst.goto(`/decisions/${id}/review`);
  await analyst.getByRole("button", { name: "Submit for review" }).click();
  await expect(analyst.getByText("Current revision 1")).toBeVisible();
  await analyst.goto(`/audit?decision=${id}`);
  await expect(analyst.getByTestId("audit-row").filter({ hasText: "decision.transition" })).toHaveCount(1);
  await expect(analyst.getByTestId("audit-row").filter({ hasText: "pack_revision.create" })).toHaveCount(1);
  await analyst.getByRole("button", { name: "Verify the chain" }).click();
  await expect(analyst.getByTestId("verify-result")).toContainText("Chain intact");

  // Editing or deleting audit rows in SQL is refused by the database.
  const refused = await tryToEditAudit(id);
  expect(refused.update).toMatch(/append-only/);
  expect(refused.delete).toMatch(/append-only/);

  // A row changed with the trigger disabled: the verify action names it as the first broken link.
  const tampered = await tamperWithAuditRow(id, "decision.transition");
  try {
    await analyst.reload();
    await expect(analyst.getByTestId("verify-result")).toContainText(`Chain broken at event ${tampered.id}`);
    await expect(analyst.getByTestId("verify-result")).toContainText("changed after it was written");
  } finally {
    await tampered.restore();
  }
  await analyst.reload();
  await expect(analyst.getByTestId("verify-result")).toContainText("Chain intact");
});
