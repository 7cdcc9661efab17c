import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import type { DecisionCreateInput } from "../../lib/schemas/decision.ts";
import { database } from "../../lib/server/db.ts";
import { createDecision } from "../../lib/server/decisions/decisions.ts";
import { AppError, fieldProblems, type FieldProblem } from "../../lib/server/errors.ts";
import { ACTOR_HELP, ACTOR_OPTIONS, requireActorOption, resolveActor } from "../actor.ts";
import { runRelevanceNote } from "./decision-relevance.ts";

export const HELP = `usage: verdict decision create --file decision.json [--as EMAIL | --token TOKEN]
       verdict decision relevance-note --decision ID --suite SUITE --note TEXT (see relevance-note --help)

Creates a decision (status DRAFT) from the same JSON body as POST /api/v1/decisions, through the
same server code (permission decision.edit, validation, the decision.create audit event), against
the configured database (DATABASE_URL, or the embedded one — stop the web server first).

  --file FILE              the JSON body: title, description, positiveClass, prevalence, costFn,
                           costFp, currency, recallFloor, precisionFloor, operatingThreshold,
                           operatingRule (FIXED, COST_OPTIMAL — the default — or
                           BEST_PRECISION_AT_RECALL_FLOOR),
                           sloP95E2eMs, sloP95TtftMs, sloMinThroughputRps,
                           sloThroughputConcurrency, sloMaxCostPer1kRequests, quorum; or
                           "copyFrom": "<decision id>" for the parameters left out
${ACTOR_HELP}

Prints {"decision": {...}} as JSON. Invalid JSON or invalid parameters print every problem as
FILE: field: reason on stderr and exit 1; nothing is created. Exit code 2: invalid options.`;

class UsageError extends Error {}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    process.stdout.write(HELP + "\n");
    return sub ? 0 : 2;
  }
  if (sub === "relevance-note") return runRelevanceNote(rest);
  if (sub !== "create") {
    process.stderr.write(`verdict decision: unknown subcommand "${sub}"\n\n${HELP}\n`);
    return 2;
  }
  let values: { file?: string; as?: string; token?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: { file: { type: "string" }, ...ACTOR_OPTIONS, help: { type: "boolean", short: "h" } },
    }));
    if (values.help) {
      process.stdout.write(HELP + "\n");
      return 0;
    }
    if (!values.file) throw new UsageError("--file FILE is required");
    requireActorOption(values, "creates the decision");
  } catch (error) {
    process.stderr.write(`verdict decision create: ${(error as Error).message}\n\n${HELP}\n`);
    return 2;
  }

  const file = values.file;
  const fail = (problems: FieldProblem[]) => {
    process.stderr.write(problems.map((p) => `${file}: ${p.field}: ${p.reason}\n`).join(""));
    return 1;
  };
  let body: unknown;
  try {
    body = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    const reason =
      error instanceof SyntaxError
        ? `not valid JSON (${error.message})`
        : `cannot be read (${(error as Error).message})`;
    return fail([{ field: "(file)", reason }]);
  }
  try {
    const actor = await resolveActor(values, "creates the decision");
    // createDecision validates (every problem at once, as the API reports them): nothing here.
    const decision = await createDecision(actor, body as DecisionCreateInput, { userAgent: "verdict-cli" });
    process.stdout.write(JSON.stringify({ decision }, null, 2) + "\n");
    return 0;
  } catch (error) {
    // A copyFrom source that is missing, or a copied decision still lacking a parameter.
    if (error instanceof z.ZodError)
      return fail(fieldProblems(error).map((p) => ({ ...p, field: p.field || "(body)" })));
    if (error instanceof AppError) {
      const issues = (error.details as { issues?: FieldProblem[] } | undefined)?.issues;
      if (issues?.length) return fail(issues);
      process.stderr.write(`verdict decision create: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await (await database()).close().catch(() => {});
  }
}
