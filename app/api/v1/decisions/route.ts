import { listDecisions } from "@/lib/server/decisions";
import { apiRoute } from "@/lib/server/route";

export const GET = apiRoute("decision.read", async ({ actor }) => ({ decisions: await listDecisions(actor) }));
