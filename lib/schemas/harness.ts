import { z } from "zod";
import { protocolSchema } from "@/lib/harness/protocol";

// Shared by the forms, the JSON API and the CLI.

export const evalProtocolInputSchema = z.object({ decisionId: z.string().min(1), protocol: protocolSchema });

export const endpointInputSchema = z.object({
  candidateId: z.string().min(1),
  baseUrl: z.string().trim().min(1, "Give the endpoint's base URL (e.g. http://gpu-01:8000/v1).").max(2000),
  model: z.string().trim().min(1, "Name the model as the endpoint knows it.").max(300),
  /** Omitted: keep the stored key; "": remove it. */
  apiKey: z.string().max(4000).optional(),
  concurrency: z.coerce.number().int().min(1).max(1024).default(8),
  rateLimitRps: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number().positive().max(100_000).optional(),
  ),
  priceInputPerMTok: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number().nonnegative().optional(),
  ),
  priceOutputPerMTok: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number().nonnegative().optional(),
  ),
});
export type EndpointInput = z.infer<typeof endpointInputSchema>;

export const runStartSchema = z.object({
  candidateId: z.string().min(1),
  /** Requests in flight; at most the endpoint's concurrency limit. Default: that limit. */
  concurrency: z.coerce.number().int().min(1).max(1024).optional(),
  /** The first n items of the evaluation dataset version (in item id order); default all. */
  limit: z.coerce.number().int().min(1).optional(),
});
export type RunStartInput = z.infer<typeof runStartSchema>;

export const sweepStartSchema = z.object({
  candidateId: z.string().min(1),
  levels: z.array(z.coerce.number().int().min(1).max(1024)).min(1).max(12),
  /** Requests per level (the first n items); default 200. */
  limit: z.coerce.number().int().min(1).default(200),
});
export type SweepStartInput = z.infer<typeof sweepStartSchema>;
