import "server-only";
import { randomUUID } from "node:crypto";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { authConfig } from "@/lib/auth/config";
import type { RoleName } from "@/lib/auth/permissions";
import { db } from "../db";
import { checkCredentials } from "./sign-in";
import { recordAudit } from "../audit/write";
import { requestInfo } from "../request-info";

class InvalidSignIn extends CredentialsSignin {
  override code = "invalid_credentials";
}

/** Throttling, equal work for unknown emails and the audit events: lib/server/identity/sign-in.ts. */
async function authorize(raw: unknown) {
  const outcome = await checkCredentials(raw, await requestInfo());
  // One answer for every failure (wrong password, unknown email, inactive, throttled): it must
  // not say which emails exist.
  if (!outcome.ok) throw new InvalidSignIn();
  return outcome.user;
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
          const expiresAt = new Date(
            typeof token.exp === "number" ? token.exp * 1000 : Date.now() + authConfig.session.maxAge * 1000,
          );
          await tx.revokedSession.upsert({
            where: { sid: token.sid },
            create: { sid: token.sid, userId: user.id, expiresAt },
            update: {},
          });
          await tx.revokedSession.deleteMany({ where: { expiresAt: { lt: new Date() } } });
        }
        await recordAudit(tx, {
          actor: { id: user.id, roles: user.roles as RoleName[] },
          action: "auth.sign_out",
          entityType: "User",
          entityId: user.id,
          request: await requestInfo(),
        });
      });
    },
  },
});
