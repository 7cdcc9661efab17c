import { describe, expect, it, vi } from "vitest";
import { db } from "../db";
import { hashPassword } from "./passwords";
import { checkCredentials, FREE_FAILURES, MAX_WAIT_MS, slowDownMs } from "./sign-in";
import { unique } from "@/test/factories";

// Count the argon2 checks and see which hash each one used (null = the dummy hash).
const verifyCalls = vi.hoisted(() => [] as (string | null)[]);
vi.mock("./passwords", async (importOriginal) => {
  const original = await importOriginal<typeof import("./passwords")>();
  return {
    ...original,
    verifyPassword: async (storedHash: string | null, password: string) => {
      verifyCalls.push(storedHash);
      return original.verifyPassword(storedHash, password);
    },
  };
});

const PASSWORD = "correct horse battery staple";
let passwordHash: string | undefined;

async function makeUser(active = true) {
  const prisma = await db();
  passwordHash ??= await hashPassword(PASSWORD);
  const email = `${unique("signin")}@verdict.test`;
  // Printed names are unique among active users.
  return prisma.user.create({
    data: { email, name: unique("Sign In"), roles: ["APPROVER"], passwordHash, active },
    select: { id: true, email: true },
  });
}

const at = (ip: string | null) => ({ ip, userAgent: "vitest" });
const attempt = (email: string, password: string, ip: string | null = "198.51.100.7") =>
  checkCredentials({ email, password }, at(ip));

async function throttleRow(email: string, client: string) {
  return (await db()).signInThrottle.findUnique({ where: { email_client: { email, client } } });
}

