import { AppError } from "@/lib/server/errors";
import { apiRoute } from "@/lib/server/route";
import { getProgress, isUploadId } from "@/lib/server/imports/progress";

export const runtime = "nodejs";

/** GET …/uploads/<uploadId>: progress of an upload (any kind) still being processed → { progress }. */
export const GET = apiRoute<{ id: string; uploadId: string }>("decision.read", async ({ actor, params }) => {
  if (!isUploadId(params.uploadId)) throw new AppError("VALIDATION", "uploadId: 8 to 64 letters, digits, - or _.");
  return { progress: await getProgress(params.uploadId, actor.id) };
});
