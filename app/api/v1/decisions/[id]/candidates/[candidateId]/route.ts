import { candidateSchema } from "@/lib/schemas/candidate";
import { removeCandidate, updateCandidate } from "@/lib/server/decisions/candidates";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string; candidateId: string };

/** Edit the candidate and its shortlist rationale: the candidate form's fields. A candidate of another decision is not found. */
export const PATCH = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  return {
    candidate: await updateCandidate(
      actor,
      candidateSchema.parse({ ...body, candidateId: params.candidateId }),
      request,
      params.id,
    ),
  };
});

/** Remove the candidate while the decision is a draft (audited; its files stay as imports). */
export const DELETE = apiRoute<Params>("decision.edit", async ({ actor, params, request }) => ({
  removed: await removeCandidate(actor, params.candidateId, request, params.id),
}));
