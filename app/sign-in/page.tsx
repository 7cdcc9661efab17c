import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { homePathFor } from "@/lib/auth/home";
import { currentActor } from "@/lib/server/session";
import { signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

/**
 * Reduce Auth.js's absolute callbackUrl to a same-site path; "" when there is none (or it is `/`),
 * so the sign-in lands the user on their role's home (lib/auth/home.ts).
 */
function toPath(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return "";
  try {
    const url = new URL(raw, "http://local");
    const path = url.pathname + url.search;
    return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/sign-in") && path !== "/" ? path : "";
  } catch {
    return "";
  }
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = toPath(params.callbackUrl);
  const actor = await currentActor();
  if (actor) redirect(callbackUrl || homePathFor(actor));
  return (
    <section className="sign-in card">
      <h1>Sign in to Verdict</h1>
      <p className="muted">Evidence a procurement committee can defend.</p>
      {params.notice === "enrolled" && (
        <p className="message-ok" role="status">
          Your password is set. Sign in with your email and the password you chose.
        </p>
      )}
      <SignInForm callbackUrl={callbackUrl} action={signInAction} />
    </section>
  );
}
