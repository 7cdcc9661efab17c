import "server-only";
import type pg from "pg";
import { copyCsvPg, csvRow } from "@/lib/db/bulk-copy";
import { rawQuery, type Database } from "@/lib/db/connect";

/** One item's stored result (HarnessItem). */
export interface ItemResult {
  itemId: string;
  completed: boolean;
  rawOutput: string | null;
  predicted: boolean | null;
  score: number | null;
  parseFailure: string | null;
  httpStatus: number | null;
  error: string | null;
  attempts: number;
  inputTokens: number | null;
  outputTokens: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
  itlMs: number[];
  startedAt: number;
}

const COLUMNS = [
  "harnessRunId",
  "itemId",
  "completed",
  "rawOutput",
  "predicted",
  "score",
  "parseFailure",
  "httpStatus",
  "error",
  "attempts",
  "inputTokens",
  "outputTokens",
  "ttftMs",
  "e2eMs",
  "itlMs",
  "startedAt",
] as const;

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(", ");
const INSERT_SQL = `
WITH ins AS (
  INSERT INTO "HarnessItem" (${quoted(COLUMNS)})
  SELECT $1, ${quoted(COLUMNS.slice(1))} FROM json_populate_recordset(NULL::"HarnessItem", $2::json)
  ON CONFLICT DO NOTHING
  RETURNING 1
)
UPDATE "HarnessRun" SET "doneCount" = "doneCount" + (SELECT count(*) FROM ins) WHERE id = $1 RETURNING status::text AS status`;
const PROGRESS_SQL = `UPDATE "HarnessRun" SET "doneCount" = "doneCount" + $2 WHERE id = $1 RETURNING status::text AS status`;
const UNIQUE_VIOLATION = "23505";

/**
 * Stores results as they arrive, in batches (every `maxRows` results or `intervalMs`, whichever
 * first): each batch's rows and their count in the run's progress are stored in one transaction,
 * so the progress never counts a row that is not stored. A kill loses at most the unflushed
 * results, whose items are simply called again on resume. Each flush returns the run's status,
 * which is how a cancel reaches a worker.
 *
 * On a PostgreSQL server the rows go in by COPY, which costs the server about half the CPU of
 * parsing them from JSON (json_populate_recordset). COPY has no ON CONFLICT, so a batch holding an
 * item stored already (a worker presumed dead that was not) is written again by the INSERT, which
 * skips such rows and counts only the others; the embedded database always takes the INSERT.
 */
export class ItemWriter {
  private buffer: ItemResult[] = [];
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  status = "RUNNING";

  constructor(
    private readonly database: Database,
    private readonly runId: number,
    private readonly onStatus: (status: string) => void,
    private readonly maxRows = 1024,
    private readonly intervalMs = 100,
  ) {}

  push(result: ItemResult) {
    if (this.failure) throw this.failure;
    this.buffer.push(result);
    if (this.buffer.length >= this.maxRows) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Writes what is buffered (after any flush in progress); resolves when stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.buffer;
    this.buffer = [];
    if (rows.length === 0) return this.chain;
    this.chain = this.chain
      .then(() => this.write(rows))
      .catch((error: unknown) => {
        this.failure ??= error;
      });
    return this.chain;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
  }

  private async write(rows: ItemResult[]) {
    const status =
      (this.database.mode === "server" ? await copyRows(this.database.pool, this.runId, rows) : null) ??
      (await this.insert(rows));
    this.status = status;
    this.onStatus(status);
  }

  private async insert(rows: ItemResult[]): Promise<string> {
    // One JSON parameter, parsed by PostgreSQL (json_populate_recordset, JSON arrays to float8[]):
    // V8's JSON.stringify is far cheaper than the driver's escaping of fifteen arrays.
    const [row] = await rawQuery<{ status: string }>(this.database, INSERT_SQL, [this.runId, JSON.stringify(rows)]);
    return row?.status ?? "FAILED";
  }
}

/** The rows by COPY and the progress, in one transaction: the run's status, or null when a row was stored already. */
async function copyRows(pool: pg.Pool, runId: number, rows: readonly ItemResult[]): Promise<string | null> {
  let csv = "";
  for (const r of rows)
    csv += csvRow([
      runId,
      r.itemId,
      r.completed,
      r.rawOutput,
      r.predicted,
      r.score,
      r.parseFailure,
      r.httpStatus,
      r.error,
      r.attempts,
      r.inputTokens,
      r.outputTokens,
      r.ttftMs,
      r.e2eMs,
      `{${r.itlMs.join(",")}}`,
      r.startedAt,
    ]);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    await copyCsvPg(client, "HarnessItem", COLUMNS, csv);
    const { rows: progress } = await client.query<{ status: string }>(PROGRESS_SQL, [runId, rows.length]);
    await client.query("COMMIT");
    return progress[0]?.status ?? "FAILED";
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) return null;
    broken = error as Error;
    throw error;
  } finally {
    // A connection that failed otherwise is not handed back to the pool.
    client.release(broken);
  }
}
