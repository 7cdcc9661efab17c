import { signSchema } from "@/lib/schemas/signoff";
import { apiRoute, readJsonBody } from "@/lib/server/route";
import { signPack } from "@/lib/server/signoff/sign-pack";
import { getReviewState } from "@/lib/server/signoff/review-state";

type Params = { id: string };

/** The signatures in their §11.50 form, each marked superseded when its revision is. */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => {
  const state = await getReviewState(actor, params.id);
  return {
    status: state.status,
    latestRevision: state.latestRevision,
    evidenceChanged: state.evidenceChanged,
    signatures: state.signatures,
  };
});

/** Sign (review, approval, rejection) with the email and password in the body, in a signed-in session only: an API token gets 403 (signingRefusal). Permission by meaning, in signPack. */
export const POST = apiRoute<Params>("decision.read", async ({ actor, params, req, request }) => {
  const body = await readJsonBody(req);
  const input = signSchema.parse(body);
  const result = await signPack(actor, params.id, input, request);
  return Response.json(result, { status: 201 });
});
