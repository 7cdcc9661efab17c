"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { can } from "@/lib/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { currentSession, type Actor } from "@/lib/server/session";
import { requestInfo } from "@/lib/server/request-info";
import { importItemResults, previewItemResults } from "@/lib/server/imports/item-results";
import type { UploadFile } from "@/lib/server/imports/files";
import type { ReportedIssue } from "@/components/uploads/error-report";
import type {
  ToolFailure,
  ToolImportState,
  ToolImportedRun,
  ToolPreviewState,
} from "@/components/uploads/tool-results-state";

/**
 * The mapping step of another eval tool's per-item results (issue 24 §2): a preview of the
 * file(s), then one import per model. Not `defineAction`, which turns a file into its name and
 * has no room for a row-by-row report; the same steps all the same — session, schema, `can()`,
 * then the domain function, which checks the role again and writes its audit in its transaction.
 * Server actions carry at most 1 MB (next.config.ts): larger files go through the API or the CLI.
 */

const previewSchema = z.object({
  decisionId: z.string().min(1),
  datasetVersionId: z.coerce.number().int().positive().optional(),
});

const mappingSchema = z.object({
  idField: z.string().min(1),
  positiveLabels: z.array(z.string()).min(1),
  repeat: z.string().optional(),
  model: z.string().optional(),
});

const importSchema = z.object({
  decisionId: z.string().min(1),
  datasetVersionId: z.coerce.number().int().positive(),
  format: z.string().min(1),
  /** One run per entry: its candidate and mapping (a multi-model file's model is in the mapping). */
  targets: z.array(z.object({ candidateId: z.string().min(1), mapping: mappingSchema })).min(1),
});

/** The uploaded files, as the importers read them (streamed, spooled to disk by the importer). */
function uploadFiles(formData: FormData): UploadFile[] {
  return formData
    .getAll("files")
    .filter((f): f is File => typeof f !== "string" && f.size > 0)
    .map((f) => ({ name: f.name, stream: f.stream() as unknown as AsyncIterable<Uint8Array> }));
}

/** An error as the page shows it: the file's problems (item, field, reason) when it was rejected. */
function failureOf(error: unknown): ToolFailure {
  if (error instanceof AppError) {
    const details = error.details as { errors?: ReportedIssue[]; errorCount?: number } | undefined;
    return Array.isArray(details?.errors)
      ? { message: error.message, errors: details.errors, errorCount: details.errorCount ?? details.errors.length }
      : { message: error.message };
  }
  if (error instanceof z.ZodError) return { message: z.prettifyError(error) };
  throw error;
}

/** Session and role, as defineAction checks them; the domain functions check the role again. */
async function importer(): Promise<Actor | ToolFailure> {
  const session = await currentSession();
  if (!session) return { message: "Your session has ended. Sign in again." };
  if (!can(session.actor, "evidence.import")) return { message: "You do not have permission to do this." };
  return session.actor;
}

/** Reads the chosen file(s): the detected tool, run, id fields, labels, repeats and models. */
export async function previewToolResultsAction(formData: FormData): Promise<ToolPreviewState> {
  const actor = await importer();
  if (!("id" in actor)) return { ok: false, ...actor };
  try {
    const input = previewSchema.parse({
      decisionId: formData.get("decisionId"),
      datasetVersionId: formData.get("datasetVersionId") || undefined,
    });
    const files = uploadFiles(formData);
    if (files.length === 0) return { ok: false, message: "Choose the tool's results file(s)." };
    const preview = await previewItemResults(actor, input.decisionId, files, {
      datasetVersionId: input.datasetVersionId,
    });
    return { ok: true, preview };
  } catch (error) {
    return { ok: false, ...failureOf(error) };
  }
}

/**
 * Imports the file(s) with the analyst's mapping: one run per model, each its own all-or-nothing
 * import. A refusal stops there and says which model; runs imported before it are listed (a
 * re-import of the same bytes with the same mapping changes nothing, so trying again is safe).
 */
export async function importToolResultsAction(formData: FormData): Promise<ToolImportState> {
  const actor = await importer();
  if (!("id" in actor)) return { ok: false, runs: [], failure: actor };
  let input: z.infer<typeof importSchema>;
  try {
    input = importSchema.parse(JSON.parse(String(formData.get("mapping") ?? "{}")));
  } catch (error) {
    return { ok: false, runs: [], failure: failureOf(error) };
  }
  const runs: ToolImportedRun[] = [];
  const request = { ...(await requestInfo()), via: "session" as const };
  for (const target of input.targets) {
    try {
      const result = await importItemResults(
        actor,
        input.decisionId,
        { candidateId: target.candidateId, datasetVersionId: input.datasetVersionId },
        uploadFiles(formData),
        target.mapping,
        { format: input.format, request, compute: "queue" },
      );
      runs.push({
        model: target.mapping.model ?? null,
        candidateId: target.candidateId,
        runId: result.runId,
        existing: result.existing,
        rowCount: result.rowCount,
        itemCount: result.itemCount,
        missingCount: result.missingCount,
        unknownScoreCount: result.unknownScoreCount,
        scoreBasis: result.scoreBasis,
      });
    } catch (error) {
      revalidatePath(`/decisions/${input.decisionId}/uploads`);
      return {
        ok: false,
        runs,
        failure: { ...failureOf(error), ...(target.mapping.model ? { model: target.mapping.model } : {}) },
      };
    }
  }
  revalidatePath(`/decisions/${input.decisionId}/uploads`);
  revalidatePath(`/decisions/${input.decisionId}`);
  return { ok: true, runs };
}
