import { z } from "zod";
import { decisionParametersSchema } from "./decision";

/** Saving a "what if" of the stress test as the decision's stored threshold and/or π. */
export const saveWhatIfSchema = decisionParametersSchema
  .pick({ operatingThreshold: true, prevalence: true })
  .partial()
  .extend({ decisionId: z.string().min(1) });
export type SaveWhatIf = z.infer<typeof saveWhatIfSchema>;
