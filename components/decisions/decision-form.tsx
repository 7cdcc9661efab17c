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

type Group = { legend: string; intro?: string; fields: Field[] };

/**
 * The task parameters in the order a committee settles them (issue 26 item 8): what is decided,
 * what an error costs, the floors and how the threshold is chosen, what serving must deliver, and
 * who signs. Help text names what a term means where the label alone does not say it.
 */
const GROUPS: Group[] = [
  {
    legend: "Task",
    fields: [
      { name: "title", label: "Title" },
      { name: "description", label: "Description", type: "textarea" },
      {
        name: "positiveClass",
        label: "Positive class",
        hint: "the class the model must find, e.g. violating; missing one is a false negative",
      },
      {
        name: "prevalence",
        label: "Deployment prevalence π",
        type: "number",
        step: "any",
        hint: "fraction of production traffic that is positive, e.g. 0.02 for 2%",
      },
    ],
  },
  {
    legend: "Error costs",
    intro: "What one error costs, in one currency: stage 4 turns them into an expected cost per 1,000 items at π.",
    fields: [
      {
        name: "costFn",
        label: "Cost of a false negative (C_FN)",
        type: "number",
        step: "any",
        hint: "a positive the model misses",
      },
      {
        name: "costFp",
        label: "Cost of a false positive (C_FP)",
        type: "number",
        step: "any",
        hint: "a negative the model flags",
      },
      { name: "currency", label: "Currency of the costs", hint: "a currency code, e.g. USD or EUR" },
    ],
  },
  {
    legend: "Floors and operating-point rule",
    fields: [
      {
        name: "recallFloor",
        label: "Recall floor at π",
        type: "number",
        step: "any",
        hint: "the least share of positives a candidate must find, e.g. 0.85",
      },
      {
        name: "precisionFloor",
        label: "Precision floor at π (optional)",
        type: "number",
        step: "any",
        hint: "the least share of flagged items that must be positive at π",
      },
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
        hint: "score at or above which an item is flagged; used when the rule is fixed, or by a what-if",
      },
    ],
  },
  {
    legend: "Serving SLOs",
    intro: "p95: 95% of requests are at least this fast. The SLOs are judged at the concurrency below.",
    fields: [
      { name: "sloP95E2eMs", label: "SLO: p95 end-to-end latency (ms)", type: "number", step: "any" },
      {
        name: "sloP95TtftMs",
        label: "SLO: p95 time to first token (ms)",
        type: "number",
        step: "any",
        hint: "TTFT: from sending the request to the first token",
      },
      { name: "sloMinThroughputRps", label: "SLO: minimum throughput (req/s)", type: "number", step: "any" },
      {
        name: "sloThroughputConcurrency",
        label: "SLO: at concurrency",
        type: "number",
        step: "1",
        hint: "requests in flight at once",
      },
      {
        name: "sloMaxCostPer1kRequests",
        label: "SLO: maximum cost per 1,000 requests",
        type: "number",
        step: "any",
      },
    ],
  },
  {
    legend: "Sign-off",
    fields: [
      {
        name: "quorum",
        label: "Quorum of approvers",
        type: "number",
        step: "1",
        hint: "how many approvers must sign before the decision is approved",
      },
    ],
  },
];

export type DecisionFormValues = Partial<Record<keyof DecisionParameters, string | number | null>>;

type Errors = Partial<Record<string, string[]>> | null | undefined;

/** One labelled control with its help text and its error, described by both. */
function FieldControl({ f, values, errors }: { f: Field; values: DecisionFormValues; errors: Errors }) {
  const hintId = f.hint ? `hint-${f.name}` : undefined;
  const common = { name: f.name, "aria-invalid": !!errors?.[f.name], "aria-describedby": hintId };
  return (
    <label className={f.type === "textarea" ? "wide" : undefined}>
      {f.label}
      {f.type === "select" ? (
        <select {...common} defaultValue={String(values[f.name] ?? "")}>
          {f.options?.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      ) : f.type === "textarea" ? (
        <textarea {...common} defaultValue={String(values[f.name] ?? "")} rows={3} />
      ) : (
        <input
          {...common}
          type={f.type ?? "text"}
          step={f.step}
          defaultValue={values[f.name] === null ? "" : String(values[f.name] ?? "")}
          required={f.required}
        />
      )}
      {f.hint && (
        <small id={hintId} className="hint">
          {f.hint}
        </small>
      )}
      <FieldError errors={errors?.[f.name]} />
    </label>
  );
}

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
    <form action={formAction} className="decision-form" noValidate onSubmit={onSubmit}>
      {decisionId && <input type="hidden" name="decisionId" value={decisionId} />}
      {copyFrom && <input type="hidden" name="copyFrom" value={copyFrom} />}
      {GROUPS.map((g) => (
        <fieldset key={g.legend} className="form-group">
          <legend>{g.legend}</legend>
          {g.intro && <p className="hint">{g.intro}</p>}
          <div className="edit-grid">
            {g.fields.map((f) => (
              <FieldControl key={f.name} f={f} values={values} errors={errors} />
            ))}
          </div>
        </fieldset>
      ))}
      <div>
        <FormMessage state={message} />
        <button type="submit" disabled={pending || disabled}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
