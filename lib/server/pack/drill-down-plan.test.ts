import { beforeAll, describe, expect, it } from "vitest";
import { database, db } from "../db";
import { makeActor, makeDecision, unique } from "@/test/factories";
import { copyDatasetItems, copyPredictions, itemId } from "@/test/drill-data";
import { cellScanQuery, DETAILS_SQL, type Position, type ScanContext } from "./drill-down";
import { writeRunItemsOnce } from "../runs/run-items";

/**
 * The drill-down stays fast at scale because every page is one range of an index read from the
 * cursor: this reads PostgreSQL's own plans (EXPLAIN (ANALYZE, FORMAT JSON)) of the list's queries
 * on 200,000 items × 2 runs loaded by COPY, and checks that no plan sorts, scans a table or hashes
 * one whole, and that a deep page reads as few index entries as the first (no offset).
 */
const N = 200_000;
const LIMIT = 51;

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Alias?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Scan Direction"?: string;
  Plans?: PlanNode[];
};

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

let runA = 0;
let runB = 0;
let versionId = 0;

async function plan(sql: string, params: unknown[]): Promise<PlanNode[]> {
  const d = await database();
  if (d.mode !== "server") throw new Error("the plan test needs the PostgreSQL server");
  const { rows } = await d.pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
  return nodesOf((rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan);
}

/** No sort, no sequential or bitmap scan, no hash of a whole table: only ordered index scans on RunItem. */
function expectIndexOnly(nodes: PlanNode[]) {
  const types = nodes.map((n) => n["Node Type"]);
  for (const forbidden of [
    "Sort",
    "Incremental Sort",
    "Seq Scan",
    "Bitmap Heap Scan",
    "Hash",
    "Hash Join",
    "Materialize",
  ])
    expect(types, `plan has ${forbidden}: ${types.join(" > ")}`).not.toContain(forbidden);
  expect(types[0]).toBe("Limit");
}

async function deepPosition(cell: "TN" | "FN", skip: number): Promise<Position> {
  const prisma = await db();
  // Test-only OFFSET, to find a position deep in the list; the list itself never uses one.
  const [row] = await prisma.$queryRawUnsafe<{ orderKey: number; itemId: string }[]>(
    `SELECT "orderKey", "itemId" FROM "RunItem" WHERE "evalRunId" = $1 AND label = $2 AND "orderKey" ${cell === "TN" ? "> -0.5" : "< 0.5"} ORDER BY "orderKey", "itemId" OFFSET ${skip} LIMIT 1`,
    runA,
    cell === "FN",
  );
  return { cell, key: row!.orderKey, id: row!.itemId };
}

describe("the drill-down's query plans at scale", () => {
  beforeAll(async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const prisma = await db();
    const [a, b] = await Promise.all(
      ["A", "B"].map((n) =>
        prisma.candidate.create({ data: { decisionId, name: unique(n), provider: "p" }, select: { id: true } }),
      ),
    );
    const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("big") }, select: { id: true } });
    versionId = (
      await prisma.datasetVersion.create({
        data: { datasetId: dataset.id, version: 1, itemCount: N, positiveCount: N / 50 },
        select: { id: true },
      })
    ).id;
    runA = (
      await prisma.evalRun.create({
        data: { decisionId, candidateId: a!.id, datasetVersionId: versionId },
        select: { id: true },
      })
    ).id;
    runB = (
      await prisma.evalRun.create({
        data: { decisionId, candidateId: b!.id, datasetVersionId: versionId },
        select: { id: true },
      })
    ).id;
    const d = await database();
    if (d.mode !== "server") throw new Error("the plan test needs the PostgreSQL server");
    const client = await d.pool.connect();
    try {
      await copyDatasetItems(client, versionId, N);
      await copyPredictions(client, runA, N, 1, 1);
      await copyPredictions(client, runB, N, 2, 1.5);
    } finally {
      client.release();
    }
    await writeRunItemsOnce(d, runA, versionId);
    await writeRunItemsOnce(d, runB, versionId);
    await d.pool.query(`ANALYZE "RunItem"; ANALYZE "DatasetItem"`);
    // As an upload does once its rows are in (lib/server/runs/partitions.ts).
    for (const run of [runA, runB]) await d.pool.query(`SELECT verdict_prediction_analyze($1)`, [run]);
  }, 240_000);

  const context = (overrides: Partial<ScanContext> = {}): ScanContext => ({
    runId: runA,
    threshold: 0.5,
    slice: undefined,
    vs: null,
    ...overrides,
  });

  it("a cell's first page and a page 150,000 items deep are each one index range read from the cursor, LIMIT entries only", async () => {
    expect(await (await db()).runItem.count({ where: { evalRunId: runA } })).toBe(N);
    for (const [cell, from] of [
      ["FN", null],
      ["TN", null],
      ["TN", await deepPosition("TN", 150_000)],
      ["FN", await deepPosition("FN", 300)],
    ] as const) {
      const { sql, params } = cellScanQuery(context(), cell, from, false, LIMIT);
      const nodes = await plan(sql, params);
      expectIndexOnly(nodes);
      const scan = nodes.find((n) => n.Alias === "r")!;
      expect(scan["Index Name"]).toBe("RunItem_evalRunId_label_orderKey_itemId_idx");
      // No offset: the scan starts at the cursor and stops at the page's end.
      expect(scan["Actual Rows"]).toBe(LIMIT);
    }
  });

  it("a previous page reads the same index backwards; a slice uses the slice index", async () => {
    const deep = await deepPosition("TN", 100_000);
    const back = await plan(
      ...(Object.values(cellScanQuery(context(), "TN", deep, true, LIMIT)) as [string, unknown[]]),
    );
    expectIndexOnly(back);
    expect(back.find((n) => n.Alias === "r")).toMatchObject({
      "Index Name": "RunItem_evalRunId_label_orderKey_itemId_idx",
      "Scan Direction": "Backward",
      "Actual Rows": LIMIT,
    });

    const slice = await plan(
      ...(Object.values(cellScanQuery(context({ slice: "slice-3" }), "TN", deep, false, LIMIT)) as [string, unknown[]]),
    );
    expectIndexOnly(slice);
    expect(slice.find((n) => n.Alias === "r")).toMatchObject({
      "Index Name": "RunItem_evalRunId_slice_label_orderKey_itemId_idx",
      "Actual Rows": LIMIT,
    });
  });

  it("errors only this run makes probe the other run's items by primary key, item by item", async () => {
    const { sql, params } = cellScanQuery(context({ vs: { runId: runB, threshold: 0.5 } }), "FN", null, false, LIMIT);
    const nodes = await plan(sql, params);
    expectIndexOnly(nodes);
    expect(nodes.map((n) => n["Node Type"])).toContain("Nested Loop");
    expect(nodes.find((n) => n.Alias === "r")!["Index Name"]).toBe("RunItem_evalRunId_label_orderKey_itemId_idx");
    const probe = nodes.find((n) => n.Alias === "o")!;
    expect(probe["Index Name"]).toBe("RunItem_pkey");
    // One probe per candidate row of this run's cell, not a pass over the other run.
    expect(probe["Actual Loops"]).toBe(nodes.find((n) => n.Alias === "r")!["Actual Rows"]);
  });

  it("a page's details are read by primary key", async () => {
    const ids = Array.from({ length: LIMIT }, (_, i) => itemId(i * 3_001));
    const nodes = await plan(DETAILS_SQL, [runA, versionId, ids]);
    const types = nodes.map((n) => n["Node Type"]);
    expect(types).not.toContain("Seq Scan");
    expect(types).not.toContain("Hash");
    // An index scan names its index itself; a bitmap heap scan through its Bitmap Index Scan child (the planner may pick either).
    // "Prediction" is partitioned by run: the run's partition's key.
    expect([...new Set(nodes.map((n) => n["Index Name"]).filter(Boolean))].sort()).toEqual([
      "DatasetItem_pkey",
      `Prediction_${runA}_pkey`,
    ]);
  });
});
