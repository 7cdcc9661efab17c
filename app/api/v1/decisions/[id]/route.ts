import { z } from "zod";
import { decisionParametersPatchSchema } from "@/lib/schemas/decision";
import { getDecisionPack, setEvaluationDatasetVersion, updateDecisionParameters } from "@/lib/server/decisions";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => {
  const pack = await getDecisionPack(actor, params.id);
  return { decision: pack };
});

const patchSchema = decisionParametersPatchSchema.extend({ evaluationDatasetVersionId: z.number().int().positive().optional() }).strict();

/**
 * Change a draft's task parameters and/or its evaluation dataset version (analyst only). Body: any
 * subset of the decision form's fields. Runs whose metrics depend on a changed parameter are
 * recomputed by the job queue: `recomputing` lists them (poll …/runs/<runId>).
 */
export const PATCH = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const { evaluationDatasetVersionId, ...patch } = patchSchema.parse(await readJsonBody(req));
  if (evaluationDatasetVersionId !== undefined) await setEvaluationDatasetVersion(actor, params.id, evaluationDatasetVersionId, request);
  return updateDecisionParameters(actor, params.id, patch, request);
});
