"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FormMessage } from "./form-feedback";

type Action = (state: ActionState, data: FormData) => Promise<ActionState>;

/** A one-button server action with fixed fields (archive, restore, remove). */
export function ButtonForm({
  action,
  fields,
  label,
  secondary,
}: {
  action: Action;
  fields: Record<string, string>;
  label: string;
  secondary?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} aria-label={label} className="inline-form">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={secondary ? "secondary" : undefined} disabled={pending}>
        {label}
      </button>
      <FormMessage state={state} />
    </form>
  );
}
