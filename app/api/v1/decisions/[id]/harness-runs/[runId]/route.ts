import { getHarnessRun, parseRunId } from "@/lib/server/harness/runs";
import { apiRoute } from "@/lib/server/route";

type Params = { id: string; runId: string };

/** A run's status and progress: doneCount of itemCount, parse failures, failed requests, tokens so far. */
export const GET = apiRoute<Params>("decision.read", async ({ actor, params }) => ({
  run: await getHarnessRun(actor, params.id, parseRunId(params.runId)),
}));
