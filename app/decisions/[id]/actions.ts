"use server";
import { revalidatePath } from "next/cache";
import { saveWhatIfSchema } from "@/lib/schemas/what-if";
import { defineAction } from "@/lib/server/action";
import { updateDecisionParameters } from "@/lib/server/decisions/decisions";
import { recomputingMessage } from "@/lib/decisions/messages";

/** Save the stress test's threshold and π to the decision (audited); the stored metrics are recomputed by the job queue. */
export const saveWhatIfAction = defineAction({
  schema: saveWhatIfSchema,
  permission: "decision.edit",
  run: async ({ decisionId, ...patch }, { actor, request }) => {
    const { recomputing } = await updateDecisionParameters(actor, decisionId, patch, request);
    revalidatePath(`/decisions/${decisionId}`);
    return { ok: true, message: recomputingMessage(recomputing.length) };
  },
});
