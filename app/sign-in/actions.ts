"use server";
import { AuthError } from "next-auth";
import type { SignInState } from "@/components/auth/sign-in-form";
import { signIn, signOut } from "@/lib/server/identity/auth";

/** Only a same-site path may follow sign-in (no open redirect). */
function safeReturnPath(value: FormDataEntryValue | null): string {
  const path = typeof value === "string" ? value : "";
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : "/decisions";
}

export async function signInAction(_previous: SignInState, formData: FormData): Promise<SignInState> {
  try {
    await signIn("credentials", {
      email: formData.get("email"),
      password: formData.get("password"),
      redirectTo: safeReturnPath(formData.get("callbackUrl")),
    });
    return null;
  } catch (error) {
    // One message for every failure: it must not reveal whether the email exists.
    if (error instanceof AuthError)
      return {
        message: "Email or password is incorrect, or there were too many attempts: wait a minute and try again.",
      };
    throw error; // NEXT_REDIRECT on success
  }
}

export async function signOutAction() {
  await signOut({ redirectTo: "/sign-in" });
}
