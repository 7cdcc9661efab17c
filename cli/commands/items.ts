import { parseArgs } from "node:util";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { database } from "../../lib/server/db.ts";
import { AppError, fieldProblems, type FieldProblem } from "../../lib/server/errors.ts";
import { exportRunItemsCsv, listRunItems } from "../../lib/server/pack/drill-down.ts";
import { ACTOR_HELP, ACTOR_OPTIONS, requireActorOption, resolveActor } from "../actor.ts";

export const HELP = `usage: verdict items --decision ID --run RUN [--cell FN|FP|TP|TN|errors|all] [--threshold T]
                     [--slice NAME] [--vs RUN] [--after CURSOR | --before CURSOR] [--limit N] [--csv]
                     [--as EMAIL | --token TOKEN]

Lists the items of an eval run behind a figure of the pack, as GET /api/v1/decisions/<id>/runs/<run>/items
does (the same code, the same permission decision.read), against the configured database
(DATABASE_URL, or the embedded one — stop the web server first).

  --decision ID            the decision
  --run RUN                the eval run (its number)
  --cell CELL              FN, FP, TP, TN, errors (FN then FP) or all (default; errors with --vs)
  --threshold T            the operating point (default: the run's operating threshold)
  --slice NAME             only the items of this slice ("(none)": items without one)
  --vs RUN                 only the errors this run makes and that other candidate's run does not
                           (both must be their candidate's run that counts)
  --after, --before CURSOR the next / previous page (the cursors a page prints)
  --limit N                items per page (default 50, at most 500)
  --csv                    every item of the list as CSV on stdout (no paging)
${ACTOR_HELP}

Order: false negatives, false positives, true positives, true negatives; in each the most wrong
score for its gold label first; ties by item id. Prints the page as JSON ({"items", "next",
"previous", …}). A bad option value prints "field: reason" on stderr and exits 1; exit code 2:
invalid options.`;

type Values = {
  decision?: string;
  run?: string;
  cell?: string;
  threshold?: string;
  slice?: string;
  vs?: string;
  after?: string;
  before?: string;
  limit?: string;
  csv?: boolean;
  as?: string;
  token?: string;
  help?: boolean;
};

export async function run(argv: string[]): Promise<number> {
  let values: Values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        decision: { type: "string" },
        run: { type: "string" },
        cell: { type: "string" },
        threshold: { type: "string" },
        slice: { type: "string" },
        vs: { type: "string" },
        after: { type: "string" },
        before: { type: "string" },
        limit: { type: "string" },
        csv: { type: "boolean" },
        ...ACTOR_OPTIONS,
        help: { type: "boolean", short: "h" },
      },
    }));
    if (values.help) {
      process.stdout.write(HELP + "\n");
      return 0;
    }
    if (!values.decision) throw new Error("--decision ID is required");
    if (!values.run || !/^\d+$/.test(values.run)) throw new Error("--run RUN (the run's number) is required");
    requireActorOption(values, "reads the items");
  } catch (error) {
    process.stderr.write(`verdict items: ${(error as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  const { decision, run: runId, csv, as: _as, token: _token, help: _help, ...rest } = values;
  // Only the options given: the query of the API, validated by the same schema.
  const query = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const fail = (problems: FieldProblem[]) => {
    process.stderr.write(problems.map((p) => `verdict items: ${p.field}: ${p.reason}\n`).join(""));
    return 1;
  };
  try {
    const actor = await resolveActor(values, "reads the items");
    if (csv) {
      const { body } = await exportRunItemsCsv(actor, decision!, Number(runId), query);
      await pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream), process.stdout);
    } else {
      process.stdout.write(JSON.stringify(await listRunItems(actor, decision!, Number(runId), query), null, 2) + "\n");
    }
    return 0;
  } catch (error) {
    if (error instanceof z.ZodError) return fail(fieldProblems(error));
    if (error instanceof AppError) {
      const issues = (error.details as { issues?: FieldProblem[] } | undefined)?.issues;
      if (issues?.length) return fail(issues);
      process.stderr.write(`verdict items: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await (await database()).close().catch(() => {});
  }
}
