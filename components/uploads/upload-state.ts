import type { ReportedIssue } from "./error-report";

/**
 * The upload panel's state and its one reducer: what the panel shows while a file goes up, is
 * validated and loaded, and after (the imported summary, the error report, the model mapping,
 * the prediction run being computed). Pure, so each step is testable without a browser.
 */
export type Failure =
  | { kind: "report"; errors: ReportedIssue[]; errorCount: number }
  | { kind: "unmatched"; unmatched: string[]; candidates: { id: string; name: string }[] }
  | { kind: "message"; message: string };

export type RunStatus = {
  status: string;
  progress: number;
  itemCount: number;
  missingCount: number;
  error: string | null;
};

export interface UploadState {
  file: File | null;
  busy: boolean;
  /** Bytes sent so far. */
  bytes: number;
  /** Rows validated so far (the server's progress), then the rows imported. */
  rows: number | null;
  phase: string;
  failure: Failure | null;
  success: string | null;
  /** The prediction run the upload created, polled until its metrics are computed. */
  run: { id: number; status: RunStatus | null } | null;
  /** Unmatched model name → candidate id ("" = skip). */
  mapping: Record<string, string>;
}

export type UploadAction =
  | { type: "chose"; file: File | null }
  | { type: "started" }
  | { type: "sent"; loaded: number }
  | { type: "progressed"; phase: string; rows: number }
  | { type: "imported"; rows: number; message: string; runId?: number }
  | { type: "rejected"; failure: Failure }
  | { type: "failed"; message: string }
  | { type: "ended" }
  | { type: "run"; status: RunStatus }
  | { type: "mapped"; name: string; candidateId: string };

export const initialUploadState: UploadState = {
  file: null,
  busy: false,
  bytes: 0,
  rows: null,
  phase: "",
  failure: null,
  success: null,
  run: null,
  mapping: {},
};

export function uploadReducer(state: UploadState, action: UploadAction): UploadState {
  switch (action.type) {
    case "chose":
      return { ...state, file: action.file, failure: null, success: null };
    case "started":
      return {
        ...state,
        busy: true,
        failure: null,
        success: null,
        run: null,
        bytes: 0,
        rows: null,
        phase: "Uploading",
      };
    case "sent":
      // Every byte sent: the server is now validating and loading what it received.
      return {
        ...state,
        bytes: action.loaded,
        phase: state.file && action.loaded >= state.file.size ? "Processing" : state.phase,
      };
    case "progressed":
      return {
        ...state,
        rows: action.rows,
        phase: action.phase === "validating" ? "Validating and loading rows" : state.phase,
      };
    case "imported":
      return {
        ...state,
        rows: action.rows,
        phase: "Done",
        success: action.message,
        run: action.runId === undefined ? state.run : { id: action.runId, status: null },
      };
    case "rejected":
      return { ...state, phase: "Rejected", failure: action.failure };
    case "failed":
      return { ...state, failure: { kind: "message", message: action.message } };
    case "ended":
      return { ...state, busy: false };
    case "run":
      return state.run ? { ...state, run: { id: state.run.id, status: action.status } } : state;
    case "mapped":
      return { ...state, mapping: { ...state.mapping, [action.name]: action.candidateId } };
  }
}
