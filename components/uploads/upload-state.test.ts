import { describe, expect, it } from "vitest";
import { initialUploadState, uploadReducer, type UploadAction, type UploadState } from "./upload-state";

const run = (actions: UploadAction[], from: UploadState = initialUploadState) => actions.reduce(uploadReducer, from);
const file = new File(["id,label\na,1\n"], "holdout.csv", { type: "text/csv" });

describe("uploadReducer", () => {
  it("follows an upload from the first byte to the imported rows and its run", () => {
    const sending = run([{ type: "chose", file }, { type: "started" }, { type: "sent", loaded: 4 }]);
    expect(sending).toMatchObject({ busy: true, bytes: 4, phase: "Uploading" });
    const loading = run(
      [
        { type: "sent", loaded: file.size },
        { type: "progressed", phase: "validating", rows: 1 },
      ],
      sending,
    );
    expect(loading).toMatchObject({ phase: "Validating and loading rows", rows: 1 });
    const done = run([{ type: "imported", rows: 1, message: "Imported 1 rows", runId: 7 }, { type: "ended" }], loading);
    expect(done).toMatchObject({
      busy: false,
      phase: "Done",
      success: "Imported 1 rows",
      run: { id: 7, status: null },
    });
    const computed = uploadReducer(done, {
      type: "run",
      status: { status: "DONE", progress: 1, itemCount: 1, missingCount: 0, error: null },
    });
    expect(computed.run).toEqual({
      id: 7,
      status: { status: "DONE", progress: 1, itemCount: 1, missingCount: 0, error: null },
    });
  });

  it("keeps a rejection's report until another file is chosen, and a new upload clears the last one", () => {
    const rejected = run([
      { type: "chose", file },
      { type: "started" },
      { type: "rejected", failure: { kind: "message", message: "no" } },
      { type: "ended" },
    ]);
    expect(rejected).toMatchObject({ phase: "Rejected", failure: { kind: "message", message: "no" }, busy: false });
    expect(uploadReducer(rejected, { type: "chose", file }).failure).toBeNull();
    expect(uploadReducer(rejected, { type: "started" })).toMatchObject({
      failure: null,
      success: null,
      run: null,
      bytes: 0,
      rows: null,
    });
  });

  it("maps unmatched model names one by one", () => {
    expect(
      run([
        { type: "mapped", name: "a", candidateId: "c1" },
        { type: "mapped", name: "b", candidateId: "" },
      ]).mapping,
    ).toEqual({ a: "c1", b: "" });
  });
});
