import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { enrolByInvitation, enrolByOperator, type Person } from "./enrol";
import { cloneDemoDecision } from "./signoff-fixture";

/**
 * No single account can make a quorum (issue 28 §1): one admin invites two "approvers" at
 * addresses it controls and accepts both invitations; after submission their signatures are
 * refused, and the admin cannot confirm them itself. A second admin (enrolled and confirmed by
 * the operator) confirms them; they sign, the decision is APPROVED, and the PDF and the auditor
 * bundle name who enrolled and who confirmed each signer.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DATABASE_URL =
  process.env.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
const id = randomUUID().slice(0, 8);
const person = (name: string, role: string): Person => ({
  name: `${name} ${id}`,
  email: `${name.toLowerCase().replace(/ /g, ".")}-${id}@solo.test`,
  password: `${name} chose this passphrase`,
  roles: [role],
});
const soloAdmin = person("Solo Admin", "ADMIN");
const secondAdmin = person("Second Admin", "ADMIN");
const analyst = person("Quinn Analyst", "ANALYST");
const puppets = [person("Puppet One", "APPROVER"), person("Puppet Two", "APPROVER")] as const;
// The journey's choice (production-journey.spec.ts): it passes every gate of the copied decision.
const CHOICE = "Yi-34B-Chat";
const decisionId = `e2e-four-eyes-${id}`;

async function signIn(browser: Browser, who: Person, next: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible({ timeout: 30_000 });
  await page.goto(next);
  return page;
}

async function approve(page: Page, who: Person) {
  await page.getByRole("button", { name: /Sign revision \d+…/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Meaning of the signature").selectOption("APPROVAL");
  await dialog.getByLabel("Candidate approved").selectOption({ label: CHOICE });
  await dialog.getByLabel("Reason").fill(`Meets every gate at our prevalence (${who.name}).`);
  await dialog.getByLabel("Email (yours, to sign)").fill(who.email);
  await dialog.getByLabel("Password (re-enter to sign)").fill(who.password);
  await dialog.getByRole("button", { name: `Approve ${CHOICE}`, exact: true }).click();
  return dialog;
}

/** `verdict …` against the production database; `anyStatus`: verify exits 1 for any problem of the shared database. */
function verdict(args: string[], anyStatus = false): string {
  const out = spawnSync(process.execPath, [path.join(ROOT, "bin/verdict.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL },
    encoding: "utf8",
  });
  if (!anyStatus) expect(out.status, out.stderr).toBe(0);
  return out.stdout;
}

async function userId(who: Person): Promise<string> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [who.email])).rows[0]!.id;
  } finally {
    await client.end();
  }
}

/** A complete decision of this spec's own, created by its analyst: a copy of the journey's. */
async function copyJourneyDecision() {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const source = await client.query<{ id: string }>(
      `SELECT d.id FROM "Decision" d WHERE d.status = 'APPROVED' AND EXISTS (SELECT 1 FROM "Candidate" c WHERE c."decisionId" = d.id AND c.name = $1) ORDER BY d."createdAt" LIMIT 1`,
      [CHOICE],
    );
    const author = await client.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [analyst.email]);
    expect(source.rows.length, "the production journey's approved decision").toBe(1);
    await cloneDemoDecision(decisionId, `Four-eyes decision ${id}`, {
      decisionId: source.rows[0]!.id,
      databaseUrl: DATABASE_URL,
      createdById: author.rows[0]!.id,
    });
  } finally {
    await client.end();
  }
}

