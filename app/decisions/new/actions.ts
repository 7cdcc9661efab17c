"use server";
import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { decisionCreateSchema } from "@/lib/schemas/decision";
import { defineAction } from "@/lib/server/action";
import { createDecision } from "@/lib/server/decisions/decisions";

/** Creates the decision, then opens its edit page, where the shortlist is built next. */
export const createDecisionAction = defineAction({
  schema: decisionCreateSchema,
  permission: "decision.edit",
  run: async (input, { actor, request }) => {
    const decision = await createDecision(actor, input, request);
    revalidatePath("/decisions");
    redirect(`/decisions/${encodeURIComponent(decision.id)}/edit?created=1`);
  },
});
