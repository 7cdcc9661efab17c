import "server-only";
import { csvField } from "@/lib/db/bulk-copy";
import type { ItemResultEvent, ToolRun } from "@/lib/ingest/formats/item-results/types";
import type { ItemResultMapping } from "@/lib/ingest/formats/item-results/provenance";
import { ItemMapper, type MappedItem } from "@/lib/ingest/formats/item-results/mapping";
import type { RawTx } from "../../raw-tx";
import { ChunkBuffer, Issues } from "../import-record";
import { tooLarge } from "../files";
import { reportProgress } from "../progress";

/**
 * A tool's items on their way into a run: mapped one by one (`ItemMapper`) and COPYed into a
 * temporary table of the upload's transaction, with what the checks against the dataset need
 * (the file's gold, where the item is, its input for positional ids). The checks are then SQL
 * over that table, so a file of millions of items is never held in memory.
 */
export const STAGING = "verdict_item_results";
const STAGING_COLUMNS = [
  "itemId",
  "score",
  "predicted",
  "parseFailure",
  "rawOutput",
  "gold",
  "goldText",
  "input",
  "at",
  "n",
] as const;

export async function createStaging(tx: RawTx): Promise<void> {
  await tx.query(
    `CREATE TEMP TABLE ${STAGING} ("itemId" text NOT NULL, score float8, predicted boolean, "parseFailure" boolean NOT NULL,
       "rawOutput" text, gold boolean, "goldText" text, input text, at text NOT NULL, n int NOT NULL) ON COMMIT DROP`,
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

/** COPYs the mapped items into the staging table; any issue (the parser's or the mapping's) rejects the file afterwards. */
export async function stageItems(
  tx: RawTx,
  events: AsyncIterable<ItemResultEvent>,
  options: StagingOptions,
): Promise<StagedItems> {
  const state: StagedItems = { run: null, mapper: null, issues: new Issues(), rows: 0 };
  await tx.copy(STAGING, STAGING_COLUMNS, stagingChunks(events, options, state));
  return state;
}

async function* stagingChunks(
  events: AsyncIterable<ItemResultEvent>,
  options: StagingOptions,
  state: StagedItems,
): AsyncGenerator<string> {
  const buffer = new ChunkBuffer();
  const keepInput = options.mapping.idField === "position";
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
        const chunk = buffer.push(stagingCsv(outcome.item, keepInput, state.rows));
        if (chunk) yield chunk;
      }
    }
  }
  const rest = buffer.take();
  if (rest && !state.issues.failed) yield rest;
}

const bool = (v: boolean | null) => (v === null ? "" : v ? "t" : "f");
const text = (v: string | null) => (v === null ? "" : csvField(v));

function stagingCsv(m: MappedItem, keepInput: boolean, n: number): string {
  const r = m.row;
  return `${csvField(r.itemId)},${r.score ?? ""},${bool(r.predicted)},${r.parseFailure ? "t" : "f"},${text(r.rawOutput)},${bool(m.gold)},${text(m.goldText)},${keepInput ? text(m.input) : ""},${csvField(m.where)},${n}\n`;
}
