import "server-only";
import { randomBytes } from "node:crypto";
import { can } from "@/lib/auth/permissions";
import { frozenReason, type DecisionStatusName } from "@/lib/decisions/editable";
import { rawQuery, type Database } from "@/lib/db/connect";
import { MAX_REPORTED_ERRORS } from "@/lib/ingest/formats/issues";
import type { ParseIssue } from "@/lib/ingest/formats/types";
import { AppError, forbiddenError, notFoundError } from "../errors";
import type { RequestInfo } from "../audit/write";
import { decisionLockSql, type DecisionLockMode } from "../decisions/lock";
import { recordAuditRaw, withRawTx, type RawTx } from "../raw-tx";
import type { Actor } from "../actors";
import type { ImportLimits, UploadFile } from "./files";

export type ImportKind = "DATASET" | "PREDICTIONS" | "LEADERBOARD" | "SERVING";

export interface ImportOptionsBase {
  /** Explicit format id; otherwise detected from the content (and the file name for tabular files). */
  format?: string;
  limits?: Partial<ImportLimits>;
  request?: RequestInfo;
  /** Client-chosen id under which progress (bytes, rows) is published for polling. */
  uploadId?: string;
}

/** What every importer returns; `existing` is true when the same bytes had been imported before (nothing changed). */
export interface ImportSummary {
  importId: string;
  kind: ImportKind;
  existing: boolean;
  format: string;
  producerVersion: string | null;
  sha256: string;
  sizeBytes: number;
  rowCount: number;
  warnings: string[];
}

export type { UploadFile };

/** A rejected file: 422 with the first 100 problems and the total count; nothing was written. */
export class ImportRejected extends AppError {
  constructor(
    readonly issues: ParseIssue[],
    readonly errorCount: number,
    format?: string,
  ) {
    super(
      "VALIDATION",
      `The file was rejected: ${errorCount.toLocaleString("en-US")} problem${errorCount === 1 ? "" : "s"} found${errorCount > MAX_REPORTED_ERRORS ? ` (first ${MAX_REPORTED_ERRORS} listed)` : ""}. Nothing was imported.`,
      { errors: issues.slice(0, MAX_REPORTED_ERRORS), errorCount, format },
    );
  }
}

/**
 * A refused file — rows rejected (ImportRejected) or too large — wrote nothing: its transaction
 * rolled back, its audit event with it. The refusal is audited in a small transaction of its own
 * (evidence.import_failed): who, which decision, the kind, the file's name, size and SHA-256 when
 * they are known, the problem count — never the file's content, nor the offending values (which are
 * content). Other errors (no permission, a frozen decision, unmatched model names to map) are not
 * refusals of the file. Returns the error, for the caller to throw.
 */
