import "server-only";
import type { ScoreBasis } from "@/lib/ingest/formats/item-results/types";
import type { RunProvenance } from "@/lib/ingest/formats/item-results/provenance";
import { runMappingLine, runProvenanceLine } from "@/lib/pack/run-provenance";
import { can } from "@/lib/auth/permissions";
import { rawQuery, type Database } from "@/lib/db/connect";
import { storedRunMetrics, type StoredRunMetrics } from "@/lib/pack/run-input";
import { exportRow } from "@/lib/ingest/csv-export";
import {
  cellsOf,
  DEFAULT_PAGE_SIZE,
  drillQuerySchema,
  isErrorFilter,
  type Cell,
  type CellFilter,
  type DrillItem,
  type DrillQueryInput,
} from "@/lib/schemas/drill-down";
import { database as getDatabase } from "../db";
import { AppError, forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";
import { readDecisionCore, readRuns } from "./read-model";
import { writeRunItemsOnce } from "../runs/run-items";

/**
 * Drill-down to the items behind a figure of the pack (issue 10, item 7): the items of one eval
 * run in a confusion-matrix cell at a threshold (the run's operating threshold unless another
 * operating point is asked for), optionally in one slice, optionally only the errors this
 * candidate makes and another candidate's run does not. Used by the page, the JSON API and the CLI.
 *
 * The items come from RunItem (lib/server/runs/run-items.ts): the scores the metrics were computed
 * from, so a parse failure or a missing prediction is an error here as in the matrix, and
 * predicted positive ⇔ score ≥ t (SPEC §4).
 *
 * Order: the cells FN, FP, TP, TN in that order (errors first, false negatives first of all); in
 * each cell the item whose score is most wrong for its gold label first — a positive by score
 * ascending, a negative by score descending — so a cell of errors starts with the most confident
 * mistakes and a cell of correct items with those nearest the threshold. Ties at equal score are
 * ordered by item id. That is ascending RunItem.orderKey (score, or −score for a negative) then
 * item id: each cell at any threshold is one range of the index (evalRunId, label, orderKey,
 * itemId), read from a keyset cursor — never OFFSET, so a deep page costs what the first does.
 */

/** The slice filter value that means "items without a slice", as recall per slice names them. */
export const NO_SLICE = "(none)";

export interface Position {
  cell: Cell;
  key: number;
  id: string;
}

/** What a cell's scan needs (exported with cellScanQuery for the query-plan test). */
export interface ScanContext {
  runId: number;
  threshold: number;
  /** undefined: every slice; null: items without a slice. */
  slice: string | null | undefined;
  vs: { runId: number; threshold: number } | null;
}

interface Context extends ScanContext {
  datasetVersionId: number;
  cells: Cell[];
}

const POSITIVE: Record<Cell, boolean> = { FN: true, TP: true, FP: false, TN: false };
/** The cell's range of orderKey at threshold t (positives: key = score; negatives: key = −score). */
const BOUND: Record<Cell, string> = { FN: "<", TP: ">=", FP: "<=", TN: ">" };

const problem = (field: string, reason: string) =>
  new AppError("VALIDATION", `${field}: ${reason}`, { issues: [{ field, reason }] });

/** The opaque cursor of a position (exported for the benchmark, which starts from a deep one). */
export function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify([p.cell, p.key, p.id])).toString("base64url");
}

function decodeCursor(field: "after" | "before", cursor: string, cells: readonly Cell[]): Position {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = null;
  }
  if (
    Array.isArray(value) &&
    value.length === 3 &&
    cells.includes(value[0]) &&
    typeof value[1] === "number" &&
    Number.isFinite(value[1]) &&
    typeof value[2] === "string"
  ) {
    return { cell: value[0] as Cell, key: value[1], id: value[2] };
  }
  throw problem(
    field,
    "Not a cursor of this list: follow the next and previous links of a page with the same cell filter.",
  );
}

