import { shortlistSchema } from "@/lib/schemas/candidate";
import { shortlistCandidates } from "@/lib/server/decisions/candidates";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/** { candidates: [{ name, provider, modelId?, version?, models: ["<model name in the leaderboards>", …] }] } */
export const POST = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const candidates = await shortlistCandidates(
    actor,
    params.id,
    shortlistSchema.parse(await readJsonBody(req)),
    request,
  );
  return Response.json({ candidates }, { status: 201 });
});
