import "server-only";
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

/**
 * Stores results as they arrive, in batches: one statement per flush (every `maxRows` results or
 * `intervalMs`, whichever first) inserts the rows and adds them to the run's progress, so the
 * progress never counts a row that is not stored. A kill loses at most the unflushed results,
 * whose items are simply called again on resume; ON CONFLICT keeps a duplicate from counting
 * twice. Each flush returns the run's status, which is how a cancel reaches a worker.
 */
const INSERT_SQL = `
WITH ins AS (
  INSERT INTO "HarnessItem" ("harnessRunId", "itemId", completed, "rawOutput", predicted, score, "parseFailure", "httpStatus", error, attempts, "inputTokens", "outputTokens", "ttftMs", "e2eMs", "itlMs", "startedAt")
  SELECT $1, "itemId", completed, "rawOutput", predicted, score, "parseFailure", "httpStatus", error, attempts, "inputTokens", "outputTokens", "ttftMs", "e2eMs", "itlMs", "startedAt"
    FROM json_populate_recordset(NULL::"HarnessItem", $2::json)
  ON CONFLICT DO NOTHING
  RETURNING 1
)
UPDATE "HarnessRun" SET "doneCount" = "doneCount" + (SELECT count(*) FROM ins) WHERE id = $1 RETURNING status::text AS status`;

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
    private readonly maxRows = 256,
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
    // One JSON parameter, parsed by PostgreSQL (json_populate_recordset, JSON arrays to float8[]):
    // V8's JSON.stringify is far cheaper than the driver's escaping of fifteen arrays.
    const [row] = await rawQuery<{ status: string }>(this.database, INSERT_SQL, [this.runId, JSON.stringify(rows)]);
    this.status = row?.status ?? "FAILED";
    this.onStatus(this.status);
  }
}
