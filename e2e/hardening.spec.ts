import http from "node:http";
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { hash } from "@node-rs/argon2";
import pg from "pg";
import { demoUser, signIn } from "./helpers";
import { e2eDatabaseUrl } from "./signoff-fixture";

// Floods, headers and sign-in throttling seen from outside, over HTTP (issue "Trust" §5–7).

const MiB = 1024 * 1024;

/**
 * POSTs a chunked body (no Content-Length) of 64 KiB chunks until the server answers or `total`
 * bytes are sent. Returns the status and how much had been sent when the answer came.
 */
function flood(
  baseURL: string,
  path: string,
  headers: Record<string, string>,
  total = 200 * MiB,
  head = "",
): Promise<{ status: number; sent: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseURL);
    const req = http.request(url, { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } });
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    req.on("response", (res) => {
      answered = true;
      const atAnswer = sent;
      let body = "";
      res.on("data", (d) => (body += String(d)));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, sent: atAnswer, body });
      });
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < total) {
        const piece = sent === 0 && head ? Buffer.from(head) : chunk;
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

async function sessionCookie(ctx: APIRequestContext, email: string, password: string): Promise<string> {
  const csrf = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await ctx.post("/api/auth/callback/credentials", { form: { email, password, csrfToken: csrf.csrfToken } });
  return (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

async function withDb<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A user of this spec's own, so its wrong passwords disturb no other spec. */
async function makeUser(password: string) {
  const id = randomUUID().slice(0, 8);
  const email = `hardening-${id}@verdict.test`;
  const passwordHash = await hash(password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  // Printed names are unique among active users.
  await withDb((c) =>
    c.query(
      `INSERT INTO "User" (id, email, name, "passwordHash", roles, "updatedAt") VALUES ($1, $2, $3, $4, '{REVIEWER}', now())`,
      [randomUUID(), email, `Hardening Reviewer ${id}`, passwordHash],
    ),
  );
  return email;
}

test.describe("floods: four parallel chunked oversized bodies are cut off with 413", () => {
  test("sign-in endpoint, JSON API and multipart upload", async ({ playwright, baseURL }) => {
    test.setTimeout(120_000);
    const ctx = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
    const analyst = demoUser("analyst");
    const cookie = await sessionCookie(ctx, analyst.email, analyst.password);
    await ctx.dispose();
    const same = { origin: baseURL!, cookie };
    const cases = [
      {
        path: "/api/auth/callback/credentials",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        cap: 16 * 1024,
        head: "email=a%40b.c&password=",
      },
      {
        path: "/api/v1/decisions",
        headers: { ...same, "content-type": "application/json" },
        cap: MiB,
        head: '{"title":"',
      },
      {
        path: "/api/v1/decisions/demo-moderation/datasets?name=flood",
        headers: { ...same, "content-type": "multipart/form-data; boundary=XXB" },
        cap: 64 * MiB,
        head: '--XXB\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nid,label\n',
      },
    ];
    for (const c of cases) {
      const results = await Promise.all([0, 1, 2, 3].map(() => flood(baseURL!, c.path, c.headers, 200 * MiB, c.head)));
      for (const r of results) {
        expect(r.status, `${c.path}: ${r.body}`).toBe(413);
        expect(JSON.parse(r.body)).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
        // Answered long before the 200 MB were sent: the limit plus what sockets buffer.
        expect(r.sent, c.path).toBeLessThan(c.cap + 48 * MiB);
      }
    }
  });
});

test.describe("headers", () => {
  test("pages carry a nonce CSP without 'unsafe-inline' scripts, every script has the nonce, and nothing is blocked", async ({
    page,
  }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const res = await page.goto("/sign-in");
    const policy = res!.headers()["content-security-policy"] ?? "";
    const scriptSrc =
      policy
        .split(";")
        .map((d) => d.trim())
        .find((d) => d.startsWith("script-src")) ?? "";
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
    expect(scriptSrc).toContain("'strict-dynamic'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(res!.headers()["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
    // Every script in the HTML carries the nonce (those Next loads later are trusted through 'strict-dynamic').
    const nonce = scriptSrc.match(/'nonce-([^']+)'/)![1]!;
    const scripts = (await res!.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);
    // A fresh nonce per request.
    const again = await page.goto("/sign-in");
    expect(again!.headers()["content-security-policy"]).not.toBe(policy);
    // Pages work under the policy (hydrated: the client-side form and navigation run).
    await signIn(page, "analyst", "/decisions/demo-moderation");
    await page.goto("/decisions/demo-moderation/uploads");
    await expect(page.getByRole("heading").first()).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("the audit trail's IP is not taken from a client's X-Forwarded-For", async ({ browser }) => {
    const password = "hardening-password-1";
    const email = await makeUser(password);
    const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "6.6.6.6" } });
    const page = await context.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    await context.close();
    const ips = await withDb(async (c) =>
      (
        await c.query<{ ip: string | null }>(
          `SELECT e.ip FROM "AuditEvent" e JOIN "User" u ON u.id = e."entityId" WHERE u.email = $1 AND e.action = 'auth.sign_in'`,
          [email],
        )
      ).rows.map((r) => r.ip),
    );
    expect(ips).toHaveLength(1);
    expect(ips[0]).not.toBe("6.6.6.6");
    expect(ips[0]).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});

test("sign-in: a stranger's wrong passwords slow the stranger down, never lock the user out", async ({
  playwright,
  baseURL,
  page,
}) => {
  test.setTimeout(90_000);
  const password = "hardening-password-2";
  const email = await makeUser(password);
  const stranger = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < 7; i++) {
    const csrf = (await (await stranger.get("/api/auth/csrf")).json()) as { csrfToken: string };
    starts.push(Date.now());
    const res = await stranger.post("/api/auth/callback/credentials", {
      form: { email, password: "wrong guess", csrfToken: csrf.csrfToken },
    });
    ends.push(Date.now());
    expect(res.headers()["location"] ?? "").toMatch(/error/);
  }
  await stranger.dispose();
  // Five free failures; the 7th waited for its slot, at least a second after the 6th began. Measured
  // from the 6th's start, not the 7th's: the CSRF fetch between them eats into the wait on a busy machine.
  expect(ends[6]! - starts[5]!).toBeGreaterThanOrEqual(1000);
  // The user, from the sign-in page, gets in at once with the right password.
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  const started = Date.now();
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  expect(Date.now() - started).toBeLessThan(5000);
  const failed = await withDb(
    async (c) =>
      (
        await c.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "AuditEvent" WHERE action = 'auth.sign_in_failed' AND after->>'email' = $1`,
          [email],
        )
      ).rows[0]!.n,
  );
  expect(failed).toBe(7);
});