async function setThrottle(
  email: string,
  client: string,
  data: { failures: number; nextAttemptAt: Date; lastFailureAt?: Date },
) {
  const prisma = await db();
  const row = { lastFailureAt: new Date(), ...data };
  await prisma.signInThrottle.upsert({
    where: { email_client: { email, client } },
    create: { email, client, ...row },
    update: row,
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await fn();
  return [result, performance.now() - started];
}

describe("sign-in: the same work for known and unknown emails", () => {
  it("an unknown email, a wrong password and an inactive account each cost one argon2 check, one failure counted and one audit event", async () => {
    const prisma = await db();
    const known = await makeUser();
    const inactive = await makeUser(false);
    const unknownEmail = `${unique("nobody")}@verdict.test`;
    for (const [email, reason, hashUsed] of [
      [known.email, "wrong_password", passwordHash],
      [unknownEmail, "unknown_email", null],
      [inactive.email, "inactive", null],
    ] as const) {
      verifyCalls.length = 0;
      const outcome = await attempt(email, "wrong password");
      expect(outcome).toEqual({ ok: false, reason });
      // The inactive account's own hash is not used: its check runs on the dummy hash.
      expect(verifyCalls).toEqual([hashUsed]);
      expect((await throttleRow(email, "198.51.100.7"))?.failures).toBe(1);
      const events = await prisma.auditEvent.findMany({
        where: { action: "auth.sign_in_failed", after: { path: ["email"], equals: email } },
      });
      expect(events).toHaveLength(1);
      expect(events[0]!.after).toMatchObject({ email, reason, failures: 1, slowDownSeconds: 0 });
      expect(events[0]!.ip).toBe("198.51.100.7");
    }
    // The right password of an inactive account does not sign it in either.
    expect(await attempt(inactive.email, PASSWORD)).toEqual({ ok: false, reason: "inactive" });
  });

  it("the right password signs in, forgets the pair's failures and is audited", async () => {
    const prisma = await db();
    const user = await makeUser();
    await attempt(user.email, "wrong");
    await attempt(user.email, "wrong");
    const outcome = await attempt(user.email, PASSWORD);
    expect(outcome).toMatchObject({ ok: true, user: { id: user.id, email: user.email, roles: ["APPROVER"] } });
    expect(outcome).not.toHaveProperty("user.passwordHash");
    expect(await throttleRow(user.email, "198.51.100.7")).toBeNull();
    expect(await prisma.auditEvent.count({ where: { action: "auth.sign_in", entityId: user.id } })).toBe(1);
  });
});

describe("sign-in throttling per account and client: a slow-down, never a lock", () => {
  it("grows: five free failures, then 1 s, doubling, at most a minute", () => {
    expect([0, 4, 5, 6, 7, 10, 11, 40].map(slowDownMs)).toEqual([0, 0, 1000, 2000, 4000, 32_000, 60_000, 60_000]);
    expect(FREE_FAILURES).toBe(5);
  });

  it("after the free failures the pair's next attempts wait for their slot", async () => {
    const user = await makeUser();
    for (let i = 0; i < FREE_FAILURES; i++) {
      const [, ms] = await timed(() => attempt(user.email, "wrong"));
      expect(ms).toBeLessThan(1000);
    }
    // The 6th attempt starts at once but reserves 1 s before the next; the 7th waits for it.
    await attempt(user.email, "wrong");
    const [outcome, ms] = await timed(() => attempt(user.email, PASSWORD));
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(outcome.ok).toBe(true);
  });

  it("a stranger's failures do not slow down or lock out the user signing in from elsewhere", async () => {
    const prisma = await db();
    const user = await makeUser();
    const stranger = "203.0.113.66";
    // The stranger has failed a dozen times: its next slot is 50 s away.
    await setThrottle(user.email, stranger, { failures: 12, nextAttemptAt: new Date(Date.now() + 50_000) });
    const [refused, refusedMs] = await timed(() => attempt(user.email, PASSWORD, stranger));
    expect(refused).toEqual({ ok: false, reason: "throttled" });
    expect(refusedMs).toBeLessThan(MAX_WAIT_MS);
    // The user, from their own address, is neither held nor refused.
    const [outcome, ms] = await timed(() => attempt(user.email, PASSWORD, "198.51.100.23"));
    expect(outcome.ok).toBe(true);
    expect(ms).toBeLessThan(1000);
    // The refusal was audited once; the next one within the minute is only counted.
    await attempt(user.email, "guess", stranger);
    const throttled = await prisma.auditEvent.findMany({
      where: { action: "auth.sign_in_throttled", entityId: user.email },
    });
    expect(throttled).toHaveLength(1);
    expect(throttled[0]!.after).toMatchObject({ email: user.email, failures: 12, refused: 1 });
    expect(throttled[0]!.ip).toBe(stranger);
    expect((await throttleRow(user.email, stranger))?.refusedSinceAudit).toBe(1);
    // Refused attempts were not checked and did not push the stranger's slot further.
    expect((await throttleRow(user.email, stranger))?.failures).toBe(12);
  });

  it("parallel attempts of one pair queue for their slots; those beyond the longest wait are refused unchecked", async () => {
    const user = await makeUser();
    const ip = "192.0.2.44";
    // Five failures so far: each attempt reserves 1 s, 2 s… before the next.
    await setThrottle(user.email, ip, { failures: 5, nextAttemptAt: new Date() });
    const started = performance.now();
    const finished: number[] = [];
    await Promise.all(
      [0, 1, 2].map(() => attempt(user.email, "wrong", ip).then(() => finished.push(performance.now() - started))),
    );
    finished.sort((a, b) => a - b);
    expect(finished[1]).toBeGreaterThanOrEqual(900);
    expect(finished[2]).toBeGreaterThanOrEqual(1900);
    expect((await throttleRow(user.email, ip))?.failures).toBe(8);

    verifyCalls.length = 0;
    await setThrottle(user.email, ip, { failures: 11, nextAttemptAt: new Date() });
    const outcomes = await Promise.all([0, 1, 2].map(() => attempt(user.email, "wrong", ip)));
    expect(outcomes.filter((o) => !o.ok && o.reason === "throttled")).toHaveLength(2);
    expect(verifyCalls).toHaveLength(1);
  });

  it("failures an hour old are forgotten", async () => {
    const user = await makeUser();
    const ip = "192.0.2.45";
    await setThrottle(user.email, ip, {
      failures: 30,
      nextAttemptAt: new Date(Date.now() - 3_600_000),
      lastFailureAt: new Date(Date.now() - 2 * 3_600_000),
    });
    await attempt(user.email, "wrong", ip);
    expect((await throttleRow(user.email, ip))?.failures).toBe(1);
  });

  it("with no known client address the pair is (email, unknown): still not the user's own pair behind a known address", async () => {
    const user = await makeUser();
    await attempt(user.email, "wrong", null);
    expect((await throttleRow(user.email, ""))?.failures).toBe(1);
    expect(await throttleRow(user.email, "198.51.100.7")).toBeNull();
  });
});
