"use client";
import { useEffect, useReducer, useRef, type Dispatch } from "react";
import { useRouter } from "next/navigation";
import { DropZone } from "./drop-zone";
import { formatBytes, storedRecords } from "./format";
import styles from "./uploads.module.css";
import { ErrorReport, type ReportedIssue } from "./error-report";
import {
  initialUploadState,
  uploadReducer,
  type Failure,
  type RunStatus,
  type UploadAction,
  type UploadState,
} from "./upload-state";

export type UploadKind = "dataset" | "predictions" | "leaderboard" | "serving";

const PATHS: Record<UploadKind, string> = {
  dataset: "datasets",
  predictions: "predictions",
  leaderboard: "leaderboards",
  serving: "serving",
};
const ACCEPT: Record<UploadKind, string> = {
  dataset: ".csv,.jsonl,.ndjson,.json,.parquet,text/csv,application/json",
  predictions: ".csv,.jsonl,.ndjson,.json,text/csv,application/json",
  leaderboard: ".csv,.json,text/csv,application/json",
  serving: ".csv,.json,.jsonl,text/csv,application/json",
};

export interface UploadContext {
  decisionId: string;
  positiveClass: string;
  candidates: { id: string; name: string }[];
  datasetVersions: { id: number; label: string }[];
}

export function newUploadId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * POST a file as the raw request body (streamed by the server, any size), or several files as a
 * multipart form (HELM's file pair), reporting upload progress in bytes.
 */
export function send(
  url: string,
  body: File | FormData,
  onBytes: (loaded: number) => void,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    if (body instanceof File) {
      xhr.setRequestHeader("Content-Type", body.type || "application/octet-stream");
      xhr.setRequestHeader("X-File-Name", encodeURIComponent(body.name));
    }
    xhr.upload.onprogress = (e) => onBytes(e.loaded);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { error: { message: xhr.responseText.slice(0, 300) || `HTTP ${xhr.status}` } };
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error("The upload failed (network error)."));
    xhr.send(body);
  });
}

type UploadResponse = Record<string, unknown> & {
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
};

/** Poll the server's progress on one upload (validated rows, phase) until the returned stop is called. */
export function pollUploadProgress(
  url: string,
  dispatch: Dispatch<Extract<UploadAction, { type: "progressed" }>>,
): () => void {
  let polling = true;
  const poll = async () => {
    while (polling) {
      await new Promise((r) => setTimeout(r, 400));
      if (!polling) break;
      const res = await fetch(url, { cache: "no-store" }).catch(() => null);
      const body = res?.ok ? ((await res.json()) as { progress: { phase: string; rows: number } | null }) : null;
      if (body?.progress && polling)
        dispatch({ type: "progressed", phase: body.progress.phase, rows: body.progress.rows });
    }
  };
  void poll();
  return () => {
    polling = false;
  };
}

/** What an accepted upload imported, in rows and in words. */
function importedSummary(kind: UploadKind, b: UploadResponse): { rows: number; message: string } {
  const rowCount = Number(b.rowCount ?? 0);
  const message = b.existing
    ? `These exact bytes were imported before (${rowCount.toLocaleString("en-US")} rows): nothing changed.`
    : `Imported ${rowCount.toLocaleString("en-US")} ${kind === "leaderboard" || kind === "serving" ? `record(s); ${storedRecords({ stored: Number(b.stored ?? 0), models: (b.models ?? {}) as Record<string, string>, unshortlistedModels: Array.isArray(b.unshortlistedModels) ? (b.unshortlistedModels as string[]) : [] })}` : "rows"} (format ${String(b.format)}).` +
      (Array.isArray(b.warnings) && b.warnings.length ? ` ${b.warnings.join(" ")}` : "");
  return { rows: rowCount, message };
}

/** Why the server refused an upload: a row-by-row report, model names to map, or one message. */
function failureOf(status: number, b: UploadResponse): Failure {
  const details = b.error?.details;
  if (details && Array.isArray(details.errors))
    return {
      kind: "report",
      errors: details.errors as ReportedIssue[],
      errorCount: Number(details.errorCount ?? details.errors.length),
    };
  // Another eval tool's results need their mapping step, which the tool panel shows.
  if (b.error?.code === "MAPPING_REQUIRED") {
    const label = (details?.preview as { format?: { label?: string } } | undefined)?.format?.label;
    return {
      kind: "message",
      message: `This is ${label ?? "another eval tool's per-item results"}: import it with the panel “Results from another eval tool”, where you map its ids, labels and models.`,
    };
  }
  if (details && details.kind === "UNMATCHED_MODELS")
    return {
      kind: "unmatched",
      unmatched: details.unmatched as string[],
      candidates: details.candidates as { id: string; name: string }[],
    };
  return { kind: "message", message: b.error?.message ?? `The server answered ${status}.` };
}

