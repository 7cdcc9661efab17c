import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { demoUser, signIn, type DemoRole } from "./helpers";
import { cloneDemoDecision, signoffCounts } from "./signoff-fixture";
import { acceptInvitationFromMail } from "./enrol";

/**
 * The permission matrix: every page and API route × every role and signed-out, by requests to
 * the server. THE ONE LIST: add each new page or route here. A last test walks app/ and fails
 * when a page or route file is missing from the list, and checks signed-out refusal for it anyway.
 *
 * Mutations target a decision that does not exist, so an allowed role gets past the permission
 * check (404/409/422) and nothing changes; a refused role gets 403.
 */
type Who = DemoRole | "signed-out";
const ROLES: DemoRole[] = ["analyst", "reviewer", "approver1", "admin"];
const MISSING = "no-such-decision";
const DEMO = "demo-moderation";

interface Entry {
  /** The file under app/ this entry covers (for the completeness check). */
  file: string;
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  url: string;
  body?: unknown;
  /** Roles allowed past the permission check; every other role must get 403. */
  allowed: DemoRole[];
}

const READERS: DemoRole[] = ["analyst", "reviewer", "approver1"];
const EVERYONE: DemoRole[] = ["analyst", "reviewer", "approver1", "admin"];

export const PAGES: Entry[] = [
  { file: "app/page.tsx", method: "GET", url: "/", allowed: EVERYONE }, // a redirect to the role's home (lib/auth/home.ts)
  { file: "app/decisions/page.tsx", method: "GET", url: "/decisions", allowed: READERS },
  { file: "app/decisions/page.tsx", method: "GET", url: "/decisions?status=archived", allowed: READERS },
  { file: "app/decisions/new/page.tsx", method: "GET", url: "/decisions/new", allowed: ["analyst"] },
  { file: "app/decisions/new/page.tsx", method: "GET", url: `/decisions/new?from=${DEMO}`, allowed: ["analyst"] },
  { file: "app/decisions/[id]/page.tsx", method: "GET", url: `/decisions/${DEMO}`, allowed: READERS },
  { file: "app/decisions/[id]/review/page.tsx", method: "GET", url: `/decisions/${DEMO}/review`, allowed: READERS },
  { file: "app/decisions/[id]/uploads/page.tsx", method: "GET", url: `/decisions/${DEMO}/uploads`, allowed: READERS },
  { file: "app/decisions/[id]/edit/page.tsx", method: "GET", url: `/decisions/${DEMO}/edit`, allowed: ["analyst"] },
  {
    file: "app/decisions/[id]/runs/[runId]/items/page.tsx",
    method: "GET",
    url: `/decisions/${DEMO}/runs/1/items?cell=FN`,
    allowed: READERS,
  },
  { file: "app/settings/page.tsx", method: "GET", url: "/settings", allowed: EVERYONE },
  { file: "app/settings/password/page.tsx", method: "GET", url: "/settings/password", allowed: EVERYONE },
  { file: "app/audit/page.tsx", method: "GET", url: "/audit", allowed: EVERYONE },
  { file: "app/audit/page.tsx", method: "GET", url: `/audit?decision=${DEMO}&verify=1`, allowed: EVERYONE },
  { file: "app/admin/users/page.tsx", method: "GET", url: "/admin/users", allowed: ["admin"] },
];

