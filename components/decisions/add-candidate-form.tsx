"use client";
import type { ActionState } from "@/lib/action-state";
import { candidateCreateSchema } from "@/lib/schemas/candidate";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";
import { useValidatedAction } from "./client-validation";

/** A candidate added by hand: name, provider, model id and version (validated with the server's schema). */
export function AddCandidateForm({
  decisionId,
  action,
}: {
  decisionId: string;
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
}) {
  const { formAction, pending, errors, message, onSubmit } = useValidatedAction(action, candidateCreateSchema);
  return (
    <form action={formAction} className="edit-grid" aria-label="Add a candidate by hand" noValidate onSubmit={onSubmit}>
      <input type="hidden" name="decisionId" value={decisionId} />
      <label>
        Candidate name
        <input name="name" aria-invalid={!!errors?.name} />
        <FieldError errors={errors?.name} />
      </label>
      <label>
        Provider
        <input name="provider" aria-invalid={!!errors?.provider} />
        <FieldError errors={errors?.provider} />
      </label>
      <label>
        Model id
        <input name="modelId" placeholder="e.g. meta-llama/Llama-3.1-8B-Instruct" />
        <FieldError errors={errors?.modelId} />
      </label>
      <label>
        Version / revision
        <input name="version" />
        <FieldError errors={errors?.version} />
      </label>
      <div className="wide">
        <FormMessage state={message} />
        <button type="submit" disabled={pending}>
          {pending ? "Adding…" : "Add the candidate"}
        </button>
      </div>
    </form>
  );
}
