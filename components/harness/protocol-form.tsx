"use client";
import { useActionState, useState } from "react";
import type { ActionState } from "@/lib/action-state";
import { renderMessages, TEMPLATE_VARIABLES, type EvalProtocol, type PromptItem } from "@/lib/harness/protocol";
import { FormMessage } from "@/components/ui/form-feedback";

type Draft = {
  system: string;
  user: string;
  contractKind: "labels" | "json";
  labels: string;
  positiveLabel: string;
  schema: string;
  labelField: string;
  scoreKind: "label" | "logprobs" | "probability";
  probabilityField: string;
  temperature: string;
  maxTokens: string;
};

const JSON_SCHEMA_EXAMPLE = JSON.stringify(
  {
    type: "object",
    properties: { label: { type: "string", enum: ["yes", "no"] }, p: { type: "number" } },
    required: ["label", "p"],
  },
  null,
  2,
);

function draftOf(p: EvalProtocol | null, positiveClass: string): Draft {
  const c = p?.contract;
  return {
    system: p?.system ?? `You review items for "${positiveClass}". Answer yes or no.`,
    user: p?.user ?? "{{text}}",
    contractKind: c?.kind ?? "labels",
    labels: c?.kind === "labels" ? c.labels.join(", ") : "yes, no",
    positiveLabel: c?.positiveLabel ?? "yes",
    schema: c?.kind === "json" ? JSON.stringify(c.schema, null, 2) : JSON_SCHEMA_EXAMPLE,
    labelField: c?.kind === "json" ? c.labelField : "label",
    scoreKind: p?.score.kind ?? "label",
    probabilityField: p?.score.kind === "probability" ? p.score.field : "p",
    temperature: String(p?.sampling.temperature ?? 0),
    maxTokens: String(p?.sampling.maxTokens ?? 16),
  };
}

/** The draft as the protocol's JSON; a schema that is not JSON is sent as text, for the server to name. */
function protocolOf(d: Draft): Record<string, unknown> {
  let schema: unknown = d.schema;
  try {
    schema = JSON.parse(d.schema);
  } catch {
    // left as text: the server answers "contract.schema: …"
  }
  const contract =
    d.contractKind === "labels"
      ? {
          kind: "labels",
          labels: d.labels
            .split(",")
            .map((l) => l.trim())
            .filter(Boolean),
          positiveLabel: d.positiveLabel,
        }
      : { kind: "json", schema, labelField: d.labelField, positiveLabel: d.positiveLabel };
  const score =
    d.scoreKind === "probability" ? { kind: "probability", field: d.probabilityField } : { kind: d.scoreKind };
  return {
    system: d.system,
    user: d.user,
    contract,
    score,
    sampling: { temperature: Number(d.temperature), maxTokens: Number(d.maxTokens), stop: [] },
  };
}

/**
 * The decision's evaluation protocol (SPEC §2), edited on the page: the message templates with a
 * preview of the evaluation dataset's first item rendered through them (the renderer a run uses),
 * the output contract and the score. Saved through the same use case as PUT …/protocol.
 */
export function ProtocolForm({
  decisionId,
  protocol,
  positiveClass,
  item,
  action,
  disabled,
}: {
  decisionId: string;
  protocol: EvalProtocol | null;
  positiveClass: string;
  item: PromptItem | null;
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
  disabled?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const [d, setDraft] = useState<Draft>(() => draftOf(protocol, positiveClass));
  const set =
    (key: keyof Draft) => (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement }) =>
      setDraft({ ...d, [key]: e.currentTarget.value });
  const body = protocolOf(d);
  const preview = item ? renderMessages(body as EvalProtocol, item) : null;
  return (
    <form action={formAction} className="stack" aria-label="Evaluation protocol">
      <input type="hidden" name="decisionId" value={decisionId} />
      <input type="hidden" name="protocol" value={JSON.stringify(body)} />
      <p className="muted">Variables: {TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(", ")} (never the gold label).</p>
      <label>
        System message template
        <textarea rows={3} value={d.system} onChange={set("system")} disabled={disabled} />
      </label>
      <label>
        User message template
        <textarea rows={4} value={d.user} onChange={set("user")} disabled={disabled} />
      </label>
      <section aria-label="Preview of one item">
        <h3>Preview: {item ? `item ${item.itemId} of the evaluation dataset` : "no evaluation dataset yet"}</h3>
        {preview?.map((m, i) => (
          <pre key={i} data-role={m.role}>
            <strong>{m.role}:</strong> {m.content}
          </pre>
        ))}
      </section>
      <fieldset className="edit-grid">
        <legend>Output contract</legend>
        <label>
          The answer is
          <select value={d.contractKind} onChange={set("contractKind")} disabled={disabled}>
            <option value="labels">one of a list of labels</option>
            <option value="json">JSON matching a schema</option>
          </select>
        </label>
        {d.contractKind === "labels" ? (
          <label>
            Labels (comma-separated)
            <input value={d.labels} onChange={set("labels")} disabled={disabled} />
          </label>
        ) : (
          <label>
            Field holding the label
            <input value={d.labelField} onChange={set("labelField")} disabled={disabled} />
          </label>
        )}
        <label>
          Positive label (“{positiveClass}”)
          <input value={d.positiveLabel} onChange={set("positiveLabel")} disabled={disabled} />
        </label>
        {d.contractKind === "json" && (
          <label className="wide">
            JSON schema
            <textarea rows={6} value={d.schema} onChange={set("schema")} disabled={disabled} />
          </label>
        )}
      </fieldset>
      <fieldset className="edit-grid">
        <legend>Score and sampling</legend>
        <label>
          Score for the positive class
          <select value={d.scoreKind} onChange={set("scoreKind")} disabled={disabled}>
            <option value="label">the hard label (1 or 0)</option>
            <option value="logprobs">label-token log-probabilities</option>
            <option value="probability">a probability field of the JSON</option>
          </select>
        </label>
        {d.scoreKind === "probability" && (
          <label>
            Probability field
            <input value={d.probabilityField} onChange={set("probabilityField")} disabled={disabled} />
          </label>
        )}
        <label>
          Temperature
          <input
            type="number"
            step="0.1"
            min="0"
            max="2"
            value={d.temperature}
            onChange={set("temperature")}
            disabled={disabled}
          />
        </label>
        <label>
          Max output tokens
          <input type="number" min="1" value={d.maxTokens} onChange={set("maxTokens")} disabled={disabled} />
        </label>
      </fieldset>
      <FormMessage state={state} />
      {!disabled && (
        <div>
          <button type="submit" disabled={pending}>
            {pending ? "Saving…" : "Save the protocol"}
          </button>
        </div>
      )}
    </form>
  );
}
