import { z } from "zod";

// Shared by the candidate form (client) and the server. Prices are optional ("" = not set).
const optionalNumber = z.preprocess(
  (v) => (v === "" || v === null || v === undefined ? undefined : v),
  z.coerce.number().nonnegative().optional(),
);

export const candidateSchema = z.object({
  candidateId: z.string().min(1),
  name: z.string().trim().min(1, "Name the model.").max(200),
  provider: z.string().trim().min(1, "Name the provider.").max(200),
  version: z.string().trim().max(200),
  shortlistRationale: z.string().trim().min(1, "Write the shortlist rationale.").max(5000),
  operatingThreshold: z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? undefined : v),
    z.coerce.number().refine(Number.isFinite, "The threshold must be a finite number.").optional(),
  ),
  priceInputPerMTok: optionalNumber,
  priceOutputPerMTok: optionalNumber,
  pricePerHour: optionalNumber,
});
export type CandidateInput = z.infer<typeof candidateSchema>;

const text = (max: number) => z.preprocess((v) => (v === null || v === undefined ? "" : v), z.string().trim().max(max));
/** Names of the model as leaderboard and serving files spell it ("aliases" on the candidate). */
const modelNames = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.string().trim().min(1).max(500)).max(50),
);

/** A candidate added by hand (page, `POST /api/v1/decisions/<id>/candidates`). */
export const candidateCreateSchema = z.object({
  decisionId: z.string().min(1),
  name: z.string().trim().min(1, "Name the candidate.").max(200),
  provider: z.string().trim().min(1, "Name the provider.").max(200),
  modelId: text(300),
  version: text(200),
  aliases: modelNames,
});
export type CandidateCreateInput = z.infer<typeof candidateCreateSchema>;

/** Shortlisting from imported leaderboard rows: each entry becomes one candidate; `models` are
 * the names its rows carry in the files (one model may be spelt differently by each suite). */
export const shortlistSchema = z.object({
  candidates: z
    .array(
      z.object({
        name: z.string().trim().min(1, "Name the candidate.").max(200),
        provider: z.string().trim().min(1, "Name the provider.").max(200),
        modelId: text(300),
        version: text(200),
        models: z.array(z.string().min(1).max(500)).min(1, "Tick at least one model of the leaderboards.").max(50),
      }),
    )
    .min(1, "Tick at least one model to shortlist.")
    .max(50),
});
export type ShortlistInput = z.infer<typeof shortlistSchema>;

/** Stranded leaderboard rows (no candidate) attached to an existing candidate by their model names (page, API, CLI). */
export const attachModelsSchema = z.object({
  candidateId: z.string().min(1, "Choose the candidate."),
  models: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.string().min(1).max(500)).min(1, "Tick at least one model name.").max(200),
  ),
});
export type AttachModelsInput = z.infer<typeof attachModelsSchema>;

export const RESEMBLANCE_ANSWERS = ["MATCH", "PARTIAL", "MISMATCH"] as const;
const answer = (question: string) =>
  z.enum(RESEMBLANCE_ANSWERS, {
    error: `Answer whether the suite's ${question} resembles this decision's (yes, partly or no).`,
  });

/** SPEC §3's three questions of resemblance for one suite a rationale cites. */
export const resemblanceSchema = z.object({
  decisionId: z.string().min(1),
  suite: z.string().trim().min(1).max(300),
  task: answer("task"),
  taskNote: text(2000),
  distribution: answer("class distribution"),
  distributionNote: text(2000),
  promptScoring: answer("prompt format and scoring rule"),
  promptScoringNote: text(2000),
  /** Left out: the suite's relevance note stays as it is (a PUT of the answers alone keeps it). */
  relevanceNote: z.string().trim().max(2000).optional(),
});
export type ResemblanceInput = z.infer<typeof resemblanceSchema>;

/** The analyst's relevance note on one suite (PATCH …/resemblances, `verdict decision relevance-note`). */
export const relevanceNoteSchema = z.object({
  decisionId: z.string().min(1),
  suite: z.string().trim().min(1).max(300),
  relevanceNote: text(2000),
});
export type RelevanceNoteInput = z.infer<typeof relevanceNoteSchema>;
