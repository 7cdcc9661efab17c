import { listHarnessRuns, startHarnessRun } from "@/lib/server/harness/runs";
import { apiRoute, readJsonBody } from "@/lib/server/route";

type Params = { id: string };

/** The decision's harness runs, newest first, with their progress. */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => ({
  runs: await listHarnessRuns(actor, params.id),
}));

/** Starts a run: { candidateId, concurrency?, limit? } → 202 with the run. */
export const POST = apiRoute<Params>("evidence.import", async ({ actor, params, req, request }) =>
  Response.json({ run: await startHarnessRun(actor, params.id, await readJsonBody(req), request) }, { status: 202 }),
);
