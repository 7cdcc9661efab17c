import "server-only";
import { operatorConfirmedGrant } from "../identity/enrolment";
import { createHash } from "node:crypto";
import { csvRow } from "@/lib/db/bulk-copy";
import { withRawTx } from "../raw-tx";
import type { Database } from "@/lib/db/connect";
import type { Tx } from "../db";
import {
  DEMO_DECISION_ID,
  DEMO_SEED,
  demoCandidates,
  demoDecision,
  demoLeaderboardRows,
  generateDemoItems,
  generateDemoPredictions,
  generateDemoServing,
  type DemoPrediction,
  demoResemblances,
} from "@/lib/demo/moderation";
import type { RoleName } from "@/lib/auth/permissions";
import { recordAudit } from "../audit/write";
import { hashPassword } from "../identity/passwords";
import { computeEvalRun } from "../runs/eval-runs";
import { computeComparisons } from "../runs/comparisons";
import { insertImport, type ImportKind } from "../imports/import-record";
import { DATASET_ITEM_COLUMNS, PREDICTION_COLUMNS } from "../imports/tabular";
import { DEMO_USERS, isDemoMode } from "@/lib/demo/users";
import { DEMO_PROTOCOL, DEMO_SIMULATED_INDEX, demoSimBaseUrl } from "@/lib/demo/harness";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const SYSTEM = { id: null, roles: [] as RoleName[] };

/** Creates the demo users (demo mode only); existing ones are left as they are. */
async function ensureDemoUsers(database: Database): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const user of DEMO_USERS) {
    const found = await database.prisma.user.findUnique({ where: { email: user.email }, select: { id: true } });
    if (found) {
      ids.set(user.email, found.id);
      continue;
    }
    const passwordHash = await hashPassword(user.password);
    const created = await database.prisma.$transaction(async (tx) => {
      const row = await tx.user.create({
        // The demo's people are made and confirmed by the operator who seeds it (four-eyes enrolment).
        data: { email: user.email, name: user.name, roles: user.roles, passwordHash, ...operatorConfirmedGrant() },
        select: { id: true },
      });
      await recordAudit(tx, {
        actor: SYSTEM,
        action: "user.create",
        entityType: "User",
        entityId: row.id,
        after: { email: user.email, name: user.name, roles: user.roles, demo: true },
      });
      return row;
    });
    ids.set(user.email, created.id);
  }
  return ids;
}

/**
 * Seeds the demo decision idempotently: a finished seed is recognised by its `demo.seed` audit
 * event (written last); an interrupted one is removed and redone.
 */
export async function seedDemo(
  database: Database,
  log: (line: string) => void = console.log,
): Promise<"seeded" | "already-seeded"> {
  if (!isDemoMode())
    throw new Error(
      "The demo seed runs only in demo mode (VERDICT_DEMO=1); it creates logins with published passwords.",
    );
  const users = await ensureDemoUsers(database);
  const analystId = users.get("analyst@verdict.demo")!;
  if (await findFinishedSeed(database, log)) return "already-seeded";

  log("Generating the demo evidence (20,000 labelled items, 4 candidates)…");
  const items = generateDemoItems();
  const { versionId, runs } = await createDemoRows(database, analystId, items);

  log("Loading items and predictions…");
  await copyDemoRows(database, items, versionId, runs);

  log("Computing metrics for each eval run (PR curves, intervals, stress test)…");
  for (const { runId } of runs) await computeEvalRun(database, runId);
  await computeComparisons(database, DEMO_DECISION_ID);

  await database.prisma.$transaction((tx) =>
    recordAudit(tx, {
      actor: SYSTEM,
      action: "demo.seed",
      entityType: "Decision",
      entityId: DEMO_DECISION_ID,
      decisionId: DEMO_DECISION_ID,
      after: { candidates: demoCandidates.length, items: items.length },
    }),
  );
  return "seeded";
}