/** The form fields each kind of file needs besides the file itself. */
function KindFields({ kind, context }: { kind: UploadKind; context: UploadContext }) {
  return (
    <>
      {kind === "dataset" && (
        <>
          <label>
            Dataset name
            <input name="name" required maxLength={200} defaultValue="holdout" />
          </label>
          <label>
            Negative class names{" "}
            <span className="muted">
              (comma-separated; “{context.positiveClass}”, 1 and true are positive, 0 and false negative)
            </span>
            <input name="negativeLabels" placeholder="e.g. benign, safe" />
          </label>
        </>
      )}
      {kind === "predictions" && (
        <>
          <label>
            Candidate
            <select name="candidateId" required>
              {context.candidates.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Dataset version
            <select name="datasetVersionId" required>
              {context.datasetVersions.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Negative class names for predicted labels <span className="muted">(optional)</span>
            <input name="negativeLabels" placeholder="e.g. benign, safe" />
          </label>
        </>
      )}
      {(kind === "leaderboard" || kind === "serving") && (
        <>
          <label>
            Model name{" "}
            <span className="muted">
              (only for files that do not name it: {kind === "leaderboard" ? "HELM stats.json" : "GenAI-Perf CSV"})
            </span>
            <input name="model" />
          </label>
          <label style={{ fontWeight: 400 }}>
            <input type="checkbox" name="skipUnmatched" value="1" /> Skip models that match no candidate
          </label>
        </>
      )}
    </>
  );
}

/** Bytes sent, then the server's phase and rows validated. */
function UploadProgress({ kind, state, file }: { kind: UploadKind; state: UploadState; file: File }) {
  const { bytes, rows, phase } = state;
  const percent = file.size > 0 ? Math.min(100, Math.round((bytes / file.size) * 100)) : 0;
  return (
    <div className={styles.progress} aria-live="polite" data-testid={`progress-${kind}`}>
      <progress max={100} value={percent} aria-label="Bytes uploaded" />
      <span className="figure">
        {phase}: {formatBytes(Math.min(bytes, file.size))} of {formatBytes(file.size)}
        {rows !== null && ` · ${rows.toLocaleString("en-US")} rows`}
      </span>
    </div>
  );
}

/** The prediction run the upload created, while its metrics are computed. */
function RunStatusLine({ run }: { run: NonNullable<UploadState["run"]> }) {
  return (
    <div className={styles.progress} data-testid="run-status">
      <progress max={100} value={Math.round((run.status?.progress ?? 0) * 100)} aria-label="Metrics computed" />
      <span>
        Run #{run.id}: {run.status ? run.status.status.toLowerCase() : "queued"}
        {run.status?.status === "DONE" &&
          ` · ${run.status.itemCount.toLocaleString("en-US")} items, ${run.status.missingCount.toLocaleString("en-US")} missing (counted as errors)`}
        {run.status?.error && ` · ${run.status.error}`}
      </span>
    </div>
  );
}

/** Model names that match no candidate: map each one (or skip it) and import again. */
function UnmatchedMapping({
  failure,
  mapping,
  busy,
  dispatch,
  onImport,
}: {
  failure: Extract<Failure, { kind: "unmatched" }>;
  mapping: Record<string, string>;
  busy: boolean;
  dispatch: Dispatch<UploadAction>;
  onImport: (extra: Record<string, string>) => void;
}) {
  return (
    <div role="alert" className="stack">
      <p className="message-error">These model names match no candidate. Map each one, or skip it:</p>
      {failure.unmatched.slice(0, 50).map((name) => (
        <label key={name}>
          <code>{name}</code>
          <select
            value={mapping[name] ?? ""}
            onChange={(e) => dispatch({ type: "mapped", name, candidateId: e.currentTarget.value })}
          >
            <option value="">skip</option>
            {failure.candidates.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
      ))}
      {failure.unmatched.length > 50 && (
        <p className="muted">…and {failure.unmatched.length - 50} more (skipped unless mapped).</p>
      )}
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          const modelMap: Record<string, string | null> = {};
          for (const name of failure.unmatched) modelMap[name] = mapping[name] || null;
          onImport({ modelMap: JSON.stringify(modelMap), skipUnmatched: "1" });
        }}
      >
        Import with this mapping
      </button>
    </div>
  );
}

/** Poll a prediction run until its metrics are computed; the page refreshes once they are. */
function usePollRun(run: UploadState["run"], base: string, dispatch: Dispatch<UploadAction>) {
  const router = useRouter();
  useEffect(() => {
    if (!run || run.status?.status === "DONE" || run.status?.status === "FAILED") return;
    const timer = setTimeout(async () => {
      const res = await fetch(`${base}/runs/${run.id}`, { cache: "no-store" });
      if (res.ok) {
        const body = (await res.json()) as { run: RunStatus };
        dispatch({ type: "run", status: body.run });
        if (body.run.status === "DONE") router.refresh();
      }
    }, 500);
    return () => clearTimeout(timer);
  }, [run, base, router, dispatch]);
}

export function UploadPanel({
  kind,
  context,
  title,
  help,
}: {
  kind: UploadKind;
  context: UploadContext;
  title: string;
  help: React.ReactNode;
}) {
  const router = useRouter();
  const [state, dispatch] = useReducer(uploadReducer, initialUploadState);
  const { file, busy, phase, failure, success, run, mapping } = state;
  const form = useRef<HTMLFormElement>(null);
  const base = `/api/v1/decisions/${encodeURIComponent(context.decisionId)}`;

  usePollRun(run, base, dispatch);

  async function upload(extra: Record<string, string> = {}) {
    if (!file || !form.current) return;
    const uploadId = newUploadId();
    const params = new URLSearchParams({ uploadId });
    for (const [k, v] of new FormData(form.current).entries())
      if (typeof v === "string" && v.trim() !== "") params.set(k, v.trim());
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    dispatch({ type: "started" });
    const stopPolling = pollUploadProgress(`${base}/uploads/${uploadId}`, dispatch);
    try {
      const { status, body } = await send(`${base}/${PATHS[kind]}?${params}`, file, (loaded) =>
        dispatch({ type: "sent", loaded }),
      );
      stopPolling();
      const b = body as UploadResponse;
      if (status >= 200 && status < 300) {
        dispatch({
          type: "imported",
          ...importedSummary(kind, b),
          runId: kind === "predictions" && typeof b.runId === "number" ? b.runId : undefined,
        });
        router.refresh();
        return;
      }
      dispatch({ type: "rejected", failure: failureOf(status, b) });
    } catch (error) {
      dispatch({ type: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      stopPolling();
      dispatch({ type: "ended" });
    }
  }

  return (
    <section className="card" aria-labelledby={`upload-${kind}`} data-testid={`upload-${kind}`}>
      <h2 id={`upload-${kind}`}>{title}</h2>
      <div className="muted">{help}</div>
      <form
        ref={form}
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void upload();
        }}
      >
        <KindFields kind={kind} context={context} />
        <DropZone
          accept={ACCEPT[kind]}
          file={file}
          onFile={(f) => dispatch({ type: "chose", file: f })}
          disabled={busy}
        />
        <button
          type="submit"
          disabled={
            !file || busy || (kind === "predictions" && (!context.candidates.length || !context.datasetVersions.length))
          }
        >
          {busy ? "Uploading…" : "Upload"}
        </button>
      </form>
      {(busy || phase) && file && <UploadProgress kind={kind} state={state} file={file} />}
      {success && (
        <p className="message-ok" role="status">
          {success}
        </p>
      )}
      {run && <RunStatusLine run={run} />}
      {failure?.kind === "report" && <ErrorReport errors={failure.errors} errorCount={failure.errorCount} />}
      {failure?.kind === "message" && (
        <p className="message-error" role="alert">
          {failure.message}
        </p>
      )}
      {failure?.kind === "unmatched" && (
        <UnmatchedMapping
          failure={failure}
          mapping={mapping}
          busy={busy}
          dispatch={dispatch}
          onImport={(extra) => void upload(extra)}
        />
      )}
    </section>
  );
}
