import { z } from "zod";
import { setDecisionArchived } from "@/lib/server/decisions/decisions";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/** { "archived": true } archives the decision (kept, read-only, hidden from the default list); false restores it. */
export const POST = apiRoute<Params>("decision.edit", async ({ actor, params, req, request }) => {
  const { archived } = z
    .object({ archived: z.boolean() })
    .strict()
    .parse(await readJsonBody(req));
  return { decision: await setDecisionArchived(actor, params.id, archived, request) };
});
