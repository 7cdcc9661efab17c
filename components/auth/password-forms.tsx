"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";

type Action = (state: ActionState, data: FormData) => Promise<ActionState>;

/** One password input with its label and the server's message for it. */
function PasswordField({
  label,
  name,
  autoComplete,
  errors,
}: {
  label: string;
  name: string;
  autoComplete: "new-password" | "current-password";
  errors?: string[];
}) {
  return (
    <label>
      {label}
      <input name={name} type="password" autoComplete={autoComplete} required />
      <FieldError errors={errors} />
    </label>
  );
}

/** The invitation link's form: a new password, typed twice. */
export function AcceptInvitationForm({ token, action }: { token: string; action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form action={formAction} className="stack">
      <input type="hidden" name="token" value={token} />
      <PasswordField label="New password" name="password" autoComplete="new-password" errors={errors?.password} />
      <PasswordField label="Repeat the password" name="confirm" autoComplete="new-password" errors={errors?.confirm} />
      <FormMessage state={state} />
      <button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Set my password"}
      </button>
    </form>
  );
}

/** Settings → password: the current one, then the new one twice. */
export function ChangePasswordForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form action={formAction} className="stack" key={state?.ok ? "done" : "form"}>
      <PasswordField
        label="Current password"
        name="currentPassword"
        autoComplete="current-password"
        errors={errors?.currentPassword}
      />
      <PasswordField label="New password" name="newPassword" autoComplete="new-password" errors={errors?.newPassword} />
      <PasswordField
        label="Repeat the new password"
        name="confirm"
        autoComplete="new-password"
        errors={errors?.confirm}
      />
      <FormMessage state={state} />
      <button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Change password"}
      </button>
    </form>
  );
}
