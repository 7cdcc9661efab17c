import { apiRoute } from "@/lib/server/route";
import { getRunStatus } from "@/lib/server/imports/uploads-page";

export const runtime = "nodejs";

/** An eval run's status and progress (poll while PENDING / RUNNING). */
export const GET = apiRoute<{ id: string; runId: string }>("decision.read", async ({ actor, params }) => ({
  run: await getRunStatus(actor, params.id, Number(params.runId)),
}));