export const API: Entry[] = [
  { file: "app/api/v1/decisions/route.ts", method: "GET", url: "/api/v1/decisions", allowed: READERS },
  // An incomplete body: the admin gets past the permission check to a 422, nothing is sent.
  {
    file: "app/api/v1/invitations/route.ts",
    method: "POST",
    url: "/api/v1/invitations",
    body: { name: "No Email" },
    allowed: ["admin"],
  },
  {
    file: "app/api/v1/users/[id]/route.ts",
    method: "PATCH",
    url: "/api/v1/users/no-such-user",
    body: { active: false },
    allowed: ["admin"],
  },
  // Four-eyes enrolment: an admin or an approver confirms another person's signing role (a missing user: 404).
  {
    file: "app/api/v1/users/[id]/confirm/route.ts",
    method: "POST",
    url: "/api/v1/users/no-such-user/confirm",
    body: {},
    allowed: ["approver1", "admin"],
  },
  // A mismatched confirmation: every signed-in user gets past the permission check to a 422.
  {
    file: "app/api/v1/account/password/route.ts",
    method: "POST",
    url: "/api/v1/account/password",
    body: { currentPassword: "x", newPassword: "a-long-new-password", confirm: "different" },
    allowed: EVERYONE,
  },
  // An incomplete body: the analyst gets past the permission check to a 422, nothing is created.
  {
    file: "app/api/v1/decisions/route.ts",
    method: "POST",
    url: "/api/v1/decisions",
    body: { description: "no title" },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/archive/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/archive`,
    body: { archived: true },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/candidates/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/candidates`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/view/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/view`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/candidates/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/candidates`,
    body: { name: "X", provider: "Y" },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/candidates/[candidateId]/route.ts",
    method: "PATCH",
    url: `/api/v1/decisions/${MISSING}/candidates/none`,
    body: { name: "X", provider: "Y", version: "", shortlistRationale: "because" },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/candidates/[candidateId]/route.ts",
    method: "DELETE",
    url: `/api/v1/decisions/${MISSING}/candidates/none`,
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/shortlist/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/shortlist`,
    body: { candidates: [{ name: "X", provider: "Y", models: ["m"] }] },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/resemblances/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/resemblances`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/resemblances/route.ts",
    method: "PUT",
    url: `/api/v1/decisions/${MISSING}/resemblances`,
    body: { suite: "MMLU", task: "MATCH", distribution: "PARTIAL", promptScoring: "MISMATCH" },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/resemblances/route.ts",
    method: "PATCH",
    url: `/api/v1/decisions/${MISSING}/resemblances`,
    body: { suite: "MMLU", relevanceNote: "A note." },
    allowed: ["analyst"],
  },
  { file: "app/api/v1/decisions/[id]/route.ts", method: "GET", url: `/api/v1/decisions/${DEMO}`, allowed: READERS },
  {
    file: "app/api/v1/decisions/[id]/route.ts",
    method: "PATCH",
    url: `/api/v1/decisions/${MISSING}`,
    body: { quorum: 2 },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/transitions/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/transitions`,
    body: { action: "submit" },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/transitions/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/transitions`,
    body: { action: "request_changes", reason: "more data" },
    allowed: ["approver1"],
  },
  {
    file: "app/api/v1/decisions/[id]/transitions/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/transitions`,
    body: { action: "reopen" },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/signatures/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/signatures`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/signatures/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/signatures`,
    body: {
      meaning: "APPROVAL",
      candidateId: "x",
      reason: "because",
      email: "approver1@verdict.demo",
      password: "irrelevant",
      revisionSha256: "0".repeat(64),
    },
    allowed: ["approver1"],
  },
  {
    file: "app/api/v1/decisions/[id]/signatures/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/signatures`,
    body: {
      meaning: "REVIEW",
      reason: "because",
      email: "reviewer@verdict.demo",
      password: "irrelevant",
      revisionSha256: "0".repeat(64),
    },
    allowed: ["reviewer"],
  },
  {
    file: "app/api/v1/decisions/[id]/comments/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/comments`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/comments/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/comments`,
    body: { body: "hello", stage: null },
    allowed: ["reviewer", "approver1"],
  },
  {
    file: "app/api/v1/decisions/[id]/audit-bundle/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/audit-bundle`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/export/json/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/export/json`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/export/pdf/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/export/pdf`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/runs/[runId]/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/runs/1`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/runs/[runId]/items/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/runs/1/items?cell=FN&limit=5`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/protocol/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/protocol`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/protocol/route.ts",
    method: "PUT",
    url: `/api/v1/decisions/${MISSING}/protocol`,
    body: {
      user: "{{text}}",
      contract: { kind: "labels", labels: ["yes", "no"], positiveLabel: "yes" },
      score: { kind: "label" },
    },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/candidates/[candidateId]/endpoint/route.ts",
    method: "PUT",
    url: `/api/v1/decisions/${MISSING}/candidates/none/endpoint`,
    body: { baseUrl: "http://127.0.0.1:9/v1", model: "m" },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/candidates/[candidateId]/endpoint/test/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/candidates/none/endpoint/test`,
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/candidates/[candidateId]/attach/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/candidates/none/attach`,
    body: { models: ["some-model"] },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/harness-runs/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/harness-runs`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/harness-runs/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/harness-runs`,
    body: { candidateId: "none" },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/harness-runs/[runId]/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/harness-runs/999999`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/harness-runs/[runId]/cancel/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/harness-runs/1/cancel`,
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/sweeps/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/sweeps`,
    body: { candidateId: "none", levels: [1] },
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/datasets/[versionId]/csv/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/datasets/999999/csv`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/uploads/[uploadId]/route.ts",
    method: "GET",
    url: `/api/v1/decisions/${DEMO}/uploads/no-such-upload`,
    allowed: READERS,
  },
  {
    file: "app/api/v1/decisions/[id]/datasets/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/datasets`,
    body: {},
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/leaderboards/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/leaderboards`,
    body: {},
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/predictions/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/predictions`,
    body: {},
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/predictions/preview/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/predictions/preview`,
    body: {},
    allowed: ["analyst"],
  },
  {
    file: "app/api/v1/decisions/[id]/serving/route.ts",
    method: "POST",
    url: `/api/v1/decisions/${MISSING}/serving`,
    body: {},
    allowed: ["analyst"],
  },
];

/** Files under app/ that need no entry: public pages and Auth.js's own handler. */
const PUBLIC_FILES = [
  "app/sign-in/page.tsx",
  "app/api/auth/[...nextauth]/route.ts",
  "app/invite/page.tsx",
  "app/api/v1/invitations/accept/route.ts",
];

const contexts = new Map<Who, APIRequestContext>();

test.beforeAll(async ({ playwright, baseURL }) => {
  for (const who of [...ROLES, "signed-out"] as Who[]) {
    const ctx = await playwright.request.newContext({
      baseURL,
      maxRedirects: 0,
      extraHTTPHeaders: { origin: baseURL! },
    });
    if (who !== "signed-out") {
      const user = demoUser(who);
      const csrf = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
      const res = await ctx.post("/api/auth/callback/credentials", {
        form: { email: user.email, password: user.password, csrfToken: csrf.csrfToken, callbackUrl: "/decisions" },
      });
      expect(res.status(), `sign-in of ${who}`).toBe(302);
      expect(res.headers()["location"], `sign-in of ${who}`).not.toMatch(/error/);
    }
    contexts.set(who, ctx);
  }
});

test.afterAll(async () => {
  for (const ctx of contexts.values()) await ctx.dispose();
});

const send = (ctx: APIRequestContext, e: Entry) =>
  ctx.fetch(e.url, { method: e.method, data: e.body, failOnStatusCode: false });

for (const e of PAGES) {
  test(`page ${e.url}`, async () => {
    const out = await send(contexts.get("signed-out")!, e);
    expect(out.status(), "signed out").toBeGreaterThanOrEqual(300);
    expect(out.status(), "signed out").toBeLessThan(400);
    expect(out.headers()["location"], "signed out").toContain("/sign-in");
    for (const role of ROLES) {
      const res = await send(contexts.get(role)!, e);
      if (e.allowed.includes(role)) {
        // "/" redirects every signed-in user to their role's home (lib/auth/home.ts), which then decides.
        expect([200, 307], `${role} may open ${e.url}`).toContain(res.status());
      } else {
        expect(res.status(), `${role} may not open ${e.url}`).toBe(403);
      }
    }
  });
}

for (const e of API) {
  test(`api ${e.method} ${e.url} ${e.body ? JSON.stringify(e.body).slice(0, 40) : ""}`, async () => {
    const out = await send(contexts.get("signed-out")!, e);
    expect(out.status(), "signed out").toBe(401);
    for (const role of ROLES) {
      const res = await send(contexts.get(role)!, e);
      const body = await res.text();
      if (e.allowed.includes(role)) {
        expect(res.status(), `${role} must pass the permission check: ${body}`).not.toBe(403);
        expect(res.status(), `${role}: ${body}`).toBeLessThan(500);
      } else {
        expect(res.status(), `${role} must be refused: ${body}`).toBe(403);
      }
      expect(body, "never a password hash").not.toMatch(/\$argon2/);
    }
  });
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return /^(page\.tsx|route\.ts)$/.test(name) ? [full] : [];
  });
}

test("every page and route under app/ is in the matrix, and refuses a signed-out visitor", async () => {
  const root = path.resolve(import.meta.dirname, "..");
  const files = routeFiles(path.join(root, "app")).map((f) => path.relative(root, f).split(path.sep).join("/"));
  const listed = new Set([...PAGES, ...API].map((e) => e.file));
  const missing = files.filter((f) => !listed.has(f) && !PUBLIC_FILES.includes(f));
  const anonymous = contexts.get("signed-out")!;
  // Unlisted files still get the signed-out check (any dynamic segment filled with the demo id).
  for (const file of missing) {
    const url =
      "/" +
      file
        .replace(/^app\//, "")
        .replace(/\/?(page\.tsx|route\.ts)$/, "")
        .replace(/\[[^\]]+\]/g, DEMO);
    const source = readFileSync(path.join(root, file), "utf8");
    const methods = file.endsWith("route.ts")
      ? [...source.matchAll(/export\s+(?:const|async function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)].map(
          (m) => m[1]!,
        )
      : ["GET"];
    for (const method of methods) {
      const res = await anonymous.fetch(url, { method, failOnStatusCode: false });
      if (file.endsWith("route.ts")) expect(res.status(), `${method} ${url} signed out`).toBe(401);
      else expect(res.headers()["location"] ?? "", `${url} signed out`).toContain("/sign-in");
    }
  }
  expect(missing, "add these files to PAGES or API in e2e/permission-matrix.spec.ts").toEqual([]);
});

test("the session cookie is HttpOnly and SameSite=Lax; sign-in does not tell unknown emails apart", async ({
  playwright,
  baseURL,
}) => {
  const ctx = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
  const user = demoUser("reviewer");
  const csrf = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await ctx.post("/api/auth/callback/credentials", {
    form: { email: user.email, password: user.password, csrfToken: csrf.csrfToken },
  });
  const session = (await ctx.storageState()).cookies.find((c) => /authjs\.session-token$/.test(c.name));
  expect(session).toBeDefined();
  expect(session!.httpOnly).toBe(true);
  expect(session!.sameSite).toBe("Lax");
  await ctx.dispose();

  const fail = async (email: string) => {
    const c = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
    const token = (await (await c.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const res = await c.post("/api/auth/callback/credentials", {
      form: { email, password: "definitely-wrong", csrfToken: token.csrfToken },
    });
    const location = res.headers()["location"] ?? "";
    await c.dispose();
    return location.replace(/callbackUrl=[^&]*/, "");
  };
  // Same answer for an existing account (admin: keeps the other roles' sign-in throttles clean) and an unknown one.
  expect(await fail("admin@verdict.demo")).toBe(await fail(`nobody-${Date.now()}@verdict.demo`));
});

/**
 * Server actions: a real action request is captured from the browser of a role that may send
 * it, then replayed byte for byte (same action id, same form body, same origin) with every other
 * role's session and signed out. Only the server's role check stands between the replay and the
 * change, so the replay must be refused and the data unchanged.
 */
interface Captured {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

async function capture(
  browser: Browser,
  role: DemoRole,
  url: string,
  act: (page: Page) => Promise<void>,
  done: (page: Page) => Promise<void>,
): Promise<Captured> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, role, url);
  await page.goto(url);
  const request = page.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await act(page);
  const r = await request;
  await done(page);
  const keep = ["next-action", "content-type", "accept", "next-router-state-tree"];
  const headers = Object.fromEntries(Object.entries(r.headers()).filter(([k]) => keep.includes(k)));
  await page.context().close();
  return { url: r.url(), headers, body: r.postDataBuffer()! };
}

async function expectRefused(c: Captured, allowed: DemoRole[], decisionId: string) {
  const before = await signoffCounts(decisionId);
  // CSRF: the permitted role's own session, sent from another site, is refused by Next's origin check.
  const crossSite = await contexts.get(allowed[0]!)!.fetch(c.url, {
    method: "POST",
    headers: { ...c.headers, origin: "https://evil.example" },
    data: c.body,
    failOnStatusCode: false,
  });
  expect(await crossSite.text(), `cross-site ${c.headers["next-action"]}`).not.toMatch(/"ok":true/);
  expect(await signoffCounts(decisionId)).toEqual(before);
  for (const who of [...ROLES, "signed-out"] as Who[]) {
    if (who !== "signed-out" && allowed.includes(who)) continue;
    const res = await contexts
      .get(who)!
      .fetch(c.url, { method: "POST", headers: c.headers, data: c.body, failOnStatusCode: false });
    const text = await res.text();
    if (who === "signed-out")
      expect(res.status() >= 300 || /session has ended/.test(text), `signed out: ${res.status()}`).toBe(true);
    else
      expect(text, `${who} replaying ${c.headers["next-action"]}`).toMatch(
        /do not have permission|Only an? (approver|reviewer)/,
      );
    expect(text).not.toMatch(/"ok":true/);
  }
  expect(await signoffCounts(decisionId)).toEqual(before);
}

test("every sign-off server action is refused to the roles that may not send it", async ({ browser }) => {
  test.setTimeout(180_000);
  const id = `e2e-matrix-${Date.now()}`;
  await cloneDemoDecision(id, "E2E permission matrix decision");
  const url = `/decisions/${id}/review`;

  const statusIs = (text: string) => (p: Page) =>
    expect(p.getByRole("region", { name: "Status" }).locator(".badge").first()).toHaveText(text);
  const submit = await capture(
    browser,
    "analyst",
    url,
    (p) => p.getByRole("button", { name: "Submit for review" }).click(),
    statusIs("In review"),
  );
  await expectRefused(submit, ["analyst"], id);

  const comment = await capture(
    browser,
    "reviewer",
    url,
    async (p) => {
      const form = p.getByRole("form", { name: "Comment on the pack as a whole" });
      await form.getByRole("textbox").fill("Is the eval set recent enough?");
      await form.getByRole("button", { name: "Post comment" }).click();
    },
    (p) => expect(p.getByText("Is the eval set recent enough?").first()).toBeVisible(),
  );
  await expectRefused(comment, ["reviewer", "approver1"], id);
  // Control: the same replay from another role that may comment goes through, so the refusals
  // above come from the role check and not from a malformed replay.
  const before = (await signoffCounts(id)).comments;
  await contexts
    .get("approver1")!
    .fetch(comment.url, { method: "POST", headers: comment.headers, data: comment.body, failOnStatusCode: false });
  expect((await signoffCounts(id)).comments).toBe(before + 1);

  const sign = await capture(
    browser,
    "approver1",
    url,
    async (p) => {
      await p.getByRole("button", { name: /Sign revision 1…/ }).click();
      const dialog = p.getByRole("dialog");
      await dialog.getByLabel("Candidate approved").selectOption({ label: "Sentry-Guard-13B" });
      await dialog.getByLabel("Reason").fill("best at our prevalence");
      await dialog.getByLabel("Email (yours, to sign)").fill(demoUser("approver1").email);
      await dialog.getByLabel("Password (re-enter to sign)").fill(demoUser("approver1").password);
      await dialog.getByRole("button", { name: "Approve Sentry-Guard-13B", exact: true }).click();
    },
    (p) => expect(p.getByTestId("signature-row")).toHaveCount(1),
  );
  await expectRefused(sign, ["approver1"], id);

  const changes = await capture(
    browser,
    "approver1",
    url,
    async (p) => {
      await p.getByText("Request changes", { exact: true }).first().click();
      const form = p.getByRole("form", { name: "Request changes" });
      await form.getByLabel("Which changes do you request?").fill("Add serving runs at concurrency 64.");
      await form.getByRole("button", { name: "Request changes" }).click();
    },
    statusIs("Changes requested"),
  );
  await expectRefused(changes, ["approver1"], id);

  const reopen = await capture(
    browser,
    "analyst",
    url,
    (p) => p.getByRole("button", { name: "Back to draft" }).click(),
    statusIs("Draft"),
  );
  await expectRefused(reopen, ["analyst"], id);
  expect((await signoffCounts(id)).status).toBe("DRAFT");
});

test("the admin's user actions are refused to every other role and signed out", async ({ browser }) => {
  test.setTimeout(120_000);
  const email = `matrix-${Date.now()}@verdict.test`;
  const create = await capture(
    browser,
    "admin",
    "/admin/users",
    async (p) => {
      const form = p.locator("form", { has: p.getByRole("button", { name: "Send invitation" }) });
      await form.getByLabel("Printed name").fill(`Matrix Person ${Date.now()}`);
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("reviewer").check();
      await form.getByRole("button", { name: "Send invitation" }).click();
    },
    (p) => expect(p.getByRole("cell", { name: email, exact: true })).toBeVisible(),
  );
  // The invitation is accepted, so the roles form of the new user exists.
  await acceptInvitationFromMail(browser, email, "a-long-enough-password");
  const roles = await capture(
    browser,
    "admin",
    "/admin/users",
    async (p) => {
      const form = p.getByRole("form", { name: `Roles of ${email}` });
      await form.getByLabel("approver").check();
      await form.getByRole("button", { name: "Save roles" }).click();
    },
    (p) => expect(p.getByRole("form", { name: `Roles of ${email}` }).getByRole("status")).toContainText("saved"),
  );
  for (const c of [create, roles]) {
    for (const who of ["analyst", "reviewer", "approver1", "signed-out"] as Who[]) {
      const res = await contexts
        .get(who)!
        .fetch(c.url, { method: "POST", headers: c.headers, data: c.body, failOnStatusCode: false });
      const text = await res.text();
      if (who === "signed-out") expect(res.status() >= 300 || /session has ended/.test(text)).toBe(true);
      else expect(text, `${who} replaying an admin action`).toMatch(/do not have permission/);
      expect(text).not.toMatch(/"ok":true/);
    }
  }
});

async function expectReplaysRefused(c: Captured, refused: Who[]) {
  for (const who of refused) {
    const res = await contexts
      .get(who)!
      .fetch(c.url, { method: "POST", headers: c.headers, data: c.body, failOnStatusCode: false });
    const text = await res.text();
    if (who === "signed-out")
      expect(res.status() >= 300 || /session has ended/.test(text), `signed out: ${res.status()}`).toBe(true);
    else expect(text, `${who} replaying ${c.headers["next-action"]}`).toMatch(/do not have permission/);
    expect(text).not.toMatch(/"ok":true/);
  }
}

test("the analyst's task-parameter action is refused to every other role and signed out", async ({ browser }) => {
  test.setTimeout(120_000);
  const id = `e2e-matrix-edit-${Date.now()}`;
  await cloneDemoDecision(id, "E2E permission matrix edit decision");
  const url = `/decisions/${id}/edit`;
  const params = await capture(
    browser,
    "analyst",
    url,
    (p) => p.getByRole("button", { name: "Save the task parameters" }).click(),
    (p) => expect(p.getByText(/^Saved/).first()).toBeVisible(),
  );
  await expectReplaysRefused(params, ["reviewer", "approver1", "admin", "signed-out"]);
});
