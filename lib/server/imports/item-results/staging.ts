import "server-only";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { csvField } from "@/lib/db/bulk-copy";
import type { ItemResultEvent, ToolRun } from "@/lib/ingest/formats/item-results/types";
import type { ItemResultMapping } from "@/lib/ingest/formats/item-results/provenance";
import { ItemMapper, type MappedItem } from "@/lib/ingest/formats/item-results/mapping";
import type { RawTx } from "../../raw-tx";
import { ChunkBuffer, Issues } from "../import-record";
import { scratchDirectory, tooLarge } from "../files";
import { reportProgress } from "../progress";
import { predictionCsv } from "../predictions";
import { PREDICTION_FIELDS } from "../tabular";
import { runTableName } from "../../runs/partitions";

/**
 * A tool's items on their way into a run, the way a predictions upload goes (predictions.ts): each
 * mapped (`ItemMapper`) and COPYed straight into the run's own table, whose primary key refuses a
 * repeated id. What the checks against the dataset need besides the prediction — the file's gold,
 * where the item is, its input for positional ids — goes to a side file on disk as it streams
 * (memory stays flat) and is COPYed afterwards into a temporary table of the upload's transaction,
 * which the checks join to the dataset in one pass (checks.ts).
 */
export const STAGING = "verdict_item_results";
const STAGING_COLUMNS = ["itemId", "gold", "goldText", "input", "at", "n"] as const;

export async function createStaging(tx: RawTx): Promise<void> {
  await tx.query(
    `CREATE TEMP TABLE ${STAGING} ("itemId" text NOT NULL, gold boolean, "goldText" text, input text, at text NOT NULL, n int NOT NULL) ON COMMIT DROP`,
  );
}

/** What the stream found besides the rows: the run, the mapper's basis and unknown scores, the issues. */
export interface StagedItems {
  run: ToolRun | null;
  mapper: ItemMapper | null;
  issues: Issues;
  rows: number;
}

export interface StagingOptions {
  mapping: ItemResultMapping;
  /** The dataset's ids in order, for `idField: "position"`. */
  positionIds?: readonly string[];
  maxRows: number;
  uploadId?: string;
}

/**
 * The upload's items: COPYed into the run's table (`runId`, created by the caller) and, through a
 * side file, into the staging table. Any issue (the parser's or the mapping's) stops the rows and
 * rejects the file afterwards (the caller); a repeated id fails the COPY with a unique violation.
 */
export async function writeItems(
  tx: RawTx,
  runId: number,
  events: AsyncIterable<ItemResultEvent>,
  options: StagingOptions,
): Promise<StagedItems> {
  const state = newState();
  const scratch = await scratchDirectory();
  try {
    const sidePath = path.join(scratch.dir, "items.csv");
    const side = createWriteStream(sidePath);
    try {
      await tx.copy(runTableName(runId), PREDICTION_FIELDS, runChunks(events, options, state, side));
      side.end();
      await once(side, "finish");
    } finally {
      side.destroy();
    }
    if (state.issues.failed) return state;
    await createStaging(tx);
    const chunks = createReadStream(sidePath, { encoding: "utf8", highWaterMark: 1 << 20 });
    await tx.copy(STAGING, STAGING_COLUMNS, chunks as AsyncIterable<string>);
    return state;
  } finally {
    await scratch.cleanup();
  }
}

/**
 * The error path after a repeated id: the items read again into the staging table only, so the
 * duplicates can be listed with where each one and its first occurrence are (checks.ts).
 */
export async function stageItems(
  tx: RawTx,
  events: AsyncIterable<ItemResultEvent>,
  options: StagingOptions,
): Promise<StagedItems> {
  const state = newState();
  await createStaging(tx);
  const chunks = async function* () {
    const buffer = new ChunkBuffer();
    for await (const [item, n] of mappedItems(events, options, state)) {
      const chunk = buffer.push(stagingCsv(item, options, n));
      if (chunk) yield chunk;
    }
    const rest = buffer.take();
    if (rest) yield rest;
  };
  await tx.copy(STAGING, STAGING_COLUMNS, chunks());
  return state;
}

const newState = (): StagedItems => ({ run: null, mapper: null, issues: new Issues(), rows: 0 });

/** The run's rows as COPY chunks, each chunk's staging rows written to `side` on the way (waiting when the disk is behind). */
async function* runChunks(
  events: AsyncIterable<ItemResultEvent>,
  options: StagingOptions,
  state: StagedItems,
  side: WriteStream,
): AsyncGenerator<string> {
  const rows = new ChunkBuffer();
  const staged = new ChunkBuffer();
  for await (const [item, n] of mappedItems(events, options, state)) {
    const sideChunk = staged.push(stagingCsv(item, options, n));
    if (sideChunk && !side.write(sideChunk)) await once(side, "drain");
    const chunk = rows.push(predictionCsv(item.row));
    if (chunk) yield chunk;
  }
  if (state.issues.failed) return;
  side.write(staged.take());
  const rest = rows.take();
  if (rest) yield rest;
}

/** The mapped items with their place in the file (1-based), until the first issue; the run, mapper and issues kept in `state`. */
async function* mappedItems(
  events: AsyncIterable<ItemResultEvent>,
  options: StagingOptions,
  state: StagedItems,
): AsyncGenerator<[MappedItem, number]> {
  for await (const event of events) {
    if (event.kind === "issue") state.issues.add(event.issue);
    else if (event.kind === "run") {
      state.run = event.run;
      state.mapper = new ItemMapper(event.run, options.mapping, options.positionIds);
      if (event.run.status !== undefined && event.run.status !== "success")
        state.issues.add({
          field: "status",
          value: event.run.status,
          reason: `the run's status is "${event.run.status}", not "success": a partially written log is refused`,
        });
    } else {
      const mapper = state.mapper;
      if (!mapper) throw new Error("item-results parser yielded items before its run");
      for (const item of event.items) {
        const outcome = mapper.map(item);
        if (outcome.kind === "issue") state.issues.add(outcome.issue);
        if (outcome.kind !== "item" || state.issues.failed) continue;
        state.rows++;
        if (state.rows > options.maxRows) throw tooLarge("its item count", options.maxRows, "items");
        if ((state.rows & 0xffff) === 0) reportProgress(options.uploadId, { phase: "validating", rows: state.rows });
        yield [outcome.item, state.rows];
      }
    }
  }
}

const text = (v: string | null) => (v === null ? "" : csvField(v));

/** The staging row: the input only for positional ids (the one check that reads it). */
function stagingCsv(m: MappedItem, options: StagingOptions, n: number): string {
  const input = options.mapping.idField === "position" ? text(m.input) : "";
  const gold = m.gold === null ? "" : m.gold ? "t" : "f";
  return `${csvField(m.row.itemId)},${gold},${text(m.goldText)},${input},${csvField(m.where)},${n}\n`;
}
