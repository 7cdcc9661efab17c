"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FormMessage } from "@/components/ui/form-feedback";

/** The one dataset version the pack is evaluated on (SPEC §2), changeable while the decision is a draft. */
export function EvaluationVersionForm({
  decisionId,
  versions,
  current,
  action,
  disabled,
}: {
  decisionId: string;
  versions: { id: number; label: string }[];
  current: number | null;
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
  disabled?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="stack" aria-label="Evaluation dataset version">
      <input type="hidden" name="decisionId" value={decisionId} />
      <label>
        The pack is evaluated on
        <select name="datasetVersionId" defaultValue={current ?? ""} disabled={disabled}>
          {current === null && <option value="">— choose a dataset version —</option>}
          {versions.map((v) => (
            <option key={v.id} value={v.id}>
              {v.label}
            </option>
          ))}
        </select>
      </label>
      <FormMessage state={state} />
      {!disabled && (
        <div>
          <button type="submit" className="secondary" disabled={pending}>
            Evaluate the pack on this version
          </button>
        </div>
      )}
    </form>
  );
}
