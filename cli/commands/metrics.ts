import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import type { ParseIssue } from "../../lib/ingest/formats/types";
import { readLabelledScores, type LabelledScores } from "../../lib/ingest/labelled-scores";
import { detectTabularFormat, type TabularFormat } from "../../lib/ingest/records";
import { fileSource } from "../../lib/files/file-source";
import { evaluate, type EvaluateOptions } from "../../lib/metrics/evaluate";

export const HELP = `usage: verdict metrics --input FILE|- [options]

Computes scikit-learn-exact metrics of labelled scores and prints one JSON object.

  --input FILE        CSV (header with label, score; optional id), JSON Lines with those keys, or
                      Parquet; "-" reads standard input. Read by the app's upload readers: the
                      same column names, label and number rules, and line numbers.
  --format F          csv | jsonl | parquet (default: from the extension, else sniffed)
  --threshold T       operating threshold, predict positive ⇔ score ≥ T (default 0.5)
  --prevalence P      deployment prevalence π in (0, 1): adds "reweighted"
  --cost-fn X         cost of a false negative  } both, with --prevalence: expected cost
  --cost-fp Y         cost of a false positive  } per 1,000 items and the cost-optimal threshold
  --curve             include the full PR curve (as precision_recall_curve)
  --bootstrap B       stratified bootstrap resamples for 95% intervals (e.g. 1000)
  --seed S            bootstrap seed (default 0)

Bad rows are reported on stderr as FILE:LINE: field: reason (FILE is <stdin> for "-"); the exit
code is then 1. Exit code 2: invalid options.`;

const MAX_REPORTED_ERRORS = 100;
const STDIN = "-";

class UsageError extends Error {}

function number(
  name: string,
  raw: string | undefined,
  check: (v: number) => boolean,
  what: string,
): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(v) || !check(v))
    throw new UsageError(`--${name} must be ${what}, got "${raw}"`);
  return v;
}

export function parseOptions(
  argv: string[],
): { input: string; format?: TabularFormat; options: EvaluateOptions } | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      input: { type: "string" },
      format: { type: "string" },
      threshold: { type: "string" },
      prevalence: { type: "string" },
      "cost-fn": { type: "string" },
      "cost-fp": { type: "string" },
      curve: { type: "boolean" },
      bootstrap: { type: "string" },
      seed: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  if (!values.input) throw new UsageError("--input FILE (or - for standard input) is required");
  if (values.format !== undefined && !["csv", "jsonl", "parquet"].includes(values.format))
    throw new UsageError(`--format must be csv, jsonl or parquet`);
  const options: EvaluateOptions = {
    threshold: number("threshold", values.threshold, () => true, "a finite number"),
    prevalence: number("prevalence", values.prevalence, (v) => v > 0 && v < 1, "a number in (0, 1)"),
    costFalseNegative: number("cost-fn", values["cost-fn"], (v) => v >= 0, "a non-negative number"),
    costFalsePositive: number("cost-fp", values["cost-fp"], (v) => v >= 0, "a non-negative number"),
    curve: values.curve ?? false,
    bootstrap: number("bootstrap", values.bootstrap, (v) => Number.isInteger(v) && v >= 1, "a positive integer"),
    seed: number("seed", values.seed, (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32, "an integer in [0, 2^32)"),
  };
  if ((options.costFalseNegative === undefined) !== (options.costFalsePositive === undefined))
    throw new UsageError("--cost-fn and --cost-fp go together");
  if (options.costFalseNegative !== undefined && options.prevalence === undefined)
    throw new UsageError("expected cost needs --prevalence");
  return { input: values.input, format: values.format as TabularFormat | undefined, options };
}

/**
 * Reads the input as an upload is read. Standard input is spooled to a temporary file first, as
 * the app spools an upload: the readers stream from a file, sniff its first bytes for the format,
 * and re-read it to locate invalid UTF-8.
 */
async function readInput(input: string, format: TabularFormat | undefined): Promise<LabelledScores> {
  if (input !== STDIN)
    return readLabelledScores(
      fileSource(input),
      await detectTabularFormat(fileSource(input), path.basename(input), format),
      MAX_REPORTED_ERRORS,
    );
  const dir = await mkdtemp(path.join(tmpdir(), "verdict-metrics-"));
  try {
    const file = path.join(dir, "stdin");
    await pipeline(process.stdin, createWriteStream(file));
    return await readLabelledScores(
      fileSource(file),
      await detectTabularFormat(fileSource(file), "", format),
      MAX_REPORTED_ERRORS,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function describe(issue: ParseIssue): string {
  return issue.value ? `${issue.reason} (got ${JSON.stringify(issue.value)})` : issue.reason;
}

export async function run(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    process.stderr.write(`verdict metrics: ${(error as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  if (parsed === "help") {
    process.stdout.write(HELP + "\n");
    return 0;
  }
  const name = parsed.input === STDIN ? "<stdin>" : parsed.input;
  let items: LabelledScores;
  try {
    items = await readInput(parsed.input, parsed.format);
  } catch (error) {
    process.stderr.write(`verdict metrics: cannot read ${name}: ${(error as Error).message}\n`);
    return 1;
  }
  if (items.issueCount > 0) {
    const shown = items.issues.map((e) => `${name}:${e.line ?? 1}: ${e.field}: ${describe(e)}`);
    if (items.issueCount > items.issues.length)
      shown.push(`… and ${items.issueCount - items.issues.length} more errors`);
    process.stderr.write(
      `verdict metrics: ${items.issueCount} problem(s) in ${name}, nothing computed\n${shown.join("\n")}\n`,
    );
    return 1;
  }
  for (const note of items.notes) process.stderr.write(`verdict metrics: ${name}: ${note}\n`);
  const report = evaluate(items.labels, items.scores, parsed.options);
  // JSON.stringify prints each double in its shortest form that round-trips: full precision.
  process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  return 0;
}
