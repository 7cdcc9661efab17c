import type { NextRequest } from "next/server";
import { acceptInvitationSchema } from "@/lib/schemas/user";
import { acceptInvitation } from "@/lib/server/identity/invitations";
import { errorResponse, readJsonBody, requestInfoOf } from "@/lib/server/route";

/** No session: the invitation's token is the credential. Body { token, password, confirm }. */
export async function POST(req: NextRequest): Promise<Response> {
  try {
    const input = acceptInvitationSchema.parse(await readJsonBody(req));
    const user = await acceptInvitation(input.token, input.password, requestInfoOf(req.headers));
    return Response.json(
      { user: { id: user.id, email: user.email, name: user.name, roles: user.roles } },
      { status: 201 },
    );
  } catch (error) {
    return errorResponse(error);
  }
}
