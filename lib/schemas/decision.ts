import { z } from "zod";

// Shared by the decision form (client) and the server: the same rules on both sides. FormData
// values are strings, hence z.coerce; an empty optional field means "not set".
const optionalNumber = (schema: z.ZodNumber) =>
  z.preprocess((v) => (v === "" || v === null || v === undefined ? undefined : v), z.coerce.number().pipe(schema).optional());

const fraction = (label: string) => z.coerce.number({ error: `${label} must be a number.` }).gt(0, `${label} must be above 0.`).lt(1, `${label} must be below 1.`);

export const decisionParametersSchema = z.object({
  title: z.string().trim().min(3, "Give the decision a title of at least 3 characters.").max(200),
  description: z.string().trim().max(5000),
  positiveClass: z.string().trim().min(1, "Name the positive class.").max(100),
  prevalence: fraction("Prevalence π"),
  costFn: z.coerce.number().nonnegative("The cost of a false negative cannot be negative."),
  costFp: z.coerce.number().nonnegative("The cost of a false positive cannot be negative."),
  currency: z.string().trim().min(1, "Name the currency of the error costs.").max(12),
  recallFloor: z.coerce.number().min(0).max(1, "The recall floor is a fraction between 0 and 1."),
  precisionFloor: optionalNumber(z.number().min(0).max(1)),
  operatingThreshold: z.coerce.number().refine(Number.isFinite, "The threshold must be a finite number."),
  sloP95E2eMs: optionalNumber(z.number().positive()),
  sloP95TtftMs: optionalNumber(z.number().positive()),
  sloMinThroughputRps: optionalNumber(z.number().positive()),
  sloThroughputConcurrency: optionalNumber(z.number().int().positive()),
  sloMaxCostPer1kRequests: optionalNumber(z.number().nonnegative()),
  quorum: z.coerce.number().int().min(1, "At least one approver must sign.").max(20),
});

export type DecisionParameters = z.infer<typeof decisionParametersSchema>;

/** A partial update (API PATCH, or the "what if" controls saving threshold or π). No field has a
 * default, so an absent field is left as it is. */
export const decisionParametersPatchSchema = decisionParametersSchema.partial();
export type DecisionParametersPatch = z.infer<typeof decisionParametersPatchSchema>;

/** Creating a decision (page, `POST /api/v1/decisions`, `verdict decision create --file`): the task
 * parameters, each optional here because `copyFrom` may supply it; the server merges the source's
 * parameters under the given ones and then requires the whole of decisionParametersSchema. */
export const decisionCreateSchema = decisionParametersPatchSchema.extend({
  copyFrom: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().min(1).max(100).optional()),
});
export type DecisionCreateInput = z.infer<typeof decisionCreateSchema>;

/** What a parameter left out of a new decision defaults to (the same as the database's defaults). */
export const DECISION_DEFAULTS = { description: "", currency: "USD", operatingThreshold: 0.5, quorum: 2 } as const;

export const DECISION_LIST_FILTERS = ["ACTIVE", "DRAFT", "IN_REVIEW", "CHANGES_REQUESTED", "APPROVED", "REJECTED", "ARCHIVED", "ALL"] as const;
export type DecisionListFilter = (typeof DECISION_LIST_FILTERS)[number];
export const decisionListFilterSchema = z.enum(DECISION_LIST_FILTERS).catch("ACTIVE");

export const archiveSchema = z.object({ decisionId: z.string().min(1), archived: z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean()) });

export const evaluationVersionSchema = z.object({
  decisionId: z.string().min(1),
  datasetVersionId: z.coerce.number({ error: "Choose a dataset version." }).int().positive("Choose a dataset version."),
});
