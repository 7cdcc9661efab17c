import { inviteUserSchema } from "@/lib/schemas/user";
import { inviteUser } from "@/lib/server/identity/invitations";
import { apiRoute, readJsonBody } from "@/lib/server/route";

/** An admin invites a user; the link goes by mail only (503 with how to configure SMTP when none is). */
export const POST = apiRoute("user.manage", async ({ actor, req, request }) => {
  const input = inviteUserSchema.parse(await readJsonBody(req));
  const invitation = await inviteUser(actor, input, request);
  return Response.json({ invitation }, { status: 201 });
});