/** The run with its stored metrics, refused unless it is the decision's and computed. */
async function readDoneRun(prisma: Database["prisma"], decisionId: string, runId: number) {
  const run = Number.isSafeInteger(runId)
    ? await prisma.evalRun.findFirst({
        where: { id: runId, decisionId },
        select: {
          id: true,
          status: true,
          candidateId: true,
          datasetVersionId: true,
          metrics: true,
          scoreBasis: true,
          toolRun: true,
          import: { select: { fileName: true, sha256: true } },
          datasetVersion: { select: { version: true, dataset: { select: { name: true } } } },
        },
      })
    : null;
  if (!run) throw notFoundError("The eval run");
  const metrics = storedRunMetrics(run.metrics);
  if (run.status !== "DONE" || !metrics)
    throw new AppError(
      "CONFLICT",
      `Eval run #${run.id} is not computed yet (${run.status.toLowerCase()}): its items can be listed once it is done.`,
    );
  return { run, metrics };
}

/** A run imported from another eval tool says where its scores came from (absent for Verdict's own runs). */
function toolProvenance(run: { toolRun: unknown; import: { fileName: string; sha256: string } | null }) {
  if (!run.toolRun) return {};
  const toolRun = run.toolRun as RunProvenance;
  const file = run.import ? { name: run.import.fileName, sha256: run.import.sha256 } : null;
  return { provenance: { line: runProvenanceLine(toolRun, file), mapping: runMappingLine(toolRun) } };
}

/** What a drill-down is about: the run, its decision's runs that count, and the validated filter. */
async function resolve(actor: Actor, decisionId: string, runId: number, input: DrillQueryInput) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const query = drillQuerySchema.parse(input);
  const database = await getDatabase();
  const prisma = database.prisma;
  const { decision, candidates } = await readDecisionCore(prisma, decisionId);
  const { run, metrics } = await readDoneRun(prisma, decisionId, runId);
  const name = (candidateId: string) => candidates.find((c) => c.id === candidateId)?.name ?? candidateId;

  // Only runs that count are compared (the pack's read model decides which), on the same items.
  const { runs: counting } = await readRuns(prisma, decisionId, decision.evaluationDatasetVersionId);
  const counts = counting.some((r) => r.runId === run.id);
  const comparable = counts
    ? counting.filter(
        (r) => r.runId !== run.id && r.candidateId !== run.candidateId && r.metrics && sameVersion(r, run),
      )
    : [];
  let vs: ScanContext["vs"] = null;
  if (query.vs !== undefined) {
    if (!counts)
      throw problem(
        "vs",
        `Run #${run.id} is not its candidate's run that counts, so it is compared with no other run.`,
      );
    const other = comparable.find((r) => r.runId === query.vs);
    if (!other)
      throw problem("vs", `Run #${query.vs} is not another candidate's run that counts on the same dataset version.`);
    vs = { runId: other.runId, threshold: other.metrics!.parameters.threshold };
  }
  const filter: CellFilter = query.cell ?? (vs ? "errors" : "all");
  if (vs && !isErrorFilter(filter))
    throw problem(
      "cell",
      "With vs, the list is of errors only this candidate makes: the cell must be errors, FN or FP.",
    );

  const operatingThreshold = metrics.parameters.threshold;
  const context: Context = {
    runId: run.id,
    datasetVersionId: run.datasetVersionId,
    threshold: query.threshold ?? operatingThreshold,
    cells: cellsOf(filter),
    slice: query.slice === undefined ? undefined : query.slice === NO_SLICE ? null : query.slice,
    vs,
  };
  const after = query.after ? decodeCursor("after", query.after, context.cells) : null;
  const before = query.before ? decodeCursor("before", query.before, context.cells) : null;
  // Runs computed before RunItem existed get their rows on first use (once, under a lock).
  await writeRunItemsOnce(database, run.id, run.datasetVersionId);

  const summary = {
    decisionId: decision.id,
    decisionTitle: decision.title,
    positiveClass: decision.positiveClass,
    runId: run.id,
    candidateId: run.candidateId,
    candidate: name(run.candidateId),
    dataset: { name: run.datasetVersion.dataset.name, version: run.datasetVersion.version },
    operatingThreshold,
    scoreKind: metrics.input.scoreKind,
    // Where an imported tool run's scores came from (issue 24 §3): null for Verdict's own runs.
    scoreBasis: (run.scoreBasis as ScoreBasis | null) ?? null,
    toolRun: (run.toolRun as unknown as RunProvenance | null) ?? null,
    countsInPack: counts,
    ...toolProvenance(run),
  };
  const filterOut = {
    cell: filter,
    threshold: context.threshold,
    slice: query.slice ?? null,
    vs: vs?.runId ?? null,
    vsCandidate: vs ? name(comparable.find((r) => r.runId === vs.runId)!.candidateId) : null,
  };
  return {
    database,
    context,
    query,
    after,
    before,
    run: summary,
    filter: filterOut,
    total: storedTotal(metrics, context, operatingThreshold),
    compareWith: comparable.map((r) => ({ runId: r.runId, candidate: name(r.candidateId) })),
    slices: metrics.slices?.map((s) => s.slice) ?? [],
  };
}

