"use client";
import { useActionState } from "react";
import { ROLES } from "@/lib/auth/permissions";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";

export function CreateUserForm({ action }: { action: (state: ActionState, data: FormData) => Promise<ActionState> }) {
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
      <label>
        Initial password
        <input name="password" type="password" required minLength={12} autoComplete="new-password" />
        <FieldError errors={errors?.password} />
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
      <button type="submit" disabled={pending}>{pending ? "Creating…" : "Create user"}</button>
    </form>
  );
}
