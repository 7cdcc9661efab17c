import type { Metadata } from "next";
import Link from "next/link";
import { can } from "@/lib/auth/permissions";
import { currentActor } from "@/lib/server/session";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { signOutAction } from "./sign-in/actions";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Verdict", template: "%s · Verdict" },
  description: "Choose the model for one task, on evidence the committee can defend.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const actor = await currentActor();
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <Link className="brand" href="/">
            Verdict
          </Link>
          {actor && (
            <>
              <nav aria-label="Main">
                {can(actor, "decision.read") && <Link href="/decisions">Decisions</Link>}
                {can(actor, "user.manage") && <Link href="/admin/users">Users</Link>}
                {can(actor, "audit.read") && <Link href="/audit">Audit</Link>}
                {can(actor, "token.manage") && <Link href="/settings">Settings</Link>}
              </nav>
              <div className="who">
                <span>
                  {actor.name} <span className="muted">({actor.roles.map((r) => r.toLowerCase()).join(", ")})</span>
                </span>
                <SignOutButton action={signOutAction} />
              </div>
            </>
          )}
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
