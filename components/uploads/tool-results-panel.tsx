"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { ErrorReport } from "./error-report";
import { formatBytes } from "./format";
import styles from "./uploads.module.css";
import type { UploadContext } from "./upload-panel";
import { CandidateChoice, DetectedRun, IdFieldChoice, LabelChoice } from "./tool-mapping";
import { importToolResults, previewToolResults, type ToolProgress } from "./tool-results-requests";
import {
  choiceProblems,
  importTargets,
  initialChoices,
  type ToolChoices,
  type ToolFailure,
  type ToolImportState,
  type ToolPreviewState,
  type ToolResultsPreview,
} from "./tool-results-state";

function Failure({ failure }: { failure: ToolFailure & { model?: string } }) {
  const prefix = failure.model ? `${failure.model}: ` : "";
  if (failure.errors?.length)
    return (
      <>
        {prefix && <p className="message-error">{prefix}</p>}
        <ErrorReport errors={failure.errors} errorCount={failure.errorCount ?? failure.errors.length} />
      </>
    );
  return (
    <p className="message-error" role="alert">
      {prefix}
      {failure.message}
    </p>
  );
}

/** What the import created: one line per run. */
function Imported({ state, context }: { state: ToolImportState; context: UploadContext }) {
  const name = (id: string) => context.candidates.find((c) => c.id === id)?.name ?? id;
  return (
    <ul className="message-ok" role="status" data-testid="tool-imported">
      {state.runs.map((r) => (
        <li key={r.runId}>
          {r.existing ? "Already imported (same bytes, same mapping): nothing changed — " : "Imported "}
          run #{r.runId} for {name(r.candidateId)}
          {r.model ? ` (${r.model})` : ""}: {r.itemCount.toLocaleString("en-US")} items,{" "}
          {r.missingCount.toLocaleString("en-US")} missing (counted as errors)
          {r.unknownScoreCount ? `, ${r.unknownScoreCount.toLocaleString("en-US")} with an unknown score` : ""}. Metrics
          are being computed.
        </li>
      ))}
    </ul>
  );
}

/** The mapping form: every choice, what still blocks the import, and Import. */
function MappingForm({
  preview,
  context,
  busy,
  onImport,
}: {
  preview: ToolResultsPreview;
  context: UploadContext;
  busy: boolean;
  onImport: (choices: ToolChoices) => void;
}) {
  const [choices, setChoices] = useState(() => initialChoices(preview, context.candidates[0]?.id ?? ""));
  const change = (patch: Partial<ToolChoices>) => setChoices((c) => ({ ...c, ...patch }));
  const problems = Object.entries(choiceProblems(preview, choices));
  return (
    <form
      className="stack"
      aria-label="Mapping"
      data-testid="tool-mapping"
      onSubmit={(e) => {
        e.preventDefault();
        if (problems.length === 0) onImport(choices);
      }}
    >
      <DetectedRun preview={preview} />
      <IdFieldChoice preview={preview} choices={choices} onChange={change} />
      <LabelChoice preview={preview} choices={choices} positiveClass={context.positiveClass} onChange={change} />
      <CandidateChoice preview={preview} choices={choices} context={context} onChange={change} />
      {problems.length > 0 && (
        <ul className="message-warn" data-testid="tool-mapping-problems">
          {problems.map(([field, reason]) => (
            <li key={field}>{reason}</li>
          ))}
        </ul>
      )}
      <button type="submit" disabled={busy || problems.length > 0}>
        {busy ? "Importing…" : `Import ${importTargets(preview, choices).length} run(s)`}
      </button>
    </form>
  );
}

