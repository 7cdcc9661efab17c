import { setCandidateEndpoint } from "@/lib/server/harness/endpoints";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string; candidateId: string };

/**
 * Sets the candidate's OpenAI-compatible endpoint: { baseUrl, model, apiKey?, concurrency?,
 * rateLimitRps?, priceInputPerMTok?, priceOutputPerMTok? }. The answer shows the key's
 * fingerprint, never the key.
 */
export const PUT = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  return {
    endpoint: await setCandidateEndpoint(actor, params.id, { ...body, candidateId: params.candidateId }, request),
  };
});
