import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/canonical-json";
import { makeActor, makeCompleteDecision } from "@/test/factories";
import { db } from "../db";
import { getPackData, getPackModel } from "./get-pack";
import { importDataset, importPredictions, type UploadFile } from "../imports";
import { drainInlineJobs } from "../runs/queue";
import { buildPack } from "../signoff/build-pack";
import { buildPackExport } from "./export-model";

// One read model (integration, real PostgreSQL): the page's reads, the API, the JSON export and
// the frozen revision state the same runs and the same results; runs on another dataset version,
// superseded runs and unfinished ones are listed apart and never compared.
process.env.VERDICT_JOBS = "inline";

const upload = (name: string, content: string): UploadFile => ({
  name,
  stream: (async function* () {
    yield Buffer.from(content, "utf8");
  })(),
});
const N = 80;
const id = (i: number) => `item-${String(i).padStart(3, "0")}`;
const dataset = (shift: number) =>
  ["id,label", ...Array.from({ length: N }, (_, i) => `${id(i)},${(i + shift) % 4 === 0 ? 1 : 0}`)].join("\n") + "\n";
const predictions = (seed: number) =>
  [
    "id,score",
    ...Array.from({ length: N }, (_, i) => `${id(i)},${(((i * 37 + seed * 11) % 97) / 97).toFixed(4)}`),
  ].join("\n") + "\n";

describe("the pack's read model", () => {
  it("page, API, JSON export and revision agree; other runs are listed apart, never compared", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId, candidates } = await makeCompleteDecision(analyst, { evaluationVersion: false });
    const a = candidates[0]!;
    const b = candidates[1]!;
    const v1 = await importDataset(analyst, decisionId, upload("holdout.csv", dataset(0)), { datasetName: "holdout" });
    const v2 = await importDataset(analyst, decisionId, upload("holdout-v2.csv", dataset(1)), {
      datasetName: "holdout",
    });
    // v1 is the evaluation version (the first upload). A's first run is superseded by its second;
    // B has a run on v1 and a newer one on v2, which must not replace it.
    const aOld = await importPredictions(
      analyst,
      decisionId,
      a.id,
      v1.datasetVersionId,
      upload("a1.csv", predictions(1)),
    );
    const aNew = await importPredictions(
      analyst,
      decisionId,
      a.id,
      v1.datasetVersionId,
      upload("a2.csv", predictions(2)),
    );
    const bRun = await importPredictions(
      analyst,
      decisionId,
      b.id,
      v1.datasetVersionId,
      upload("b1.csv", predictions(3)),
    );
    const bOther = await importPredictions(
      analyst,
      decisionId,
      b.id,
      v2.datasetVersionId,
      upload("b2.csv", predictions(4)),
    );
    await drainInlineJobs();

    const api = await getPackModel(analyst, decisionId);
    expect(api.decision.evaluationDatasetVersionId).toBe(v1.datasetVersionId);
    expect(api.runs.map((r) => r.runId).sort()).toEqual([aNew.runId, bRun.runId].sort());
    expect(Object.fromEntries(api.otherRuns.map((r) => [r.runId, r.reason]))).toEqual({
      [aOld.runId]: "superseded by a newer run",
      [bOther.runId]: "another dataset version",
    });
    // Paired comparisons only between the runs that count.
    expect(api.comparisons).toHaveLength(1);
    expect(new Set([api.comparisons[0]!.candidateAId, api.comparisons[0]!.candidateBId])).toEqual(
      new Set([a.id, b.id]),
    );

    const page = await getPackData(analyst, decisionId);
    expect(canonicalJson(page.runs)).toBe(canonicalJson(api.runs));
    expect(canonicalJson(page.comparisons)).toBe(canonicalJson(api.comparisons));

    const exported = await buildPackExport(analyst, decisionId);
    expect(canonicalJson(exported.evidence.runs)).toBe(canonicalJson(api.runs));
    expect(canonicalJson(exported.results)).toBe(canonicalJson(api.results));
    expect(canonicalJson(exported.otherRuns)).toBe(canonicalJson(api.otherRuns));

    const prisma = await db();
    const revision = JSON.parse((await prisma.$transaction((tx) => buildPack(tx, decisionId))).canonicalJson) as {
      results: unknown;
      runsThatCount: { runId: number }[];
    };
    expect(canonicalJson(revision.results)).toBe(canonicalJson(api.results));
    expect(revision.runsThatCount.map((r) => r.runId).sort()).toEqual([aNew.runId, bRun.runId].sort());

    // Choosing v2 as the evaluation version: B's v2 run counts, A has none there.
    await prisma.decision.update({
      where: { id: decisionId },
      data: { evaluationDatasetVersionId: v2.datasetVersionId },
    });
    const onV2 = await getPackModel(analyst, decisionId);
    expect(onV2.runs.map((r) => r.runId)).toEqual([bOther.runId]);
    expect(onV2.comparisons).toEqual([]);
    expect(onV2.results.gates.find((g) => g.candidateId === a.id)?.passes).toBe(false);
  });
});
