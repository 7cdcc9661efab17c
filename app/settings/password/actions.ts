"use server";
import { changePasswordSchema } from "@/lib/schemas/user";
import { defineAction } from "@/lib/server/action";
import { changePassword } from "@/lib/server/identity/account";

export const changePasswordAction = defineAction({
  schema: changePasswordSchema,
  permission: "token.manage", // every signed-in role: a password is one's own
  run: async (input, { actor, request, sid }) => {
    await changePassword(actor, input, sid, request);
    return { ok: true, message: "Password changed. Your other sessions are signed out." };
  },
});