function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), "four-eyes-pdf-"));
  try {
    const file = path.join(dir, "pack.pdf");
    writeFileSync(file, bytes);
    return execFileSync("pdftotext", ["-enc", "UTF-8", "-layout", file, "-"], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.describe.serial("four-eyes enrolment on the production server", () => {
  test.describe.configure({ timeout: 180_000 });

  test("one admin's own approvers cannot sign; a second admin's confirmation lets them; PDF and bundle name the confirmer", async ({
    browser,
    baseURL,
    playwright,
  }) => {
    // One admin, confirmed by the operator, enrols an analyst and two approvers it controls.
    await enrolByOperator(baseURL!, DATABASE_URL, soloAdmin);
    const admin = await signIn(browser, soloAdmin, "/admin/users");
    await enrolByInvitation(admin, browser, analyst);
    for (const p of puppets) await enrolByInvitation(admin, browser, p, { confirm: false });
    await admin.goto("/admin/users");
    const row = admin.getByRole("row").filter({ hasText: puppets[0].email });
    await expect(row.getByTestId("enrolment")).toContainText(`Granted by ${soloAdmin.name}; awaits confirmation`);
    // The granter is offered no confirmation.
    await expect(admin.getByRole("button", { name: `Confirm ${puppets[0].name}` })).toHaveCount(0);

    // The analyst submits the decision.
    await copyJourneyDecision();
    const token = verdict(["token", "create", "--email", analyst.email]).trim();
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${token}` },
    });
    const submitted = await api.post(`/api/v1/decisions/${decisionId}/transitions`, { data: { action: "submit" } });
    expect(submitted.status(), await submitted.text()).toBeLessThan(300);
    await api.dispose();

    // The puppets sign in; the review page says why they cannot sign, and a signature is refused.
    const review = `/decisions/${decisionId}/review`;
    const [p1, p2] = [await signIn(browser, puppets[0], review), await signIn(browser, puppets[1], review)];
    await expect(p1.getByTestId("awaiting-confirmation")).toContainText(
      `awaits confirmation by a second person (four-eyes enrolment): it was granted by ${soloAdmin.name}`,
    );
    const refused = await approve(p1, puppets[0]);
    await expect(refused.getByText(/awaits confirmation by a second person/)).toBeVisible();
    await p1.goto(review);
    await expect(p1.getByTestId("signature-row")).toHaveCount(0);

    // The solo admin cannot confirm its own grants through the API either, nor can one puppet the other.
    for (const [page, target] of [
      [admin, puppets[0]],
      [p1, puppets[1]],
    ] as const) {
      const self = await page.request.post(`/api/v1/users/${await userId(target)}/confirm`, {
        headers: { origin: new URL(baseURL!).origin },
      });
      expect(self.status(), await self.text()).toBe(403);
    }

    // A second admin, enrolled and confirmed by the operator, confirms both on the admin page.
    await enrolByOperator(baseURL!, DATABASE_URL, secondAdmin);
    const second = await signIn(browser, secondAdmin, "/admin/users");
    for (const p of puppets) {
      await second
        .getByRole("form", { name: `Enrolment of ${p.name}` })
        .getByRole("button", { name: `Confirm ${p.name}` })
        .click();
      // Confirmed, the row states it and offers the button no more.
      await expect(second.getByRole("row").filter({ hasText: p.email }).getByTestId("enrolment")).toHaveText(
        `Granted by ${soloAdmin.name}, confirmed by ${secondAdmin.name}`,
      );
    }
    await expect(second.getByRole("button", { name: /^Confirm Puppet/ })).toHaveCount(0);

    // Now they sign, and the quorum of two approves.
    for (const [page, who] of [
      [p1, puppets[0]],
      [p2, puppets[1]],
    ] as const) {
      await page.goto(review);
      await expect(page.getByTestId("awaiting-confirmation")).toHaveCount(0);
      await approve(page, who);
      await expect(page.getByRole("dialog")).toHaveCount(0, { timeout: 30_000 });
    }
    await p2.goto(review);
    await expect(p2.getByText("APPROVED").first()).toBeVisible();
    const enrolment = p2.getByTestId("signer-enrolment");
    await expect(enrolment).toHaveCount(2);
    await expect(enrolment.first()).toHaveText(`enrolled by ${soloAdmin.name}, confirmed by ${secondAdmin.name}`);

    // The PDF and the auditor bundle name the confirmer of each signer.
    const pdf = await p2.request.get(`/api/v1/decisions/${decisionId}/export/pdf`);
    expect(pdf.status()).toBe(200);
    const text = pdfText(Buffer.from(await pdf.body())).replace(/\s+/g, " ");
    expect(text).toContain(`confirmed by ${secondAdmin.name}`);
    expect(text).toContain(`enrolled by ${soloAdmin.name}`);
    const bundle = await p2.request.get(`/api/v1/decisions/${decisionId}/audit-bundle`);
    expect(bundle.status()).toBe(200);
    const signatures = ((await bundle.json()) as { signatures: { enrolledBy: string; confirmedBy: string }[] })
      .signatures;
    expect(signatures).toHaveLength(2);
    for (const s of signatures) expect(s).toMatchObject({ enrolledBy: soloAdmin.name, confirmedBy: secondAdmin.name });
    // `verdict audit verify` checks each signature's confirmation against the chain: these hold.
    const verified = JSON.parse(verdict(["audit", "verify", "--json"], true)) as {
      recordProblems: { message: string }[];
    };
    expect(
      verified.recordProblems.filter((p) => p.message.includes(puppets[0].name) || p.message.includes(puppets[1].name)),
    ).toEqual([]);
  });
});