type DemoItem = ReturnType<typeof generateDemoItems>[number];
type DemoCandidate = (typeof demoCandidates)[number];
type DemoRun = { runId: number; predictions: DemoPrediction[] };
/** Writes one demo "Import" row; returns its id. */
type DemoImport = (kind: ImportKind, fileName: string, body: string, rowCount: number) => Promise<string>;

/** Whether a finished seed is there (its `demo.seed` event); an interrupted one is removed, to be redone. */
async function findFinishedSeed(database: Database, log: (line: string) => void): Promise<boolean> {
  const prisma = database.prisma;
  const existing = await prisma.decision.findUnique({
    where: { id: DEMO_DECISION_ID },
    select: { id: true, auditEvents: { where: { action: "demo.seed" }, select: { id: true }, take: 1 } },
  });
  if (existing && existing.auditEvents.length > 0) return true;
  if (existing) {
    log("Removing an interrupted demo seed…");
    await prisma.decision.delete({ where: { id: DEMO_DECISION_ID } });
  }
  return false;
}

/**
 * The decision and everything but the bulk rows, in one transaction: its dataset version, its
 * candidates with their imports, leaderboard scores, eval runs and serving benchmarks.
 */
async function createDemoRows(
  database: Database,
  analystId: string,
  items: DemoItem[],
): Promise<{ versionId: number; runs: DemoRun[] }> {
  // The "uploaded file" (hashed for provenance) as an analyst would have it.
  const itemsCsv =
    "id,label,slice,text\n" +
    items.map((item) => csvRow([item.itemId, item.label ? "violating" : "ok", item.slice, item.text])).join("");
  return database.prisma.$transaction(
    async (tx) => {
      await tx.decision.create({
        data: { ...demoDecision, evalProtocol: DEMO_PROTOCOL as object, createdById: analystId },
      });
      const demoImport = demoImporter(tx, analystId);
      const datasetImportId = await demoImport("DATASET", "moderation-eval-v1.csv", itemsCsv, items.length);
      const dataset = await tx.dataset.create({
        data: { decisionId: DEMO_DECISION_ID, name: "Moderation eval set (labelled by the T&S team)" },
      });
      const version = await tx.datasetVersion.create({
        data: {
          datasetId: dataset.id,
          version: 1,
          itemCount: items.length,
          positiveCount: items.filter((i) => i.label).length,
          sliceColumn: "slice",
          importId: datasetImportId,
        },
      });
      const runs: DemoRun[] = [];
      for (const [index, model] of demoCandidates.entries())
        runs.push(await createDemoCandidate(tx, demoImport, { model, index, items, versionId: version.id }));
      await tx.decision.update({ where: { id: DEMO_DECISION_ID }, data: { evaluationDatasetVersionId: version.id } });
      await tx.suiteResemblance.createMany({
        data: demoResemblances.map((r) => ({ ...r, decisionId: DEMO_DECISION_ID })),
      });
      return { versionId: version.id, runs };
    },
    { timeout: 120_000 },
  );
}

/** Every import row through the uploads' one writer, as the analyst's upload of the file would write it. */
function demoImporter(tx: Tx, analystId: string): DemoImport {
  return (kind, fileName, body, rowCount) =>
    insertImport((sql, ...params) => tx.$executeRawUnsafe(sql, ...params), {
      decisionId: DEMO_DECISION_ID,
      kind,
      format: "demo-generator",
      producerVersion: null,
      fileName,
      sha256: sha256(body),
      sizeBytes: Buffer.byteLength(body),
      content: null,
      importedById: analystId,
      rowCount,
    });
}

const RETRIEVED_AT = new Date("2026-11-20T00:00:00Z");

/**
 * One demo candidate with its evidence: its endpoint (the simulated one), leaderboard scores, an
 * eval run (its predictions returned, to be COPYed after) and serving benchmarks.
 */
