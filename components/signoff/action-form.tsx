"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FormMessage } from "@/components/ui/form-feedback";

type Action = (state: ActionState, data: FormData) => Promise<ActionState>;

/** A one-button transition (submit for review, back to draft), optionally with a reason. */
export function ActionForm({
  action,
  decisionId,
  label,
  reasonLabel,
  secondary,
}: {
  action: Action;
  decisionId: string;
  label: string;
  reasonLabel?: string;
  secondary?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="stack" aria-label={label}>
      <input type="hidden" name="decisionId" value={decisionId} />
      {reasonLabel && (
        <label>
          {reasonLabel}
          <textarea name="reason" rows={2} required minLength={3} />
        </label>
      )}
      <div>
        <button type="submit" className={secondary ? "secondary" : undefined} disabled={pending}>
          {label}
        </button>
      </div>
      <FormMessage state={state} />
    </form>
  );
}
