import "server-only";
import { z } from "zod";
import {
  parseLeaderboard,
  parseServing,
  type LeaderboardRecord,
  type ParseOptions,
  type ServingRecord,
  type ParseResult,
  type Pct,
} from "@/lib/ingest/formats";
import { matchModels } from "@/lib/ingest/model-match";
import { database as getDatabase, type Tx } from "../db";
import { AppError } from "../errors";
import { recordAudit } from "../audit/write";
import type { Actor } from "../actors";
import { defaultLimits, readText, type SpooledFile, type UploadFile } from "./files";
import { concurrentWinner, withSpooledUpload } from "./upload";
import { lockEditableDecision } from "../decisions/lock";
import { attachStrandedRows, rememberSpellings } from "../decisions/model-names";
import {
  IMPORT_SUMMARY_SELECT,
  ImportRejected,
  insertImport,
  requireImportableDecision,
  summaryFrom,
  type ImportOptionsBase,
  type ImportSummary,
} from "./import-record";

export interface PublicImportOptions extends ImportOptionsBase {
  /** Resolves names the matcher left unmatched: "<model name in the file>" → candidate id, or null to skip that model. */
  modelMap?: Record<string, string | null>;
  /** Skip every unmatched model instead of asking (e.g. a leaderboard of 1,000 models for 3 candidates). */
  skipUnmatched?: boolean;
  /** Extra inputs some formats need (model name, HELM run spec, LLMPerf individual responses). */
  parseOptions?: ParseOptions;
}

export interface PublicImportResult extends ImportSummary {
  /** Model name in the file → candidate id, for the records stored. */
  models: Record<string, string>;
  skippedModels: string[];
  /** Leaderboards: models stored without a candidate, to shortlist from. */
  unshortlistedModels: string[];
  stored: number;
}

const optionsSchema = z.object({
  modelMap: z.record(z.string().max(500), z.string().max(100).nullable()).optional(),
  skipUnmatched: z.boolean().optional(),
});

/** An unmatched-models prompt: the names, and the candidates to map them to. */
export class UnmatchedModels extends AppError {
  constructor(unmatched: string[], candidates: { id: string; name: string }[], format: string) {
    super(
      "VALIDATION",
      `${unmatched.length} model name${unmatched.length === 1 ? "" : "s"} in the file match no candidate: ${unmatched
        .slice(0, 10)
        .map((m) => `"${m}"`)
        .join(
          ", ",
        )}${unmatched.length > 10 ? ", …" : ""}. Map each to a candidate (modelMap: { "<name>": "<candidateId>" }, or null to skip it), or skip the unmatched ones.`,
      {
        kind: "UNMATCHED_MODELS",
        unmatched: unmatched.slice(0, 500),
        unmatchedCount: unmatched.length,
        candidates,
        format,
      },
    );
  }
}

/**
 * File names → candidates. Leaderboards (`keepUnmatched`) keep the rows of models that are no
 * candidate, unattached, for the analyst to shortlist from; a serving file's unmatched names must
 * be mapped or skipped, since its rows mean nothing without a candidate.
 */
async function mapModels(
  decisionId: string,
  names: string[],
  options: z.infer<typeof optionsSchema>,
  format: string,
  keepUnmatched: boolean,
) {
  const prisma = (await getDatabase()).prisma;
  const candidates = await prisma.candidate.findMany({
    where: { decisionId },
    select: { id: true, name: true, modelId: true, version: true, aliases: true },
    orderBy: { createdAt: "asc" },
  });
  const ids = new Set(candidates.map((c) => c.id));
  const map = new Map<string, string>();
  /** The analyst's own mappings: each becomes an alias of its candidate. */
  const confirmed = new Map<string, string>();
  const skipped: string[] = [];
  const rest: string[] = [];
  for (const name of new Set(names)) {
    const explicit = options.modelMap?.[name];
    if (explicit === null) skipped.push(name);
    else if (explicit !== undefined) {
      if (!ids.has(explicit))
        throw new AppError("VALIDATION", `modelMap: "${name}" → "${explicit}" is not a candidate of this decision.`, {
          field: "modelMap",
          value: explicit,
        });
      map.set(name, explicit);
      confirmed.set(name, explicit);
    } else rest.push(name);
  }
  const matched = matchModels(rest, candidates);
  for (const [name, id] of matched.matched) map.set(name, id);
  const unattached: string[] = [];
  if (matched.unmatched.length) {
    if (options.skipUnmatched) skipped.push(...matched.unmatched);
    else if (keepUnmatched) unattached.push(...matched.unmatched);
    else
      throw new UnmatchedModels(
        matched.unmatched,
        candidates.map(({ id, name }) => ({ id, name })),
        format,
      );
  }
  if (map.size === 0 && unattached.length === 0)
    throw new UnmatchedModels(
      skipped,
      candidates.map(({ id, name }) => ({ id, name })),
      format,
    );
  return { map, skipped, unattached, confirmed };
}

