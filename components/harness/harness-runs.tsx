"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

/** A harness run as the API lists it (GET /api/v1/decisions/<id>/harness-runs). */
export interface HarnessRunView {
  id: number;
  candidateId: string;
  kind: string;
  concurrency: number;
  status: string;
  itemCount: number;
  doneCount: number;
  parseFailures?: number;
  failedRequests?: number;
  error: string | null;
  evalRunId: number | null;
  endpoint: unknown;
}

export interface RunnableCandidate {
  id: string;
  name: string;
  simulated: boolean;
  concurrency: number;
}

const active = (r: HarnessRunView) => r.status === "QUEUED" || r.status === "RUNNING";
const isSimulated = (r: HarnessRunView) => (r.endpoint as { simulated?: boolean } | null)?.simulated === true;

/**
 * Runs of the candidates' endpoints on the pack page: progress polled once a second while a run
 * is queued or running (the API's own numbers: stored items, parse failures, failed requests), a
 * Run button per candidate with an endpoint and a Cancel button for analysts. When a run ends the
 * page is refreshed, so stages 3–5 show what it produced. The server checks every permission.
 */
export function HarnessRuns({
  decisionId,
  initial,
  candidates,
  names,
  canRun,
}: {
  decisionId: string;
  initial: HarnessRunView[];
  candidates: RunnableCandidate[];
  names: Record<string, string>;
  canRun: boolean;
}) {
  const router = useRouter();
  const [runs, setRuns] = useState(initial);
  const [message, setMessage] = useState<string | null>(null);
  const api = `/api/v1/decisions/${encodeURIComponent(decisionId)}/harness-runs`;
  const polling = runs.some(active);

  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    const timer = setInterval(async () => {
      const response = await fetch(api, { cache: "no-store" });
      if (!response.ok || stopped) return;
      const next = ((await response.json()) as { runs: HarnessRunView[] }).runs;
      setRuns(next);
      if (!next.some(active)) router.refresh();
    }, 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [polling, api, router]);

  async function post(url: string, body?: unknown) {
    setMessage(null);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as {
      error?: { message?: string } | string;
      message?: string;
    };
    if (!response.ok) {
      setMessage(
        typeof answer.error === "string"
          ? answer.error
          : (answer.error?.message ?? answer.message ?? `Refused (${response.status}).`),
      );
      return;
    }
    const list = await fetch(api, { cache: "no-store" });
    if (list.ok) setRuns(((await list.json()) as { runs: HarnessRunView[] }).runs);
  }

  return (
    <div className="harness-runs">
      {canRun && candidates.length > 0 && (
        <p className="pack-actions">
          {candidates.map((c) => (
            <button key={c.id} type="button" onClick={() => void post(api, { candidateId: c.id })}>
              Run {c.name}
              {c.simulated ? " (simulated endpoint)" : ""}
            </button>
          ))}
        </p>
      )}
      {message && (
        <p className="message-error" role="alert">
          {message}
        </p>
      )}
      {runs.length === 0 ? (
        <p className="muted">No run yet.</p>
      ) : (
        <ul className="harness-run-list">
          {runs.map((r) => (
            <li key={r.id} data-harness-run={r.id} data-status={r.status}>
              <span>
                Run {r.id} · {names[r.candidateId] ?? "candidate"}
                {isSimulated(r) ? " (simulated endpoint)" : ""} · {r.kind === "SWEEP" ? "sweep level" : "evaluation"} at
                concurrency {r.concurrency} · <strong>{r.status.toLowerCase()}</strong>
              </span>
              <progress
                max={r.itemCount}
                value={r.doneCount}
                aria-label={`Run ${r.id}: ${r.doneCount} of ${r.itemCount} items`}
              />
              <span className="muted">
                {r.doneCount} of {r.itemCount} items · {r.parseFailures ?? 0} parse failures · {r.failedRequests ?? 0}{" "}
                failed requests
                {r.evalRunId ? ` · eval run ${r.evalRunId}` : ""}
                {r.error ? ` · ${r.error}` : ""}
              </span>
              {canRun && active(r) && (
                <button type="button" onClick={() => void post(`${api}/${r.id}/cancel`)}>
                  Cancel run {r.id}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
