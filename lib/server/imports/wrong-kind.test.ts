import path from "node:path";
import { describe, expect, it } from "vitest";
import { importDataset, importLeaderboard, importPredictions, importServing, ImportRejected, type UploadFile } from ".";
import { makeDecisionWithCandidate } from "@/test/factories";
import { bytes, counts } from "@/test/uploads";

const EXTERNAL = path.resolve(import.meta.dirname, "../../../test/fixtures/external");
const INGEST = path.resolve(import.meta.dirname, "../../../test/fixtures/ingest");
const file = (root: string, name: string): UploadFile => ({ name: path.basename(name), path: path.join(root, name) });

/** The refusal's one reason, after checking it is a refusal that wrote nothing but its audit event. */
/** Starts the upload only after counting, so its refusal is awaited from the start (never an unhandled rejection). */
async function refusal(decisionId: string, upload: () => Promise<unknown>): Promise<string> {
  const before = await counts(decisionId);
  const error = await upload().then(
    () => expect.fail("expected the file to be refused"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportRejected);
  expect(await counts(decisionId)).toEqual({ ...before, refused: before.refused + 1 });
  const details = (error as ImportRejected).details as {
    errors: { field: string; reason: string }[];
    errorCount: number;
  };
  expect(details.errorCount).toBe(1);
  expect(details.errors[0]!.field).toBe("(file)");
  return details.errors[0]!.reason;
}

/** Issue 26: a file offered as the wrong kind of evidence says what it is and where it belongs. */
describe("a file of the wrong kind", () => {
  it("a GuideLLM report offered as a leaderboard is named a serving benchmark", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const reason = await refusal(decisionId, () =>
      importLeaderboard(analyst, decisionId, file(EXTERNAL, "guidellm/benchmarks_stripped_v0.2-era.json")),
    );
    expect(reason).toBe(
      "this is a GuideLLM benchmarks report JSON (a serving benchmark), not leaderboard scores: upload it under serving",
    );
  });

  it("leaderboard files offered as serving benchmarks are named leaderboards", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    expect(
      await refusal(decisionId, () =>
        importServing(analyst, decisionId, file(EXTERNAL, "lm-eval-harness/results_2026-07-08T18-15-33.115417.json")),
      ),
    ).toMatch(/^this is a lm-evaluation-harness results JSON \(leaderboard scores\), .*upload it under leaderboards$/);
    expect(
      await refusal(decisionId, () =>
        importServing(analyst, decisionId, bytes("l.csv", "model;suite;metric;value\nm;mmlu;acc;0.7\n")),
      ),
    ).toMatch(/^this is a Generic leaderboard CSV .*\(leaderboard scores\), not a serving benchmark/);
  });

  it("the buyer's own files offered as another kind are named", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    expect(
      await refusal(decisionId, () => importLeaderboard(analyst, decisionId, file(INGEST, "predictions.csv"))),
    ).toBe("this is a candidate's predictions, not leaderboard scores: upload it under predictions");
    expect(
      await refusal(decisionId, () =>
        importDataset(analyst, decisionId, file(INGEST, "predictions-semicolon.csv"), { datasetName: "d" }),
      ),
    ).toBe("this is a candidate's predictions, not a labelled dataset: upload it under predictions");
    const ds = await importDataset(analyst, decisionId, file(INGEST, "dataset-semicolon.csv"), {
      datasetName: "holdout",
      negativeLabels: ["benign"],
    });
    expect(
      await refusal(decisionId, () =>
        importPredictions(
          analyst,
          decisionId,
          candidateId,
          ds.datasetVersionId,
          file(INGEST, "dataset-semicolon.csv"),
          {
            compute: "none",
          },
        ),
      ),
    ).toBe("this is a labelled dataset, not a candidate's predictions: upload it under datasets");
  });

  it("a file of the right kind keeps its own problems", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const error = await importLeaderboard(
      analyst,
      decisionId,
      bytes("l.csv", "model,suite,metric,value\nm,mmlu,acc,x\n"),
    ).catch((e: unknown) => e);
    expect((error as ImportRejected).details).toMatchObject({
      errors: [{ line: 2, field: "value", reason: "not a number" }],
    });
  });
});
