"use client";
import { useActionState } from "react";
import { ROLES } from "@/lib/auth/permissions";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";

/** Invites a person by email: they choose their own password on the link (the admin never sees it). */
export function InviteUserForm({ action }: { action: (state: ActionState, data: FormData) => Promise<ActionState> }) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form action={formAction} className="stack">
      <label>
        Printed name
        <input name="name" required autoComplete="off" />
        <FieldError errors={errors?.name} />
      </label>
      <label>
        Email
        <input name="email" type="email" required autoComplete="off" />
        <FieldError errors={errors?.email} />
      </label>
      <fieldset>
        <legend>Roles</legend>
        {ROLES.map((role) => (
          <label key={role} style={{ display: "inline-flex", gap: 6, marginRight: 16, fontWeight: 400 }}>
            <input type="checkbox" name="roles" value={role} /> {role.toLowerCase()}
          </label>
        ))}
        <FieldError errors={errors?.roles} />
      </fieldset>
      <FormMessage state={state} />
      <button type="submit" disabled={pending}>
        {pending ? "Sending…" : "Send invitation"}
      </button>
    </form>
  );
}

/** Deactivate (sessions and tokens revoked at once) or reactivate an account. */
export function UserActiveForm({
  userId,
  email,
  active,
  action,
}: {
  userId: string;
  email: string;
  active: boolean;
  action: (state: ActionState, data: FormData) => Promise<ActionState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form
      action={formAction}
      aria-label={`Account of ${email}`}
      style={{ display: "flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}
    >
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="active" value={active ? "false" : "true"} />
      <button type="submit" className="secondary" disabled={pending}>
        {active ? `Deactivate ${email}` : `Reactivate ${email}`}
      </button>
      <FormMessage state={state} />
    </form>
  );
}

/** Four-eyes enrolment: a second person confirms the role someone else granted. */
export function ConfirmSignerForm({
  userId,
  name,
  action,
}: {
  userId: string;
  name: string;
  action: (state: ActionState, data: FormData) => Promise<ActionState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} aria-label={`Enrolment of ${name}`} style={{ display: "inline-flex", gap: 8 }}>
      <input type="hidden" name="userId" value={userId} />
      <button type="submit" className="secondary" disabled={pending}>
        Confirm {name}
      </button>
      <FormMessage state={state} />
    </form>
  );
}