async function createDemoCandidate(
  tx: Tx,
  demoImport: DemoImport,
  at: { model: DemoCandidate; index: number; items: DemoItem[]; versionId: number },
): Promise<DemoRun> {
  const { model, index, items } = at;
  const candidate = await tx.candidate.create({
    data: {
      decisionId: DEMO_DECISION_ID,
      name: model.name,
      provider: model.provider,
      version: model.version,
      shortlistRationale: model.shortlistRationale,
      priceInputPerMTok: model.serving.pricing.inputPerMTok,
      priceOutputPerMTok: model.serving.pricing.outputPerMTok,
      pricePerHour: model.serving.pricing.perHour,
    },
  });
  if (index === DEMO_SIMULATED_INDEX) {
    // Served by the app's own simulated endpoint (lib/server/harness/demo-endpoint.ts), named so wherever it appears.
    await tx.candidateEndpoint.create({
      data: {
        candidateId: candidate.id,
        baseUrl: demoSimBaseUrl(),
        model: `${model.name} (simulated)`,
        concurrency: 32,
        simulated: true,
      },
    });
  }
  const scores = demoLeaderboardRows(model);
  const boardImportId = await demoImport(
    "LEADERBOARD",
    `${model.name}-leaderboards.json`,
    JSON.stringify(scores),
    scores.length,
  );
  await tx.leaderboardScore.createMany({
    data: scores.map((s) => ({
      ...s,
      decisionId: DEMO_DECISION_ID,
      candidateId: candidate.id,
      modelName: model.name,
      retrievedAt: RETRIEVED_AT,
      importId: boardImportId,
    })),
  });

  const predictions = generateDemoPredictions(model, items, DEMO_SEED + index + 1);
  const predictionsCsv =
    "id,score,predicted,raw_output,latency_ms,input_tokens,output_tokens\n" +
    predictions
      .map((p) => csvRow([p.itemId, p.score, p.predicted, p.rawOutput, p.latencyMs, p.inputTokens, p.outputTokens]))
      .join("");
  const runImportId = await demoImport(
    "PREDICTIONS",
    `${model.name}-predictions.csv`,
    predictionsCsv,
    predictions.length,
  );
  const run = await tx.evalRun.create({
    data: {
      decisionId: DEMO_DECISION_ID,
      candidateId: candidate.id,
      datasetVersionId: at.versionId,
      importId: runImportId,
      itemCount: predictions.length,
      parseFailureCount: predictions.filter((p) => p.parseFailure).length,
    },
  });

  const serving = generateDemoServing(model, DEMO_SEED + 100 + index);
  const servingImportId = await demoImport(
    "SERVING",
    `${model.name}-serving.json`,
    JSON.stringify(serving),
    serving.length,
  );
  await tx.servingBenchmark.createMany({
    data: serving.map((row) => ({
      ...row,
      decisionId: DEMO_DECISION_ID,
      candidateId: candidate.id,
      tool: "vllm bench serve",
      toolVersion: "0.11.0",
      tpotSource: "vLLM TPOT: decode time per output token, first token excluded (Verdict's definition).",
      importId: servingImportId,
    })),
  });
  return { runId: run.id, predictions };
}

/** The bulk rows (items, then each run's predictions) COPYed in one raw transaction, as uploads load them. */
async function copyDemoRows(database: Database, items: DemoItem[], versionId: number, runs: DemoRun[]): Promise<void> {
  const once = async function* (text: string) {
    yield text;
  };
  await withRawTx(database, async (tx) => {
    const copy = (table: string, columns: readonly string[], csv: string) => tx.copy(table, columns, once(csv));
    await copy(
      "DatasetItem",
      DATASET_ITEM_COLUMNS,
      items.map((i) => csvRow([versionId, i.itemId, i.label, i.slice, i.text])).join(""),
    );
    for (const { runId, predictions } of runs) {
      const rows = predictions.map((p) =>
        csvRow([
          runId,
          p.itemId,
          p.score,
          p.predicted,
          p.parseFailure,
          p.rawOutput,
          p.latencyMs,
          p.inputTokens,
          p.outputTokens,
        ]),
      );
      await copy("Prediction", PREDICTION_COLUMNS, rows.join(""));
    }
  });
}
