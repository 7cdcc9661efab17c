"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";

type Action = (state: ActionState, data: FormData) => Promise<ActionState>;

/** The invitation link's form: a new password, typed twice. */
export function AcceptInvitationForm({ token, action }: { token: string; action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form action={formAction} className="stack">
      <input type="hidden" name="token" value={token} />
      <label>
        New password
        <input name="password" type="password" autoComplete="new-password" required />
        <FieldError errors={errors?.password} />
      </label>
      <label>
        Repeat the password
        <input name="confirm" type="password" autoComplete="new-password" required />
        <FieldError errors={errors?.confirm} />
      </label>
      <FormMessage state={state} />
      <button type="submit" disabled={pending}>{pending ? "Saving…" : "Set my password"}</button>
    </form>
  );
}

/** Settings → password: the current one, then the new one twice. */
export function ChangePasswordForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form action={formAction} className="stack" key={state?.ok ? "done" : "form"}>
      <label>
        Current password
        <input name="currentPassword" type="password" autoComplete="current-password" required />
        <FieldError errors={errors?.currentPassword} />
      </label>
      <label>
        New password
        <input name="newPassword" type="password" autoComplete="new-password" required />
        <FieldError errors={errors?.newPassword} />
      </label>
      <label>
        Repeat the new password
        <input name="confirm" type="password" autoComplete="new-password" required />
        <FieldError errors={errors?.confirm} />
      </label>
      <FormMessage state={state} />
      <button type="submit" disabled={pending}>{pending ? "Saving…" : "Change password"}</button>
    </form>
  );
}