export async function auditRejectedImport(
  database: Database,
  actor: Actor,
  decisionId: string,
  kind: ImportKind,
  file: { name: string; sha256?: string; sizeBytes?: number },
  error: unknown,
  request?: RequestInfo,
): Promise<unknown> {
  const rejected = error instanceof ImportRejected;
  if (!rejected && !(error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE")) return error;
  const details = (error.details ?? {}) as { errorCount?: number; format?: string };
  try {
    await withRawTx(database, (tx) =>
      recordAuditRaw(tx, {
        actor,
        action: "evidence.import_failed",
        entityType: "Import",
        entityId: file.sha256 ?? file.name,
        decisionId,
        after: {
          kind,
          fileName: file.name,
          sha256: file.sha256 ?? null,
          sizeBytes: file.sizeBytes ?? null,
          format: details.format ?? null,
          code: error.code,
          errorCount: rejected ? error.errorCount : null,
        },
        request,
      }),
    );
  } catch (auditError) {
    // The refusal is still the answer; an audit write that failed is reported where operators look.
    console.error(
      "evidence.import_failed could not be audited:",
      auditError instanceof Error ? auditError.message : auditError,
    );
  }
  return error;
}

/** Keeps the first 100 issues in file order and counts them all. */
export class Issues {
  list: ParseIssue[] = [];
  count = 0;
  add(...issues: ParseIssue[]) {
    for (const issue of issues) {
      this.count++;
      if (this.list.length < MAX_REPORTED_ERRORS) this.list.push(issue);
    }
  }
  get failed() {
    return this.count > 0;
  }
  reject(format?: string): never {
    const sorted = [...this.list].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    throw new ImportRejected(sorted, this.count, format);
  }
}

/**
 * One read-only statement outside a transaction (rawQuery on the database) or inside one
 * (RawTx.query): an "already imported?" check is written once and asked in both places.
 */
export type SqlQuery = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** What an import stores about its file in its "Import" row (status SUCCEEDED: a refused file has none). */
export interface NewImport {
  decisionId: string;
  kind: ImportKind;
  format: string;
  producerVersion: string | null;
  fileName: string;
  sha256: string;
  sizeBytes: number;
  /** The file's bytes when small enough to keep (SpooledFile.content), else null. */
  content: Buffer | null;
  importedById: string;
  rowCount?: number;
  errors?: unknown;
}

/**
 * Writes an import's "Import" row — the one place it is written, whatever the transaction:
 * `execute` runs one statement with its parameters (RawTx.query, or Prisma's $executeRawUnsafe).
 * Returns the new row's id.
 */
export async function insertImport(
  execute: (sql: string, ...params: unknown[]) => Promise<unknown>,
  row: NewImport,
): Promise<string> {
  const id = newId("imp");
  await execute(
    `INSERT INTO "Import" (id, "decisionId", kind, format, "producerVersion", "fileName", sha256, "sizeBytes", content, status, "rowCount", errors, "importedById")
     VALUES ($1, $2, $3::"ImportKind", $4, $5, $6, $7, $8::bigint, $9::bytea, 'SUCCEEDED', $10::int, $11::jsonb, $12)`,
    id,
    row.decisionId,
    row.kind,
    row.format,
    row.producerVersion,
    row.fileName,
    row.sha256,
    String(row.sizeBytes),
    row.content,
    row.rowCount ?? 0,
    row.errors === undefined ? null : JSON.stringify(row.errors),
    row.importedById,
  );
  return id;
}

export const newId = (prefix: string) => `${prefix}${Date.now().toString(36)}${randomBytes(9).toString("base64url")}`;

/** The decision, when the actor may import evidence into it now (the one editability rule). */
export async function requireImportableDecision(database: Database, actor: Actor, decisionId: string) {
  if (!can(actor, "evidence.import")) throw forbiddenError();
  // Raw SQL, not Prisma: the bulk path needs no ORM, so a CLI or worker process never loads
  // Prisma's query compiler just to stream a file.
  const [decision] = await rawQuery<{
    id: string;
    status: DecisionStatusName;
    archivedAt: Date | null;
    positiveClass: string;
  }>(database, `SELECT id, status::text AS status, "archivedAt", "positiveClass" FROM "Decision" WHERE id = $1`, [
    decisionId,
  ]);
  if (!decision) throw notFoundError("The decision");
  const frozen = frozenReason(decision);
  if (frozen) throw new AppError("CONFLICT", frozen);
  return decision;
}

/**
 * Inside the import's own transaction: the decision's row lock, then the editability rule again.
 * The check before spooling only spares reading a file into a frozen decision; this one is what
 * makes an upload racing "submit" land before the freeze or be refused (nothing written).
 * A dataset may set the decision's evaluation version, so it takes the exclusive lock.
 */
export async function lockImportableDecision(tx: RawTx, decisionId: string, mode: DecisionLockMode = "SHARE") {
  const [decision] = await tx.query<{
    id: string;
    status: DecisionStatusName;
    archivedAt: Date | null;
    positiveClass: string;
  }>(decisionLockSql(mode), [decisionId]);
  if (!decision) throw notFoundError("The decision");
  const frozen = frozenReason(decision);
  if (frozen) throw new AppError("CONFLICT", frozen);
  return decision;
}

export function summaryFrom(row: ImportRow, existing: boolean, warnings: string[] = []): ImportSummary {
  return {
    importId: row.id,
    kind: row.kind,
    existing,
    format: row.format,
    producerVersion: row.producerVersion,
    sha256: row.sha256,
    sizeBytes: Number(row.sizeBytes),
    rowCount: row.rowCount,
    warnings,
  };
}

/** The summary columns of "Import" as `i` (raw SQL). */
export const IMPORT_COLUMNS = `i.id, i.kind, i.format, i."producerVersion", i.sha256, i."sizeBytes", i."rowCount"`;
export type ImportRow = {
  id: string;
  kind: ImportKind;
  format: string;
  producerVersion: string | null;
  sha256: string;
  sizeBytes: bigint | number | string;
  rowCount: number;
};

export const IMPORT_SUMMARY_SELECT = {
  id: true,
  kind: true,
  format: true,
  producerVersion: true,
  sha256: true,
  sizeBytes: true,
  rowCount: true,
} as const;

/** Chunks of CSV text of about `size` characters, for COPY. */
export class ChunkBuffer {
  private parts: string[] = [];
  private length = 0;
  constructor(private readonly size = 1 << 16) {}
  push(text: string): string | null {
    this.parts.push(text);
    this.length += text.length;
    if (this.length < this.size) return null;
    return this.take();
  }
  take(): string {
    const out = this.parts.join("");
    this.parts = [];
    this.length = 0;
    return out;
  }
}
