import "server-only";
import type { Database } from "@/lib/db/connect";
import { frozenReason } from "@/lib/decisions/editable";
import { measureServing, type MeasuredRequest } from "@/lib/harness/measure";
import { recordAudit } from "../audit/write";
import { lockDecisionRow } from "../decisions/lock";
import type { EndpointSnapshot } from "./execute-chunk";

const SYSTEM = { id: null, roles: [] } as const;

/** How stage 5 names what Verdict measured itself; "simulated" wherever a simulated endpoint's figures appear. */
export const harnessToolName = (simulated: boolean) =>
  simulated ? "Verdict harness (simulated endpoint)" : "Verdict harness";
const TPOT_SOURCE =
  "Verdict harness, per request: TPOT = (E2E − TTFT) / (output tokens − 1), first token excluded; ITL pools every gap between content chunks (vLLM's definitions)";

export interface FinishedRun {
  evalRunId: number | null;
  nextSweepLevel: number | null;
}

/**
 * Once every item of a run is stored: in one transaction, its serving measurement (stage 5 at the
 * run's concurrency) and, for an EVAL run, an eval run whose predictions are the parsed outputs —
 * the same rows an upload stores, so stages 3–4 come from the same metrics job (the caller queues
 * it after the commit). Items whose request failed have no prediction: they are missing, and so
 * errors. The run's row lock makes this happen once however many workers finish chunks together.
 * A decision frozen meanwhile (submitted) takes no new evidence: the run fails, saying so.
 */
export async function finishRunIfComplete(database: Database, runId: number): Promise<FinishedRun | null> {
  return database.prisma.$transaction(
    async (tx) => {
      const [run] = await tx.$queryRawUnsafe<
        {
          id: number;
          status: string;
          kind: string;
          decisionId: string;
          candidateId: string;
          datasetVersionId: number;
          concurrency: number;
          itemCount: number;
          doneCount: number;
          endpoint: EndpointSnapshot;
          sweepId: string | null;
          protocolSha256: string;
        }[]
      >(
        `SELECT id, status::text AS status, kind, "decisionId", "candidateId", "datasetVersionId", concurrency, "itemCount", "doneCount", endpoint, "sweepId", "protocolSha256" FROM "HarnessRun" WHERE id = $1 FOR UPDATE`,
        runId,
      );
      if (!run || (run.status !== "RUNNING" && run.status !== "QUEUED") || run.doneCount < run.itemCount) return null;
      const decision = await lockDecisionRow(tx, run.decisionId, "SHARE");
      const frozen = frozenReason(decision);
      if (frozen) {
        await tx.harnessRun.update({
          where: { id: runId },
          data: { status: "FAILED", error: `Not stored: ${frozen}`, finishedAt: new Date() },
        });
        await recordAudit(tx, {
          actor: SYSTEM,
          action: "harness_run.finish",
          entityType: "HarnessRun",
          entityId: String(runId),
          decisionId: run.decisionId,
          after: { status: "FAILED", reason: frozen },
        });
        return { evalRunId: null, nextSweepLevel: null };
      }
      const slos = await tx.decision.findUniqueOrThrow({
        where: { id: run.decisionId },
        select: { sloP95E2eMs: true, sloP95TtftMs: true },
      });
      // Raw, with each ITL list as JSON (one JSON.parse a row): Prisma's findMany of these rows,
      // float8[] and all, cost several times the CPU at the benchmark's 12,000 items a run.
      const items = await tx.$queryRawUnsafe<(MeasuredRequest & { parseFailed: boolean })[]>(
        `SELECT completed, "ttftMs", "e2eMs", coalesce(array_to_json("itlMs"), '[]') AS "itlMs", "inputTokens", "outputTokens", "startedAt", "parseFailure" IS NOT NULL AS "parseFailed"
           FROM "HarnessItem" WHERE "harnessRunId" = $1`,
        runId,
      );
      const m = measureServing(items, slos);
      const serving = await tx.servingBenchmark.create({
        data: {
          decisionId: run.decisionId,
          candidateId: run.candidateId,
          tool: harnessToolName(run.endpoint.simulated),
          toolVersion: `protocol ${run.protocolSha256.slice(0, 12)}`,
          concurrency: run.concurrency,
          completed: m.completed,
          failed: m.failed,
          durationS: m.durationS,
          meanInputTokens: m.meanInputTokens,
          meanOutputTokens: m.meanOutputTokens,
          requestThroughput: m.requestThroughput,
          outputTokenThroughput: m.outputTokenThroughput,
          totalTokenThroughput: m.totalTokenThroughput,
          goodput: m.goodput,
          ttftMs: m.ttftMs,
          tpotMs: m.tpotMs,
          itlMs: m.itlMs,
          e2eMs: m.e2eMs,
          tpotSource: TPOT_SOURCE,
        },
        select: { id: true },
      });
      let evalRunId: number | null = null;
      if (run.kind === "EVAL") {
        const evalRun = await tx.evalRun.create({
          data: {
            decisionId: run.decisionId,
            candidateId: run.candidateId,
            datasetVersionId: run.datasetVersionId,
            status: "PENDING",
            itemCount: run.itemCount,
          },
          select: { id: true },
        });
        evalRunId = evalRun.id;
        await tx.$executeRawUnsafe(
          `INSERT INTO "Prediction" ("evalRunId", "itemId", score, predicted, "parseFailure", "rawOutput", "latencyMs", "inputTokens", "outputTokens")
           SELECT $1, "itemId", score, predicted, "parseFailure" IS NOT NULL, "rawOutput", "e2eMs", "inputTokens", "outputTokens" FROM "HarnessItem" WHERE "harnessRunId" = $2 AND completed`,
          evalRunId,
          runId,
        );
      }
      const parseFailures = items.filter((i) => i.parseFailed).length;
      await tx.harnessRun.update({
        where: { id: runId },
        data: { status: "DONE", finishedAt: new Date(), evalRunId, servingBenchmarkId: serving.id },
      });
      await recordAudit(tx, {
        actor: SYSTEM,
        action: "harness_run.finish",
        entityType: "HarnessRun",
        entityId: String(runId),
        decisionId: run.decisionId,
        after: {
          status: "DONE",
          evalRunId,
          servingBenchmarkId: serving.id,
          completed: m.completed,
          failed: m.failed,
          parseFailures,
          inputTokens: m.totalInputTokens,
          outputTokens: m.totalOutputTokens,
        },
      });
      let nextSweepLevel: number | null = null;
      if (run.sweepId) {
        const next = await tx.harnessRun.findFirst({
          where: { sweepId: run.sweepId, status: "QUEUED", id: { gt: runId } },
          orderBy: { id: "asc" },
          select: { id: true },
        });
        nextSweepLevel = next?.id ?? null;
      }
      return { evalRunId, nextSweepLevel };
    },
    { timeout: 120_000 },
  );
}
