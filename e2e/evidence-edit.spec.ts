import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test("the analyst edits the task parameters and a rationale; the shared schema refuses bad input in the browser", async ({
  page,
}) => {
  await signIn(page, "analyst", "/decisions/demo-moderation");
  await page.getByRole("link", { name: "Edit the decision" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Edit:");

  // Client-side validation with the server's zod schema: π must lie in (0, 1).
  const prevalence = page.getByLabel("Deployment prevalence π");
  await prevalence.fill("1.5");
  await page.getByRole("button", { name: "Save the task parameters" }).click();
  await expect(page.getByText("Prevalence π must be below 1.")).toBeVisible();
  await prevalence.fill("0.02");

  // A rationale that only states a rank is refused; one that names the suite and says why is saved.
  const form = page.getByRole("form", { name: "Orca-34B" });
  const rationale = form.getByLabel("Shortlist rationale");
  await rationale.fill("Rank 2 on MMLU.");
  await form.getByRole("button", { name: "Save Orca-34B", exact: true }).click();
  await expect(form.getByText(/not just the rank \(at least 15 words\)/)).toBeVisible();
  const text =
    "Rank 2 on MMLU and HELM Lite; HELM's toxicity scenarios are closest to our task among public suites (same kind of content), though HELM scores them at balanced prevalence with its own prompt.";
  await rationale.fill(text);
  await form.getByRole("button", { name: "Save Orca-34B", exact: true }).click();
  await expect(form.getByText("Saved Orca-34B.")).toBeVisible();
  await page.screenshot({ path: "test-results/evidence-edit.png", fullPage: true });
});

test("a reviewer gets no edit link, and the server answers the edit page with 403", async ({ page }) => {
  await signIn(page, "reviewer", "/decisions/demo-moderation");
  await expect(page.getByRole("link", { name: "Edit the decision" })).toHaveCount(0);
  const response = await page.goto("/decisions/demo-moderation/edit");
  expect(response?.status()).toBe(403);
});
