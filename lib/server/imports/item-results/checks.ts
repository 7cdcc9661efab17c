import "server-only";
import type { ParseIssue } from "@/lib/ingest/formats/types";
import type { RawTx } from "../../raw-tx";
import { ImportRejected } from "../import-record";
import type { TargetVersion } from "../predictions";
import { STAGING } from "./staging";

/**
 * The checks of staged items against the dataset version (SPEC §6, issue 24 §2): one join of the
 * staging table to the dataset counts every kind of finding at once (`checkItems`); only a file
 * with a finding pays for the query that lists it. Any finding rejects the file (the transaction
 * rolls back) naming item, field and reason; the first 100 are listed with the total count.
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

/** An id the dataset version does not have means the wrong version or the wrong id field. */
async function checkUnknownIds(tx: RawTx, check: Check, datasetVersionId: number): Promise<void> {
  const from = `FROM ${STAGING} s WHERE NOT EXISTS
       (SELECT 1 FROM "DatasetItem" d WHERE d."datasetVersionId" = ${Number(datasetVersionId)} AND d."itemId" = s."itemId")`;
  const ids = await tx.query<{ itemId: string; at: string }>(
    `SELECT s."itemId", s.at ${from} ORDER BY s."itemId" LIMIT ${LISTED}`,
  );
  if (ids.length === 0) return;
  const { version } = check;
  await rejectWith(
    tx,
    `SELECT count(*) AS count ${from}`,
    ids.map((r) => ({
      record: r.at,
      field: check.idField,
      value: r.itemId,
      reason: `unknown id: not in dataset "${version.datasetName}" v${version.version}`,
    })),
    check.format,
  );
}

/** A gold label in the file that disagrees with the dataset's label for the same id is an error naming both. */
async function checkGold(tx: RawTx, check: Check, datasetVersionId: number): Promise<void> {
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

const normalized = (e: string) => `regexp_replace(btrim(${e}), '\\s+', ' ', 'g')`;
/** A positional item whose dataset item has a text to compare with. */
const VERIFIABLE = `s.input IS NOT NULL AND d.text IS NOT NULL AND btrim(d.text) <> ''`;
/** …and whose input does not carry that text. */
const MISPLACED = `${VERIFIABLE} AND strpos(${normalized("s.input")}, ${normalized("d.text")}) = 0`;

/**
 * Positional ids: where both the file's item and the dataset's item have a text, the dataset's
 * text must appear in the file's input (whitespace runs read as one space) — else the order is
 * not the dataset's. Lists the items out of order.
 */
async function checkPositions(tx: RawTx, check: Check, datasetVersionId: number): Promise<void> {
  const wrong = `FROM ${STAGING} s JOIN "DatasetItem" d ON d."datasetVersionId" = ${Number(datasetVersionId)} AND d."itemId" = s."itemId"
     WHERE ${MISPLACED}`;
  const rows = await tx.query<{ itemId: string; at: string; n: number }>(
    `SELECT s."itemId", s.at, s.n ${wrong} ORDER BY s.n LIMIT ${LISTED}`,
  );
  if (rows.length === 0) return;
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
}

/**
 * Every check of the staged items in one join to the dataset — unknown ids, gold disagreeing,
 * and for positional ids the order against the dataset's text — counted at once; a finding is
 * then listed by its own query, in the order a file's faults were always reported (positions,
 * unknown ids, gold). Returns how many positional items were verified (0 otherwise).
 */
export async function checkItems(tx: RawTx, check: Check, datasetVersionId: number): Promise<number> {
  const positional = check.idField === "position";
  const positions = positional
    ? `, count(*) FILTER (WHERE ${VERIFIABLE}) AS verifiable,
         count(*) FILTER (WHERE ${MISPLACED}) AS misplaced`
    : "";
  const [row] = await tx.query<Record<"unknown" | "gold" | "verifiable" | "misplaced", string | number | undefined>>(
    `SELECT count(*) FILTER (WHERE d."itemId" IS NULL) AS unknown,
            count(*) FILTER (WHERE s.gold IS NOT NULL AND s.gold <> d.label) AS gold${positions}
       FROM ${STAGING} s LEFT JOIN "DatasetItem" d ON d."datasetVersionId" = ${Number(datasetVersionId)} AND d."itemId" = s."itemId"`,
  );
  if (Number(row?.misplaced ?? 0) > 0) await checkPositions(tx, check, datasetVersionId);
  if (Number(row?.unknown ?? 0) > 0) await checkUnknownIds(tx, check, datasetVersionId);
  if (Number(row?.gold ?? 0) > 0) await checkGold(tx, check, datasetVersionId);
  return Number(row?.verifiable ?? 0);
}
