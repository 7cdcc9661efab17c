import "server-only";
import { randomUUID } from "node:crypto";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { authConfig } from "@/lib/auth/config";
import type { RoleName } from "@/lib/auth/permissions";
import { db } from "./db";
import { verifyPassword } from "./passwords";
import { recordAudit } from "./audit";
import { requestInfo } from "./request-info";

const credentialsSchema = z.object({ email: z.string().trim().toLowerCase().email(), password: z.string().min(1).max(1024) });

// After this many consecutive failures an account is locked for a while (SPEC: repeated wrong
// passwords are rate-limited and audited). The message stays the same, so nobody learns which
// emails exist.
export const MAX_FAILED_SIGN_INS = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;

class InvalidSignIn extends CredentialsSignin {
  override code = "invalid_credentials";
}

async function authorize(raw: unknown) {
  const parsed = credentialsSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidSignIn();
  const { email, password } = parsed.data;
  const prisma = await db();
  const user = await prisma.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, roles: true, active: true, passwordHash: true, failedSignIns: true, lockedUntil: true },
  });
  const request = await requestInfo();
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, password);
  const locked = !!user?.lockedUntil && user.lockedUntil > new Date();
  if (!user || !user.active || !passwordOk || locked) {
    if (user) {
      const failed = user.failedSignIns + 1;
      await prisma.$transaction(async (tx) => {
        await tx.user.update({
          where: { id: user.id },
          data: { failedSignIns: failed, lockedUntil: failed >= MAX_FAILED_SIGN_INS ? new Date(Date.now() + LOCKOUT_MS) : undefined },
        });
        await recordAudit(tx, {
          actor: { id: user.id, roles: user.roles as RoleName[] },
          action: "auth.sign_in_failed",
          entityType: "User",
          entityId: user.id,
          after: { failedSignIns: failed, locked: locked || failed >= MAX_FAILED_SIGN_INS },
          request,
        });
      });
    }
    throw new InvalidSignIn();
  }
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { failedSignIns: 0, lockedUntil: null } });
    await recordAudit(tx, { actor: { id: user.id, roles: user.roles as RoleName[] }, action: "auth.sign_in", entityType: "User", entityId: user.id, request });
  });
  return { id: user.id, email: user.email, name: user.name, roles: user.roles as RoleName[] };
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  ...authConfig,
  providers: [Credentials({ credentials: { email: {}, password: {} }, authorize })],
  callbacks: {
    ...authConfig.callbacks,
    jwt({ token, user }) {
      if (user?.id) {
        token.uid = user.id;
        token.roles = (user as { roles?: RoleName[] }).roles ?? [];
        token.signedInAt = Date.now();
        token.sid = randomUUID();
      }
      return token;
    },
    session({ session, token }) {
      if (typeof token.uid === "string") session.user.id = token.uid;
      (session.user as { roles?: unknown }).roles = token.roles ?? [];
      Object.assign(session, { signedInAt: token.signedInAt, sid: token.sid });
      return session;
    },
  },
  events: {
    async signOut(message) {
      const token = "token" in message ? message.token : null;
      const uid = typeof token?.uid === "string" ? token.uid : null;
      if (!uid) return;
      const prisma = await db();
      const user = await prisma.user.findUnique({ where: { id: uid }, select: { id: true, roles: true } });
      if (!user) return;
      await prisma.$transaction(async (tx) => {
        // Void this session server-side: a request in flight at sign-out may still carry its
        // cookie back to the browser, and a JWT cannot be recalled. Other sessions of the user stay.
        if (typeof token?.sid === "string") {
          const expiresAt = new Date(typeof token.exp === "number" ? token.exp * 1000 : Date.now() + authConfig.session.maxAge * 1000);
          await tx.revokedSession.upsert({ where: { sid: token.sid }, create: { sid: token.sid, userId: user.id, expiresAt }, update: {} });
          await tx.revokedSession.deleteMany({ where: { expiresAt: { lt: new Date() } } });
        }
        await recordAudit(tx, { actor: { id: user.id, roles: user.roles as RoleName[] }, action: "auth.sign_out", entityType: "User", entityId: user.id, request: await requestInfo() });
      });
    },
  },
});
