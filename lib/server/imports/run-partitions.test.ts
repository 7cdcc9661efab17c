import { describe, expect, it } from "vitest";
import { db } from "../db";
import { recordAudit } from "../audit/write";
import { importDataset, importPredictions } from ".";
import { bytes } from "@/test/uploads";
import { makeDecisionWithCandidate } from "@/test/factories";

process.env.VERDICT_JOBS = "inline";

/**
 * "Prediction" is partitioned by eval run (lib/server/runs/partitions.ts): an upload loads
 * its run into a table of its own and attaches it when it inserts the run. What a reader relies on
 * must hold as before: the run's rows behind its primary and foreign key, nothing left behind by a
 * refused file, and uploads and other run creations side by side without a deadlock.
 */
const datasetCsv = [
  "id,label",
  ...Array.from({ length: 40 }, (_, i) => `i${i},${i % 4 === 0 ? "violating" : "benign"}`),
].join("\n");
const predictionsCsv = (ids: string[]) => ["id,score", ...ids.map((id, k) => `${id},${(k % 10) / 10}`)].join("\n");
const ids = (n: number) => Array.from({ length: n }, (_, i) => `i${i}`);

async function decisionWithDataset() {
  const s = await makeDecisionWithCandidate();
  const ds = await importDataset(s.analyst, s.decisionId, bytes("d.csv", datasetCsv), {
    datasetName: "items",
    negativeLabels: ["benign"],
  });
  return { ...s, versionId: ds.datasetVersionId };
}

async function partition(runId: number) {
  const prisma = await db();
  const [row] = await prisma.$queryRawUnsafe<{ bound: string; keys: string[] }[]>(
    `SELECT pg_get_expr(c.relpartbound, c.oid) AS bound,
            ARRAY(SELECT contype::text || ':' || pg_get_constraintdef(k.oid) FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype IN ('p', 'f') ORDER BY k.contype) AS keys
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = '"Prediction"'::regclass AND c.relname = $1`,
    `Prediction_${runId}`,
  );
  return row ?? null;
}

/** Run tables created but never attached (none may outlive its transaction). */
async function strayRunTables() {
  const prisma = await db();
  const [row] = await prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM pg_class WHERE relname ~ '^Prediction_[0-9]+$' AND relkind = 'r' AND NOT relispartition`,
  );
  return row!.n;
}

describe("each eval run's predictions in a partition of their own", () => {
  it("an upload's run owns its partition, with the primary key and the foreign key; deleting the run deletes its rows", async () => {
    const { analyst, decisionId, candidateId, versionId } = await decisionWithDataset();
    const run = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      versionId,
      bytes("p.csv", predictionsCsv(ids(30))),
      {
        negativeLabels: ["benign"],
        compute: "none",
      },
    );
    expect(run).toMatchObject({ rowCount: 30, itemCount: 40, missingCount: 10 });
    expect(await partition(run.runId)).toEqual({
      bound: `FOR VALUES IN (${run.runId})`,
      keys: [
        `f:FOREIGN KEY ("evalRunId") REFERENCES "PredictionSet"("evalRunId") ON UPDATE CASCADE ON DELETE CASCADE`,
        `p:PRIMARY KEY ("evalRunId", "itemId")`,
      ],
    });
    const prisma = await db();
    expect(await prisma.prediction.count({ where: { evalRunId: run.runId } })).toBe(30);
    // Through "Prediction" as through its partition, item by item.
    expect(
      await prisma.prediction.findUnique({ where: { evalRunId_itemId: { evalRunId: run.runId, itemId: "i7" } } }),
    ).toMatchObject({
      score: 0.7,
    });
    await prisma.evalRun.delete({ where: { id: run.runId } });
    expect(await prisma.prediction.count({ where: { evalRunId: run.runId } })).toBe(0);
  });

  it("a refused file (unknown id, repeated id) leaves no run and no table behind", async () => {
    const { analyst, decisionId, candidateId, versionId } = await decisionWithDataset();
    const prisma = await db();
    for (const file of [predictionsCsv([...ids(5), "not-in-the-dataset"]), predictionsCsv([...ids(5), "i3"])]) {
      await expect(
        importPredictions(analyst, decisionId, candidateId, versionId, bytes("p.csv", file), { compute: "none" }),
      ).rejects.toThrow();
    }
    expect(await prisma.evalRun.count({ where: { decisionId } })).toBe(0);
    expect(await strayRunTables()).toBe(0);
  });

  it("uploads and other run creations side by side all land, none deadlocked", async () => {
    const decisions = await Promise.all([decisionWithDataset(), decisionWithDataset()]);
    const prisma = await db();
    const uploads = decisions.flatMap(({ analyst, decisionId, candidateId, versionId }) =>
      [20, 25, 30].map((n) =>
        importPredictions(analyst, decisionId, candidateId, versionId, bytes(`p${n}.csv`, predictionsCsv(ids(n))), {
          compute: "none",
        }).then((r) => ({ runId: r.runId, rows: n })),
      ),
    );
    // Other writers' way (the harness, the demo seed, fixtures): the run on its own, its trigger
    // attaching an empty partition, then its rows through "Prediction".
    const direct = decisions.flatMap(({ decisionId, candidateId, versionId }) =>
      [1, 2].map(async () => {
        const run = await prisma.evalRun.create({
          data: { decisionId, candidateId, datasetVersionId: versionId },
          select: { id: true },
        });
        await prisma.prediction.createMany({
          data: ids(12).map((itemId) => ({ evalRunId: run.id, itemId, score: 0.5 })),
        });
        return { runId: run.id, rows: 12 };
      }),
    );
    const runs = await Promise.all([...uploads, ...direct]);
    expect(new Set(runs.map((r) => r.runId)).size).toBe(10);
    for (const { runId, rows } of runs) {
      expect(await prisma.prediction.count({ where: { evalRunId: runId } })).toBe(rows);
      expect((await partition(runId))?.bound).toBe(`FOR VALUES IN (${runId})`);
    }
  });

  it("an upload's run creation beside a change that audits, then writes a run: both land (lock order: runs before the audit chain)", async () => {
    const { analyst, decisionId, candidateId, versionId } = await decisionWithDataset();
    const other = await decisionWithDataset();
    const prisma = await db();
    const existing = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      versionId,
      bytes("a.csv", predictionsCsv(ids(10))),
      {
        compute: "none",
      },
    );
    const someoneWaits = async () => {
      for (;;) {
        const [row] = await prisma.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`,
        );
        if (row!.n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    let upload: Promise<unknown> = Promise.resolve();
    // A parameter change's shape: it audits, then marks a run for recompute. The upload starts
    // once the change holds the audit chain, and must wait for it rather than deadlock with it.
    await prisma.$transaction(
      async (tx) => {
        await recordAudit(tx, {
          actor: { id: null, roles: [] },
          action: "decision.update_parameters",
          entityType: "Decision",
          entityId: decisionId,
          decisionId,
        });
        upload = importPredictions(
          other.analyst,
          other.decisionId,
          other.candidateId,
          other.versionId,
          bytes("b.csv", predictionsCsv(ids(15))),
          {
            compute: "none",
          },
        );
        await someoneWaits();
        await tx.$executeRaw`UPDATE "EvalRun" SET progress = 0 WHERE id = ${existing.runId}`;
      },
      { timeout: 30_000 },
    );
    await expect(upload).resolves.toMatchObject({ rowCount: 15 });
  });
});
