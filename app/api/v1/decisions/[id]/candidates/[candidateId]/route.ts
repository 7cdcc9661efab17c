import { candidateSchema } from "@/lib/schemas/candidate";
import { editCandidate, removeCandidate } from "@/lib/server/decisions/candidates";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string; candidateId: string };

/**
 * Edit the candidate and its shortlist rationale: the candidate form's fields. A candidate of
 * another decision is not found. A change of its operating threshold recomputes its runs'
 * metrics: `recomputing` lists them (poll …/runs/<runId>), as the decision's PATCH does.
 */
export const PATCH = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  return editCandidate(actor, candidateSchema.parse({ ...body, candidateId: params.candidateId }), request, params.id);
});

/** Remove the candidate while the decision is a draft (audited; its files stay as imports). */
export const DELETE = apiRoute<Params>("decision.edit", async ({ actor, params, request }) => ({
  removed: await removeCandidate(actor, params.candidateId, request, params.id),
}));