/** Bytes sent of the file(s)' size, then the server's reading (and, on import, its rows). */
function Progress({ progress }: { progress: ToolProgress }) {
  const { step, bytes, total, rows } = progress;
  const percent = total > 0 ? Math.min(100, Math.round((bytes / total) * 100)) : 0;
  return (
    <div className={styles.progress} aria-live="polite" data-testid="tool-progress">
      <progress max={100} value={percent} aria-label="Bytes uploaded" />
      <span className="figure">
        {step}: {formatBytes(Math.min(bytes, total))} of {formatBytes(total)}
        {rows !== null && ` · ${rows.toLocaleString("en-US")} items`}
      </span>
    </div>
  );
}

/**
 * Another eval tool's per-item results (Inspect, lm-evaluation-harness, HELM, promptfoo, OpenAI
 * Evals): the file is read on the server, the analyst sees and corrects the mapping, then imports
 * one run per model. Files of any size: they stream to the JSON API (tool-results-requests.ts).
 * Verdict's own predictions schema keeps its own panel.
 */
export function ToolResultsPanel({ context }: { context: UploadContext }) {
  const router = useRouter();
  const base = `/api/v1/decisions/${encodeURIComponent(context.decisionId)}`;
  const [files, setFiles] = useState<File[]>([]);
  const [datasetVersionId, setDatasetVersionId] = useState(String(context.datasetVersions[0]?.id ?? ""));
  const [preview, setPreview] = useState<ToolPreviewState>(null);
  const [imported, setImported] = useState<ToolImportState | null>(null);
  const [progress, setProgress] = useState<ToolProgress | null>(null);
  const busy = progress !== null;

  const read = async (chosen: File[], versionId: string) => {
    setImported(null);
    setPreview(null);
    if (chosen.length === 0) return;
    setPreview(await previewToolResults(base, chosen, versionId, setProgress));
    setProgress(null);
  };
  const doImport = async (p: ToolResultsPreview, choices: ToolChoices) => {
    setImported(null);
    const result = await importToolResults(base, files, p, choices, datasetVersionId, setProgress);
    setProgress(null);
    setImported(result);
    if (result.runs.length) router.refresh();
  };

  return (
    <section className="card" aria-labelledby="upload-tool-results" data-testid="upload-tool-results">
      <h2 id="upload-tool-results">Results from another eval tool</h2>
      <div className="muted">
        <p>
          Per-item results as the tool wrote them, of any size: an Inspect log (<code>.eval</code> or <code>.json</code>
          ), an lm-evaluation-harness <code>samples_&lt;task&gt;_&lt;date&gt;.jsonl</code>, a HELM run&apos;s{" "}
          <code>instances.json</code> + <code>display_predictions.json</code> (choose both), a promptfoo{" "}
          <code>results.json</code> or an OpenAI Evals record log. You then say which field holds the dataset&apos;s
          ids, which label is positive, which repeat counts and which model is which candidate.
        </p>
      </div>
      <div className="stack">
        <label>
          Dataset version
          <select
            value={datasetVersionId}
            disabled={busy}
            onChange={(e) => {
              setDatasetVersionId(e.currentTarget.value);
              void read(files, e.currentTarget.value);
            }}
          >
            {context.datasetVersions.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Results file(s)
          <input
            type="file"
            multiple
            accept=".eval,.json,.jsonl,.ndjson,application/json,application/zip"
            disabled={busy || !context.datasetVersions.length || !context.candidates.length}
            onChange={(e) => {
              const chosen = Array.from(e.currentTarget.files ?? []);
              setFiles(chosen);
              void read(chosen, datasetVersionId);
            }}
          />
        </label>
      </div>
      {progress && <Progress progress={progress} />}
      {preview && !preview.ok && <Failure failure={preview} />}
      {preview?.ok && (
        <MappingForm
          key={`${files.map((f) => `${f.name}:${f.size}:${f.lastModified}`).join("|")}@${datasetVersionId}`}
          preview={preview.preview}
          context={context}
          busy={busy}
          onImport={(choices) => void doImport(preview.preview, choices)}
        />
      )}
      {imported && imported.runs.length > 0 && <Imported state={imported} context={context} />}
      {imported?.failure && <Failure failure={imported.failure} />}
    </section>
  );
}
