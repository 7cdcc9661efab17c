"use client";
import { useActionState } from "react";
import type { ActionState } from "@/lib/action-state";
import { FormMessage } from "@/components/ui/form-feedback";

interface TestResult {
  itemId: string;
  messages: { role: string; content: string }[];
  completed: boolean;
  httpStatus: number | null;
  error: string | null;
  attempts: number;
  rawOutput: string;
  parsed: { ok: true; predicted: boolean; score: number } | { ok: false; reason: string } | null;
  positiveLabel: string;
  e2eMs: number;
}

/** What the contract made of the answer, in words. */
function parsedText(r: TestResult): string {
  if (!r.completed) return `no answer (${r.error ?? `HTTP ${r.httpStatus ?? "—"}`}, ${r.attempts} attempt(s))`;
  if (!r.parsed) return "—";
  if (!r.parsed.ok) return `breaks the output contract: ${r.parsed.reason}`;
  return `${r.parsed.predicted ? `positive (“${r.positiveLabel}”)` : "negative"}, score ${r.parsed.score.toFixed(3)}`;
}

/**
 * "Test the endpoint": the evaluation dataset's first item, rendered through the saved protocol,
 * sent to the saved endpoint as a run sends it; shows what was sent, the raw answer and the
 * answer as the output contract reads it.
 */
export function EndpointTest({
  decisionId,
  candidate,
  action,
}: {
  decisionId: string;
  candidate: { id: string; name: string };
  action: (s: ActionState, f: FormData) => Promise<ActionState>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const result = state?.ok ? (state.data as TestResult | undefined) : undefined;
  return (
    <form action={formAction} className="stack" aria-label={`Test ${candidate.name}'s endpoint`}>
      <input type="hidden" name="decisionId" value={decisionId} />
      <input type="hidden" name="candidateId" value={candidate.id} />
      <div>
        <button type="submit" className="secondary" disabled={pending}>
          {pending ? "Testing…" : "Test the endpoint"}
        </button>
      </div>
      <FormMessage state={state} />
      {result && (
        <dl aria-label="Test result">
          <dt>Item sent</dt>
          <dd>
            <code>{result.itemId}</code> ({Math.round(result.e2eMs)} ms)
          </dd>
          <dt>Raw answer</dt>
          <dd>
            <pre>{result.rawOutput || "(empty)"}</pre>
          </dd>
          <dt>Parsed answer</dt>
          <dd data-testid="parsed-answer">{parsedText(result)}</dd>
        </dl>
      )}
    </form>
  );
}
