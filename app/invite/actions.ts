"use server";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ActionState } from "@/lib/action-state";
import { acceptInvitationSchema } from "@/lib/schemas/user";
import { formDataToObject } from "@/lib/server/action";
import { AppError } from "@/lib/server/errors";
import { acceptInvitation } from "@/lib/server/identity/invitations";
import { requestInfo } from "@/lib/server/request-info";

/** The one action a signed-out visitor can run besides sign-in: the invitation's token is the credential. */
export async function acceptInvitationAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const parsed = acceptInvitationSchema.safeParse(formDataToObject(formData));
  if (!parsed.success)
    return {
      ok: false,
      message: "Please correct the highlighted fields.",
      fieldErrors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
    };
  try {
    await acceptInvitation(parsed.data.token, parsed.data.password, await requestInfo());
  } catch (error) {
    if (error instanceof AppError) return { ok: false, message: error.message };
    throw error;
  }
  redirect("/sign-in?notice=enrolled");
}