const sameVersion = (
  a: { dataset: { name: string; version: number } | null },
  b: { datasetVersion: { version: number; dataset: { name: string } } },
) => a.dataset?.name === b.datasetVersion.dataset.name && a.dataset.version === b.datasetVersion.version;

/**
 * The size of the list when the stored metrics know it (at the operating threshold: the matrix,
 * and per slice the positives' cells); otherwise null rather than a count over the whole run.
 */
function storedTotal(metrics: StoredRunMetrics, c: Context, operatingThreshold: number): number | null {
  if (c.vs || c.threshold !== operatingThreshold) return null;
  const a = metrics.report.atThreshold;
  const cells: Record<Cell, number> = { TP: a.tp, FP: a.fp, TN: a.tn, FN: a.fn };
  if (c.slice === undefined) return c.cells.reduce((sum, cell) => sum + cells[cell], 0);
  if (c.cells.some((cell) => !POSITIVE[cell])) return null;
  const s = metrics.slices?.find((x) => x.slice === (c.slice ?? NO_SLICE));
  if (!s) return null;
  return c.cells.reduce((sum, cell) => sum + (cell === "TP" ? s.detected : s.positives - s.detected), 0);
}

/**
 * The SQL of one cell's items from a position, in list order (forward) or reversed (backward):
 * one range of the index (evalRunId, label, orderKey, itemId) — or (evalRunId, slice, …) with a
 * slice — read from the cursor on, LIMIT rows, no sort. Exported for the query-plan test.
 */
export function cellScanQuery(
  c: ScanContext,
  cell: Cell,
  from: Position | null,
  backward: boolean,
  limit: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [c.runId, POSITIVE[cell], POSITIVE[cell] ? c.threshold : -c.threshold];
  const where = [`r."evalRunId" = $1`, `r.label = $2`, `r."orderKey" ${BOUND[cell]} $3`];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (c.slice === null) where.push(`r.slice IS NULL`);
  else if (c.slice !== undefined) where.push(`r.slice = ${param(c.slice)}`);
  if (from)
    where.push(
      `(r."orderKey", r."itemId") ${backward ? "<" : ">"} (${param(from.key)}::float8, ${param(from.id)}::text)`,
    );
  if (c.vs) {
    // The other run errs at its own operating threshold: a positive below it, a negative at or above it.
    const [run, t, minusT] = [param(c.vs.runId), param(c.vs.threshold), param(-c.vs.threshold)];
    where.push(
      `NOT EXISTS (SELECT 1 FROM "RunItem" o WHERE o."evalRunId" = ${run} AND o."itemId" = r."itemId" AND CASE WHEN o.label THEN o."orderKey" < ${t} ELSE o."orderKey" <= ${minusT} END)`,
    );
  }
  const direction = backward ? "DESC" : "ASC";
  return {
    sql: `SELECT r."itemId", r."orderKey" FROM "RunItem" r WHERE ${where.join(" AND ")} ORDER BY r."orderKey" ${direction}, r."itemId" ${direction} LIMIT ${param(limit)}`,
    params,
  };
}

async function scan(
  database: Database,
  c: Context,
  cell: Cell,
  from: Position | null,
  backward: boolean,
  limit: number,
): Promise<Position[]> {
  const { sql, params } = cellScanQuery(c, cell, from, backward, limit);
  const rows = await rawQuery<{ itemId: string; orderKey: number }>(database, sql, params);
  return rows.map((r) => ({ cell, key: Number(r.orderKey), id: r.itemId }));
}

/** Up to `limit` positions after (or before) a position, crossing into the following (preceding) cells. */
async function walk(
  database: Database,
  c: Context,
  from: Position | null,
  backward: boolean,
  limit: number,
): Promise<Position[]> {
  const cells = backward ? [...c.cells].reverse() : c.cells;
  const start = from ? cells.indexOf(from.cell) : 0;
  const out: Position[] = [];
  for (let i = start; i < cells.length && out.length < limit; i++) {
    out.push(...(await scan(database, c, cells[i]!, i === start ? from : null, backward, limit - out.length)));
  }
  return out;
}

