"use server";
import { revalidatePath } from "next/cache";
import { saveWhatIfSchema } from "@/lib/schemas/what-if";
import { defineAction } from "@/lib/server/action";
import { recomputeDecisionEvidence } from "@/lib/server/comparisons";
import { updateDecisionParameters } from "@/lib/server/decisions";

/** Save the stress test's threshold and π to the decision (audited), then recompute the stored metrics. */
export const saveWhatIfAction = defineAction({
  schema: saveWhatIfSchema,
  permission: "decision.edit",
  run: async ({ decisionId, ...patch }, { actor, request }) => {
    await updateDecisionParameters(actor, decisionId, patch, request);
    const runs = await recomputeDecisionEvidence(actor, decisionId);
    revalidatePath(`/decisions/${decisionId}`);
    return { ok: true, message: `Saved; the metrics of ${runs} eval runs were recomputed.` };
  },
});
