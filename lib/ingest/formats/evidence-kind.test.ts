import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recogniseEvidenceKind, wrongKindReason } from "./evidence-kind";

const EXTERNAL = path.resolve(import.meta.dirname, "../../../test/fixtures/external");
const read = (file: string) => readFileSync(path.join(EXTERNAL, file), "utf8");

describe("recognising the kind of an evidence file", () => {
  it("names published formats by their detectors", () => {
    expect(recogniseEvidenceKind(read("guidellm/benchmarks_stripped_v0.2-era.json"))).toEqual({
      kind: "serving",
      format: "guidellm",
      label: "GuideLLM benchmarks report JSON",
    });
    expect(recogniseEvidenceKind(read("chatbot-arena/leaderboard_table_20231206.csv"))).toMatchObject({
      kind: "leaderboard",
      format: "chatbot-arena-csv",
    });
    expect(recogniseEvidenceKind(read("genai-perf/profile_export_genai_perf.csv"))).toMatchObject({
      kind: "serving",
      format: "genai-perf-csv",
    });
  });

  it("tells the buyer's datasets from predictions by their columns, in CSV (any separator) and JSON Lines", () => {
    expect(recogniseEvidenceKind("id,label,text\na,1,x\n")).toEqual({ kind: "dataset" });
    expect(recogniseEvidenceKind("\uFEFFitem_id;score\na;0.5\n")).toEqual({ kind: "predictions" });
    expect(recogniseEvidenceKind('{"id":"a","predicted":"spam"}\n')).toEqual({ kind: "predictions" });
    // Both a gold label and a score: either kind may read it, so it is not named.
    expect(recogniseEvidenceKind("id,label,score\na,1,0.5\n")).toBeUndefined();
    expect(recogniseEvidenceKind("identifier,gold_truth\nx,1\n")).toBeUndefined();
    expect(recogniseEvidenceKind("{ not json")).toBeUndefined();
  });
});

describe("the wrong-kind reason", () => {
  it("says what the file is and where it belongs", () => {
    expect(
      wrongKindReason({ kind: "serving", format: "guidellm", label: "GuideLLM benchmarks report JSON" }, "leaderboard"),
    ).toBe(
      "this is a GuideLLM benchmarks report JSON (a serving benchmark), not leaderboard scores: upload it under serving",
    );
    expect(
      wrongKindReason(
        { kind: "leaderboard", format: "lm-eval-harness", label: "lm-evaluation-harness results JSON" },
        "serving",
      ),
    ).toBe(
      "this is a lm-evaluation-harness results JSON (leaderboard scores), not a serving benchmark: upload it under leaderboards",
    );
    expect(wrongKindReason({ kind: "predictions" }, "leaderboard")).toBe(
      "this is a candidate's predictions, not leaderboard scores: upload it under predictions",
    );
    expect(wrongKindReason({ kind: "dataset" }, "predictions")).toBe(
      "this is a labelled dataset, not a candidate's predictions: upload it under datasets",
    );
  });
});
