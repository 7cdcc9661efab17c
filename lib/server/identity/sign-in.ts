import "server-only";
import { z } from "zod";
import type { RoleName } from "@/lib/auth/permissions";
import { db, type Tx } from "../db";
import { verifyPassword } from "./passwords";
import { recordAudit, type RequestInfo } from "../audit/write";

/**
 * Checking a sign-in (Auth.js's `authorize`), with two rules (issue "Trust", §6):
 *
 * - **The same work for every email.** Known or unknown, active or not, an attempt takes the same
 *   steps: reserve its slot in the throttle, look the email up, check the password with argon2
 *   (against a dummy hash when there is no active account), and on failure count it and write one
 *   audit event. Nothing in the answer or its timing says whether the email exists.
 * - **Throttling per account and client.** Failures are counted per (email, client IP) pair, so a
 *   stranger's wrong passwords slow down only the stranger's own attempts on that email, never the
 *   user's from elsewhere. The first FREE_FAILURES failures cost nothing; after them each attempt
 *   of the pair waits for its slot, 1 s after the previous one and doubling with each failure up
 *   to a minute (slowDownMs). Parallel attempts queue for slots one at a time; an attempt whose
 *   slot is more than MAX_WAIT_MS away is refused at once, unchecked. A success, or an hour
 *   without failures, forgets the pair. There is no lock: the right password always gets through
 *   once its slot comes.
 */

export const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().min(1).max(1024),
});

export const FREE_FAILURES = 5;
export const MAX_SLOW_DOWN_MS = 60_000;
/** The longest an attempt is held for its slot; later slots are refused at once. */
export const MAX_WAIT_MS = 10_000;
/** Failures are forgotten this long after the last one. */
export const FAILURE_MEMORY_MS = 60 * 60_000;
/** Refused attempts of one pair are audited once per this interval, with their count. */
const REFUSAL_AUDIT_INTERVAL_MS = 60_000;

/** How long after an attempt the pair's next one waits, given the failures so far. */
export function slowDownMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_SLOW_DOWN_MS, 1000 * 2 ** (failures - FREE_FAILURES));
}

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  roles: RoleName[];
}

export type SignInOutcome =
  | { ok: true; user: SignedInUser }
  | { ok: false; reason: "invalid_input" | "throttled" | "unknown_email" | "inactive" | "wrong_password" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function checkCredentials(raw: unknown, request: RequestInfo): Promise<SignInOutcome> {
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: "invalid_input" };
  const { email, password } = parsed.data;
  const client = request.ip ?? "";
  const prisma = await db();

  const slot = await reserveAttempt(email, client, request);
  if (slot.refused) return { ok: false, reason: "throttled" };
  if (slot.waitMs > 0) await sleep(slot.waitMs);

  const user = await prisma.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, roles: true, active: true, passwordHash: true },
  });
  const passwordOk = await verifyPassword(user?.active ? user.passwordHash : null, password);
  if (!user || !user.active || !passwordOk) {
    const reason = !user ? "unknown_email" : !user.active ? "inactive" : "wrong_password";
    await prisma.$transaction(async (tx) => {
      const failures = await countFailure(tx, email, client);
      await recordAudit(tx, {
        actor: user ? { id: user.id, roles: user.roles as RoleName[] } : { id: null, roles: [] },
        action: "auth.sign_in_failed",
        entityType: user ? "User" : "SignIn",
        entityId: user?.id ?? email,
        after: { email, reason, failures, slowDownSeconds: slowDownMs(failures) / 1000 },
        request,
      });
    });
    return { ok: false, reason };
  }
  await prisma.$transaction(async (tx) => {
    await tx.signInThrottle.deleteMany({ where: { email, client } });
    await recordAudit(tx, {
      actor: { id: user.id, roles: user.roles as RoleName[] },
      action: "auth.sign_in",
      entityType: "User",
      entityId: user.id,
      request,
    });
  });
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, roles: user.roles as RoleName[] } };
}

/**
 * Takes the pair's next slot under its row lock: the attempt may start at `max(now, nextAttemptAt)`
 * and pushes nextAttemptAt on by the slow-down its failures so far earn. A slot beyond MAX_WAIT_MS
 * is refused without being taken (refusals never push the queue further).
 */
async function reserveAttempt(
  email: string,
  client: string,
  request: RequestInfo,
): Promise<{ refused: true } | { refused: false; waitMs: number }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO "SignInThrottle" (email, client) VALUES (${email}, ${client}) ON CONFLICT DO NOTHING`;
    const [row] = await tx.$queryRaw<
      {
        failures: number;
        lastFailureAt: Date | null;
        nextAttemptAt: Date;
        refusedSinceAudit: number;
        refusalAuditedAt: Date | null;
      }[]
    >`
      SELECT failures, "lastFailureAt", "nextAttemptAt", "refusedSinceAudit", "refusalAuditedAt"
        FROM "SignInThrottle" WHERE email = ${email} AND client = ${client} FOR UPDATE`;
    const now = Date.now();
    const forgotten = !row!.lastFailureAt || now - row!.lastFailureAt.getTime() > FAILURE_MEMORY_MS;
    const failures = forgotten ? 0 : row!.failures;
    const start = Math.max(now, row!.nextAttemptAt.getTime());
    if (start - now > MAX_WAIT_MS) {
      const refused = row!.refusedSinceAudit + 1;
      const audit = !row!.refusalAuditedAt || now - row!.refusalAuditedAt.getTime() >= REFUSAL_AUDIT_INTERVAL_MS;
      await tx.signInThrottle.update({
        where: { email_client: { email, client } },
        data: audit ? { refusedSinceAudit: 0, refusalAuditedAt: new Date(now) } : { refusedSinceAudit: refused },
      });
      if (audit) {
        await recordAudit(tx, {
          actor: { id: null, roles: [] },
          action: "auth.sign_in_throttled",
          entityType: "SignIn",
          entityId: email,
          after: { email, failures, refused, retryAfterSeconds: Math.ceil((start - now) / 1000) },
          request,
        });
      }
      return { refused: true };
    }
    await tx.signInThrottle.update({
      where: { email_client: { email, client } },
      data: {
        failures,
        nextAttemptAt: new Date(start + slowDownMs(failures)),
        ...(forgotten ? { lastFailureAt: null } : {}),
      },
    });
    return { refused: false, waitMs: start - now };
  });
}

async function countFailure(tx: Tx, email: string, client: string): Promise<number> {
  const row = await tx.signInThrottle.upsert({
    where: { email_client: { email, client } },
    create: { email, client, failures: 1, lastFailureAt: new Date() },
    update: { failures: { increment: 1 }, lastFailureAt: new Date() },
    select: { failures: true },
  });
  return row.failures;
}

/** Forgets pairs whose last failure (or last attempt) is older than FAILURE_MEMORY_MS (the periodic sweep). */
export async function forgetOldSignInFailures(now = new Date()): Promise<number> {
  const prisma = await db();
  const before = new Date(now.getTime() - FAILURE_MEMORY_MS);
  const { count } = await prisma.signInThrottle.deleteMany({
    where: { nextAttemptAt: { lt: before }, OR: [{ lastFailureAt: null }, { lastFailureAt: { lt: before } }] },
  });
  return count;
}
