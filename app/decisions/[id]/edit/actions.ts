"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { candidateSchema } from "@/lib/schemas/candidate";
import { decisionParametersSchema } from "@/lib/schemas/decision";
import { defineAction } from "@/lib/server/action";
import { recomputeDecisionEvidence } from "@/lib/server/comparisons";
import { updateDecisionParameters } from "@/lib/server/decisions";
import { getPackDecision } from "@/lib/server/evidence-pack";
import { updateCandidate } from "@/lib/server/pack/candidates";

const OPTIONAL = ["precisionFloor", "sloP95E2eMs", "sloP95TtftMs", "sloMinThroughputRps", "sloThroughputConcurrency", "sloMaxCostPer1kRequests"] as const;
const RECOMPUTE = ["prevalence", "costFn", "costFp", "operatingThreshold"] as const;

/** The whole task-parameter form: an emptied optional field is cleared (null), not left as it was. */
export const updateDecisionAction = defineAction({
  schema: decisionParametersSchema.extend({ decisionId: z.string().min(1) }),
  permission: "decision.edit",
  run: async ({ decisionId, ...input }, { actor, request }) => {
    const patch = { ...input, ...Object.fromEntries(OPTIONAL.map((k) => [k, input[k] ?? null])) };
    const { decision: before } = await getPackDecision(actor, decisionId);
    const after = await updateDecisionParameters(actor, decisionId, patch as typeof input, request);
    // π, costs and the threshold are inputs of the stored metrics: recompute them when they change.
    const recompute = RECOMPUTE.some((k) => before[k] !== after[k]);
    if (recompute) await recomputeDecisionEvidence(actor, decisionId);
    revalidatePath(`/decisions/${decisionId}`);
    return { ok: true, message: recompute ? "Saved; the stored metrics were recomputed." : "Saved." };
  },
});

export const updateCandidateAction = defineAction({
  schema: candidateSchema,
  permission: "decision.edit",
  run: async (input, { actor, request }) => {
    const c = await updateCandidate(actor, input, request);
    revalidatePath(`/decisions/${c.decisionId}`);
    revalidatePath(`/decisions/${c.decisionId}/edit`);
    return { ok: true, message: `Saved ${c.name}.` };
  },
});
