import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { enrolByOperator } from "./enrol";

/**
 * The drill-down on the production server (`npm start`, empty database, no demo): a decision built
 * from scratch by the API — two candidates, a labelled dataset, each candidate's predictions, the
 * runs computed by the job queue — then its items read by HTTP (role checks, a bad parameter named,
 * keyset pages, the CSV), by the CLI, and in Chromium from the pack's confusion matrix.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const PASSWORD = "drill-down reviewer passphrase 2026";

function verdict(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL, ...env },
    encoding: "utf8",
  });
}

async function user(baseURL: string, role: string) {
  const email = `drill-${role.toLowerCase()}-${randomUUID().slice(0, 8)}@acme.test`;
  await enrolByOperator(baseURL, DATABASE_URL, {
    email,
    name: `Drill ${role} ${email.split("-")[2]!.split("@")[0]}`,
    roles: [role],
    password: PASSWORD,
  });
  const token = verdict(["token", "create", "--email", email]);
  expect(token.status, token.stderr).toBe(0);
  return { email, token: token.stdout.trim() };
}

// Eleven items at t = 0.5; A has a parse failure on positive i04 and no prediction for i05.
const DATASET = [
  "id,label,slice,text",
  "i01,fraud,wire,Invoice 1 from a new supplier",
  "i02,fraud,wire,Invoice 2 with a changed IBAN",
  "i03,fraud,card,Invoice 3 paid twice",
  "i04,fraud,card,Invoice 4 with a forged stamp",
  "i05,fraud,wire,Invoice 5 for services never rendered",
  "i06,legit,,Invoice 6 monthly rent",
  'i07,legit,,"=SUM(A1:A9), a formula in the text"',
  "i08,legit,card,Invoice 8 office chairs",
  "i09,legit,,Invoice 9 cloud hosting",
  "i10,legit,,Invoice 10 catering",
  "i11,fraud,card,Invoice 11 from a shell company",
].join("\n");
const PREDICTIONS_A = [
  "id,score,parse_failure",
  "i01,0.9,false",
  "i02,0.2,false",
  "i03,0.4,false",
  "i04,,true",
  "i06,0.7,false",
  "i07,0.95,false",
  "i08,0.1,false",
  "i09,0.3,false",
  "i10,0.5,false",
  "i11,0.2,false",
].join("\n");
const PREDICTIONS_B = [
  "id,score",
  "i01,0.8",
  "i02,0.7",
  "i03,0.1",
  "i04,0.6",
  "i05,0.9",
  "i06,0.2",
  "i07,0.9",
  "i08,0.6",
  "i09,0.1",
  "i10,0.4",
  "i11,0.3",
].join("\n");

let analyst: APIRequestContext;
let reviewer: APIRequestContext;
let admin: APIRequestContext;
let reviewerEmail = "";
let reviewerToken = "";

test.beforeAll(async ({ playwright, baseURL }) => {
  // Each user is enrolled by the operator's invitation and accepted over HTTP (argon2), then given a token: CLI processes on a busy machine.
  test.setTimeout(120_000);
  const a = await user(baseURL!, "ANALYST");
  const r = await user(baseURL!, "REVIEWER");
  const o = await user(baseURL!, "ADMIN");
  reviewerEmail = r.email;
  reviewerToken = r.token;
  analyst = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${a.token}` } });
  reviewer = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${r.token}` } });
  admin = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${o.token}` } });
});

test.afterAll(async () => {
  await Promise.all([analyst.dispose(), reviewer.dispose(), admin.dispose()]);
});

type Page = {
  items: { id: string; cell: string; score: number | null; parseFailure: boolean; missing: boolean }[];
  next: string | null;
  previous: string | null;
  total: number | null;
  filter: { cell: string; vs: number | null };
};

test("a decision from scratch: its items by HTTP, by the CLI and from the pack's confusion matrix in Chromium", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const created = await analyst.post("/api/v1/decisions", {
    data: {
      title: "Invoice fraud drill-down",
      description: "",
      positiveClass: "fraud",
      prevalence: 0.05,
      costFn: 100,
      costFp: 2,
      currency: "EUR",
      recallFloor: 0.8,
      operatingThreshold: 0.5,
      operatingRule: "FIXED",
      quorum: 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const decisionId = ((await created.json()) as { decision: { id: string } }).decision.id;
  const base = `/api/v1/decisions/${decisionId}`;
  const candidate = async (name: string) => {
    const res = await analyst.post(`${base}/candidates`, { data: { name, provider: "Acme" } });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { candidate: { id: string } }).candidate.id;
  };
  const [alpha, beta] = [await candidate("Alpha Fraud"), await candidate("Beta Fraud")];
  const dataset = await analyst.post(`${base}/datasets?name=invoices&negativeLabels=legit&filename=invoices.csv`, {
    data: DATASET,
    headers: { "content-type": "text/csv" },
  });
  expect(dataset.status(), await dataset.text()).toBe(201);
  const versionId = ((await dataset.json()) as { datasetVersionId: number }).datasetVersionId;
  const runOf = async (candidateId: string, csv: string) => {
    const res = await analyst.post(
      `${base}/predictions?candidateId=${candidateId}&datasetVersionId=${versionId}&filename=p.csv`,
      { data: csv, headers: { "content-type": "text/csv" } },
    );
    expect(res.status(), await res.text()).toBe(201);
    const runId = ((await res.json()) as { runId: number }).runId;
    await expect
      .poll(
        async () =>
          ((await (await analyst.get(`${base}/runs/${runId}`)).json()) as { run: { status: string } }).run.status,
        { timeout: 90_000 },
      )
      .toBe("DONE");
    return runId;
  };
  const runA = await runOf(alpha, PREDICTIONS_A);
  const runB = await runOf(beta, PREDICTIONS_B);
  const items = `${base}/runs/${runA}/items`;

  // HTTP: who may read the pack may read its items; nobody else.
  expect((await admin.get(items)).status()).toBe(403);
  const anonymous = await page.request.get(items);
  expect(anonymous.status()).toBe(401);
  const bad = await reviewer.get(`${items}?cell=FX&limit=0&offset=10`);
  expect(bad.status()).toBe(422);
  const fields = ((await bad.json()) as { error: { details: { issues: { field: string }[] } } }).error.details.issues
    .map((i) => i.field)
    .sort();
  expect(fields).toEqual(["cell", "limit", "offset"]);
  expect((await reviewer.get(`${base}/runs/999999/items`)).status()).toBe(404);

  // FN first (by score, ties by id: the parse failure and the missing prediction score 0), paged by cursors.
  const p1 = (await (await reviewer.get(`${items}?cell=FN&limit=2`)).json()) as Page;
  expect(p1.items.map((i) => i.id)).toEqual(["i04", "i05"]);
  expect(p1.items.map((i) => [i.parseFailure, i.missing])).toEqual([
    [true, false],
    [false, true],
  ]);
  expect(p1.total).toBe(5);
  expect(p1.previous).toBeNull();
  const p2 = (await (await reviewer.get(`${items}?cell=FN&limit=2&after=${p1.next}`)).json()) as Page;
  expect(p2.items.map((i) => i.id)).toEqual(["i02", "i11"]);
  const back = (await (await reviewer.get(`${items}?cell=FN&limit=2&before=${p2.previous}`)).json()) as Page;
  expect(back.items.map((i) => i.id)).toEqual(["i04", "i05"]);
  const all = (await (await reviewer.get(`${items}?limit=500`)).json()) as Page;
  expect(all.items.map((i) => i.id)).toEqual([
    "i04",
    "i05",
    "i02",
    "i11",
    "i03",
    "i07",
    "i06",
    "i10",
    "i01",
    "i09",
    "i08",
  ]);
  const vs = (await (await reviewer.get(`${items}?vs=${runB}`)).json()) as Page;
  expect(vs.filter).toMatchObject({ cell: "errors", vs: runB });
  expect(vs.items.map((i) => i.id)).toEqual(["i04", "i05", "i02", "i06", "i10"]);
  const csv = await reviewer.get(`${items}?cell=FP&format=csv`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect((await csv.text()).split("\r\n")).toEqual([
    "id,cell,label,score,predicted,parse_failure,missing,slice,text",
    `i07,FP,0,0.95,,0,0,,"'=SUM(A1:A9), a formula in the text"`,
    "i06,FP,0,0.7,,0,0,,Invoice 6 monthly rent",
    "i10,FP,0,0.5,,0,0,,Invoice 10 catering",
    "",
  ]);

  // The CLI, as the reviewer's token.
  const cli = verdict([
    "items",
    "--decision",
    decisionId,
    "--run",
    String(runA),
    "--cell",
    "FN",
    "--slice",
    "card",
    "--token",
    reviewerToken,
  ]);
  expect(cli.status, cli.stderr).toBe(0);
  expect((JSON.parse(cli.stdout) as Page).items.map((i) => i.id)).toEqual(["i04", "i11", "i03"]);

  // Chromium: from the FN cell of Alpha's confusion matrix to its items, and on to the next page.
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(`/decisions/${decisionId}`)}`);
  await page.getByLabel("Email").fill(reviewerEmail);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("link", { name: "Alpha Fraud: the 5 items in FN" }).click({ timeout: 60_000 });
  await expect(page.getByTestId("drill-total")).toHaveText("5");
  const rows = page.getByTestId("drill-items").locator("tbody tr");
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toHaveAttribute("data-item", "i04");
  await expect(rows.first()).toContainText("parse failure (counts as an error)");
  await expect(rows.nth(1)).toContainText("no prediction (counts as an error)");
  await page.getByLabel("Only errors this candidate makes vs").selectOption({ label: `Beta Fraud (run #${runB})` });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("drill-summary")).toContainText(
    "only the errors Alpha Fraud makes and Beta Fraud does not",
  );
  await expect(rows).toHaveCount(3); // FN only A misses: i04, i05, i02
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("drill-csv").click()]);
  expect(download.suggestedFilename()).toBe(`run-${runA}-FN-vs-${runB}.csv`);
});
