"use client";
import { useActionState } from "react";
import { ROLES, type RoleName } from "@/lib/auth/permissions";
import type { ActionState } from "@/lib/action-state";
import { FormMessage } from "@/components/ui/form-feedback";

export function UserRolesForm({
  userId,
  email,
  roles,
  action,
}: {
  userId: string;
  email: string;
  roles: RoleName[];
  action: (state: ActionState, data: FormData) => Promise<ActionState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form
      action={formAction}
      aria-label={`Roles of ${email}`}
      style={{ display: "flex", gap: 12, alignItems: "center", flexWrap: "wrap" }}
    >
      <input type="hidden" name="userId" value={userId} />
      {ROLES.map((role) => (
        <label key={role} style={{ display: "inline-flex", gap: 4, fontWeight: 400 }}>
          <input type="checkbox" name="roles" value={role} defaultChecked={roles.includes(role)} /> {role.toLowerCase()}
        </label>
      ))}
      <button type="submit" className="secondary" disabled={pending}>
        Save roles
      </button>
      <FormMessage state={state} />
    </form>
  );
}
