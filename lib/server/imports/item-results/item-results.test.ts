import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { drainInlineJobs } from "../../runs/queue";
import { readRuns } from "../../pack/read-model";
import { storedRunMetrics } from "@/lib/pack/run-input";
import { importItemResults, previewItemResults } from ".";
import type { UploadFile } from "../files";
import { bytes, counts } from "@/test/uploads";
import { decisionWithDataset, fixturePath, parsedItems } from "@/test/item-results/datasets";

/**
 * Other eval tools' per-item results imported through the server into the real test database:
 * the lm-eval samples' AP against a reference computed here from the file's own log-likelihoods,
 * and the refusals (gold disagreeing, duplicate and unknown ids, positional order) leaving
 * nothing behind.
 */
process.env.VERDICT_JOBS = "inline";

const BIAS =
  "lm-eval-harness/bias-classification/samples_bias_classification_2024-06-17T15-44-37.867068.FIRST150.jsonl";
const file = (relative: string): UploadFile => ({ name: relative.split("/").pop()!, path: fixturePath(relative) });

/** scikit-learn's average_precision_score, written out: Σ (R_k − R_{k−1}) P_k over distinct thresholds, descending. */
function referenceAp(pairs: { label: boolean; score: number }[]): number {
  const sorted = [...pairs].sort((a, b) => b.score - a.score);
  const positives = pairs.filter((p) => p.label).length;
  let tp = 0;
  let fp = 0;
  let ap = 0;
  let lastRecall = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]!.label) tp++;
    else fp++;
    if (i + 1 < sorted.length && sorted[i + 1]!.score === sorted[i]!.score) continue;
    const recall = tp / positives;
    ap += (recall - lastRecall) * (tp / (tp + fp));
    lastRecall = recall;
  }
  return ap;
}

/** The bias-classification lines as raw JSON: doc_id, target letter, the two log-likelihoods. */
function biasLines() {
  return readFileSync(fixturePath(BIAS), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const line = JSON.parse(l) as { doc_id: number; target: string; filtered_resps: [string, string][] };
      const [llA, llB] = line.filtered_resps.map((r) => Number(r[0])) as [number, number];
      return { id: String(line.doc_id), gold: line.target, pB: 1 / (1 + Math.exp(llA - llB)) };
    });
}

async function biasDecision() {
  return decisionWithDataset(biasLines().map((l) => ({ itemId: l.id, label: l.gold === "B" })));
}

