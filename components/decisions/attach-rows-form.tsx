"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";

/**
 * Stranded leaderboard rows — model names the matcher took for no candidate — attached to an
 * existing candidate. The ticked spellings become the candidate's aliases, so the next file that
 * spells the model so attaches by itself.
 */
export function AttachRowsForm({
  decisionId,
  models,
  candidates,
  action,
}: {
  decisionId: string;
  models: { name: string; rows: number }[];
  candidates: { id: string; name: string }[];
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form action={formAction} className="stack" aria-label="Attach leaderboard rows to a candidate">
      <input type="hidden" name="decisionId" value={decisionId} />
      <fieldset>
        <legend>Model names without a candidate</legend>
        {models.map((m) => (
          <label key={m.name} style={{ display: "flex", gap: 6, fontWeight: 400 }}>
            <input type="checkbox" name="models" value={m.name} /> <code>{m.name}</code>{" "}
            <span className="muted">({m.rows} score(s))</span>
          </label>
        ))}
        <FieldError errors={errors?.models} />
      </fieldset>
      <label>
        Attach to the candidate
        <select name="candidateId" defaultValue="">
          <option value="">— choose a candidate —</option>
          {candidates.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <FieldError errors={errors?.candidateId} />
      </label>
      <FormMessage state={state} />
      <div>
        <button type="submit" className="secondary" disabled={pending}>
          {pending ? "Attaching…" : "Attach and remember these spellings"}
        </button>
      </div>
    </form>
  );
}
