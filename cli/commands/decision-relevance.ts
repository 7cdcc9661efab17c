import { parseArgs } from "node:util";
import { z } from "zod";
import { relevanceNoteSchema } from "../../lib/schemas/candidate.ts";
import { database } from "../../lib/server/db.ts";
import { setRelevanceNote } from "../../lib/server/decisions/resemblances.ts";
import { AppError, fieldProblems, type FieldProblem } from "../../lib/server/errors.ts";
import { ACTOR_HELP, ACTOR_OPTIONS, requireActorOption, resolveActor } from "../actor.ts";

export const RELEVANCE_HELP = `usage: verdict decision relevance-note --decision ID --suite SUITE --note TEXT [--as EMAIL | --token TOKEN]

Sets a cited suite's relevance note — why its numbers matter (or not) for this decision — as
PATCH /api/v1/decisions/<id>/resemblances does, through the same server code (permission
decision.edit, an editable decision, the suite's resemblance answered first, the
resemblance.relevance_note audit event). --note "" clears it. The note is printed beside the
suite in stages 1–2 of the pack page, the PDF and the JSON export.

  --decision ID            the decision
  --suite SUITE            the suite, as the leaderboard names it
  --note TEXT              the note (at most 2,000 characters)
${ACTOR_HELP}

Prints {"resemblance": {"suite", "relevanceNote"}} as JSON. A refusal prints field: reason on
stderr and exits 1; nothing changes. Exit code 2: invalid options.`;

type Options = { decision?: string; suite?: string; note?: string; as?: string; token?: string; help?: boolean };

function readOptions(argv: string[]): Options | string {
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        decision: { type: "string" },
        suite: { type: "string" },
        note: { type: "string" },
        ...ACTOR_OPTIONS,
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) return values;
    for (const name of ["decision", "suite", "note"] as const)
      if (values[name] === undefined) throw new Error(`--${name} is required`);
    requireActorOption(values, "sets the note");
    return values;
  } catch (error) {
    return (error as Error).message;
  }
}

export async function runRelevanceNote(argv: string[]): Promise<number> {
  const values = readOptions(argv);
  if (typeof values === "string") {
    process.stderr.write(`verdict decision relevance-note: ${values}\n\n${RELEVANCE_HELP}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(RELEVANCE_HELP + "\n");
    return 0;
  }
  const fail = (problems: FieldProblem[]) => {
    process.stderr.write(problems.map((p) => `${p.field}: ${p.reason}\n`).join(""));
    return 1;
  };
  try {
    const actor = await resolveActor(values, "sets the note");
    const input = relevanceNoteSchema.parse({
      decisionId: values.decision,
      suite: values.suite,
      relevanceNote: values.note,
    });
    const resemblance = await setRelevanceNote(actor, input, { userAgent: "verdict-cli" });
    process.stdout.write(JSON.stringify({ resemblance }, null, 2) + "\n");
    return 0;
  } catch (error) {
    if (error instanceof z.ZodError) return fail(fieldProblems(error));
    if (error instanceof AppError) {
      const issues = (error.details as { issues?: FieldProblem[] } | undefined)?.issues;
      return fail(issues?.length ? issues : [{ field: "(decision)", reason: error.message }]);
    }
    throw error;
  } finally {
    await (await database()).close().catch(() => {});
  }
}
