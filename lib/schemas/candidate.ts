import { z } from "zod";

// Shared by the candidate form (client) and the server. Prices are optional ("" = not set).
const optionalNumber = z.preprocess((v) => (v === "" || v === null || v === undefined ? undefined : v), z.coerce.number().nonnegative().optional());

export const candidateSchema = z.object({
  candidateId: z.string().min(1),
  name: z.string().trim().min(1, "Name the model.").max(200),
  provider: z.string().trim().min(1, "Name the provider.").max(200),
  version: z.string().trim().max(200),
  shortlistRationale: z.string().trim().min(1, "Write the shortlist rationale.").max(5000),
  operatingThreshold: z.preprocess((v) => (v === "" || v === null || v === undefined ? undefined : v), z.coerce.number().refine(Number.isFinite, "The threshold must be a finite number.").optional()),
  priceInputPerMTok: optionalNumber,
  priceOutputPerMTok: optionalNumber,
  pricePerHour: optionalNumber,
});
export type CandidateInput = z.infer<typeof candidateSchema>;
