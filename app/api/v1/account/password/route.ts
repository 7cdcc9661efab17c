import { changePasswordSchema } from "@/lib/schemas/user";
import { changePassword } from "@/lib/server/identity/account";
import { AppError } from "@/lib/server/errors";
import { apiRoute, readJsonBody } from "@/lib/server/route";

/** Change one's own password (signed in by cookie only: a token cannot); the other sessions end. */
export const POST = apiRoute("token.manage", async ({ actor, req, request, sid }) => {
  if (!sid) throw new AppError("FORBIDDEN", "A password is changed in a signed-in session, not with an API token.");
  const input = changePasswordSchema.parse(await readJsonBody(req));
  await changePassword(actor, input, sid, request);
  return { ok: true };
});
