"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/server/action";
import { createApiToken, revokeApiToken } from "@/lib/server/identity/api-tokens";

export const createTokenAction = defineAction({
  schema: z.object({ name: z.string().trim().min(1, "Give the token a name.").max(100) }),
  permission: "token.manage",
  run: async (input, { actor, request }) => {
    const created = await createApiToken(actor, input.name, request);
    revalidatePath("/settings");
    // The token itself is returned once, to be shown once; only its hash is stored.
    return {
      ok: true,
      message: `Token "${created.name}" created. Copy it now: it will not be shown again.`,
      data: { token: created.token },
    };
  },
});

export const revokeTokenAction = defineAction({
  schema: z.object({ tokenId: z.string().min(1).max(100) }),
  permission: "token.manage",
  run: async (input, { actor, request }) => {
    await revokeApiToken(actor, input.tokenId, request);
    revalidatePath("/settings");
    return { ok: true, message: "Token revoked." };
  },
});
