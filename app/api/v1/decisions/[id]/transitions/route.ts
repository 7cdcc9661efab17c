import { transitionSchema } from "@/lib/schemas/signoff";
import { apiRoute, readJsonBody } from "@/lib/server/route";
import { submitForReview } from "@/lib/server/signoff/submit-for-review";
import { requestChanges } from "@/lib/server/signoff/request-changes";
import { reopenDraft } from "@/lib/server/signoff/reopen-draft";

type Params = { id: string };

/** { action: "submit" | "request_changes" | "reopen", reason? } — each use case checks its own role and state. */
export const POST = apiRoute<Params>("decision.read", async ({ actor, params, req, request }) => {
  const body = await readJsonBody(req);
  const { action, reason } = transitionSchema.parse(body);
  if (action === "submit") {
    const revision = await submitForReview(actor, params.id, request);
    return { status: "IN_REVIEW", revision };
  }
  if (action === "request_changes") {
    await requestChanges(actor, params.id, reason ?? "", request);
    return { status: "CHANGES_REQUESTED" };
  }
  await reopenDraft(actor, params.id, request);
  return { status: "DRAFT" };
});
