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
