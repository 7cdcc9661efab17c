import { attachLeaderboardModels } from "@/lib/server/decisions/model-names";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string; candidateId: string };

/**
 * Attaches stranded leaderboard rows to this candidate: { models: ["<model name as the file spells
 * it>", …] }. Each name becomes an alias of the candidate, so later files with that spelling attach
 * by themselves. Answers { rowsAttached, aliasesAdded, … }.
 */
export const POST = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  return attachLeaderboardModels(actor, params.id, { ...body, candidateId: params.candidateId }, request);
});
