"use client";
import { useActionState } from "react";
import { signInAction, type SignInState } from "@/app/sign-in/actions";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(signInAction, null);
  return (
    <form action={formAction} className="stack" aria-describedby={state ? "sign-in-error" : undefined}>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {state && (
        <p id="sign-in-error" className="message-error" role="status">
          {state.message}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
