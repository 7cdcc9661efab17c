import type { NextAuthConfig } from "next-auth";

/**
 * The part of the Auth.js configuration that needs no database, shared by the proxy (which only
 * redirects signed-out visitors) and the full server configuration in lib/server/identity/auth.ts.
 */
export const authConfig = {
  pages: { signIn: "/sign-in" },
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  trustHost: true,
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.uid = user.id;
      return token;
    },
    session({ session, token }) {
      if (typeof token.uid === "string") session.user.id = token.uid;
      return session;
    },
  },
} satisfies NextAuthConfig;
