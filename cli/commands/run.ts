import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { database } from "../../lib/server/db.ts";
import { namedVariable, setEnv } from "../../lib/env.ts";
import { AppError, type FieldProblem } from "../../lib/server/errors.ts";
import { setCandidateEndpoint, setEvalProtocol } from "../../lib/server/harness/endpoints.ts";
import { drainInlineChunks } from "../../lib/server/harness/queue.ts";
import {
  cancelHarnessRun,
  getHarnessRun,
  parseRunId,
  startHarnessRun,
  startSweep,
} from "../../lib/server/harness/runs.ts";
import { drainInlineJobs, queueEnabled, stopJobs } from "../../lib/server/runs/queue.ts";
import { ACTOR_HELP, ACTOR_OPTIONS, requireActorOption, resolveActor } from "../actor.ts";

export const HELP = `usage: verdict run start    --decision ID --candidate ID [--concurrency N] [--limit N] [--wait]
       verdict run sweep    --decision ID --candidate ID --levels 1,4,16 [--limit N] [--wait]
       verdict run watch    --decision ID --run RUN
       verdict run cancel   --decision ID --run RUN
       verdict run protocol --decision ID --file protocol.json
       verdict run endpoint --decision ID --candidate ID --base-url URL --model NAME [--api-key-env VAR]
                            [--concurrency N] [--rate-limit RPS] [--price-in USD] [--price-out USD]
       (every form takes --as EMAIL | --token TOKEN)

Runs a candidate's OpenAI-compatible endpoint over the decision's evaluation dataset version with
the decision's evaluation protocol — the same code and permissions as /api/v1/decisions/<id>/…
(harness-runs, sweeps, protocol, candidates/<c>/endpoint), against the configured database.
With DATABASE_URL the run's chunks go to the job queue (\`npm run worker\` or the web servers work
them) and \`start\` returns at once; the embedded database has no worker, so \`start\` runs it here.

  --wait                   after start/sweep, watch until the run ends
  --levels L1,L2,…         a sweep's concurrency levels (one serving measurement each)
  --api-key-env VAR        read the endpoint's API key from this environment variable (never an
                           argument: the process list would show it)
${ACTOR_HELP}

watch prints one line of progress a second and exits 0 when the run is DONE, 1 when it FAILED or
was CANCELLED. A bad option value prints "field: reason" on stderr and exits 1; 2: invalid options.`;

type Values = Record<string, string | boolean | undefined>;
type Actor = Awaited<ReturnType<typeof resolveActor>>;

export async function run(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  const parsed = parseRunOptions(action, rest);
  if (typeof parsed === "number") return parsed;
  const values = parsed;
  // This process queues; it does not work the queue (that is what workers are for).
  setEnv({ VERDICT_WORKER: "0" });
  try {
    const actor = await resolveActor(values as { as?: string; token?: string }, "runs it");
    return await runAction(action!, actor, values);
  } catch (error) {
    if (error instanceof AppError) {
      const issues = (error.details as { issues?: FieldProblem[] } | undefined)?.issues;
      process.stderr.write(
        issues?.length
          ? issues.map((p) => `verdict run: ${p.field}: ${p.reason}\n`).join("")
          : `verdict run: ${error.message}\n`,
      );
      return 1;
    }
    throw error;
  } finally {
    await stopJobs().catch(() => {});
    await (await database()).close().catch(() => {});
  }
}

/** The options, or the exit code when there is nothing to run: 0 after the help, 2 for invalid options. */
function parseRunOptions(action: string | undefined, rest: string[]): Values | number {
  try {
    const { values } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: false,
      options: {
        decision: { type: "string" },
        candidate: { type: "string" },
        run: { type: "string" },
        concurrency: { type: "string" },
        limit: { type: "string" },
        levels: { type: "string" },
        wait: { type: "boolean" },
        file: { type: "string" },
        "base-url": { type: "string" },
        model: { type: "string" },
        "api-key-env": { type: "string" },
        "rate-limit": { type: "string" },
        "price-in": { type: "string" },
        "price-out": { type: "string" },
        ...ACTOR_OPTIONS,
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help || action === "--help" || action === "-h") {
      process.stdout.write(HELP + "\n");
      return 0;
    }
    if (!["start", "sweep", "watch", "cancel", "protocol", "endpoint"].includes(action ?? ""))
      throw new Error(`unknown action "${action ?? ""}"`);
    if (!values.decision) throw new Error("--decision ID is required");
    if ((action === "watch" || action === "cancel") && !values.run) throw new Error("--run RUN is required");
    requireActorOption(values as { as?: string; token?: string }, "runs it");
    return values;
  } catch (error) {
    process.stderr.write(`verdict run: ${(error as Error).message}\n\n${HELP}\n`);
    return 2;
  }
}

