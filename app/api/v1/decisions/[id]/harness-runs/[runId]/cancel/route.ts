import { cancelHarnessRun, parseRunId } from "@/lib/server/harness/runs";
import { apiRoute } from "@/lib/server/route";

type Params = { id: string; runId: string };

/** Cancels a queued or running run (and the rest of its sweep); stored items stay. */
export const POST = apiRoute<Params>("evidence.import", async ({ actor, params, request }) =>
  cancelHarnessRun(actor, params.id, parseRunId(params.runId), request),
);
