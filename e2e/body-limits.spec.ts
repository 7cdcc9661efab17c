import { expect, test, type Browser } from "@playwright/test";
import { sendOversize, type OversizeAnswer } from "../test/oversize-body";
import { signIn } from "./helpers";

// One body-limit rule for every entry, on the production server as it runs (scripts/serve.ts):
// a declared oversize body is answered 413 at once, a chunked one with 413 as it passes the limit,
// before the client has finished sending it, and the connection is closed. Raw HTTP, 20 MB bodies.
const TWENTY_MB = 20 * 1024 * 1024;
const MiB = 1024 * 1024;

let port: number;
let signInAction: Record<string, string>;
let session: Record<string, string>;
let decisionId: string;

/** Signs the analyst in through the sign-in form, keeping its server action's headers and the session cookie. */
async function signInCapturingAction(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const action = page.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await signIn(page, "analyst");
  const headers = (await action).headers();
  signInAction = { "next-action": headers["next-action"]!, "content-type": headers["content-type"]! };
  const cookies = await context.cookies();
  session = {
    cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
    origin: baseURL,
  };
  // A draft of its own: other specs running beside this one submit and approve the demo's decisions,
  // and an upload to a decision that is not editable is refused (409) before its body is read.
  const created = await page.request.post("/api/v1/decisions", {
    headers: { origin: baseURL },
    data: {
      title: `Body limits ${Date.now()}`,
      description: "An editable draft for the upload limits.",
      positiveClass: "flagged",
      prevalence: 0.05,
      costFn: 10,
      costFp: 1,
      currency: "EUR",
      recallFloor: 0.5,
      precisionFloor: 0.1,
      operatingThreshold: 0.5,
      quorum: 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  decisionId = ((await created.json()) as { decision: { id: string } }).decision.id;
  await context.close();
}

test.beforeAll(async ({ browser }, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  port = Number(new URL(baseURL).port);
  await signInCapturingAction(browser, baseURL);
});

function expectRefusedEarly(answer: OversizeAnswer, message: string) {
  expect(answer.status, answer.error ?? "").toBe(413);
  expect(answer.finishedWriting).toBe(false);
  expect(answer.headers.connection).toBe("close");
  expect(answer.closed).toBe(true);
  expect(answer.body).toContain(message);
}

const send = (path: string, headers: Record<string, string>, chunked: boolean, total = TWENTY_MB) =>
  sendOversize({ port, path, headers, total, chunked, timeoutMs: 20_000 });

test("a page's server action: 413 for a declared 20 MB body at once, and for a chunked one past 1 MiB", async () => {
  const declared = await send("/sign-in", signInAction, false);
  expectRefusedEarly(declared, "A form's request is larger than 1 MiB.");
  expect(declared.answeredAfterMs!).toBeLessThan(2000);
  const chunked = await send("/sign-in", { ...signInAction, ...session }, true);
  expectRefusedEarly(chunked, "A form's request is larger than 1 MiB.");
  expect(chunked.answeredAfterMs!).toBeLessThan(10_000);
});

test("the JSON API: 413 in the API's error shape, declared or chunked", async () => {
  const headers = { ...session, "content-type": "application/json" };
  for (const chunked of [false, true]) {
    const answer = await send("/api/v1/decisions", headers, chunked);
    expectRefusedEarly(answer, "The JSON body is larger than 1 MiB.");
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { code: "PAYLOAD_TOO_LARGE", details: { limit: 1048576, unit: "bytes" } },
    });
    expect(answer.answeredAfterMs!).toBeLessThan(chunked ? 10_000 : 2000);
  }
});

test("Auth.js's routes: 413 past 16 KiB, declared or chunked", async () => {
  const headers = { "content-type": "application/x-www-form-urlencoded" };
  for (const chunked of [false, true]) {
    const answer = await send("/api/auth/callback/credentials", headers, chunked);
    expectRefusedEarly(answer, "A sign-in request is larger than 16 KiB.");
    expect(answer.answeredAfterMs!).toBeLessThan(chunked ? 10_000 : 2000);
  }
});

test("a streaming upload over its own limit: 413 at once when declared, and once a chunked body passes it", async () => {
  const headers = { ...session, "content-type": "text/csv", "x-file-name": "board.csv" };
  // Leaderboards take files up to VERDICT_IMPORT_MAX_PUBLIC_BYTES (50 MiB by default).
  const declared = await send(`/api/v1/decisions/${decisionId}/leaderboards`, headers, false, 60 * MiB);
  expectRefusedEarly(declared, "The file is larger than 50 MiB.");
  expect(declared.answeredAfterMs!).toBeLessThan(2000);
  const chunked = await send(`/api/v1/decisions/${decisionId}/leaderboards`, headers, true, 80 * MiB);
  expectRefusedEarly(chunked, "The file is larger than 50 MiB.");
  // The body had to pass the limit before it was refused: this was the upload's own limit, not the API's.
  expect(chunked.writtenAtAnswer).toBeGreaterThan(50 * MiB);
  // Datasets and predictions (2 GiB by default): a declared 3 GiB is refused before a byte is read.
  const huge = await send(`/api/v1/decisions/${decisionId}/datasets`, headers, false, 3 * 1024 * MiB);
  expectRefusedEarly(huge, "The file is larger than 2 GiB.");
});

test("a body within the limit still goes through, and the server answers after the refusals", async ({ request }) => {
  // Half a MiB of chunked non-JSON reaches the route whole, which reads it and finds it is not JSON.
  const headers = { ...session, "content-type": "application/json" };
  const within = await send("/api/v1/decisions", headers, true, MiB / 2);
  expect(within.status).toBe(422);
  expect(within.finishedWriting).toBe(true);
  expect(within.body).toContain("The body must be JSON.");
  expect((await request.get("/sign-in")).status()).toBe(200);
});
