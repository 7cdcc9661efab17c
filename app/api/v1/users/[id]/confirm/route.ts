import { confirmSigner } from "@/lib/server/identity/enrolment";
import { apiRoute } from "@/lib/server/route";

/** A second person confirms the user's admin, approver or reviewer role (four-eyes enrolment); no body. */
export const POST = apiRoute<{ id: string }>("enrolment.confirm", async ({ actor, params, request }) => {
  const user = await confirmSigner(actor, params.id, request);
  return { user };
});
