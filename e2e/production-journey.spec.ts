import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { enrolByInvitation } from "./enrol";

/**
 * The production journey: `npm start` on an empty database without demo mode (the "production"
 * project's server, scripts/e2e-production-server.ts). The operator creates the first admin with
 * `verdict user create`; everything after that happens in the browser, one context per person —
 * the admin invites the analyst, the reviewer and two approvers, who each set their own password
 * on the mailed link (e2e/enrol.ts); the analyst creates a decision,
 * imports a real Open LLM Leaderboard v2 table and a real Chatbot Arena CSV, shortlists three
 * models found in both, writes their rationale and resemblance answers, uploads a labelled
 * dataset, each candidate's predictions and serving benchmark, and submits; the reviewer reviews;
 * both approvers approve the same candidate; the decision is APPROVED and its PDF names it.
 * Nothing here touches SQL.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const FIXTURES = path.join(ROOT, "test/fixtures/external");
// Real samples (see their SOURCE.txt): 51 rows, byte-exact, of the Open LLM Leaderboard v2 contents
// table (the 1,000-row file takes half a minute to import and makes the shortlist table slow to
// fill on a busy machine; the importer tests use it whole), and the Chatbot Arena table of
// 2023-12-06, unmodified, which still carries Arena Elo ratings.
const LEADERBOARD = "open-llm-leaderboard/open_llm_leaderboard_v2_contents.EXCERPT.csv";
const ARENA = "chatbot-arena/leaderboard_table_20231206.csv";

type Person = "admin" | "analyst" | "reviewer" | "approverA" | "approverB";
const PEOPLE: Record<Person, { name: string; email: string; password: string; role: string }> = {
  admin: {
    name: "Grace Operator",
    email: "grace.operator@example.com",
    password: "first admin passphrase 2025",
    role: "ADMIN",
  },
  analyst: {
    name: "Noor Analyst",
    email: "noor.analyst@example.com",
    password: "analyst passphrase 2025",
    role: "ANALYST",
  },
  reviewer: {
    name: "Rafael Reviewer",
    email: "rafael.reviewer@example.com",
    password: "reviewer passphrase 2025",
    role: "REVIEWER",
  },
  approverA: {
    name: "Aiko Approver",
    email: "aiko.approver@example.com",
    password: "approver A passphrase 2025",
    role: "APPROVER",
  },
  approverB: {
    name: "Bram Approver",
    email: "bram.approver@example.com",
    password: "approver B passphrase 2025",
    role: "APPROVER",
  },
};

/**
 * Three models that both files list, each under its own spelling. `positives` places the scores of
 * the positive items (offset + spread × noise): the first candidate catches every positive at the
 * 0.5 threshold, the second about 85 % (above the 0.8 recall floor), the third about a third (fails it).
 */
const CANDIDATES = [
  {
    name: "Yi-34B-Chat",
    provider: "01.AI",
    leaderboardName: "01-ai/Yi-34B-Chat",
    arenaName: "Yi-34B-chat",
    positives: [0.55, 0.44],
    seed: 1,
  },
  {
    name: "Zephyr-7B-beta",
    provider: "Hugging Face H4",
    leaderboardName: "HuggingFaceH4/zephyr-7b-beta",
    arenaName: "Zephyr-7b-beta",
    positives: [0.42, 0.55],
    seed: 2,
  },
  {
    name: "Zephyr-7B-alpha",
    provider: "Hugging Face H4",
    leaderboardName: "HuggingFaceH4/zephyr-7b-alpha",
    arenaName: "Zephyr-7b-alpha",
    positives: [0.1, 0.6],
    seed: 3,
  },
] as const;
const CHOICE = CANDIDATES[0];
const CITED_SUITES = ["IFEval", "Chatbot Arena"];

