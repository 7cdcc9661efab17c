"use server";
import { revalidatePath } from "next/cache";
import { createUserSchema, updateRolesSchema } from "@/lib/schemas/user";
import { defineAction } from "@/lib/server/action";
import { createUser, updateUserRoles } from "@/lib/server/users";

export const createUserAction = defineAction({
  schema: createUserSchema,
  permission: "user.manage",
  run: async (input, { actor, request }) => {
    const user = await createUser(actor, input, request);
    revalidatePath("/admin/users");
    return { ok: true, message: `Created ${user.email}.` };
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
