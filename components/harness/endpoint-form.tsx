"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";

export interface EndpointView {
  baseUrl: string;
  model: string;
  apiKeyFingerprint: string | null;
  concurrency: number;
  rateLimitRps: number | null;
  simulated: boolean;
}

/**
 * A candidate's OpenAI-compatible endpoint, saved through the same use case as PUT
 * …/candidates/<id>/endpoint. The key is write-only: the page shows its fingerprint, never the key;
 * a blank key field keeps the stored one.
 */
export function EndpointForm({
  decisionId,
  candidate,
  endpoint,
  action,
  disabled,
}: {
  decisionId: string;
  candidate: { id: string; name: string };
  endpoint: EndpointView | null;
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
  disabled?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  return (
    <form action={formAction} className="edit-grid" aria-label={`Endpoint of ${candidate.name}`}>
      <input type="hidden" name="decisionId" value={decisionId} />
      <input type="hidden" name="candidateId" value={candidate.id} />
      <label>
        Base URL
        <input
          name="baseUrl"
          defaultValue={endpoint?.baseUrl ?? ""}
          placeholder="e.g. http://gpu-01:8000/v1"
          disabled={disabled}
          aria-invalid={!!errors?.baseUrl}
        />
        <FieldError errors={errors?.baseUrl} />
      </label>
      <label>
        Model (as the endpoint names it)
        <input name="model" defaultValue={endpoint?.model ?? ""} disabled={disabled} aria-invalid={!!errors?.model} />
        <FieldError errors={errors?.model} />
      </label>
      <label>
        API key{" "}
        <span className="muted">
          {endpoint?.apiKeyFingerprint
            ? `(stored, fingerprint ${endpoint.apiKeyFingerprint}; leave blank to keep it)`
            : "(none stored)"}
        </span>
        <input name="apiKey" type="password" autoComplete="new-password" defaultValue="" disabled={disabled} />
        <FieldError errors={errors?.apiKey} />
      </label>
      <label>
        Requests in flight at most
        <input
          name="concurrency"
          type="number"
          min={1}
          max={1024}
          defaultValue={endpoint?.concurrency ?? 8}
          disabled={disabled}
        />
        <FieldError errors={errors?.concurrency} />
      </label>
      <label>
        Requests per second at most <span className="muted">(blank: no limit)</span>
        <input
          name="rateLimitRps"
          type="number"
          step="any"
          min={0}
          defaultValue={endpoint?.rateLimitRps ?? ""}
          disabled={disabled}
        />
        <FieldError errors={errors?.rateLimitRps} />
      </label>
      {endpoint?.apiKeyFingerprint && (
        <label style={{ display: "flex", gap: 6, fontWeight: 400 }}>
          <input type="checkbox" name="removeKey" value="1" disabled={disabled} /> Remove the stored key
        </label>
      )}
      <div className="wide">
        <FormMessage state={state} />
        {!disabled && (
          <button type="submit" className="secondary" disabled={pending}>
            {pending ? "Saving…" : `Save ${candidate.name}'s endpoint`}
          </button>
        )}
      </div>
    </form>
  );
}
