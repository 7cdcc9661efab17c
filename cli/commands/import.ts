import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { database } from "../../lib/server/db.ts";
import { setEnv } from "../../lib/env.ts";
import { drainInlineJobs, stopJobs } from "../../lib/server/runs/queue.ts";
import { importDataset, importLeaderboard, importPredictions, importServing } from "../../lib/server/imports/index.ts";
import { AppError } from "../../lib/server/errors.ts";
import { ACTOR_HELP, ACTOR_OPTIONS, MissingActorError, resolveActor } from "../actor.ts";

export const HELP = `usage: verdict import <dataset|predictions|leaderboard|serving> FILE --decision ID [options]

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
  leaderboard, serving:
                --map '{"<model name>":"<candidateId>" or null}' (each name mapped becomes
                an alias of its candidate: later files spelling it so attach by themselves),
                --skip-unmatched,
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
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      process.stdout.write(HELP + "\n");
      return 0;
    }
    const [kind, file] = positionals;
    if (!kind || !["dataset", "predictions", "leaderboard", "serving"].includes(kind))
      throw new UsageError("the first argument is dataset, predictions, leaderboard or serving");
    if (!file) throw new UsageError("FILE is required");
    if (!values.decision) throw new UsageError("--decision ID is required");
    setEnv(values.queue ? { VERDICT_WORKER: "0" } : { VERDICT_JOBS: "inline" });
    const actor = await resolveActor(values, "imports");
    const upload = { name: path.basename(file), path: path.resolve(file) };
    const base = { format: values.format, request: { userAgent: "verdict-cli" } };
    let result: unknown;
    if (kind === "dataset") {
      if (!values.dataset) throw new UsageError("--dataset NAME is required");
      result = await importDataset(actor, values.decision, upload, {
        ...base,
        datasetName: values.dataset,
        negativeLabels: list(values.negative),
      });
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
      if (!values.queue && !r.existing) {
        process.stderr.write(`Computing the metrics of run ${r.runId}…\n`);
        await drainInlineJobs();
        const runRow = await (
          await database()
        ).prisma.evalRun.findUniqueOrThrow({ where: { id: r.runId }, select: { status: true, error: true } });
        result = { ...r, status: runRow.status, ...(runRow.error ? { error: runRow.error } : {}) };
      } else result = r;
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
    if (details?.unmatched) {
      process.stderr.write(
        `  unmatched: ${details.unmatched.join(", ")}\n  candidates: ${(details.candidates ?? []).map((c) => `${c.name} (${c.id})`).join(", ")}\n  map them with --map '{"<name>":"<candidateId>"}' or --skip-unmatched\n`,
      );
    }
    return 1;
  }
  throw error;
}
