import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import { matchModels } from "@/lib/ingest/model-match";
import { resolveLabel, suggestMapping } from "@/lib/ingest/formats/item-results/mapping";
import type { ItemResultEvent, ScoreBasis, ToolItem, ToolRun } from "@/lib/ingest/formats/item-results/types";
import { database as getDatabase } from "../../db";
import type { Actor } from "../../actors";
import { notFoundError } from "../../errors";
import { defaultLimits, spool, type UploadFile } from "../files";
import { Issues, requireImportableDecision } from "../import-record";
import { chooseFormat, readEvents, spoolPartners } from "./files";
import type { ItemResultsPreview, ItemResultsPreviewOptions } from "./types";
import { AppError } from "../../errors";

/** Items whose id fields are sampled for the preview, and examples shown per field. */
const SAMPLED = 200;
const EXAMPLES = 5;
/** Label texts longer than this are free text (a generated answer), not a label to map. */
const LABEL_MAX = 80;
const LABELS_MAX = 50;

/**
 * What a file holds before it is imported (issue 24 §2): its format and run, its item count, the
 * fields that may hold the buyer's id (with how many sampled values are ids of the dataset
 * version), the labels, repeats and models it has, the score basis, and a suggested mapping the
 * analyst confirms or corrects. Reads the whole file (streaming) and writes nothing; a file the
 * parser refuses is refused here as on import.
 */
export async function previewItemResults(
  actor: Actor,
  decisionId: string,
  files: UploadFile[],
  options: ItemResultsPreviewOptions = {},
): Promise<ItemResultsPreview> {
  const database = await getDatabase();
  const decision = await requireImportableDecision(database, actor, decisionId);
  if (options.datasetVersionId !== undefined) await requireVersion(database, decisionId, options.datasetVersionId);
  const [first, ...others] = files;
  if (!first) throw new AppError("VALIDATION", "No file: send the tool's results file (and its partner files).");
  const limits = defaultLimits("bulk");
  const main = await spool(first, limits);
  const partners = await spoolPartners(others, limits).catch(async (error: unknown) => {
    await main.cleanup();
    throw error;
  });
  try {
    const chosen = await chooseFormat(main, partners.spooled, options.format);
    const seen = await survey(readEvents(main, chosen));
    if (seen.issues.failed || !seen.run) seen.issues.reject(chosen.parser.id);
    const idFields = [...seen.fieldValues].map(([path, values]) => ({ path, values }));
    const datasetIds =
      options.datasetVersionId === undefined
        ? null
        : await matchingIds(
            database,
            options.datasetVersionId,
            idFields.flatMap((f) => f.values),
          );
    const labels = [...seen.labels].sort();
    const repeats = [...seen.repeats];
    const models = [...seen.models];
    return {
      format: { id: chosen.parser.id, label: chosen.parser.label },
      run: seen.run!,
      itemCount: seen.itemCount,
      scoreBasis: seen.basis,
      idFields: idFields.map(({ path, values }) => ({
        path,
        examples: values.slice(0, EXAMPLES),
        matches: datasetIds ? values.filter((v) => datasetIds.has(v.trim())).length : 0,
        sampled: values.length,
      })),
      labels,
      repeats,
      models,
      suggested: suggestMapping({ idFields, labels, repeats, models }, datasetIds, decision.positiveClass),
      candidates: await proposeCandidates(database, decisionId, models),
    };
  } finally {
    await partners.cleanup();
    await main.cleanup();
  }
}

async function requireVersion(database: Database, decisionId: string, datasetVersionId: number): Promise<void> {
  const [row] = Number.isSafeInteger(datasetVersionId)
    ? await rawQuery<{ id: number }>(
        database,
        `SELECT v.id FROM "DatasetVersion" v JOIN "Dataset" d ON d.id = v."datasetId" WHERE v.id = $1 AND d."decisionId" = $2`,
        [datasetVersionId, decisionId],
      )
    : [];
  if (!row) throw notFoundError("The dataset version");
}

interface Survey {
  run: ToolRun | null;
  issues: Issues;
  itemCount: number;
  fieldValues: Map<string, string[]>;
  labels: Set<string>;
  repeats: Set<string>;
  models: Set<string>;
  basis: ScoreBasis;
}

/** One pass over the file's events, keeping only samples and sets of bounded size. */
async function survey(events: AsyncIterable<ItemResultEvent>): Promise<Survey> {
  const s: Survey = {
    run: null,
    issues: new Issues(),
    itemCount: 0,
    fieldValues: new Map([["toolId", []]]),
    labels: new Set(),
    repeats: new Set(),
    models: new Set(),
    basis: "hard-label",
  };
  for await (const event of events) {
    if (event.kind === "run") s.run = event.run;
    else if (event.kind === "issue") s.issues.add(event.issue);
    else for (const item of event.items) surveyItem(s, item);
  }
  return s;
}

function surveyItem(s: Survey, item: ToolItem): void {
  s.itemCount++;
  if (s.itemCount <= SAMPLED) {
    s.fieldValues.get("toolId")!.push(item.toolId);
    for (const [path, value] of Object.entries(item.idFields)) {
      const values = s.fieldValues.get(path) ?? [];
      values.push(value);
      s.fieldValues.set(path, values);
    }
  }
  if (item.repeat !== undefined) s.repeats.add(item.repeat);
  if (item.model !== undefined) s.models.add(item.model);
  const choices = item.choices ?? s.run?.choices;
  const texts = [item.gold, item.predicted, ...Object.keys(item.choiceProbabilities ?? {})];
  for (const t of texts)
    if (t !== undefined && s.labels.size < LABELS_MAX) {
      const label = resolveLabel(t, choices);
      if (label !== "" && label.length <= LABEL_MAX) s.labels.add(label);
    }
  if (s.basis === "hard-label") {
    if (item.choiceProbabilities) s.basis = "label-token-probability";
    else if (item.score) s.basis = item.score.basis;
  }
}

/** Of the sampled values, those that are item ids of the dataset version. */
async function matchingIds(database: Database, datasetVersionId: number, values: string[]): Promise<Set<string>> {
  const unique = [...new Set(values.map((v) => v.trim()))];
  const rows = await rawQuery<{ itemId: string }>(
    database,
    `SELECT "itemId" FROM "DatasetItem" WHERE "datasetVersionId" = $1 AND "itemId" = ANY($2::text[])`,
    [datasetVersionId, unique],
  );
  return new Set(rows.map((r) => r.itemId));
}

/** Each model of a multi-model file with the candidate the model-name matcher proposes (none when unsure). */
async function proposeCandidates(
  database: Database,
  decisionId: string,
  models: string[],
): Promise<{ model: string; candidateId: string | null }[]> {
  if (models.length === 0) return [];
  const candidates = await rawQuery<{ id: string; name: string; aliases: string[] }>(
    database,
    `SELECT id, name, aliases FROM "Candidate" WHERE "decisionId" = $1`,
    [decisionId],
  );
  const { matched } = matchModels(models, candidates);
  return models.map((model) => ({ model, candidateId: matched.get(model) ?? null }));
}
