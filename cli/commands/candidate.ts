import { parseArgs } from "node:util";
import { z } from "zod";
import { database } from "../../lib/server/db.ts";
import { attachLeaderboardModels } from "../../lib/server/decisions/model-names.ts";
import { AppError, fieldProblems, type FieldProblem } from "../../lib/server/errors.ts";
import { ACTOR_HELP, ACTOR_OPTIONS, requireActorOption, resolveActor } from "../actor.ts";

export const HELP = `usage: verdict candidate attach --decision ID --candidate ID --model NAME [--model NAME …]
       (--as EMAIL | --token TOKEN)

Attaches the decision's stranded leaderboard rows — rows of a model name the matcher took for no
candidate — to an existing candidate, through the same server code as the edit page and
POST /api/v1/decisions/<id>/candidates/<candidateId>/attach (permission decision.edit, audited).
Each NAME, spelt exactly as the file spells it, becomes an alias of the candidate: the next file
with that spelling attaches by itself.
${ACTOR_HELP}

Prints the result as JSON. A bad value prints "field: reason" on stderr and exits 1 (nothing
changes); 2: invalid options.`;

type Values = { decision?: string; candidate?: string; model?: string[]; as?: string; token?: string; help?: boolean };

/** The options, or the exit code when there is nothing to do: 0 after the help, 2 for invalid options. */
function parse(argv: string[]): Values | number {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(HELP + "\n");
    return sub ? 0 : 2;
  }
  try {
    if (sub !== "attach") throw new Error(`unknown subcommand "${sub}"`);
    const { values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        decision: { type: "string" },
        candidate: { type: "string" },
        model: { type: "string", multiple: true },
        ...ACTOR_OPTIONS,
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      process.stdout.write(HELP + "\n");
      return 0;
    }
    if (!values.decision || !values.candidate) throw new Error("--decision ID and --candidate ID are required");
    if (!values.model?.length) throw new Error("--model NAME is required (once per model name)");
    requireActorOption(values, "attaches the rows");
    return values;
  } catch (error) {
    process.stderr.write(`verdict candidate: ${(error as Error).message}\n\n${HELP}\n`);
    return 2;
  }
}

export async function run(argv: string[]): Promise<number> {
  const values = parse(argv);
  if (typeof values === "number") return values;
  const fail = (problems: FieldProblem[]) => {
    process.stderr.write(problems.map((p) => `verdict candidate attach: ${p.field}: ${p.reason}\n`).join(""));
    return 1;
  };
  try {
    const actor = await resolveActor(values, "attaches the rows");
    const result = await attachLeaderboardModels(
      actor,
      values.decision!,
      { candidateId: values.candidate, models: values.model },
      { userAgent: "verdict-cli" },
    );
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    return 0;
  } catch (error) {
    if (error instanceof z.ZodError) return fail(fieldProblems(error));
    if (error instanceof AppError) {
      const issues = (error.details as { issues?: FieldProblem[] } | undefined)?.issues;
      if (issues?.length) return fail(issues);
      process.stderr.write(`verdict candidate attach: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await (await database()).close().catch(() => {});
  }
}
