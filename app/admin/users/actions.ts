"use server";
import { revalidatePath } from "next/cache";
import { confirmSignerSchema, inviteUserSchema, setActiveSchema, updateRolesSchema } from "@/lib/schemas/user";
import { defineAction } from "@/lib/server/action";
import { inviteUser } from "@/lib/server/identity/invitations";
import { setUserActive, updateUserRoles } from "@/lib/server/identity/users";
import { confirmSigner } from "@/lib/server/identity/enrolment";

// The admin never sees the invitation link nor sets a password: the link goes by mail.
export const inviteUserAction = defineAction({
  schema: inviteUserSchema,
  permission: "user.manage",
  run: async (input, { actor, request }) => {
    const invitation = await inviteUser(actor, input, request);
    revalidatePath("/admin/users");
    return { ok: true, message: `Invitation sent to ${invitation.email}.` };
  },
});

export const updateRolesAction = defineAction({
  schema: updateRolesSchema,
  permission: "user.manage",
  run: async (input, { actor, request }) => {
    const user = await updateUserRoles(actor, input.userId, input.roles, request);
    revalidatePath("/admin/users");
    return { ok: true, message: `Roles of ${user.email} saved.` };
  },
});

export const setActiveAction = defineAction({
  schema: setActiveSchema,
  permission: "user.manage",
  run: async (input, { actor, request }) => {
    const user = await setUserActive(actor, input.userId, input.active, request);
    revalidatePath("/admin/users");
    return {
      ok: true,
      message: input.active
        ? `${user.email} reactivated.`
        : `${user.email} deactivated: their sessions and API tokens are revoked.`,
    };
  },
});

/** A second person confirms an admin, approver or reviewer role (four-eyes enrolment). */
export const confirmSignerAction = defineAction({
  schema: confirmSignerSchema,
  permission: "enrolment.confirm",
  run: async (input, { actor, request }) => {
    const user = await confirmSigner(actor, input.userId, request);
    revalidatePath("/admin/users");
    return { ok: true, message: `${user.name}'s enrolment confirmed (granted by ${user.grantedBy}).` };
  },
});
