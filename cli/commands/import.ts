import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { database } from "../../lib/server/db.ts";
import { setEnv } from "../../lib/env.ts";
import { drainInlineJobs, stopJobs } from "../../lib/server/runs/queue.ts";
import { importDataset, importLeaderboard, importPredictions, importServing } from "../../lib/server/imports/index.ts";
import { AppError } from "../../lib/server/errors.ts";
import type { Actor } from "../../lib/server/actors.ts";
import type { UploadFile } from "../../lib/server/imports/files.ts";
import { detectItemResultFormat, itemResultFormats } from "../../lib/ingest/formats/item-results/index.ts";
import { importItemResultsFromFields, previewFromFields } from "../../lib/server/imports/item-results/http.ts";
import { ACTOR_HELP, ACTOR_OPTIONS, MissingActorError, resolveActor } from "../actor.ts";

export const HELP = `usage: verdict import <dataset|predictions|leaderboard|serving> FILE [PARTNER…] --decision ID [options]

Imports a file into a decision through the same server code path as the web upload and the API
(validation, all-or-nothing, idempotent, audited), against the configured database
(DATABASE_URL, or the embedded one — stop the web server first, the embedded database has one
opener). Acts as a user: --as EMAIL (operator), or --token vdt_… / VERDICT_TOKEN.

  --decision ID            the decision (required)
${ACTOR_HELP}
  --format F               csv | jsonl (dataset, predictions); a format id (leaderboard, serving)
  dataset:      --dataset NAME (required), --negative A,B (class names read as negative)
  predictions:  --candidate ID, --dataset-version ID (required), --negative A,B,
                --queue (hand the metrics to the job queue instead of computing them here)
  predictions from another eval tool (Inspect, lm-eval samples, HELM + its partner file,
  promptfoo, OpenAI Evals; detected, or --format ${itemResultFormats.map((p) => p.id).join(" | ")}):
                --id-field PATH (doc_id, doc.id, metadata.item_id, vars.id, toolId, position),
                --positive A,B (the labels read as the positive class), --repeat R, --model M
                (which repeat counts; which model of a multi-model file this candidate is);
                --preview prints what the file holds and a suggested mapping, imports nothing
  leaderboard, serving:
                --map '{"<model name>":"<candidateId>" or null}', --skip-unmatched,
                --model NAME, --run-spec SPEC, --individual-responses FILE (LLMPerf)

Prints the import summary as JSON. A rejected file prints its problems (line, field, value,
reason; the first 100 and the total) on stderr and exits 1; nothing is written.`;

class UsageError extends Error {}

const list = (v: string | undefined) =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

export async function run(argv: string[]): Promise<number> {
  let code = 0;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        decision: { type: "string" },
        candidate: { type: "string" },
        "dataset-version": { type: "string" },
        dataset: { type: "string" },
        format: { type: "string" },
        ...ACTOR_OPTIONS,
        negative: { type: "string" },
        map: { type: "string" },
        "skip-unmatched": { type: "boolean" },
        model: { type: "string" },
        "run-spec": { type: "string" },
        "individual-responses": { type: "string" },
        queue: { type: "boolean" },
        "id-field": { type: "string" },
        positive: { type: "string" },
        repeat: { type: "string" },
        preview: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      process.stdout.write(HELP + "\n");
      return 0;
    }
    const [kind, file, ...partners] = positionals;
    if (!kind || !["dataset", "predictions", "leaderboard", "serving"].includes(kind))
      throw new UsageError("the first argument is dataset, predictions, leaderboard or serving");
    if (!file) throw new UsageError("FILE is required");
    if (!values.decision) throw new UsageError("--decision ID is required");
    setEnv(values.queue ? { VERDICT_WORKER: "0" } : { VERDICT_JOBS: "inline" });
    const actor = await resolveActor(values, "imports");
    const upload = uploadOf(file);
    const base = { format: values.format, request: { userAgent: "verdict-cli" } };
    let result: unknown;
    if (kind === "dataset") {
      if (!values.dataset) throw new UsageError("--dataset NAME is required");
      result = await importDataset(actor, values.decision, upload, {
        ...base,
        datasetName: values.dataset,
        negativeLabels: list(values.negative),
      });
    } else if (kind === "predictions" && (await isItemResults(upload, values))) {
      result = await itemResults(actor, values.decision, [upload, ...partners.map(uploadOf)], values);
    } else if (kind === "predictions") {
      if (!values.candidate || !values["dataset-version"])
        throw new UsageError("--candidate ID and --dataset-version ID are required");
      const r = await importPredictions(
        actor,
        values.decision,
        values.candidate,
        Number(values["dataset-version"]),
        upload,
        { ...base, negativeLabels: list(values.negative) },
      );
      result = await computed(r, values.queue);
    } else {
      const options = {
        ...base,
        modelMap: values.map ? (JSON.parse(values.map) as Record<string, string | null>) : undefined,
        skipUnmatched: values["skip-unmatched"] ?? false,
        parseOptions: {
          model: values.model,
          runSpec: values["run-spec"],
          individualResponses: values["individual-responses"]
            ? readFileSync(values["individual-responses"], "utf8")
            : undefined,
        },
      };
      result =
        kind === "leaderboard"
          ? await importLeaderboard(actor, values.decision, upload, options)
          : await importServing(actor, values.decision, upload, options);
    }
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  } catch (error) {
    code = report(error);
  } finally {
    await stopJobs().catch(() => {});
    await (await database()).close().catch(() => {});
  }
  return code;
}

