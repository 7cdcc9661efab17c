import { candidateSchema } from "@/lib/schemas/candidate";
import { removeCandidate, updateCandidate } from "@/lib/server/candidates";
import { notFoundError } from "@/lib/server/errors";
import { db } from "@/lib/server/db";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string; candidateId: string };

/** The candidate must belong to the decision in the path (no reaching across decisions by id). */
async function requireCandidateOf(decisionId: string, candidateId: string) {
  const prisma = await db();
  const found = await prisma.candidate.findFirst({ where: { id: candidateId, decisionId }, select: { id: true } });
  if (!found) throw notFoundError("The candidate");
}

/** Edit the candidate and its shortlist rationale: the candidate form's fields. */
export const PATCH = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  await requireCandidateOf(params.id, params.candidateId);
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  return { candidate: await updateCandidate(actor, candidateSchema.parse({ ...body, candidateId: params.candidateId }), request) };
});

/** Remove the candidate while the decision is a draft (audited; its files stay as imports). */
export const DELETE = apiRoute<Params>("decision.edit", async ({ actor, params, request }) => {
  await requireCandidateOf(params.id, params.candidateId);
  return { removed: await removeCandidate(actor, params.candidateId, request) };
});
