"use client";
import { useActionState } from "react";

/** What the sign-in action returns: null until a failure, then the one message every failure shares. */
export type SignInState = { message: string } | null;

type SignInAction = (state: SignInState, data: FormData) => Promise<SignInState>;

export function SignInForm({ callbackUrl, action }: { callbackUrl: string; action: SignInAction }) {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(action, null);
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