/** The confirmed spellings, grouped by candidate. */
function byCandidate(confirmed: ReadonlyMap<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, id] of confirmed) out.set(id, [...(out.get(id) ?? []), name]);
  return out;
}

/**
 * Remembers the upload's confirmed mappings as aliases of their candidates (issue 26 item 4), in
 * the import's transaction, one audit event per candidate that gained one.
 */
async function rememberConfirmed(
  tx: Tx,
  actor: Actor,
  decisionId: string,
  confirmed: ReadonlyMap<string, string>,
  request: PublicImportOptions["request"],
) {
  for (const [candidateId, names] of byCandidate(confirmed)) {
    const added = await rememberSpellings(tx, decisionId, candidateId, names);
    if (added.length === 0) continue;
    await recordAudit(tx, {
      actor,
      action: "candidate.alias_add",
      entityType: "Candidate",
      entityId: candidateId,
      decisionId,
      after: { aliasesAdded: added, via: "modelMap" },
      request,
    });
  }
}

/**
 * The same bytes again, with a modelMap: the earlier import's rows are not stored twice, but the
 * mapping still holds — its stranded rows (kept without a candidate) are attached and the spellings
 * remembered, so a resubmission with modelMap is never a silent no-op.
 */
async function applyMapToExisting(
  actor: Actor,
  decisionId: string,
  existing: PublicImportResult,
  modelMap: Record<string, string | null> | undefined,
  request: PublicImportOptions["request"],
): Promise<PublicImportResult> {
  const stranded = new Set(existing.unshortlistedModels);
  const confirmed = new Map(
    Object.entries(modelMap ?? {}).flatMap(([name, id]) => (id && stranded.has(name) ? [[name, id] as const] : [])),
  );
  if (confirmed.size === 0) return existing;
  const prisma = (await getDatabase()).prisma;
  await prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, decisionId);
    for (const [candidateId, names] of byCandidate(confirmed)) {
      const candidate = await tx.candidate.findFirst({ where: { id: candidateId, decisionId }, select: { id: true } });
      if (!candidate)
        throw new AppError(
          "VALIDATION",
          `modelMap: "${names[0]}" → "${candidateId}" is not a candidate of this decision.`,
          {
            field: "modelMap",
            value: candidateId,
          },
        );
      await attachStrandedRows(tx, actor, decisionId, candidateId, names, "modelMap", request ?? {});
    }
  });
  return {
    ...existing,
    models: { ...existing.models, ...Object.fromEntries(confirmed) },
    unshortlistedModels: existing.unshortlistedModels.filter((m) => !confirmed.has(m)),
  };
}

/**
 * The public file already imported from these bytes as this kind, if any, with the report it
 * stored: asked before the work (the fast path) and again under the import's lock.
 */
async function findImportedFile(
  client: Pick<Tx, "import">,
  key: { decisionId: string; kind: "LEADERBOARD" | "SERVING"; sha256: string },
): Promise<PublicImportResult | null> {
  const row = await client.import.findFirst({
    where: { decisionId: key.decisionId, kind: key.kind, sha256: key.sha256, status: "SUCCEEDED" },
    select: { ...IMPORT_SUMMARY_SELECT, errors: true },
  });
  if (!row) return null;
  const report = (row.errors ?? {}) as {
    models?: Record<string, string>;
    skippedModels?: string[];
    unshortlistedModels?: string[];
    warnings?: string[];
  };
  return {
    ...summaryFrom(row, true, report.warnings ?? []),
    models: report.models ?? {},
    skippedModels: report.skippedModels ?? [],
    unshortlistedModels: report.unshortlistedModels ?? [],
    stored: row.rowCount,
  };
}

