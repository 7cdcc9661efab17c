import { resemblanceSchema } from "@/lib/schemas/candidate";
import { answerResemblance, getResemblances } from "@/lib/server/decisions/resemblances";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/** Every suite the shortlist rationales cite, with its answers (null while unanswered). */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => ({
  suites: await getResemblances(actor, params.id),
}));

/** { suite, task, taskNote?, distribution, distributionNote?, promptScoring, promptScoringNote? }, each answer MATCH | PARTIAL | MISMATCH. */
export const PUT = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  return {
    resemblance: await answerResemblance(actor, resemblanceSchema.parse({ ...body, decisionId: params.id }), request),
  };
});
