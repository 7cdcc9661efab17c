import "server-only";
/** Other eval tools' per-item results (issue 24): preview with a suggested mapping, then import as a candidate's run. */
export { previewItemResults } from "./preview";
export { importItemResults } from "./import";
export type * from "./types";