const uploadOf = (file: string) => ({ name: path.basename(file), path: path.resolve(file) });

/** Unless --queue, the run's metrics computed here before the summary is printed (with the run's final status). */
async function computed<R extends { runId: number; existing: boolean }>(r: R, queue: boolean | undefined) {
  if (queue || r.existing) return r;
  process.stderr.write(`Computing the metrics of run ${r.runId}…\n`);
  await drainInlineJobs();
  const runRow = await (
    await database()
  ).prisma.evalRun.findUniqueOrThrow({ where: { id: r.runId }, select: { status: true, error: true } });
  return { ...r, status: runRow.status, ...(runRow.error ? { error: runRow.error } : {}) };
}

type Values = Record<string, string | boolean | undefined>;

/** Another eval tool's results: named by --format, mapped by the flags, or recognised from the file's first bytes. */
async function isItemResults(upload: { name: string; path: string }, values: Values): Promise<boolean> {
  if (typeof values.format === "string") return itemResultFormats.some((p) => p.id === values.format);
  if (values["id-field"] || values.positive || values.preview) return true;
  const handle = await open(upload.path, "r");
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return detectItemResultFormat(head.subarray(0, bytesRead), upload.name) !== undefined;
  } finally {
    await handle.close();
  }
}

/** The same fields as the API's (one rule for the mapping and for MAPPING_REQUIRED): --preview prints the preview. */
async function itemResults(actor: Actor, decisionId: string, files: UploadFile[], values: Values): Promise<unknown> {
  const text = (v: string | boolean | undefined) => (typeof v === "string" ? v : undefined);
  const fields: Record<string, string> = {};
  const set = (key: string, value: string | undefined) => {
    if (value !== undefined) fields[key] = value;
  };
  set("format", text(values.format));
  set("datasetVersionId", text(values["dataset-version"]));
  if (values.preview) return previewFromFields(actor, decisionId, files, fields);
  if (!values.candidate || !values["dataset-version"])
    throw new UsageError("--candidate ID and --dataset-version ID are required");
  set("candidateId", text(values.candidate));
  set("idField", text(values["id-field"]));
  set("positiveLabels", text(values.positive));
  set("repeat", text(values.repeat));
  set("model", text(values.model));
  const r = await importItemResultsFromFields(actor, decisionId, files, fields, {
    request: { userAgent: "verdict-cli" },
  });
  return computed(r, values.queue === true);
}

function report(error: unknown): number {
  if (
    error instanceof UsageError ||
    error instanceof MissingActorError ||
    (error instanceof Error &&
      error.name === "TypeError" &&
      "code" in error &&
      String((error as { code: unknown }).code).startsWith("ERR_PARSE_ARGS"))
  ) {
    process.stderr.write(`verdict import: ${error.message}\n\n${HELP}\n`);
    return 2;
  }
  if (error instanceof AppError) {
    process.stderr.write(`verdict import: ${error.message}\n`);
    const details = error.details as
      | {
          errors?: { line?: number; record?: string; field: string; value?: string; reason: string }[];
          errorCount?: number;
          unmatched?: string[];
          candidates?: { id: string; name: string }[];
        }
      | undefined;
    for (const e of details?.errors ?? [])
      process.stderr.write(
        `  ${e.line !== undefined ? `line ${e.line}` : (e.record ?? "")}\t${e.field}\t${JSON.stringify(e.value ?? "")}\t${e.reason}\n`,
      );
    if (details?.errors && details.errorCount !== undefined && details.errorCount > details.errors.length)
      process.stderr.write(`  … ${details.errorCount - details.errors.length} more\n`);
    const preview = (
      details as {
        preview?: { suggested: { idField: string; positiveLabels: string[]; repeat?: string; model?: string } };
      }
    )?.preview;
    if (preview) {
      const m = preview.suggested;
      process.stderr.write(
        `  suggested: --id-field ${m.idField} --positive ${m.positiveLabels.join(",") || "<label>"}${m.repeat ? ` --repeat ${m.repeat}` : ""}${m.model ? ` --model ${m.model}` : ""}\n  (--preview prints what the file holds)\n`,
      );
    }
    if (details?.unmatched) {
      process.stderr.write(
        `  unmatched: ${details.unmatched.join(", ")}\n  candidates: ${(details.candidates ?? []).map((c) => `${c.name} (${c.id})`).join(", ")}\n  map them with --map '{"<name>":"<candidateId>"}' or --skip-unmatched\n`,
      );
    }
    return 1;
  }
  throw error;
}
