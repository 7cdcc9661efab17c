import { startSweep } from "@/lib/server/harness/runs";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/** Starts a load sweep: { candidateId, levels: [1, 4, 16, …], limit? } → 202 with its runs, one per level. */
export const POST = apiRoute<Params>("evidence.import", async ({ actor, params, req, request }) =>
  Response.json(await startSweep(actor, params.id, await readJsonBody(req), request), { status: 202 }),
);
