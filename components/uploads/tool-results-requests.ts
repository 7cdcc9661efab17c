import type { ReportedIssue } from "./error-report";
import { newUploadId, pollUploadProgress, send } from "./upload-panel";
import {
  importTargets,
  mappingFor,
  type ToolChoices,
  type ToolFailure,
  type ToolImportState,
  type ToolImportedRun,
  type ToolPreviewState,
  type ToolResultsPreview,
} from "./tool-results-state";

/**
 * The tool panel's requests to the JSON API, made with the session cookie like the predictions
 * panel's: `POST …/predictions/preview` for the mapping step, then `POST …/predictions` once per
 * run. Tool logs are tens to hundreds of MB, so a lone file goes as the raw request body, which
 * the server streams to disk whatever its size; only HELM's file pair needs a multipart form
 * (`file` parts). Every option goes in the query string either way. The routes check the role.
 */

/** One request's progress: what is happening, bytes sent of the body's size, rows the server has read. */
export interface ToolProgress {
  step: string;
  bytes: number;
  total: number;
  rows: number | null;
}

type Report = (progress: ToolProgress) => void;

type ErrorBody = {
  error?: { code?: string; message?: string; details?: { errors?: ReportedIssue[]; errorCount?: number } };
};

/** A refusal as the panel shows it: the file's problems (item, field, reason) when it was rejected, else its message. */
export function toolFailureOf(status: number, body: unknown): ToolFailure {
  const error = (body as ErrorBody | null)?.error;
  const errors = error?.details?.errors;
  const message = error?.message ?? `The server answered ${status}.`;
  return Array.isArray(errors)
    ? { message, errors, errorCount: error?.details?.errorCount ?? errors.length }
    : { message };
}

function bodyOf(files: File[]): File | FormData {
  if (files.length === 1) return files[0]!;
  const form = new FormData();
  for (const f of files) form.append("file", f);
  return form;
}

/**
 * POST the files to `base + path` with these options; while it runs, the bytes sent and — for an
 * import, which reports it under its upload id — the rows the server has read.
 */
async function post(
  base: string,
  path: "/predictions" | "/predictions/preview",
  files: File[],
  fields: Record<string, string>,
  step: string,
  onProgress: Report,
): Promise<{ status: number; body: unknown }> {
  const total = files.reduce((n, f) => n + f.size, 0);
  const uploadId = newUploadId();
  const query = new URLSearchParams(path === "/predictions" ? { ...fields, uploadId } : fields);
  let progress: ToolProgress = { step, bytes: 0, total, rows: null };
  const update = (patch: Partial<ToolProgress>) => onProgress((progress = { ...progress, ...patch }));
  update({});
  const stop =
    path === "/predictions"
      ? pollUploadProgress(`${base}/uploads/${uploadId}`, (a) => update({ rows: a.rows }))
      : () => {};
  try {
    return await send(`${base}${path}?${query}`, bodyOf(files), (loaded) =>
      update({ bytes: loaded, step: loaded >= total ? `${step}: reading on the server` : step }),
    );
  } finally {
    stop();
  }
}

/** The run an accepted import answered with (the route's JSON), for the panel's list. */
function importedRun(body: unknown, target: { model: string | null; candidateId: string }): ToolImportedRun {
  const b = body as Omit<ToolImportedRun, "model" | "candidateId">;
  return {
    model: target.model,
    candidateId: target.candidateId,
    runId: b.runId,
    existing: b.existing,
    rowCount: b.rowCount,
    itemCount: b.itemCount,
    missingCount: b.missingCount,
    unknownScoreCount: b.unknownScoreCount,
    scoreBasis: b.scoreBasis,
  };
}

/** What the chosen file(s) hold, as the mapping step shows it; nothing is written. */
export async function previewToolResults(
  base: string,
  files: File[],
  datasetVersionId: string,
  onProgress: Report,
): Promise<ToolPreviewState> {
  try {
    const { status, body } = await post(
      base,
      "/predictions/preview",
      files,
      { datasetVersionId },
      "Uploading for the preview",
      onProgress,
    );
    if (status === 200) return { ok: true, preview: body as ToolResultsPreview };
    return { ok: false, ...toolFailureOf(status, body) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Imports the file(s) with the analyst's mapping: one run per model, each its own all-or-nothing
 * import (the file is sent once per run). A refusal stops there and says which model; the runs
 * imported before it are listed (a re-import of the same bytes with the same mapping changes
 * nothing, so trying again is safe).
 */
export async function importToolResults(
  base: string,
  files: File[],
  preview: ToolResultsPreview,
  choices: ToolChoices,
  datasetVersionId: string,
  onProgress: Report,
): Promise<ToolImportState> {
  const runs: ToolImportedRun[] = [];
  const targets = importTargets(preview, choices);
  for (const [k, target] of targets.entries()) {
    const mapping = mappingFor(preview, choices, target.model);
    const step = `Importing${target.model ? ` ${target.model}` : ""} (run ${k + 1} of ${targets.length})`;
    const fields = {
      candidateId: target.candidateId,
      datasetVersionId,
      format: preview.format.id,
      mapping: JSON.stringify(mapping),
    };
    const model = target.model ? { model: target.model } : {};
    try {
      const { status, body } = await post(base, "/predictions", files, fields, step, onProgress);
      if (status !== 200 && status !== 201)
        return { ok: false, runs, failure: { ...toolFailureOf(status, body), ...model } };
      runs.push(importedRun(body, target));
    } catch (error) {
      return {
        ok: false,
        runs,
        failure: { message: error instanceof Error ? error.message : String(error), ...model },
      };
    }
  }
  return { ok: true, runs };
}
