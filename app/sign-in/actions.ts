"use server";
import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import type { SignInState } from "@/components/auth/sign-in-form";
import { homePathFor } from "@/lib/auth/home";
import { actorByEmail } from "@/lib/server/actors";
import { signIn, signOut } from "@/lib/server/identity/auth";

/** Only a same-site path may follow sign-in (no open redirect); none: the user's home. */
function safeReturnPath(value: FormDataEntryValue | null): string | null {
  const path = typeof value === "string" ? value : "";
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : null;
}

export async function signInAction(_previous: SignInState, formData: FormData): Promise<SignInState> {
  const returnTo = safeReturnPath(formData.get("callbackUrl"));
  try {
    // The session cookie is set here; the landing page is chosen below, once we know who signed in.
    await signIn("credentials", {
      email: formData.get("email"),
      password: formData.get("password"),
      redirect: false,
      redirectTo: returnTo ?? "/",
    });
  } catch (error) {
    // One message for every failure: it must not reveal whether the email exists.
    if (error instanceof AuthError)
      return {
        message: "Email or password is incorrect, or there were too many attempts: wait a minute and try again.",
      };
    throw error;
  }
  if (returnTo) redirect(returnTo);
  const actor = await actorByEmail(String(formData.get("email") ?? ""));
  redirect(actor ? homePathFor(actor) : "/");
}

export async function signOutAction() {
  await signOut({ redirectTo: "/sign-in" });
}
