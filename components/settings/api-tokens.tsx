"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";

type Action = (state: ActionState, data: FormData) => Promise<ActionState>;

export function CreateTokenForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  const token = state?.ok ? (state.data as { token?: string } | undefined)?.token : undefined;
  return (
    <form action={formAction} className="stack">
      <label>
        Name (what will use it)
        <input name="name" required maxLength={100} autoComplete="off" placeholder="e.g. nightly eval pipeline" />
        <FieldError errors={errors?.name} />
      </label>
      <FormMessage state={state} />
      {token && (
        <p>
          <label>
            Your new token
            <input
              readOnly
              value={token}
              data-testid="new-token"
              onFocus={(e) => e.currentTarget.select()}
              style={{ fontFamily: "monospace", width: "100%" }}
            />
          </label>
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create token"}
      </button>
    </form>
  );
}

export function RevokeTokenButton({ tokenId, name, action }: { tokenId: string; name: string; action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} style={{ display: "inline" }}>
      <input type="hidden" name="tokenId" value={tokenId} />
      <button type="submit" disabled={pending} aria-label={`Revoke token ${name}`}>
        {pending ? "Revoking…" : "Revoke"}
      </button>
      {state && !state.ok && <span className="field-error"> {state.message}</span>}
    </form>
  );
}