const ITEMS = 600;
const isPositive = (i: number) => i % 10 === 3; // 60 positives: 10 %
const itemId = (i: number) => `ticket-${String(i).padStart(4, "0")}`;
/** A deterministic number in [0, 1) per item and seed. */
const noise = (i: number, seed: number) => {
  const x = Math.sin(i * 12.9898 + seed * 78.233) * 43758.5453;
  return x - Math.floor(x);
};
const DATASET_CSV =
  ["id,label", ...Array.from({ length: ITEMS }, (_, i) => `${itemId(i)},${isPositive(i) ? 1 : 0}`)].join("\n") + "\n";
function predictionsCsv(candidate: (typeof CANDIDATES)[number]): string {
  const [offset, spread] = candidate.positives;
  const rows = Array.from({ length: ITEMS }, (_, i) => {
    const u = noise(i, candidate.seed);
    const score = isPositive(i) ? offset + spread * u : 0.6 * u;
    return `${itemId(i)},${score.toFixed(4)}`;
  });
  return ["id,score", ...rows].join("\n") + "\n";
}
/** Generic serving CSV: two load levels, both within the SLOs set below (p95 E2E ≤ 2000 ms, p95 TTFT ≤ 500 ms, ≥ 5 req/s at concurrency 16). */
function servingCsv(candidate: (typeof CANDIDATES)[number], k: number): string {
  return (
    [
      "model,tool,concurrency,request_throughput,completed,failed,mean_input_tokens,mean_output_tokens,ttft_p50_ms,ttft_p95_ms,e2e_p50_ms,e2e_p95_ms",
      `${candidate.name},vllm bench serve,1,${(1.9 - 0.2 * k).toFixed(1)},200,0,420,12,${90 + 10 * k},${140 + 10 * k},${480 + 40 * k},${610 + 40 * k}`,
      `${candidate.name},vllm bench serve,16,${(11.5 - k).toFixed(1)},800,0,420,12,${180 + 20 * k},${330 + 30 * k},${900 + 60 * k},${1400 + 80 * k}`,
    ].join("\n") + "\n"
  );
}
const rationale = (name: string) =>
  `${name} is shortlisted on its IFEval scores and its Chatbot Arena Elo rating. Our ticket triage prompt asks for one label in a fixed output format, ` +
  `which is what IFEval measures (verifiable instruction following), and the Arena rating shows how people judge its answers to open requests.`;

const pages = new Map<Person, Page>();
const contexts: BrowserContext[] = [];
let decisionId = "";

async function signIn(page: Page, who: Person) {
  const person = PEOPLE[who];
  await page.goto("/sign-in?callbackUrl=%2Fdecisions");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/** The person's own browser context, signed in once and kept for the whole journey. */
async function as(browser: Browser, who: Person): Promise<Page> {
  const known = pages.get(who);
  if (known) return known;
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, who);
  pages.set(who, page);
  return page;
}

