import { parseArgs } from "node:util";
import { evaluate, type EvaluateOptions } from "../../lib/metrics/evaluate";
import { readItems, type Format } from "../read-items";

export const HELP = `usage: verdict metrics --input FILE [options]

Computes scikit-learn-exact metrics of labelled scores and prints one JSON object.

  --input FILE        CSV (header with label, score; optional id) or JSONL with those keys
  --format F          csv | jsonl (default: from the extension, else sniffed)
  --threshold T       operating threshold, predict positive ⇔ score ≥ T (default 0.5)
  --prevalence P      deployment prevalence π in (0, 1): adds "reweighted"
  --cost-fn X         cost of a false negative  } both, with --prevalence: expected cost
  --cost-fp Y         cost of a false positive  } per 1,000 items and the cost-optimal threshold
  --curve             include the full PR curve (as precision_recall_curve)
  --bootstrap B       stratified bootstrap resamples for 95% intervals (e.g. 1000)
  --seed S            bootstrap seed (default 0)

Bad rows are reported on stderr with their line number; the exit code is then 1.
Exit code 2: invalid options.`;

const MAX_REPORTED_ERRORS = 100;

class UsageError extends Error {}

function number(name: string, raw: string | undefined, check: (v: number) => boolean, what: string): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(v) || !check(v)) throw new UsageError(`--${name} must be ${what}, got "${raw}"`);
  return v;
}

export function parseOptions(argv: string[]): { input: string; format?: Format; options: EvaluateOptions } | "help" {
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
  if (!values.input) throw new UsageError("--input FILE is required");
  if (values.format !== undefined && values.format !== "csv" && values.format !== "jsonl") throw new UsageError(`--format must be csv or jsonl`);
  const options: EvaluateOptions = {
    threshold: number("threshold", values.threshold, () => true, "a finite number"),
    prevalence: number("prevalence", values.prevalence, (v) => v > 0 && v < 1, "a number in (0, 1)"),
    costFalseNegative: number("cost-fn", values["cost-fn"], (v) => v >= 0, "a non-negative number"),
    costFalsePositive: number("cost-fp", values["cost-fp"], (v) => v >= 0, "a non-negative number"),
    curve: values.curve ?? false,
    bootstrap: number("bootstrap", values.bootstrap, (v) => Number.isInteger(v) && v >= 1, "a positive integer"),
    seed: number("seed", values.seed, (v) => Number.isInteger(v) && v >= 0 && v < 2 ** 32, "an integer in [0, 2^32)"),
  };
  if ((options.costFalseNegative === undefined) !== (options.costFalsePositive === undefined)) throw new UsageError("--cost-fn and --cost-fp go together");
  if (options.costFalseNegative !== undefined && options.prevalence === undefined) throw new UsageError("expected cost needs --prevalence");
  return { input: values.input, format: values.format as Format | undefined, options };
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
  let items;
  try {
    items = await readItems(parsed.input, parsed.format);
  } catch (error) {
    process.stderr.write(`verdict metrics: cannot read ${parsed.input}: ${(error as Error).message}\n`);
    return 1;
  }
  if (items.errors.length > 0) {
    const shown = items.errors.slice(0, MAX_REPORTED_ERRORS).map((e) => `${parsed.input}:${e.line}: ${e.field}: ${e.message}`);
    if (items.errors.length > MAX_REPORTED_ERRORS) shown.push(`… and ${items.errors.length - MAX_REPORTED_ERRORS} more errors`);
    process.stderr.write(`verdict metrics: ${items.errors.length} bad row(s), nothing computed\n${shown.join("\n")}\n`);
    return 1;
  }
  if (items.labels.length === 0) {
    process.stderr.write(`verdict metrics: ${parsed.input} has no items\n`);
    return 1;
  }
  const report = evaluate(items.labels, items.scores, parsed.options);
  // JSON.stringify prints each double in its shortest form that round-trips: full precision.
  process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  return 0;
}