async function importPublic<R extends { model: string }>(
  kind: "LEADERBOARD" | "SERVING",
  actor: Actor,
  decisionId: string,
  file: UploadFile,
  options: PublicImportOptions,
  /** The file's name is a parse input: some sources state their date only there (ParseOptions.fileName). */
  parse: (text: string, fileName: string) => ParseResult<R>,
  store: StoreRecords<R>,
  keepUnmatched = false,
): Promise<PublicImportResult> {
  const database = await getDatabase();
  await requireImportableDecision(database, actor, decisionId);
  const parsedOptions = optionsSchema.parse({ modelMap: options.modelMap, skipUnmatched: options.skipUnmatched });
  const limits = { ...defaultLimits("public"), ...options.limits };
  return withSpooledUpload(database, actor, decisionId, kind, file, limits, options, async (spooled) => {
    const prisma = database.prisma;
    const imported = { decisionId, kind, sha256: spooled.sha256 };
    const findExisting = () => findImportedFile(prisma, imported);
    const before = await findExisting();
    if (before) return applyMapToExisting(actor, decisionId, before, parsedOptions.modelMap, options.request);
    const result = parsePublicFile(await readText(spooled), (text) => parse(text, spooled.name), limits.maxRows);
    const { map, skipped, unattached, confirmed } = await mapModels(
      decisionId,
      result.records.map((r) => r.model),
      parsedOptions,
      result.format,
      keepUnmatched,
    );
    const keep = new Set(unattached);
    const kept = result.records.flatMap((record) => {
      const candidateId = map.get(record.model) ?? null;
      return candidateId || keep.has(record.model) ? [{ record, candidateId }] : [];
    });
    const content = await spooled.content();
    const models = Object.fromEntries(map);
    const upload: PublicUpload<R> = {
      actor,
      imported,
      spooled,
      content,
      parsed: result,
      kept,
      report: { models, skippedModels: skipped, unshortlistedModels: unattached, warnings: result.warnings },
      confirmed,
      store,
      request: options.request,
    };
    const created = await prisma.$transaction((tx) => storePublicImport(tx, upload), {
      timeout: 60_000,
      maxWait: 30_000,
    });
    return created ?? (await concurrentWinner(findExisting));
  });
}

/** Writes a format's records, attached to their candidate (or none), under the import; returns how many were stored. */
type StoreRecords<R> = (
  tx: Tx,
  importId: string,
  records: { record: R; candidateId: string | null }[],
) => Promise<number>;

/** A public file's upload once parsed and mapped to candidates: what its transaction writes. */
interface PublicUpload<R> {
  actor: Actor;
  imported: { decisionId: string; kind: "LEADERBOARD" | "SERVING"; sha256: string };
  spooled: SpooledFile;
  content: Buffer | null;
  parsed: ParseResult<R> & { ok: true };
  kept: { record: R; candidateId: string | null }[];
  /** Stored in Import.errors: what a later upload of the same bytes returns. */
  report: {
    models: Record<string, string>;
    skippedModels: string[];
    unshortlistedModels: string[];
    warnings: string[];
  };
  /** modelMap entries the analyst gave: remembered as aliases in the same transaction. */
  confirmed: ReadonlyMap<string, string>;
  store: StoreRecords<R>;
  request: PublicImportOptions["request"];
}

/** The parsed file, or its rejection: rows with problems, or more records than the limit. */
function parsePublicFile<R>(
  text: string,
  parse: (text: string) => ParseResult<R>,
  maxRows: number,
): ParseResult<R> & { ok: true } {
  const result = parse(text);
  if (!result.ok) throw new ImportRejected(result.errors, result.errorCount, result.format);
  if (result.records.length > maxRows)
    throw new AppError("PAYLOAD_TOO_LARGE", `The file has ${result.records.length} records; the limit is ${maxRows}.`);
  return result;
}

/**
 * The upload's transaction: under the decision's row lock and the import key's advisory lock, the
 * Import row, the records and the audit event — or, when a concurrent upload of the same bytes
 * won, nothing (null).
 */
