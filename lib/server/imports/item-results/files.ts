import "server-only";
import { fileSource } from "@/lib/files/file-source";
import type { ByteSource } from "@/lib/ingest/byte-source";
import { detectItemResultFormat, itemResultFormats } from "@/lib/ingest/formats/item-results";
import type { ItemResultEvent, ItemResultParser } from "@/lib/ingest/formats/item-results/types";
import type { ItemResultMapping } from "@/lib/ingest/formats/item-results/provenance";
import { AppError } from "../../errors";
import { spool, type ImportLimits, type SpooledFile, type UploadFile } from "../files";
import { ImportRejected } from "../import-record";

/** How much of a file detection reads (the parsers' `detect` contract: at most 64 KiB). */
const HEAD_BYTES = 64 * 1024;

/** A partner file (HELM's second file of a pair) as it was read: kept in the run's provenance. */
export interface PartnerUsed {
  role: string;
  fileName: string;
  sha256: string;
}

/** The main file's parser and its partner files, found among the uploaded files. */
export interface ChosenFormat {
  parser: ItemResultParser;
  partners: Record<string, ByteSource>;
  partnersUsed: PartnerUsed[];
}

/** The files after the first, spooled like it (each one's SHA-256 kept); `cleanup` removes them. */
export async function spoolPartners(
  files: readonly UploadFile[],
  limits: ImportLimits,
): Promise<{ spooled: SpooledFile[]; cleanup: () => Promise<void> }> {
  const spooled: SpooledFile[] = [];
  const cleanup = async () => {
    for (const s of spooled) await s.cleanup();
  };
  try {
    for (const file of files) spooled.push(await spool(file, limits));
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { spooled, cleanup };
}

/**
 * The format of the main file — named (a parser id of `itemResultFormats`) or detected from its
 * first bytes and name — and its partners: each of the format's partner roles is the first other
 * file its `detect` recognises. A required partner missing is refused by the parser, naming it.
 */
export async function chooseFormat(
  main: SpooledFile,
  others: readonly SpooledFile[],
  format: string | undefined,
): Promise<ChosenFormat> {
  const head = async (file: SpooledFile) => Buffer.from(await fileSource(file.path).head(HEAD_BYTES));
  let parser: ItemResultParser | undefined;
  if (format) {
    parser = itemResultFormats.find((p) => p.id === format);
    if (!parser)
      throw new AppError(
        "VALIDATION",
        `Unknown format "${format}": one of ${itemResultFormats.map((p) => p.id).join(", ")}.`,
      );
  } else parser = detectItemResultFormat(await head(main), main.name);
  if (!parser)
    throw new ImportRejected(
      [
        {
          field: "(file)",
          reason: `not recognised as per-item results of an eval tool (${itemResultFormats.map((p) => p.label).join("; ")})`,
        },
      ],
      1,
    );
  const partners: Record<string, ByteSource> = {};
  const partnersUsed: PartnerUsed[] = [];
  for (const partner of parser.partners ?? []) {
    for (const file of others) {
      if (partnersUsed.some((u) => u.fileName === file.name && u.sha256 === file.sha256)) continue;
      if (partner.detect(await head(file), file.name) > 0) {
        partners[partner.role] = fileSource(file.path);
        partnersUsed.push({ role: partner.role, fileName: file.name, sha256: file.sha256 });
        break;
      }
    }
  }
  return { parser, partners, partnersUsed };
}

/** The parser's events on the main file. */
export function readEvents(main: SpooledFile, chosen: ChosenFormat): AsyncGenerator<ItemResultEvent> {
  return chosen.parser.read(fileSource(main.path), { fileName: main.name, partners: chosen.partners });
}

/**
 * The mapping as it is stored and compared (the re-import key): trimmed, positive labels sorted
 * and unique, empty choices dropped. Refuses a mapping without an id field or a positive label.
 */
export function normalizeMapping(mapping: ItemResultMapping): ItemResultMapping {
  const bad = (reason: string) => new AppError("VALIDATION", `The mapping is not valid: ${reason}.`);
  if (!mapping || typeof mapping !== "object") throw bad("expected an object");
  if (typeof mapping.idField !== "string" || !mapping.idField.trim()) throw bad("idField is required");
  if (!Array.isArray(mapping.positiveLabels) || mapping.positiveLabels.some((l) => typeof l !== "string"))
    throw bad("positiveLabels must be a list of label texts");
  const positiveLabels = [...new Set(mapping.positiveLabels.map((l) => l.trim()).filter(Boolean))].sort();
  if (positiveLabels.length === 0) throw bad("positiveLabels names no label read as the positive class");
  const out: ItemResultMapping = { idField: mapping.idField.trim(), positiveLabels };
  if (typeof mapping.repeat === "string" && mapping.repeat !== "") out.repeat = mapping.repeat;
  if (typeof mapping.model === "string" && mapping.model !== "") out.model = mapping.model;
  return out;
}
