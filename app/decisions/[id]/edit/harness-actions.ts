"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { endpointInputSchema } from "@/lib/schemas/harness";
import { defineAction } from "@/lib/server/action";
import { setCandidateEndpoint, setEvalProtocol } from "@/lib/server/harness/endpoints";
import { testCandidateEndpoint } from "@/lib/server/harness/endpoint-test";

// The harness configured from the edit page (issue 26 item 7): the same use cases as
// PUT …/protocol, PUT …/candidates/<id>/endpoint and POST …/endpoint/test.

function refresh(decisionId: string) {
  revalidatePath(`/decisions/${decisionId}`);
  revalidatePath(`/decisions/${decisionId}/edit`);
}

/** The protocol form sends the protocol as one JSON field (templates, contract, score, sampling). */
export const setProtocolAction = defineAction({
  schema: z.object({
    decisionId: z.string().min(1),
    protocol: z.string().transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "The protocol is not valid JSON." });
        return z.NEVER;
      }
    }),
  }),
  permission: "decision.edit",
  run: async ({ decisionId, protocol }, { actor, request }) => {
    const saved = await setEvalProtocol(actor, decisionId, protocol, request);
    refresh(decisionId);
    return { ok: true, message: `Saved the evaluation protocol (${saved.sha256.slice(0, 12)}).` };
  },
});

/** A blank key field keeps the stored key; "remove the key" clears it; a typed key replaces it. */
export const setEndpointAction = defineAction({
  schema: endpointInputSchema.extend({ decisionId: z.string().min(1), removeKey: z.string().optional() }),
  permission: "decision.edit",
  run: async ({ decisionId, removeKey, apiKey, ...input }, { actor, request }) => {
    const key = removeKey ? "" : apiKey ? apiKey : undefined;
    const saved = await setCandidateEndpoint(actor, decisionId, { ...input, apiKey: key }, request);
    refresh(decisionId);
    return {
      ok: true,
      message: `Saved the endpoint${saved.apiKeyFingerprint ? ` (key ${saved.apiKeyFingerprint})` : " (no key)"}.`,
    };
  },
});

export const testEndpointAction = defineAction({
  schema: z.object({ decisionId: z.string().min(1), candidateId: z.string().min(1) }),
  permission: "decision.edit",
  run: async ({ decisionId, candidateId }, { actor }) => {
    const result = await testCandidateEndpoint(actor, decisionId, candidateId);
    return {
      ok: true,
      message: result.completed ? "The endpoint answered." : "The endpoint did not answer.",
      data: result,
    };
  },
});