describe("lm-evaluation-harness samples through the importer", () => {
  it("previews the id fields, labels and a mapping, then imports P(B) as label-token probability with scikit-learn's AP", async () => {
    const { analyst, decisionId, candidateId, datasetVersionId } = await biasDecision();
    const preview = await previewItemResults(analyst, decisionId, [file(BIAS)], { datasetVersionId });
    expect(preview.format.id).toBe("lm-eval-samples");
    expect(preview.itemCount).toBe(150);
    expect(preview.scoreBasis).toBe("label-token-probability");
    expect(preview.labels).toEqual(["A", "B"]);
    expect(preview.idFields.find((f) => f.path === "doc_id")).toMatchObject({ matches: 150, sampled: 150 });
    expect(preview.idFields.find((f) => f.path === "doc.Bias")).toMatchObject({ matches: 0 });
    expect(preview.suggested.idField).toBe("toolId");

    const mapping = { idField: "doc_id", positiveLabels: ["B"] };
    const result = await importItemResults(
      analyst,
      decisionId,
      { candidateId, datasetVersionId },
      [file(BIAS)],
      mapping,
    );
    expect(result).toMatchObject({
      existing: false,
      format: "lm-eval-samples",
      rowCount: 150,
      missingCount: 0,
      scoreBasis: "label-token-probability",
      unknownScoreCount: 0,
      mapping,
    });
    await drainInlineJobs();
    const prisma = await db();
    const run = await prisma.evalRun.findUniqueOrThrow({ where: { id: result.runId } });
    expect(run.status).toBe("DONE");
    expect(run.scoreBasis).toBe("label-token-probability");
    expect(run.toolRun).toMatchObject({
      tool: "lm-evaluation-harness",
      task: "bias_classification",
      format: "lm-eval-samples",
      scoreBasis: "label-token-probability",
      mapping,
      unknownScoreCount: 0,
    });
    const metrics = storedRunMetrics(run.metrics)!;
    const expected = referenceAp(biasLines().map((l) => ({ label: l.gold === "B", score: l.pB })));
    expect(metrics.report.averagePrecision).toBeCloseTo(expected, 10);
    // The pack's read model (GET /api/v1/decisions/<id>) states where the run's scores came from.
    const { runs } = await readRuns(prisma, decisionId, null);
    expect(runs.find((r) => r.runId === result.runId)).toMatchObject({
      scoreBasis: "label-token-probability",
      toolRun: { tool: "lm-evaluation-harness", mapping },
    });
    const stored = await prisma.prediction.findFirstOrThrow({ where: { evalRunId: result.runId, itemId: "0" } });
    expect(stored.score).toBeCloseTo(biasLines()[0]!.pB, 12);

    // The same bytes and mapping again: the same run, nothing written.
    const before = await counts(decisionId);
    const again = await importItemResults(analyst, decisionId, { candidateId, datasetVersionId }, [file(BIAS)], {
      idField: "doc_id",
      positiveLabels: [" B "],
    });
    expect(again).toMatchObject({ existing: true, runId: result.runId, scoreBasis: "label-token-probability" });
    expect(await counts(decisionId)).toEqual(before);
  });

  it("refuses a gold label that disagrees with the dataset's, naming both, and writes nothing", async () => {
    const lines = biasLines();
    const { analyst, decisionId, candidateId, datasetVersionId } = await decisionWithDataset(
      lines.map((l) => ({ itemId: l.id, label: l.id === "7" ? l.gold !== "B" : l.gold === "B" })),
    );
    const before = await counts(decisionId);
    const error = await importItemResults(analyst, decisionId, { candidateId, datasetVersionId }, [file(BIAS)], {
      idField: "doc_id",
      positiveLabels: ["B"],
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION", details: { errorCount: 1 } });
    const [issue] = (error as { details: { errors: { record: string; field: string; reason: string }[] } }).details
      .errors;
    expect(issue).toMatchObject({ record: "line 8, id 7", field: "gold" });
    expect(issue!.reason).toContain("the dataset labels id 7");
    const after = await counts(decisionId);
    expect({ ...after, refused: 0 }).toEqual({ ...before, refused: 0 });
    expect(after.refused).toBe(before.refused + 1);
  });

  it("refuses unknown ids and an id field of the wrong kind", async () => {
    const lines = biasLines().slice(0, 100);
    const { analyst, decisionId, candidateId, datasetVersionId } = await decisionWithDataset(
      lines.map((l) => ({ itemId: l.id, label: l.gold === "B" })),
    );
    const unknown = await importItemResults(analyst, decisionId, { candidateId, datasetVersionId }, [file(BIAS)], {
      idField: "doc_id",
      positiveLabels: ["B"],
    }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: "VALIDATION", details: { errorCount: 50 } });
    expect((unknown as { details: { errors: object[] } }).details.errors[0]).toMatchObject({
      field: "doc_id",
      value: "100",
      record: "line 101",
    });
    // doc.Bias ("Yes"/"No") as the id: every other item repeats an earlier one's id.
    const dup = await importItemResults(analyst, decisionId, { candidateId, datasetVersionId }, [file(BIAS)], {
      idField: "doc.Bias",
      positiveLabels: ["B"],
    }).catch((e: unknown) => e);
    expect(dup).toMatchObject({ code: "VALIDATION", details: { errorCount: 148 } });
    expect((dup as { details: { errors: { reason: string }[] } }).details.errors[0]!.reason).toMatch(
      /^duplicate id \(first at line \d+\)/,
    );
    expect((await counts(decisionId)).runs).toBe(0);
  });

  it("reads positional ids only in the dataset's order, verified against the dataset's text", async () => {
    const lines = biasLines();
    const items = await parsedItems(BIAS);
    const sentences = items.map((i) => i.idFields["doc.Sentence"]!);
    const inOrder = await decisionWithDataset(
      lines.map((l, k) => ({ itemId: `item-${k}`, label: l.gold === "B", text: sentences[k] })),
    );
    const ok = await importItemResults(
      inOrder.analyst,
      inOrder.decisionId,
      { candidateId: inOrder.candidateId, datasetVersionId: inOrder.datasetVersionId },
      [file(BIAS)],
      { idField: "position", positiveLabels: ["B"] },
      { compute: "none" },
    );
    expect(ok.rowCount).toBe(150);
    expect(ok.warnings[0]).toBe("Positional ids: 150 of 150 item(s) verified against the dataset's text.");

    // The dataset in another order: the first item's text is not the file's first input.
    const swapped = [...lines.keys()].map((k) => (k === 0 ? 1 : k === 1 ? 0 : k));
    const other = await decisionWithDataset(
      swapped.map((k) => ({ itemId: `item-${k}`, label: lines[k]!.gold === "B", text: sentences[k] })),
    );
    const error = await importItemResults(
      other.analyst,
      other.decisionId,
      { candidateId: other.candidateId, datasetVersionId: other.datasetVersionId },
      [file(BIAS)],
      { idField: "position", positiveLabels: ["B"] },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION" });
    expect((error as { details: { errors: object[] } }).details.errors[0]).toMatchObject({
      record: "line 1",
      field: "position",
    });
    expect((await counts(other.decisionId)).runs).toBe(0);
  });

  it("refuses a file that is not an eval tool's results, and an invalid mapping", async () => {
    const { analyst, decisionId, candidateId, datasetVersionId } = await biasDecision();
    await expect(
      importItemResults(analyst, decisionId, { candidateId, datasetVersionId }, [bytes("x.txt", "hello")], {
        idField: "doc_id",
        positiveLabels: ["B"],
      }),
    ).rejects.toMatchObject({ code: "VALIDATION" });
    await expect(
      importItemResults(analyst, decisionId, { candidateId, datasetVersionId }, [file(BIAS)], {
        idField: "doc_id",
        positiveLabels: [],
      }),
    ).rejects.toThrow(/positiveLabels/);
  });
});
