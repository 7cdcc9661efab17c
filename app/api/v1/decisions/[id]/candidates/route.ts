import { candidateCreateSchema } from "@/lib/schemas/candidate";
import { createCandidate, unshortlistedModels } from "@/lib/server/decisions/candidates";
import { getPackDecision } from "@/lib/server/pack/get-pack";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/** The candidates, and the leaderboard models not shortlisted yet (with the matcher's suggested groups). */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => {
  const [{ candidates }, models] = await Promise.all([
    getPackDecision(actor, params.id),
    unshortlistedModels(actor, params.id),
  ]);
  return { candidates, unshortlistedModels: models };
});

/** A candidate added by hand: { name, provider, modelId?, version?, aliases? }. */
export const POST = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  const input = candidateCreateSchema.parse({ ...body, decisionId: params.id });
  return Response.json({ candidate: await createCandidate(actor, input, request) }, { status: 201 });
});
