import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { signIn, demoUser } from "./helpers";

/**
 * Evidence uploads in the browser and through the API with a token, on a decision of this spec's
 * own (so the demo decision other specs read stays as it is).
 */
const DATABASE_URL = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e";

async function makeDecision(): Promise<{ decisionId: string; candidateId: string }> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [
      demoUser("analyst").email,
    ]);
    const decisionId = `e2e-ingest-${randomUUID().slice(0, 8)}`;
    const candidateId = `${decisionId}-cand`;
    await client.query(
      `INSERT INTO "Decision" (id, title, "positiveClass", prevalence, "costFn", "costFp", "recallFloor", "createdById", "updatedAt")
       VALUES ($1, $2, 'violating', 0.05, 100, 1, 0.8, $3, now())`,
      [decisionId, `Ingest ${decisionId}`, rows[0]!.id],
    );
    await client.query(
      `INSERT INTO "Candidate" (id, "decisionId", name, provider) VALUES ($1, $2, 'Ingest-Model-7B', 'e2e')`,
      [candidateId, decisionId],
    );
    return { decisionId, candidateId };
  } finally {
    await client.end();
  }
}

const DATASET =
  'id,label,text\r\nq1,violating,"Buy now, =HYPERLINK(""x"")"\r\nq2,benign,hello\r\nq3,1,"two\nlines"\r\nq4,0,ok\r\n';
const PREDICTIONS = "id,score,predicted\nq1,0.9,1\nq2,0.2,0\nq3,0.6,1\nq4,0.4,0\n";

function panel(page: Page, kind: string) {
  return page.getByTestId(`upload-${kind}`);
}

test("an analyst uploads a dataset and predictions in the browser and sees the run complete", async ({ page }) => {
  const { decisionId } = await makeDecision();
  await signIn(page, "analyst", `/decisions/${decisionId}/uploads`);
  await page.goto(`/decisions/${decisionId}/uploads`);
  await expect(page.getByRole("heading", { name: "Evidence uploads" })).toBeVisible();

  const dataset = panel(page, "dataset");
  await dataset.getByLabel(/Negative class names/).fill("benign");
  await dataset
    .locator('input[type="file"]')
    .setInputFiles({ name: "holdout.csv", mimeType: "text/csv", buffer: Buffer.from(DATASET) });
  await dataset.getByRole("button", { name: "Upload" }).click();
  await expect(dataset.getByRole("status")).toContainText("Imported 4 rows");
  await expect(page.getByTestId("progress-dataset")).toContainText("4 rows");

  // A bad file: every problem in a table, nothing imported.
  await dataset
    .locator('input[type="file"]')
    .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("id,label\nx,maybe\ny,1\ny,0\n") });
  await dataset.getByRole("button", { name: "Upload" }).click();
  const report = dataset.getByRole("alert");
  await expect(report).toContainText("The file was rejected");
  await expect(report.getByRole("table")).toContainText("outside the label mapping");

  const predictions = panel(page, "predictions");
  await expect(predictions.getByLabel("Dataset version")).toContainText("holdout v1 (4 items, 2 positive)");
  await predictions
    .locator('input[type="file"]')
    .setInputFiles({ name: "preds.csv", mimeType: "text/csv", buffer: Buffer.from(PREDICTIONS) });
  await predictions.getByRole("button", { name: "Upload" }).click();
  await expect(predictions.getByRole("status")).toContainText("Imported 4 rows");
  await expect(page.getByTestId("run-status")).toContainText("done", { timeout: 30_000 });
  await expect(page.getByTestId("run-status")).toContainText("4 items, 0 missing");
});

test("the API takes uploads with a token created on the settings page, with JSON errors", async ({ page, request }) => {
  const { decisionId, candidateId } = await makeDecision();
  await signIn(page, "analyst", "/settings");
  await page.goto("/settings");
  await page.getByLabel(/Name \(what will use it\)/).fill("e2e pipeline");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = await page.getByTestId("new-token").inputValue();
  expect(token).toMatch(/^vdt_/);

  const base = `/api/v1/decisions/${decisionId}`;
  const auth = { Authorization: `Bearer ${token}` };
  const noToken = await request.post(`${base}/datasets?name=api`, {
    data: DATASET,
    headers: { "Content-Type": "text/csv" },
  });
  expect(noToken.status()).toBe(401);

  const created = await request.post(`${base}/datasets?name=api&negativeLabels=benign&filename=api.csv`, {
    data: DATASET,
    headers: { ...auth, "Content-Type": "text/csv" },
  });
  expect(created.status()).toBe(201);
  const ds = await created.json();
  expect(ds).toMatchObject({ itemCount: 4, positiveCount: 2, version: 1, existing: false });
  const again = await request.post(`${base}/datasets?name=api&negativeLabels=benign&filename=api.csv`, {
    data: DATASET,
    headers: { ...auth, "Content-Type": "text/csv" },
  });
  expect(again.status()).toBe(200);
  expect(await again.json()).toMatchObject({ existing: true, importId: ds.importId });

  const bad = await request.post(
    `${base}/predictions?candidateId=${candidateId}&datasetVersionId=${ds.datasetVersionId}`,
    { data: "id,score\nq1,NaN\n", headers: { ...auth, "Content-Type": "text/csv" } },
  );
  expect(bad.status()).toBe(422);
  expect((await bad.json()).error.details).toMatchObject({
    errorCount: 1,
    errors: [{ line: 2, field: "score", value: "NaN", reason: "not a finite number" }],
  });

  const run = await request.post(
    `${base}/predictions?candidateId=${candidateId}&datasetVersionId=${ds.datasetVersionId}`,
    { data: PREDICTIONS, headers: { ...auth, "Content-Type": "text/csv" } },
  );
  expect(run.status()).toBe(201);
  const { runId } = await run.json();
  await expect
    .poll(async () => (await (await request.get(`${base}/runs/${runId}`, { headers: auth })).json()).run.status, {
      timeout: 30_000,
    })
    .toBe("DONE");

  // Revoked: the token stops working.
  await page.reload();
  await page.getByRole("button", { name: "Revoke token e2e pipeline" }).click();
  await expect(page.getByText(/revoked/).first()).toBeVisible();
  expect((await request.get(`${base}/runs/${runId}`, { headers: auth })).status()).toBe(401);
});
