"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { commentSchema, signSchema } from "@/lib/schemas/signoff";
import { defineAction } from "@/lib/server/action";
import { createComment } from "@/lib/server/decisions/comments";
import { signPack } from "@/lib/server/signoff/sign-pack";
import { submitForReview } from "@/lib/server/signoff/submit-for-review";
import { requestChanges } from "@/lib/server/signoff/request-changes";
import { reopenDraft } from "@/lib/server/signoff/reopen-draft";

const decisionId = z.string().min(1).max(100);

// A transition changes which forms the page shows, so its outcome is said by the page itself
// (a fixed notice key in the URL, never reflected text) rather than by the vanished form.
function done(id: string, notice: "submitted" | "changes-requested" | "reopened"): never {
  revalidatePath(`/decisions/${id}/review`);
  redirect(`/decisions/${encodeURIComponent(id)}/review?notice=${notice}`);
}

export const signAction = defineAction({
  schema: signSchema.extend({ decisionId }),
  // The domain function picks the exact permission by meaning (review vs approval/rejection).
  permission: "decision.read",
  run: async ({ decisionId, ...input }, { actor, request }) => {
    const { outcome, revision } = await signPack(actor, decisionId, input, request);
    revalidatePath(`/decisions/${decisionId}/review`);
    const what =
      outcome === "approved"
        ? " The quorum is reached: the decision is approved."
        : outcome === "rejected"
          ? " The decision is rejected."
          : "";
    return { ok: true, message: `Signed revision ${revision.number}.${what}` };
  },
});

export const submitAction = defineAction({
  schema: z.object({ decisionId }),
  permission: "decision.submit",
  run: async ({ decisionId }, { actor, request }) => {
    await submitForReview(actor, decisionId, request);
    done(decisionId, "submitted");
  },
});

export const requestChangesAction = defineAction({
  schema: z.object({ decisionId, reason: z.string().trim().min(3, "Say which changes you request.").max(5000) }),
  permission: "signature.approve",
  run: async ({ decisionId, reason }, { actor, request }) => {
    await requestChanges(actor, decisionId, reason, request);
    done(decisionId, "changes-requested");
  },
});

export const reopenAction = defineAction({
  schema: z.object({ decisionId }),
  permission: "decision.submit",
  run: async ({ decisionId }, { actor, request }) => {
    await reopenDraft(actor, decisionId, request);
    done(decisionId, "reopened");
  },
});

export const commentAction = defineAction({
  schema: commentSchema.extend({ decisionId }),
  permission: "comment.create",
  run: async ({ decisionId, body, stage, parentId }, { actor, request }) => {
    await createComment(actor, decisionId, { body, stage, parentId }, request);
    revalidatePath(`/decisions/${decisionId}/review`);
    return { ok: true, message: "Comment posted." };
  },
});
