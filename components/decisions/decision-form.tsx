"use client";

import type { ActionState } from "@/lib/action-state";
import { decisionParametersSchema, type DecisionParameters } from "@/lib/schemas/decision";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";
import { useValidatedAction } from "./client-validation";
import { OPERATING_RULE_LABELS } from "@/lib/decisions/operating-rule";

const OPERATING_RULE_OPTIONS = Object.entries(OPERATING_RULE_LABELS);

type Field = {
  name: keyof DecisionParameters;
  label: string;
  type?: "number" | "text" | "textarea" | "select";
  step?: string;
  hint?: string;
  required?: boolean;
  options?: readonly (readonly [string, string])[];
};

const FIELDS: Field[] = [
  { name: "title", label: "Title" },
  { name: "description", label: "Description", type: "textarea" },
  { name: "positiveClass", label: "Positive class", hint: "the class a false negative misses, e.g. violating" },
  {
    name: "prevalence",
    label: "Deployment prevalence π",
    type: "number",
    step: "any",
    hint: "fraction of production traffic that is positive, e.g. 0.02",
  },
  { name: "costFn", label: "Cost of a false negative (C_FN)", type: "number", step: "any" },
  { name: "costFp", label: "Cost of a false positive (C_FP)", type: "number", step: "any" },
  { name: "currency", label: "Currency of the costs" },
  { name: "recallFloor", label: "Recall floor at π", type: "number", step: "any" },
  { name: "precisionFloor", label: "Precision floor at π (optional)", type: "number", step: "any" },
  {
    name: "operatingRule",
    label: "Operating-point rule",
    type: "select",
    options: OPERATING_RULE_OPTIONS,
    hint: "how each candidate's threshold is chosen; chosen on one half of the items, reported on the other",
  },
  {
    name: "operatingThreshold",
    label: "Operating threshold (rule: fixed)",
    type: "number",
    step: "any",
    hint: "used when the rule is fixed, or by a what-if",
  },
  { name: "sloP95E2eMs", label: "SLO: p95 end-to-end latency (ms)", type: "number", step: "any" },
  { name: "sloP95TtftMs", label: "SLO: p95 time to first token (ms)", type: "number", step: "any" },
  { name: "sloMinThroughputRps", label: "SLO: minimum throughput (req/s)", type: "number", step: "any" },
  { name: "sloThroughputConcurrency", label: "SLO: at concurrency", type: "number", step: "1" },
  { name: "sloMaxCostPer1kRequests", label: "SLO: maximum cost per 1,000 requests", type: "number", step: "any" },
  { name: "quorum", label: "Quorum of approvers", type: "number", step: "1" },
];

export type DecisionFormValues = Partial<Record<keyof DecisionParameters, string | number | null>>;

/**
 * The task parameters, validated in the browser with the server's own schema: the edit form (with
 * `decisionId`) and the new-decision form (with `copyFrom`, the decision its values came from).
 */
export function DecisionForm({
  decisionId,
  copyFrom,
  values,
  action,
  submitLabel = "Save the task parameters",
  disabled = false,
}: {
  decisionId?: string;
  copyFrom?: string;
  values: DecisionFormValues;
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
  submitLabel?: string;
  disabled?: boolean;
}) {
  const { formAction, pending, errors, message, onSubmit } = useValidatedAction(action, decisionParametersSchema);
  return (
    <form action={formAction} className="edit-grid" noValidate onSubmit={onSubmit}>
      {decisionId && <input type="hidden" name="decisionId" value={decisionId} />}
      {copyFrom && <input type="hidden" name="copyFrom" value={copyFrom} />}
      {FIELDS.map((f) => (
        <label key={f.name} className={f.type === "textarea" ? "wide" : undefined}>
          {f.label}
          {f.type === "select" ? (
            <select name={f.name} defaultValue={String(values[f.name] ?? "")} aria-invalid={!!errors?.[f.name]}>
              {f.options?.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          ) : f.type === "textarea" ? (
            <textarea
              name={f.name}
              defaultValue={String(values[f.name] ?? "")}
              rows={3}
              aria-invalid={!!errors?.[f.name]}
            />
          ) : (
            <input
              name={f.name}
              type={f.type ?? "text"}
              step={f.step}
              defaultValue={values[f.name] === null ? "" : String(values[f.name] ?? "")}
              aria-invalid={!!errors?.[f.name]}
              required={f.required}
            />
          )}
          {f.hint && <small className="muted">{f.hint}</small>}
          <FieldError errors={errors?.[f.name]} />
        </label>
      ))}
      <div className="wide">
        <FormMessage state={message} />
        <button type="submit" disabled={pending || disabled}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
