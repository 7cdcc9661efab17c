import { relevanceNoteSchema, resemblanceSchema } from "@/lib/schemas/candidate";
import { answerResemblance, getResemblances, setRelevanceNote } from "@/lib/server/decisions/resemblances";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/** Every suite the shortlist rationales cite, with its answers and relevance note (null while unanswered). */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => ({
  suites: await getResemblances(actor, params.id),
}));

/**
 * { suite, task, taskNote?, distribution, distributionNote?, promptScoring, promptScoringNote?, relevanceNote? },
 * each answer MATCH | PARTIAL | MISMATCH; a relevanceNote left out keeps the suite's note.
 */
export const PUT = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  return {
    resemblance: await answerResemblance(actor, resemblanceSchema.parse({ ...body, decisionId: params.id }), request),
  };
});

/** { suite, relevanceNote }: sets (or, with "", clears) an answered suite's relevance note alone. */
export const PATCH = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body = (await readJsonBody(req)) as Record<string, unknown>;
  return {
    resemblance: await setRelevanceNote(actor, relevanceNoteSchema.parse({ ...body, decisionId: params.id }), request),
  };
});
