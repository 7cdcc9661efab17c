"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FieldError, FormMessage } from "@/components/ui/form-feedback";

type Answer = "MATCH" | "PARTIAL" | "MISMATCH";
export interface ResemblanceValues {
  suite: string;
  candidates: string[];
  answer: {
    task: Answer;
    taskNote: string;
    distribution: Answer;
    distributionNote: string;
    promptScoring: Answer;
    promptScoringNote: string;
    relevanceNote: string;
  } | null;
}

const QUESTIONS = [
  { key: "task", note: "taskNote", label: "Task: does the suite test what this task needs?" },
  {
    key: "distribution",
    note: "distributionNote",
    label: "Distribution: does its class balance resemble this decision's prevalence?",
  },
  {
    key: "promptScoring",
    note: "promptScoringNote",
    label: "Prompt and scoring: same template, output parser and scoring rule?",
  },
] as const;
const ANSWERS: [Answer, string][] = [
  ["MATCH", "Yes"],
  ["PARTIAL", "Partly"],
  ["MISMATCH", "No"],
];

/** SPEC §3's three questions of resemblance for one suite a shortlist rationale cites. */
export function ResemblanceForm({
  decisionId,
  values,
  action,
  disabled,
}: {
  decisionId: string;
  values: ResemblanceValues;
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
  disabled?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const errors = state && !state.ok ? state.fieldErrors : undefined;
  const id = `resemblance-${values.suite.replace(/[^a-z0-9]+/gi, "-")}`;
  return (
    <form action={formAction} className="card stack" aria-labelledby={id}>
      <h3 id={id}>
        {values.suite} <span className="muted">— cited for {values.candidates.join(", ")}</span>
      </h3>
      <input type="hidden" name="decisionId" value={decisionId} />
      <input type="hidden" name="suite" value={values.suite} />
      {QUESTIONS.map((q) => (
        <fieldset key={q.key}>
          <legend>{q.label}</legend>
          {ANSWERS.map(([value, label]) => (
            <label key={value} className="inline">
              <input
                type="radio"
                name={q.key}
                value={value}
                defaultChecked={values.answer?.[q.key] === value}
                disabled={disabled}
              />{" "}
              {label}
            </label>
          ))}
          <FieldError errors={errors?.[q.key]} />
          <label>
            Note
            <input
              name={q.note}
              defaultValue={values.answer?.[q.note] ?? ""}
              disabled={disabled}
              aria-label={`${values.suite}: note on ${q.key === "promptScoring" ? "prompt and scoring" : q.key}`}
            />
          </label>
        </fieldset>
      ))}
      <label>
        Relevance note — why this suite&apos;s numbers matter (or not) for this decision; printed in the record
        <textarea
          name="relevanceNote"
          defaultValue={values.answer?.relevanceNote ?? ""}
          disabled={disabled}
          rows={2}
          aria-label={`${values.suite}: relevance note`}
        />
      </label>
      <FieldError errors={errors?.relevanceNote} />
      <FormMessage state={state} />
      {!disabled && (
        <div>
          <button type="submit" disabled={pending}>
            {pending ? "Saving…" : `Save the answers for ${values.suite}`}
          </button>
        </div>
      )}
    </form>
  );
}
