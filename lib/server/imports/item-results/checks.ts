import "server-only";
import type { ParseIssue } from "@/lib/ingest/formats/types";
import type { RawTx } from "../../raw-tx";
import { runTable } from "../../runs/partitions";
import { unknownPredictions } from "../../runs/eval-runs";
import { ImportRejected } from "../import-record";
import type { TargetVersion } from "../predictions";
import { STAGING } from "./staging";

/**
 * The checks of staged items against the dataset version (SPEC §6, issue 24 §2), each a query
 * over the staging table: any finding rejects the file (the transaction rolls back) naming item,
 * field and reason; the first 100 are listed with the total count.
 */
const LISTED = 100;

type Check = { version: TargetVersion; format: string; idField: string; positiveClass: string };

async function rejectWith(tx: RawTx, countSql: string, issues: ParseIssue[], format: string): Promise<never> {
  const [row] = await tx.query<{ count: string | number }>(countSql);
  throw new ImportRejected(issues, Math.max(issues.length, Number(row?.count ?? issues.length)), format);
}

/** The same id twice (after the mapping) rejects the file, every repeat named with where it is and where the id was first. */
export async function checkDuplicates(tx: RawTx, check: Check): Promise<void> {
  const dups = await tx.query<{ itemId: string; at: string; first: string }>(
    `SELECT "itemId", at, first FROM (
       SELECT "itemId", at, n, row_number() OVER w AS k, first_value(at) OVER w AS first FROM ${STAGING}
       WINDOW w AS (PARTITION BY "itemId" ORDER BY n)) d
     WHERE k > 1 ORDER BY n LIMIT ${LISTED}`,
  );
  if (dups.length === 0) return;
  await rejectWith(
    tx,
    `SELECT (SELECT count(*) FROM ${STAGING}) - (SELECT count(DISTINCT "itemId") FROM ${STAGING}) AS count`,
    dups.map((d) => ({
      record: d.at,
      field: check.idField,
      value: d.itemId,
      reason: `duplicate id (first at ${d.first}): choose the repeat or model that counts`,
    })),
    check.format,
  );
}

/** The staged rows into the run's own table (its default is the run). */
export async function moveToRun(tx: RawTx, runId: number): Promise<void> {
  await tx.query(
    `INSERT INTO ${runTable(runId)} ("itemId", score, predicted, "parseFailure", "rawOutput")
     SELECT "itemId", score, predicted, "parseFailure", "rawOutput" FROM ${STAGING}`,
  );
}

/** An id the dataset version does not have means the wrong version or the wrong id field. */
export async function checkUnknownIds(tx: RawTx, check: Check, runId: number, datasetVersionId: number): Promise<void> {
  const ids = await tx.query<{ itemId: string; at: string }>(
    `SELECT p."itemId", (SELECT s.at FROM ${STAGING} s WHERE s."itemId" = p."itemId" LIMIT 1) AS at
       ${unknownPredictions(runId)} ORDER BY p."itemId" LIMIT ${LISTED}`,
    [runId, datasetVersionId],
  );
  if (ids.length === 0) return;
  const [row] = await tx.query<{ count: string | number }>(`SELECT count(*) AS count ${unknownPredictions(runId)}`, [
    runId,
    datasetVersionId,
  ]);
  const { version } = check;
  throw new ImportRejected(
    ids.map((r) => ({
      record: r.at,
      field: check.idField,
      value: r.itemId,
      reason: `unknown id: not in dataset "${version.datasetName}" v${version.version}`,
    })),
    Number(row!.count),
    check.format,
  );
}

/** A gold label in the file that disagrees with the dataset's label for the same id is an error naming both. */
export async function checkGold(tx: RawTx, check: Check, datasetVersionId: number): Promise<void> {
  const from = `FROM ${STAGING} s JOIN "DatasetItem" d ON d."datasetVersionId" = ${Number(datasetVersionId)} AND d."itemId" = s."itemId"
     WHERE s.gold IS NOT NULL AND s.gold <> d.label`;
  const rows = await tx.query<{ itemId: string; at: string; goldText: string; label: boolean }>(
    `SELECT s."itemId", s.at, s."goldText", d.label ${from} ORDER BY s.n LIMIT ${LISTED}`,
  );
  if (rows.length === 0) return;
  const side = (positive: boolean) => (positive ? `"${check.positiveClass}" (positive)` : "negative");
  await rejectWith(
    tx,
    `SELECT count(*) AS count ${from}`,
    rows.map((r) => ({
      record: `${r.at}, id ${r.itemId}`,
      field: "gold",
      value: r.goldText,
      reason: `the file's gold "${r.goldText}" reads as ${side(!r.label)} but the dataset labels id ${r.itemId} ${side(r.label)}`,
    })),
    check.format,
  );
}

/**
 * Positional ids: where both the file's item and the dataset's item have a text, the dataset's
 * text must appear in the file's input (whitespace runs read as one space) — else the order is
 * not the dataset's. Returns how many items could be verified.
 */
export async function checkPositions(tx: RawTx, check: Check, datasetVersionId: number): Promise<number> {
  const norm = (e: string) => `regexp_replace(btrim(${e}), '\\s+', ' ', 'g')`;
  const join = `FROM ${STAGING} s JOIN "DatasetItem" d ON d."datasetVersionId" = ${Number(datasetVersionId)} AND d."itemId" = s."itemId"
     WHERE s.input IS NOT NULL AND d.text IS NOT NULL AND btrim(d.text) <> ''`;
  const wrong = `${join} AND strpos(${norm("s.input")}, ${norm("d.text")}) = 0`;
  const rows = await tx.query<{ itemId: string; at: string; n: number }>(
    `SELECT s."itemId", s.at, s.n ${wrong} ORDER BY s.n LIMIT ${LISTED}`,
  );
  if (rows.length > 0)
    await rejectWith(
      tx,
      `SELECT count(*) AS count ${wrong}`,
      rows.map((r) => ({
        record: r.at,
        field: "position",
        value: String(r.n),
        reason: `item ${r.n} of the file does not carry the text of the dataset's item ${r.n} (id ${r.itemId}): the file is not in the dataset's order`,
      })),
      check.format,
    );
  const [row] = await tx.query<{ count: string | number }>(`SELECT count(*) AS count ${join}`);
  return Number(row!.count);
}
