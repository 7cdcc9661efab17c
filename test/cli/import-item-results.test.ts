import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { decisionWithDataset, fixturePath, parsedItems } from "@/test/item-results/datasets";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// `verdict import predictions` with another eval tool's file, spawned as a user runs it.
const BIAS =
  "lm-eval-harness/bias-classification/samples_bias_classification_2024-06-17T15-44-37.867068.FIRST150.jsonl";

describe("verdict import predictions with an lm-eval samples file", { timeout: SPAWN_TIMEOUT }, () => {
  it("previews, asks for a mapping, then imports with --id-field and --positive and computes the run", async () => {
    const items = await parsedItems(BIAS);
    const { analyst, decisionId, candidateId, datasetVersionId } = await decisionWithDataset(
      items.map((i) => ({ itemId: i.toolId, label: i.gold === "B" })),
    );
    const base = ["import", "predictions", fixturePath(BIAS), "--decision", decisionId, "--as", analyst.email];
    const target = ["--candidate", candidateId, "--dataset-version", String(datasetVersionId)];

    const preview = await verdict([...base, "--dataset-version", String(datasetVersionId), "--preview"]);
    expect(preview.stderr).toBe("");
    expect(preview.code).toBe(0);
    expect(JSON.parse(preview.stdout)).toMatchObject({
      format: { id: "lm-eval-samples" },
      itemCount: 150,
      scoreBasis: "label-token-probability",
      labels: ["A", "B"],
    });

    const unmapped = await verdict([...base, ...target]);
    expect(unmapped.code).toBe(1);
    expect(unmapped.stderr).toContain("suggested: --id-field toolId");
    expect(await (await db()).evalRun.count({ where: { decisionId } })).toBe(0);

    const done = await verdict([...base, ...target, "--id-field", "doc_id", "--positive", "B"]);
    expect(done.code).toBe(0);
    const summary = JSON.parse(done.stdout);
    expect(summary).toMatchObject({
      format: "lm-eval-samples",
      rowCount: 150,
      status: "DONE",
      scoreBasis: "label-token-probability",
      mapping: { idField: "doc_id", positiveLabels: ["B"] },
    });
    const run = await (await db()).evalRun.findUniqueOrThrow({ where: { id: summary.runId } });
    expect(run.toolRun).toMatchObject({ tool: "lm-evaluation-harness", format: "lm-eval-samples" });
  });
});
