import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { setUserActive, updateUserRoles } from "@/lib/server/identity/users";
import { apiRoute, readJsonBody } from "@/lib/server/route";

// One change per request, each its own transaction with its audit event.
const patchSchema = z.union(
  [
    z.strictObject({ active: z.boolean() }),
    z.strictObject({ roles: z.array(z.enum(ROLES)).min(1, "Give the user at least one role.") }),
  ],
  { error: 'Send either { "active": true|false } or { "roles": [...] }.' },
);

/** Admins deactivate/reactivate a user (`{ "active": false }`: sessions and tokens revoked at once) or set their roles. */
export const PATCH = apiRoute<{ id: string }>("user.manage", async ({ actor, params, req, request }) => {
  const patch = patchSchema.parse(await readJsonBody(req));
  const user =
    "roles" in patch
      ? await updateUserRoles(actor, params.id, patch.roles, request)
      : await setUserActive(actor, params.id, patch.active, request);
  return { user };
});