/** Runs `verdict` as an operator would, against the production server's database. */
function verdict(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Drives one upload panel of the evidence page; returns it once the server has answered. */
async function upload(
  page: Page,
  kind: "dataset" | "predictions" | "leaderboard" | "serving",
  file: { name: string; mimeType: string; buffer: Buffer },
  { fill, timeout = 30_000 }: { fill?: (panel: Locator) => Promise<void>; timeout?: number } = {},
) {
  const panel = page.getByTestId(`upload-${kind}`);
  await fill?.(panel);
  await panel.locator('input[type="file"]').setInputFiles(file);
  await panel.getByRole("button", { name: "Upload" }).click();
  const answer = panel.getByRole("status").or(panel.getByRole("alert"));
  await expect(answer).toBeVisible({ timeout });
  const alert = panel.getByRole("alert");
  expect(await alert.count(), `upload of ${file.name} rejected: ${(await alert.allInnerTexts()).join(" ")}`).toBe(0);
  return panel;
}

const csv = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
const fixture = (relative: string) => ({
  name: path.basename(relative),
  mimeType: "text/csv",
  buffer: readFileSync(path.join(FIXTURES, relative)),
});

/** The PDF's text as Debian's pdftotext (poppler-utils, installed by .ci/run) lays it out: the fonts are embedded subsets, so only a real PDF reader decodes them. */
function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), "journey-pdf-"));
  try {
    const file = path.join(dir, "pack.pdf");
    writeFileSync(file, bytes);
    return execFileSync("pdftotext", ["-enc", "UTF-8", "-layout", file, "-"], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.describe.serial("production journey", () => {
  // Each password is hashed with argon2 (creating a user, signing in, signing): seconds on a busy 2-core machine.
  test.describe.configure({ timeout: 60_000 });
  test.afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  test("the operator creates the first admin with `verdict user create`", async () => {
    const admin = PEOPLE.admin;
    const out = await verdict(["user", "create", "--email", admin.email, "--name", admin.name, "--roles", admin.role], {
      VERDICT_PASSWORD: admin.password,
    });
    expect(out.code, `verdict user create failed: ${out.stderr}`).toBe(0);
    expect(out.stdout).toContain(`Created ${admin.email} (ADMIN).`);
  });

  test("the admin invites the analyst, the reviewer and two approvers; each sets their own password", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const page = await as(browser, "admin");
    await page.goto("/admin/users");
    await expect(page.getByRole("table").first().getByText(PEOPLE.admin.email)).toBeVisible();
    for (const who of ["analyst", "reviewer", "approverA", "approverB"] as const) {
      const { role, ...person } = PEOPLE[who];
      await enrolByInvitation(page, browser, { ...person, roles: [role] });
    }
    await page.goto("/admin/users");
    const users = page.getByRole("table").filter({ has: page.getByText("5 users") });
    for (const who of ["analyst", "reviewer", "approverA", "approverB"] as const)
      await expect(users.getByRole("cell", { name: PEOPLE[who].email, exact: true })).toBeVisible();
    await expect(users.getByRole("row")).toHaveCount(1 + 5);
  });

  test("the analyst starts from an empty list and creates a decision", async ({ browser }) => {
    const page = await as(browser, "analyst");
    await page.goto("/decisions");
    const empty = page.getByRole("status").filter({ hasText: "No decisions yet." });
    await expect(empty).toBeVisible();
    await empty.getByRole("link", { name: "New decision" }).click();
    await expect(page).toHaveURL(/\/decisions\/new$/);

    const fields: Record<string, string> = {
      Title: "Support ticket escalation model",
      Description: "Choose the model that flags support tickets needing urgent escalation.",
      "Positive class": "urgent",
      "Deployment prevalence π": "0.02",
      "Cost of a false negative (C_FN)": "120",
      "Cost of a false positive (C_FP)": "2",
      "Recall floor at π": "0.8",
      "SLO: p95 end-to-end latency (ms)": "2000",
      "SLO: p95 time to first token (ms)": "500",
      "SLO: minimum throughput (req/s)": "5",
      "SLO: at concurrency": "16",
    };
    // A label's accessible name ends with its hint ("Positive class the class a false negative misses…"): match its start.
    const field = (label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    for (const [label, value] of Object.entries(fields)) await field(label).fill(value);
    await expect(field("Quorum of approvers")).toHaveValue("2");
    // New decisions choose each candidate's threshold by the cost-optimal rule; this journey's
    // candidates are built around one fixed 0.5 threshold (see CANDIDATES), so it says so.
    await expect(field("Operating-point rule")).toHaveValue("COST_OPTIMAL");
    await field("Operating-point rule").selectOption("FIXED");
    await page.getByRole("button", { name: "Create the decision" }).click();
    await expect(page).toHaveURL(/\/decisions\/[^/]+\/edit\?created=1$/);
    decisionId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2]!);
    await expect(page.getByRole("status").filter({ hasText: "Decision created." })).toBeVisible();
  });

  test("the analyst imports a real leaderboard and a real Arena CSV, and shortlists three models found in both", async ({
    browser,
  }) => {
    const page = await as(browser, "analyst");
    await page.goto(`/decisions/${decisionId}/uploads`);
    await expect(page.getByRole("heading", { name: "Evidence uploads" })).toBeVisible();
    // No candidate yet: every row is kept, unattached, to shortlist from.
    const leaderboard = await upload(page, "leaderboard", fixture(LEADERBOARD));
    await expect(leaderboard.getByRole("status")).toContainText("Imported 663 record(s)");
    const arena = await upload(page, "leaderboard", fixture(ARENA));
    await expect(arena.getByRole("status")).toContainText("Imported 150 record(s)");
    const imports = page.getByRole("region", { name: "Imports" }).getByRole("table");
    await expect(imports).toContainText(path.basename(LEADERBOARD));
    await expect(imports).toContainText(path.basename(ARENA));

    await page.goto(`/decisions/${decisionId}/edit`);
    const shortlist = page.getByRole("form", { name: "Shortlist from the leaderboards" });
    for (const c of CANDIDATES) {
      // The same candidate name for the leaderboard's and the Arena's spelling: one candidate.
      for (const model of [c.leaderboardName, c.arenaName]) {
        await shortlist.getByRole("checkbox", { name: `Shortlist ${model}`, exact: true }).check();
        await shortlist.getByRole("textbox", { name: `Candidate name for ${model}`, exact: true }).fill(c.name);
        await shortlist.getByRole("textbox", { name: `Provider of ${model}`, exact: true }).fill(c.provider);
      }
    }
    const summary = shortlist.getByText(/^Will shortlist/);
    await expect(summary).toContainText("Will shortlist 3 candidates:");
    for (const c of CANDIDATES) await expect(summary).toContainText(`${c.name} (2 names)`);
    await shortlist.getByRole("button", { name: "Shortlist the ticked models" }).click();
    const shortlisted = shortlist.getByRole("status");
    await expect(shortlisted).toHaveText(/^Shortlisted /);
    for (const c of CANDIDATES) await expect(shortlisted).toContainText(c.name);
  });

  test("the analyst writes each shortlist rationale and answers the resemblance questions", async ({ browser }) => {
    const page = await as(browser, "analyst");
    await page.goto(`/decisions/${decisionId}/edit`);
    for (const c of CANDIDATES) {
      const form = page.getByRole("form", { name: c.name, exact: true });
      // The hint lists the suites the candidate has scores for: both files' suites are there.
      for (const suite of CITED_SUITES)
        await expect(form.getByText(/^Name the benchmark you rely on/)).toContainText(suite);
      await form.getByLabel("Shortlist rationale").fill(rationale(c.name));
      await form.getByRole("button", { name: `Save ${c.name}`, exact: true }).click();
      await expect(form.getByRole("status")).toHaveText(`Saved ${c.name}.`);
    }

    await page.reload();
    const section = page.getByRole("region", { name: "Do the cited suites resemble this decision?" });
    for (const suite of CITED_SUITES) {
      const form = section.getByRole("form", { name: new RegExp(`^${suite} — cited for`) });
      for (const c of CANDIDATES) await expect(form.getByRole("heading")).toContainText(c.name);
      const answers = [
        [
          "Task:",
          "Partly",
          "task",
          "Following a fixed label format is part of our task; the suite's instructions are not ticket triage.",
        ],
        [
          "Distribution:",
          suite === "IFEval" ? "No" : "Partly",
          "distribution",
          "The suite has no class balance like our 2 % urgent tickets.",
        ],
        [
          "Prompt and scoring:",
          "No",
          "prompt and scoring",
          "Different prompt template and scoring rule from our classifier.",
        ],
      ] as const;
      for (const [question, answer, note, text] of answers) {
        await form
          .getByRole("group", { name: new RegExp(`^${question}`) })
          .getByRole("radio", { name: answer, exact: true })
          .check();
        await form.getByRole("textbox", { name: `${suite}: note on ${note}` }).fill(text);
      }
      await form.getByRole("button", { name: `Save the answers for ${suite}` }).click();
      await expect(form.getByRole("status")).toHaveText(`Saved the answers for ${suite}.`);
    }
  });

  test("the analyst uploads a labelled dataset, each candidate's predictions and serving benchmark", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const page = await as(browser, "analyst");
    await page.goto(`/decisions/${decisionId}/uploads`);
    const dataset = await upload(page, "dataset", csv("escalation-holdout.csv", DATASET_CSV), {
      fill: (panel) => panel.getByLabel("Dataset name").fill("escalation holdout"),
    });
    await expect(dataset.getByRole("status")).toContainText(`Imported ${ITEMS} rows`);

    const predictionsPanel = page.getByTestId("upload-predictions");
    await expect(predictionsPanel.getByLabel("Dataset version")).toContainText(
      "escalation holdout v1 (600 items, 60 positive)",
    );
    for (const c of CANDIDATES) {
      const panel = await upload(page, "predictions", csv(`${c.name}-scores.csv`, predictionsCsv(c)), {
        fill: async (p) => void (await p.getByLabel(/^Candidate/).selectOption({ label: c.name })),
      });
      await expect(panel.getByRole("status")).toContainText(`Imported ${ITEMS} rows`);
      // The run's metrics are computed in the background: wait for them before the next upload.
      await expect(panel.getByTestId("run-status")).toContainText(`done · ${ITEMS} items, 0 missing`, {
        timeout: 30_000,
      });
    }
    const runs = page.getByRole("region", { name: "Eval runs" }).getByRole("row");
    for (const c of CANDIDATES) await expect(runs.filter({ hasText: c.name })).toContainText("done");

    for (const [k, c] of CANDIDATES.entries()) {
      const panel = await upload(page, "serving", csv(`${c.name}-serving.csv`, servingCsv(c, k)));
      await expect(panel.getByRole("status")).toContainText("Imported 2 record(s); 2 stored for the candidates");
    }
  });

  test("the analyst submits the decision for review", async ({ browser }) => {
    const page = await as(browser, "analyst");
    await page.goto(`/decisions/${decisionId}/review`);
    const status = page.getByRole("region", { name: "Status" });
    const missing = status.getByRole("note");
    expect(
      await missing.count(),
      `the review page lists what is missing: ${(await missing.allInnerTexts()).join(" ")}`,
    ).toBe(0);
    await status.getByRole("button", { name: "Submit for review" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Submitted for review" }).or(status.locator(".message-error")),
    ).toBeVisible();
    await expect(status.locator(".message-error"), "the submission was refused").toHaveCount(0);
    await expect(status.getByText("Current revision 1")).toBeVisible();
    await expect(status.locator(".badge").first()).toHaveText("In review");
  });

  test("the reviewer signs a review of revision 1", async ({ browser }) => {
    const page = await as(browser, "reviewer");
    await page.goto(`/decisions/${decisionId}/review`);
    await page.getByRole("button", { name: "Sign revision 1…" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByLabel("Meaning of the signature")).toHaveValue("REVIEW");
    await dialog
      .getByLabel("Reason")
      .fill("Checked every stage against the uploaded files; the evidence supports a decision.");
    await dialog.getByLabel("Email (yours, to sign)").fill(PEOPLE.reviewer.email);
    await dialog.getByLabel("Password (re-enter to sign)").fill(PEOPLE.reviewer.password);
    await dialog.getByRole("button", { name: "Sign as reviewed", exact: true }).click();
    await expect(dialog).toBeHidden();
    const rows = page.getByTestId("signature-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(PEOPLE.reviewer.name);
    // The signature manifests the login email beside the printed name.
    await expect(rows.first().getByTestId("signer-email")).toHaveText(PEOPLE.reviewer.email);
  });

  test("both approvers approve the same candidate and the decision is approved", async ({ browser }) => {
    for (const [n, who] of (["approverA", "approverB"] as const).entries()) {
      const page = await as(browser, who);
      await page.goto(`/decisions/${decisionId}/review`);
      await page.getByRole("button", { name: "Sign revision 1…" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Meaning of the signature").selectOption("APPROVAL");
      if (n === 0) {
        // The candidate whose scores miss most positives fails the recall floor: approving it would need a waiver.
        const weakest = CANDIDATES[2];
        await dialog.getByLabel("Candidate approved").selectOption({ label: weakest.name });
        await expect(dialog.getByRole("note")).toContainText(`${weakest.name} fails: Recall ≥ 0.8 at π`);
        await expect(dialog.getByLabel(/^Waiver/)).toBeVisible();
      }
      await dialog.getByLabel("Candidate approved").selectOption({ label: CHOICE.name });
      // The chosen candidate passes every gate: no waiver is asked for.
      await expect(dialog.getByRole("note")).toContainText(`${CHOICE.name} passes all`);
      await expect(dialog.getByLabel(/^Waiver/)).toHaveCount(0);
      await dialog
        .getByLabel("Reason")
        .fill(
          `Lowest expected cost at π = 2 % with recall above the floor; meets every serving SLO (${PEOPLE[who].name}).`,
        );
      await dialog.getByLabel("Email (yours, to sign)").fill(PEOPLE[who].email);
      await dialog.getByLabel("Password (re-enter to sign)").fill(PEOPLE[who].password);
      // The button names the candidate the signature approves.
      await dialog.getByRole("button", { name: `Approve ${CHOICE.name}`, exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId("signature-row")).toHaveCount(2 + n);
      if (n === 0) await expect(page.getByText(`${CHOICE.name} 1/2`)).toBeVisible();
    }
    const page = pages.get("approverB")!;
    await expect(page.getByRole("region", { name: "Status" }).locator(".badge").first()).toHaveText("Approved");

    const analyst = pages.get("analyst")!;
    await analyst.goto("/decisions?status=APPROVED");
    await expect(analyst.getByRole("row").filter({ hasText: "Support ticket escalation model" })).toContainText(
      "Approved",
    );
  });

  test("the decision's PDF names the approved candidate", async ({ browser }, testInfo) => {
    const page = await as(browser, "reviewer");
    const json = await page.request.get(`/api/v1/decisions/${decisionId}/export/json`);
    expect(json.status(), await json.text()).toBe(200);
    const pack = await json.json();
    expect(JSON.stringify(pack)).toContain('"APPROVED"');

    const response = await page.request.get(`/api/v1/decisions/${decisionId}/export/pdf`);
    expect(response.status(), `GET …/export/pdf: ${response.status() === 200 ? "" : await response.text()}`).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/pdf");
    const bytes = await response.body();
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await testInfo.attach("evidence-pack.pdf", { body: bytes, contentType: "application/pdf" });
    const text = pdfText(bytes);
    // Page one states the decision's state and the approved candidate.
    expect(text.split("\f")[0]!.replace(/\s+/g, " ")).toContain(`Approved: ${CHOICE.name}`);
    // The signature table: each approver's row reads signer, meaning, candidate.
    for (const who of ["approverA", "approverB"] as const) {
      const row = text.split("\n").find((line) => line.includes(PEOPLE[who].name) && line.includes("Approval"));
      expect(row, `${PEOPLE[who].name}'s approval in the PDF's signature table`).toContain(CHOICE.name);
      // The signer's email under the printed name (its start: the narrow column may wrap the rest).
      expect(text, "the signer's email beside the printed name").toContain(PEOPLE[who].email.slice(0, 10));
    }
    // The JSON export says the same: two distinct approvers approved that candidate.
    const approvals = (
      pack.packRevisions as {
        signatures: { meaning: string; printedName: string; signerEmail: string; candidateId: string | null }[];
      }[]
    )
      .flatMap((r) => r.signatures)
      .filter((sig) => sig.meaning === "APPROVAL");
    expect(new Set(approvals.map((sig) => sig.printedName))).toEqual(
      new Set([PEOPLE.approverA.name, PEOPLE.approverB.name]),
    );
    expect(new Set(approvals.map((sig) => sig.signerEmail))).toEqual(
      new Set([PEOPLE.approverA.email, PEOPLE.approverB.email]),
    );
    const chosen = pack.evidence.candidates.find((c: { name: string }) => c.name === CHOICE.name);
    expect(approvals.every((sig) => sig.candidateId === chosen.id)).toBe(true);
  });
});
