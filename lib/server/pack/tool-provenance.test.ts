import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import { drainInlineJobs } from "../runs/queue";
import { importItemResults } from "../imports/item-results";
import { rankingUndefinedReason } from "@/lib/pack/run-provenance";
import { decisionWithDataset, fixturePath } from "@/test/item-results/datasets";
import { readRuns } from "./read-model";
import { listRunItems } from "./drill-down";

/**
 * A run imported from another eval tool carries where its scores came from into the pack's read
 * model (stage 3's provenance line: the tool run and the file's name and SHA-256) and into the
 * drill-down; a hard-label run's AP is undefined with its reason. Real fixtures, real database.
 */
process.env.VERDICT_JOBS = "inline";

const POPULARITY = "inspect-ai/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval";
const sha = (relative: string) =>
  createHash("sha256")
    .update(readFileSync(fixturePath(relative)))
    .digest("hex");

describe("a tool run's provenance in the pack and the drill-down", () => {
  it("states the score basis, tool, task, model and file of a hard-label Inspect run, and no AP", async () => {
    // The real .eval: samples 1…10, gold " Yes" on the odd ids.
    const { analyst, decisionId, candidateId, datasetVersionId } = await decisionWithDataset(
      Array.from({ length: 10 }, (_, k) => ({ itemId: String(k + 1), label: k % 2 === 0 })),
    );
    const result = await importItemResults(
      analyst,
      decisionId,
      { candidateId, datasetVersionId },
      [{ name: POPULARITY.split("/")[1]!, path: fixturePath(POPULARITY) }],
      { idField: "id", positiveLabels: ["Yes"] },
    );
    await drainInlineJobs();

    const { runs } = await readRuns(await db(), decisionId, datasetVersionId);
    const run = runs.find((r) => r.runId === result.runId)!;
    expect(run.scoreBasis).toBe("hard-label");
    expect(run.toolFile).toEqual({ name: POPULARITY.split("/")[1], sha256: sha(POPULARITY) });
    expect(run.toolRun).toMatchObject({ tool: "inspect-ai", task: "popularity", mapping: { idField: "id" } });
    expect(rankingUndefinedReason(run)).toMatch(/one operating point/);
    expect(run.metrics!.report.atThreshold).toMatchObject({ tp: 3, fn: 2, fp: 0, tn: 5 });

    const page = await listRunItems(analyst, decisionId, result.runId, {});
    expect("provenance" in page.run && page.run.provenance).toEqual({
      line: `Scores: hard label only — inspect-ai 0.3.58.dev16+g6a87748b, task popularity (0, commit ef1d858c), model gpt-4o-mini-2024-07-18, file ${POPULARITY.split("/")[1]} (sha256 ${sha(POPULARITY).slice(0, 12)})`,
      mapping: "Mapping: item id from id; positive label(s) “Yes”.",
    });
  });
});
