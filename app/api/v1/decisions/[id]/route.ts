import { decisionParametersPatchSchema } from "@/lib/schemas/decision";
import { getDecisionPack, updateDecisionParameters } from "@/lib/server/decisions";
import { AppError } from "@/lib/server/errors";
import { apiRoute } from "@/lib/server/route";

type Params = { id: string };

export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => {
  const pack = await getDecisionPack(actor, params.id);
  return { decision: pack };
});

/** Change task parameters (analyst only). Body: any subset of the decision form's fields. */
export const PATCH = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const body: unknown = await req.json().catch(() => {
    throw new AppError("VALIDATION", "The body must be JSON.");
  });
  const patch = decisionParametersPatchSchema.parse(body);
  const decision = await updateDecisionParameters(actor, params.id, patch, request);
  return { decision };
});