async function storePublicImport<R>(tx: Tx, upload: PublicUpload<R>): Promise<PublicImportResult | null> {
  const { imported, spooled, parsed: result, report } = upload;
  const { decisionId, kind } = imported;
  // The row lock and the editability rule inside the transaction (see lockImportableDecision).
  await lockEditableDecision(tx, decisionId, "SHARE");
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`${decisionId}:${kind}:${spooled.sha256}`}))`;
  if (await findImportedFile(tx, imported)) return null;
  const id = await insertImport((sql, ...params) => tx.$executeRawUnsafe(sql, ...params), {
    decisionId,
    kind,
    format: result.format,
    producerVersion: result.producerVersion ?? null,
    fileName: spooled.name,
    sha256: spooled.sha256,
    sizeBytes: spooled.sizeBytes,
    content: upload.content,
    errors: report,
    importedById: upload.actor.id,
  });
  const row = {
    id,
    kind,
    format: result.format,
    producerVersion: result.producerVersion ?? null,
    sha256: spooled.sha256,
    sizeBytes: spooled.sizeBytes,
    rowCount: 0,
  };
  await rememberConfirmed(tx, upload.actor, decisionId, upload.confirmed, upload.request);
  const stored = await upload.store(tx, row.id, upload.kept);
  await tx.import.update({ where: { id: row.id }, data: { rowCount: stored } });
  await recordAudit(tx, {
    actor: upload.actor,
    action: "evidence.import",
    entityType: "Import",
    entityId: row.id,
    decisionId,
    after: {
      kind,
      importId: row.id,
      format: result.format,
      producerVersion: result.producerVersion ?? null,
      fileName: spooled.name,
      sha256: spooled.sha256,
      sizeBytes: spooled.sizeBytes,
      stored,
      models: report.models,
      skippedModels: report.skippedModels,
      unshortlistedModels: report.unshortlistedModels.length,
    },
    request: upload.request,
  });
  return {
    ...summaryFrom({ ...row, rowCount: stored }, false, result.warnings),
    models: report.models,
    skippedModels: report.skippedModels,
    unshortlistedModels: report.unshortlistedModels,
    stored,
  };
}

/** Leaderboard scores (stage 1/2 evidence), each format detected from the content unless chosen. */
export function importLeaderboard(
  actor: Actor,
  decisionId: string,
  file: UploadFile,
  options: PublicImportOptions = {},
): Promise<PublicImportResult> {
  return importPublic<LeaderboardRecord>(
    "LEADERBOARD",
    actor,
    decisionId,
    file,
    options,
    (text, fileName) => parseLeaderboard(text, { fileName, ...options.parseOptions, format: options.format }),
    async (tx, importId, records) => {
      const now = new Date();
      const { count } = await tx.leaderboardScore.createMany({
        data: records.map(({ record: r, candidateId }) => ({
          decisionId,
          candidateId,
          modelName: r.model,
          stage: r.stage,
          suite: r.suite,
          metric: r.metric,
          value: r.value,
          stderr: r.stderr ?? null,
          ciLow: r.ciLow ?? null,
          ciHigh: r.ciHigh ?? null,
          votes: r.votes === undefined ? null : Math.round(r.votes),
          higherIsBetter: r.higherIsBetter,
          source: r.source,
          // Kept apart: when Verdict imported the row, and the date the source states for it.
          retrievedAt: now,
          asOf: r.asOf ? new Date(r.asOf) : null,
          importId,
        })),
      });
      return count;
    },
    true,
  );
}

const pct = (p: Pct | undefined) => (p === undefined ? undefined : JSON.parse(JSON.stringify(p)));

/** Serving benchmarks (stage 5), units normalised to ms by the parsers, TPOT to Verdict's definition. */
export function importServing(
  actor: Actor,
  decisionId: string,
  file: UploadFile,
  options: PublicImportOptions = {},
): Promise<PublicImportResult> {
  return importPublic<ServingRecord>(
    "SERVING",
    actor,
    decisionId,
    file,
    options,
    (text) => parseServing(text, { ...options.parseOptions, format: options.format }),
    async (tx, importId, records) => {
      const { count } = await tx.servingBenchmark.createMany({
        data: records.map(({ record: r, candidateId }) => ({
          decisionId,
          candidateId: candidateId!, // serving files keep no unmatched rows (keepUnmatched is false)
          tool: r.tool,
          toolVersion: r.toolVersion ?? null,
          concurrency: r.concurrency === undefined ? null : Math.round(r.concurrency),
          requestRate: r.requestRate ?? null,
          completed: r.completed === undefined ? 0 : Math.round(r.completed),
          failed: r.failed === undefined ? 0 : Math.round(r.failed),
          durationS: r.durationS ?? null,
          meanInputTokens: r.meanInputTokens ?? null,
          meanOutputTokens: r.meanOutputTokens ?? null,
          requestThroughput: r.requestThroughput,
          outputTokenThroughput: r.outputTokenThroughput ?? null,
          totalTokenThroughput: r.totalTokenThroughput ?? null,
          goodput: r.goodput ?? null,
          ttftMs: pct(r.ttftMs),
          tpotMs: pct(r.tpotMs),
          itlMs: pct(r.itlMs),
          e2eMs: pct(r.e2eMs),
          tpotSource: r.tpotSource,
          importId,
        })),
      });
      return count;
    },
  );
}
