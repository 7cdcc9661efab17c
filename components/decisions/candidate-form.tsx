"use client";

import type { ActionState } from "@/lib/action-state";
import type { PackCandidate } from "@/lib/pack/pack-data";
import { rationaleProblem } from "@/lib/pack/rationale";
import { candidateSchema } from "@/lib/schemas/candidate";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";
import { useValidatedAction } from "./client-validation";

export type CandidateValues = Pick<
  PackCandidate,
  | "id"
  | "name"
  | "provider"
  | "version"
  | "shortlistRationale"
  | "operatingThreshold"
  | "priceInputPerMTok"
  | "priceOutputPerMTok"
  | "pricePerHour"
>;

const v = (x: number | null) => (x === null ? "" : String(x));

/** One candidate and its shortlist rationale, which must cite one of its scored suites and say why. */
export function CandidateForm({
  candidate,
  suites,
  action,
}: {
  candidate: CandidateValues;
  suites: string[];
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
}) {
  const { formAction, pending, errors, message, onSubmit } = useValidatedAction(
    action,
    candidateSchema,
    (values): Record<string, string[]> => {
      const problem = rationaleProblem(String(values.shortlistRationale ?? ""), suites);
      return problem ? { shortlistRationale: [problem] } : {};
    },
  );
  const id = `candidate-${candidate.id}`;
  return (
    <form action={formAction} className="edit-grid card" aria-labelledby={id} noValidate onSubmit={onSubmit}>
      <h3 id={id} className="wide">
        {candidate.name}
      </h3>
      <input type="hidden" name="candidateId" value={candidate.id} />
      {/* A full row: model names from leaderboards run long ("meta-llama/Meta-Llama-3-8B-Instruct"). */}
      <label className="wide">
        Name
        <input name="name" defaultValue={candidate.name} />
        <FieldError errors={errors?.name} />
      </label>
      <label>
        Provider
        <input name="provider" defaultValue={candidate.provider} />
        <FieldError errors={errors?.provider} />
      </label>
      <label>
        Version / revision
        <input name="version" defaultValue={candidate.version} />
      </label>
      <label>
        Own operating threshold (optional)
        <input name="operatingThreshold" type="number" step="any" defaultValue={v(candidate.operatingThreshold)} />
        <small className="muted">used when the decision&apos;s operating-point rule is fixed</small>
        <FieldError errors={errors?.operatingThreshold} />
      </label>
      <label>
        Price per 1M input tokens
        <input name="priceInputPerMTok" type="number" step="any" defaultValue={v(candidate.priceInputPerMTok)} />
      </label>
      <label>
        Price per 1M output tokens
        <input name="priceOutputPerMTok" type="number" step="any" defaultValue={v(candidate.priceOutputPerMTok)} />
      </label>
      <label>
        Hourly instance price
        <input name="pricePerHour" type="number" step="any" defaultValue={v(candidate.pricePerHour)} />
      </label>
      <label className="wide">
        Shortlist rationale
        <textarea
          name="shortlistRationale"
          rows={4}
          defaultValue={candidate.shortlistRationale}
          aria-invalid={!!errors?.shortlistRationale}
          aria-describedby={`${id}-hint`}
        />
        <small id={`${id}-hint`} className="muted">
          Name the benchmark you rely on ({suites.length ? suites.join(", ") : "no scores imported yet"}) and why it is
          relevant to this task — not just the rank.
        </small>
        <FieldError errors={errors?.shortlistRationale} />
      </label>
      <div className="wide">
        <FormMessage state={message} />
        <button type="submit" disabled={pending}>
          {pending ? "Saving…" : `Save ${candidate.name}`}
        </button>
      </div>
    </form>
  );
}
