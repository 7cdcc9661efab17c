import { z } from "zod";
import { decisionParametersPatchSchema } from "@/lib/schemas/decision";
import { setEvaluationDatasetVersion, updateDecisionParameters } from "@/lib/server/decisions/decisions";
import { getPackModel } from "@/lib/server/pack/get-pack";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/**
 * The pack's read model: the decision and its parameters, candidates, stage 1–2 scores and
 * resemblance answers, the run that counts per candidate (with its stored metrics), the other runs
 * listed apart, serving rows, paired comparisons, and the derived results (gates, funnel, costs,
 * ranks, the recommendation) — the figures the page, the exports and the revision state.
 */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => getPackModel(actor, params.id));

const patchSchema = decisionParametersPatchSchema
  .extend({ evaluationDatasetVersionId: z.number().int().positive().optional() })
  .strict();

/**
 * Change a draft's task parameters and/or its evaluation dataset version (analyst only). Body: any
 * subset of the decision form's fields. Runs whose metrics depend on a changed parameter are
 * recomputed by the job queue: `recomputing` lists them (poll …/runs/<runId>).
 */
export const PATCH = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const { evaluationDatasetVersionId, ...patch } = patchSchema.parse(await readJsonBody(req));
  if (evaluationDatasetVersionId !== undefined)
    await setEvaluationDatasetVersion(actor, params.id, evaluationDatasetVersionId, request);
  return updateDecisionParameters(actor, params.id, patch, request);
});