/** A page's items by primary key: the dataset item and the run's prediction of each (exported for the query-plan test). */
export const DETAILS_SQL = `SELECT di."itemId", di.label, di.text, di.slice, p.score, p.predicted, COALESCE(p."parseFailure", false) AS "parseFailure", (p."itemId" IS NULL) AS missing
   FROM "DatasetItem" di
   LEFT JOIN "Prediction" p ON p."evalRunId" = $1 AND p."itemId" = di."itemId"
  WHERE di."datasetVersionId" = $2 AND di."itemId" = ANY($3::text[])`;

/** The page's items with their text, prediction and slice, in the page's order. */
async function details(database: Database, c: Context, positions: readonly Position[]): Promise<DrillItem[]> {
  if (positions.length === 0) return [];
  const rows = await rawQuery<{
    itemId: string;
    label: boolean;
    text: string | null;
    slice: string | null;
    score: number | null;
    predicted: boolean | null;
    parseFailure: boolean;
    missing: boolean;
  }>(database, DETAILS_SQL, [c.runId, c.datasetVersionId, positions.map((p) => p.id)]);
  const byId = new Map(rows.map((r) => [r.itemId, r]));
  return positions.map((p) => {
    const r = byId.get(p.id)!;
    return {
      id: p.id,
      cell: p.cell,
      label: r.label,
      score: r.score === null ? null : Number(r.score),
      predicted: r.predicted,
      parseFailure: r.parseFailure,
      missing: r.missing,
      slice: r.slice,
      text: r.text,
    };
  });
}

export type DrillPage = Awaited<ReturnType<typeof listRunItems>>;

/**
 * One page of a run's items under a filter, with opaque keyset cursors: `next` lists the items
 * after the page's last, `previous` those before its first (null when there are none).
 */
export async function listRunItems(actor: Actor, decisionId: string, runId: number, input: DrillQueryInput) {
  const r = await resolve(actor, decisionId, runId, input);
  const limit = r.query.limit ?? DEFAULT_PAGE_SIZE;
  const backward = r.before !== null;
  // One more than the page, to know whether a page follows in that direction.
  const found = await walk(r.database, r.context, r.before ?? r.after, backward, limit + 1);
  const more = found.length > limit;
  const positions = backward ? found.slice(0, limit).reverse() : found.slice(0, limit);
  const first = positions[0];
  const last = positions[positions.length - 1];
  return {
    run: r.run,
    filter: r.filter,
    total: r.total,
    items: await details(r.database, r.context, positions),
    next: last && (backward || more) ? encodeCursor(last) : null,
    previous: first && (backward ? more : r.after !== null) ? encodeCursor(first) : null,
    compareWith: r.compareWith,
    slices: r.slices,
  };
}

export const CSV_HEADER = ["id", "cell", "label", "score", "predicted", "parse_failure", "missing", "slice", "text"];
const CSV_BATCH = 2_000;

/** Every item under the filter as spreadsheet-safe CSV, streamed batch by batch along the same keyset order. */
export async function exportRunItemsCsv(
  actor: Actor,
  decisionId: string,
  runId: number,
  input: DrillQueryInput,
): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  drillQuerySchema.parse(input); // every parameter checked, also those a download does not use
  const r = await resolve(actor, decisionId, runId, {
    ...input,
    after: undefined,
    before: undefined,
    limit: undefined,
    format: undefined,
  });
  const encoder = new TextEncoder();
  let from: Position | null = null;
  let started = false;
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(exportRow(CSV_HEADER)));
        return;
      }
      if (done) return controller.close();
      const positions = await walk(r.database, r.context, from, false, CSV_BATCH);
      if (positions.length < CSV_BATCH) done = true;
      if (positions.length === 0) return controller.close();
      from = positions[positions.length - 1]!;
      const items = await details(r.database, r.context, positions);
      controller.enqueue(
        encoder.encode(
          items
            .map((i) =>
              exportRow([i.id, i.cell, i.label, i.score, i.predicted, i.parseFailure, i.missing, i.slice, i.text]),
            )
            .join(""),
        ),
      );
    },
  });
  const fileName = `run-${r.run.runId}-${r.filter.cell}${r.filter.vs ? `-vs-${r.filter.vs}` : ""}.csv`;
  return { fileName, body };
}
