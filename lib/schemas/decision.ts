import { z } from "zod";
import { OPERATING_RULES } from "@/lib/metrics/threshold-rule";

// Shared by the decision form (client), the API and the CLI: the same rules on every path. Form
// values are strings: a blank one means "not given" (never 0), anything else must be a finite number.
const blankToUndefined = (v: unknown) =>
  v === null || v === undefined || (typeof v === "string" && v.trim() === "")
    ? undefined
    : typeof v === "string"
      ? Number(v)
      : v;

/** A number the decision must have, with messages that name it whether it is missing or malformed. */
const numberField = (label: string) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be a number.`) })
    .refine(Number.isFinite, `${label} must be a finite number.`);
const required = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema);
/** An optional number: blank means "not given"; null (JSON) clears it. */
const optionalNumber = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? null : blankToUndefined(v)), schema.nullable().optional());
const text = (message: string) => z.string({ error: message }).trim();

const fraction = (label: string) =>
  numberField(label)
    .refine((v) => v > 0, `${label} must be above 0.`)
    .refine((v) => v < 1, `${label} must be below 1.`);
const share = (label: string) =>
  numberField(label).refine((v) => v >= 0 && v <= 1, `${label} is a fraction between 0 and 1.`);
const atLeast = (label: string, min: number, message: string) => numberField(label).refine((v) => v >= min, message);

export const decisionParametersSchema = z.object({
  title: text("Give the decision a title.").min(3, "Give the decision a title of at least 3 characters.").max(200),
  description: text("The description is text.").max(5000),
  positiveClass: text("Name the positive class.").min(1, "Name the positive class.").max(100),
  prevalence: required(fraction("Prevalence π")),
  costFn: required(atLeast("The cost of a false negative", 0, "The cost of a false negative cannot be negative.")),
  costFp: required(atLeast("The cost of a false positive", 0, "The cost of a false positive cannot be negative.")),
  currency: text("Name the currency of the error costs.").min(1, "Name the currency of the error costs.").max(12),
  recallFloor: required(share("The recall floor")),
  precisionFloor: optionalNumber(share("The precision floor")),
  operatingThreshold: required(numberField("The operating threshold")),
  operatingRule: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.enum(OPERATING_RULES, {
      error: (issue) =>
        issue.input === undefined
          ? "Choose how each candidate's operating threshold is chosen."
          : `The operating-point rule is one of ${OPERATING_RULES.join(", ")}.`,
    }),
  ),
  sloP95E2eMs: optionalNumber(
    atLeast("The p95 end-to-end latency SLO", Number.MIN_VALUE, "The p95 end-to-end latency SLO must be above 0."),
  ),
  sloP95TtftMs: optionalNumber(
    atLeast("The p95 time-to-first-token SLO", Number.MIN_VALUE, "The p95 time-to-first-token SLO must be above 0."),
  ),
  sloMinThroughputRps: optionalNumber(
    atLeast("The minimum throughput", Number.MIN_VALUE, "The minimum throughput must be above 0."),
  ),
  sloThroughputConcurrency: optionalNumber(
    atLeast("The concurrency", 1, "The concurrency is at least 1.").refine(
      Number.isInteger,
      "The concurrency is a whole number.",
    ),
  ),
  sloMaxCostPer1kRequests: optionalNumber(
    atLeast("The maximum cost per 1,000 requests", 0, "The maximum cost per 1,000 requests cannot be negative."),
  ),
  quorum: required(
    atLeast("The quorum", 1, "At least one approver must sign.")
      .refine(Number.isInteger, "The quorum is a whole number of approvers.")
      .refine((v) => v <= 20, "The quorum is at most 20."),
  ),
});

export type DecisionParameters = z.infer<typeof decisionParametersSchema>;

/** A parameter a decision may leave unset (its output admits undefined). */
export type OptionalDecisionParameter = {
  [K in keyof DecisionParameters]-?: undefined extends DecisionParameters[K] ? K : never;
}[keyof DecisionParameters];

/** The parameters the schema lets a decision leave unset, read from the schema itself so that a new optional
 * parameter is cleared by the whole-form update without being listed again. */
export const OPTIONAL_DECISION_PARAMETERS = (
  Object.keys(decisionParametersSchema.shape) as (keyof DecisionParameters)[]
).filter((key): key is OptionalDecisionParameter => decisionParametersSchema.shape[key].safeParse(undefined).success);

/** A partial update (API PATCH, or the "what if" controls saving threshold or π). No field has a
 * default, so an absent field is left as it is. */
export const decisionParametersPatchSchema = decisionParametersSchema.partial();
export type DecisionParametersPatch = z.infer<typeof decisionParametersPatchSchema>;

/** Creating a decision (page, `POST /api/v1/decisions`, `verdict decision create --file`): the task
 * parameters, each optional here because `copyFrom` may supply it; the server merges the source's
 * parameters under the given ones and then requires the whole of decisionParametersSchema. */
export const decisionCreateSchema = decisionParametersPatchSchema
  .extend({
    copyFrom: z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.string().trim().min(1).max(100).optional(),
    ),
  })
  .strict();
export type DecisionCreateInput = z.infer<typeof decisionCreateSchema>;

/** What a parameter left out of a new decision defaults to (the database's defaults, but for the operating-point
 * rule: the database keeps FIXED for decisions made before the rule existed, new ones choose COST_OPTIMAL). */
export const DECISION_DEFAULTS = {
  description: "",
  currency: "USD",
  operatingThreshold: 0.5,
  operatingRule: "COST_OPTIMAL",
  quorum: 2,
} as const;

export const DECISION_LIST_FILTERS = [
  "ACTIVE",
  "DRAFT",
  "IN_REVIEW",
  "CHANGES_REQUESTED",
  "APPROVED",
  "REJECTED",
  "ARCHIVED",
  "ALL",
] as const;
export type DecisionListFilter = (typeof DECISION_LIST_FILTERS)[number];
export const decisionListFilterSchema = z.enum(DECISION_LIST_FILTERS).catch("ACTIVE");

export const archiveSchema = z.object({
  decisionId: z.string().min(1),
  archived: z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean()),
});

export const evaluationVersionSchema = z.object({
  decisionId: z.string().min(1),
  datasetVersionId: z.coerce.number({ error: "Choose a dataset version." }).int().positive("Choose a dataset version."),
});
