"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { recomputingMessage } from "@/lib/decisions/messages";
import {
  attachModelsSchema,
  candidateCreateSchema,
  candidateSchema,
  resemblanceSchema,
  shortlistSchema,
} from "@/lib/schemas/candidate";
import {
  archiveSchema,
  decisionParametersSchema,
  evaluationVersionSchema,
  OPTIONAL_DECISION_PARAMETERS,
} from "@/lib/schemas/decision";
import { defineAction } from "@/lib/server/action";
import {
  createCandidate,
  removeCandidate,
  shortlistCandidates,
  updateCandidate,
} from "@/lib/server/decisions/candidates";
import {
  setDecisionArchived,
  setEvaluationDatasetVersion,
  updateDecisionParameters,
} from "@/lib/server/decisions/decisions";
import { answerResemblance } from "@/lib/server/decisions/resemblances";
import { attachLeaderboardModels } from "@/lib/server/decisions/model-names";

function refresh(decisionId: string) {
  revalidatePath(`/decisions/${decisionId}`);
  revalidatePath(`/decisions/${decisionId}/edit`);
}

/** The whole task-parameter form: an emptied optional field is cleared (null), not left as it was. */
export const updateDecisionAction = defineAction({
  schema: decisionParametersSchema.extend({ decisionId: z.string().min(1) }),
  permission: "decision.edit",
  run: async ({ decisionId, ...input }, { actor, request }) => {
    const patch = { ...input, ...Object.fromEntries(OPTIONAL_DECISION_PARAMETERS.map((k) => [k, input[k] ?? null])) };
    const { recomputing } = await updateDecisionParameters(actor, decisionId, patch as typeof input, request);
    refresh(decisionId);
    return { ok: true, message: recomputingMessage(recomputing.length) };
  },
});

export const updateCandidateAction = defineAction({
  schema: candidateSchema,
  permission: "decision.edit",
  run: async (input, { actor, request }) => {
    const c = await updateCandidate(actor, input, request);
    refresh(c.decisionId);
    return { ok: true, message: `Saved ${c.name}.` };
  },
});

export const createCandidateAction = defineAction({
  schema: candidateCreateSchema,
  permission: "decision.edit",
  run: async (input, { actor, request }) => {
    const c = await createCandidate(actor, input, request);
    refresh(input.decisionId);
    return {
      ok: true,
      message: `Added ${c.name}${c.leaderboardRowsAttached ? ` with ${c.leaderboardRowsAttached} leaderboard score(s) already imported` : ""}.`,
    };
  },
});

/** The shortlist form sends its ticked rows as one JSON field (a list of candidates, each with its model names). */
export const shortlistAction = defineAction({
  schema: z.object({
    decisionId: z.string().min(1),
    shortlist: z
      .string()
      .transform((s, ctx) => {
        try {
          return JSON.parse(s) as unknown;
        } catch {
          ctx.addIssue({ code: "custom", message: "The shortlist is not valid JSON." });
          return z.NEVER;
        }
      })
      .pipe(shortlistSchema),
  }),
  permission: "decision.edit",
  run: async ({ decisionId, shortlist }, { actor, request }) => {
    const created = await shortlistCandidates(actor, decisionId, shortlist, request);
    refresh(decisionId);
    return { ok: true, message: `Shortlisted ${created.map((c) => c.name).join(", ")}.` };
  },
});

/** Stranded leaderboard rows attached to an existing candidate; their spellings become its aliases. */
export const attachRowsAction = defineAction({
  schema: attachModelsSchema.extend({ decisionId: z.string().min(1) }),
  permission: "decision.edit",
  run: async ({ decisionId, ...input }, { actor, request }) => {
    const r = await attachLeaderboardModels(actor, decisionId, input, request);
    refresh(decisionId);
    return {
      ok: true,
      message: `Attached ${r.rowsAttached} score(s) to ${r.candidate}; ${r.models.map((m) => `“${m}”`).join(", ")} will match ${r.candidate} in later files.`,
    };
  },
});

export const removeCandidateAction = defineAction({
  schema: z.object({ candidateId: z.string().min(1) }),
  permission: "decision.edit",
  run: async ({ candidateId }, { actor, request }) => {
    const c = await removeCandidate(actor, candidateId, request);
    refresh(c.decisionId);
    return { ok: true, message: `Removed ${c.name}.` };
  },
});

export const resemblanceAction = defineAction({
  schema: resemblanceSchema,
  permission: "decision.edit",
  run: async (input, { actor, request }) => {
    await answerResemblance(actor, input, request);
    refresh(input.decisionId);
    return { ok: true, message: `Saved the answers for ${input.suite}.` };
  },
});

export const evaluationVersionAction = defineAction({
  schema: evaluationVersionSchema,
  permission: "decision.edit",
  run: async ({ decisionId, datasetVersionId }, { actor, request }) => {
    const v = await setEvaluationDatasetVersion(actor, decisionId, datasetVersionId, request);
    refresh(decisionId);
    revalidatePath(`/decisions/${decisionId}/uploads`);
    return { ok: true, message: `The pack is evaluated on ${v.dataset.name} v${v.version}.` };
  },
});

export const archiveAction = defineAction({
  schema: archiveSchema,
  permission: "decision.edit",
  run: async ({ decisionId, archived }, { actor, request }) => {
    await setDecisionArchived(actor, decisionId, archived, request);
    refresh(decisionId);
    revalidatePath("/decisions");
    return {
      ok: true,
      message: archived ? "Archived: the decision is kept, read-only and hidden from the default list." : "Restored.",
    };
  },
});