/** A string option's value; absent (or a flag) is undefined. */
function stringOption(values: Values, key: string): string | undefined {
  return typeof values[key] === "string" ? (values[key] as string) : undefined;
}

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

/** One action, through the same use cases as the API; returns the exit code. */
async function runAction(action: string, actor: Actor, values: Values): Promise<number> {
  const str = (key: string) => stringOption(values, key);
  const decisionId = str("decision")!;
  const db = await database();
  switch (action) {
    case "protocol":
      if (!str("file"))
        throw new AppError("VALIDATION", "file: give the protocol as a JSON file (--file).", {
          issues: [{ field: "file", reason: "required" }],
        });
      print(await setEvalProtocol(actor, decisionId, JSON.parse(readFileSync(str("file")!, "utf8"))));
      return 0;
    case "endpoint":
      print({ endpoint: await setEndpoint(actor, decisionId, values) });
      return 0;
    case "cancel":
      print(await cancelHarnessRun(actor, decisionId, parseRunId(str("run")!)));
      return 0;
    case "watch":
      return await watch(actor, decisionId, parseRunId(str("run")!));
    case "start":
    case "sweep": {
      const started = await startRuns(action, actor, decisionId, values);
      if (!queueEnabled(db)) {
        // No worker on the embedded database: the run happens in this process.
        await drainInlineChunks();
        await drainInlineJobs();
      }
      if (!values.wait) {
        print({
          runs: started.map((r) => ({
            id: r.id,
            status: r.status,
            concurrency: r.concurrency,
            itemCount: r.itemCount,
          })),
        });
        return 0;
      }
      let code = 0;
      for (const r of started) code = Math.max(code, await watch(actor, decisionId, r.id));
      return code;
    }
  }
  return 2;
}

/** The candidate's endpoint from the options given (an absent one is left out, not cleared). */
function setEndpoint(actor: Actor, decisionId: string, values: Values) {
  const str = (key: string) => stringOption(values, key);
  const keyVar = str("api-key-env");
  const input = {
    candidateId: str("candidate"),
    baseUrl: str("base-url"),
    model: str("model"),
    apiKey: keyVar ? (namedVariable(keyVar) ?? "") : undefined,
    concurrency: str("concurrency"),
    rateLimitRps: str("rate-limit"),
    priceInputPerMTok: str("price-in"),
    priceOutputPerMTok: str("price-out"),
  };
  return setCandidateEndpoint(
    actor,
    decisionId,
    Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
  );
}

/** One harness run (start) or one per concurrency level (sweep). */
async function startRuns(action: "start" | "sweep", actor: Actor, decisionId: string, values: Values) {
  const str = (key: string) => stringOption(values, key);
  if (action === "start")
    return [
      await startHarnessRun(actor, decisionId, {
        candidateId: str("candidate"),
        ...(str("concurrency") ? { concurrency: str("concurrency") } : {}),
        ...(str("limit") ? { limit: str("limit") } : {}),
      }),
    ];
  return (
    await startSweep(actor, decisionId, {
      candidateId: str("candidate"),
      levels: (str("levels") ?? "").split(",").filter(Boolean),
      ...(str("limit") ? { limit: str("limit") } : {}),
    })
  ).runs;
}

/** One progress line a second until the run ends (and, for an eval run, its metrics are computed). */
async function watch(actor: Actor, decisionId: string, runId: number): Promise<number> {
  const prisma = (await database()).prisma;
  for (;;) {
    const r = await getHarnessRun(actor, decisionId, runId);
    const metrics = r.evalRunId
      ? (await prisma.evalRun.findUnique({ where: { id: r.evalRunId }, select: { status: true } }))?.status
      : null;
    process.stdout.write(
      `run ${r.id} ${r.status} ${r.doneCount}/${r.itemCount} items, ${r.parseFailures} parse failures, ${r.failedRequests} failed requests, ${r.inputTokens}+${r.outputTokens} tokens${r.evalRunId ? `; eval run ${r.evalRunId} ${metrics}` : ""}\n`,
    );
    const ended =
      r.status === "DONE"
        ? !r.evalRunId || metrics === "DONE" || metrics === "FAILED"
        : r.status === "FAILED" || r.status === "CANCELLED";
    if (ended) {
      if (r.error) process.stdout.write(`  ${r.error}\n`);
      return r.status === "DONE" && metrics !== "FAILED" ? 0 : 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
