import { importServing } from "@/lib/server/imports";
import { publicImportRoute } from "@/lib/server/imports/benchmark-files-route";

export const runtime = "nodejs";

/** Import a serving-benchmark file (see publicImportRoute for the parameters and the unmatched-model answer). */
export const POST = publicImportRoute(importServing);
