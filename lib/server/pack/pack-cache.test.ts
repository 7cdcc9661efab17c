import { describe, expect, it } from "vitest";
import { makeActor, makeCompleteDecision } from "@/test/factories";
import { updateCandidate } from "../decisions/candidates";
import { updateDecisionParameters } from "../decisions/decisions";
import { getPackData, getPackDecision, getPackRuns } from "./get-pack";
import { importDataset, importPredictions, type UploadFile } from "../imports";
import { drainInlineJobs } from "../runs/queue";

// The page's read model is kept across requests while the decision's evidence state is unchanged,
// and every mutation that changes the pack — parameters, a candidate, an upload, a metrics job —
// is seen by the next read (integration, real PostgreSQL).
process.env.VERDICT_JOBS = "inline";

const upload = (name: string, content: string): UploadFile => ({
  name,
  stream: (async function* () {
    yield Buffer.from(content, "utf8");
  })(),
});
const N = 40;
const dataset = ["id,label", ...Array.from({ length: N }, (_, i) => `i${i},${i % 4 === 0 ? 1 : 0}`)].join("\n") + "\n";
const predictions =
  ["id,score", ...Array.from({ length: N }, (_, i) => `i${i},${((i * 37) % 97) / 97}`)].join("\n") + "\n";

describe("the page's read model across requests", () => {
  it("is read once per evidence state, and a mutation is seen by the next read", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const reviewer = await makeActor(["REVIEWER"]);
    const { decisionId, candidates } = await makeCompleteDecision(analyst, { evaluationVersion: false });

    // Unchanged state: the same stored read, whoever reads it (the permission is checked each time).
    const first = await getPackDecision(analyst, decisionId);
    expect(await getPackDecision(reviewer, decisionId)).toBe(first);
    await expect(getPackDecision(await makeActor([]), decisionId)).rejects.toThrow();

    await updateDecisionParameters(analyst, decisionId, { prevalence: 0.07 });
    const afterParameters = await getPackDecision(reviewer, decisionId);
    expect(afterParameters).not.toBe(first);
    expect(afterParameters.decision.prevalence).toBe(0.07);

    const c = candidates[0]!;
    await updateCandidate(
      analyst,
      {
        candidateId: c.id,
        name: `${c.name} renamed`,
        provider: "test",
        version: "",
        shortlistRationale: afterParameters.candidates[0]!.shortlistRationale,
      },
      {},
      decisionId,
    );
    expect((await getPackDecision(reviewer, decisionId)).candidates.map((x) => x.name)).toContain(`${c.name} renamed`);

    const version = await importDataset(analyst, decisionId, upload("holdout.csv", dataset), {
      datasetName: "holdout",
    });
    const run = await importPredictions(
      analyst,
      decisionId,
      c.id,
      version.datasetVersionId,
      upload("a.csv", predictions),
    );
    // Before the metrics job: the run does not count yet; after it, the next read has its metrics.
    expect(await getPackRuns(reviewer, decisionId)).toEqual([]);
    await drainInlineJobs();
    const runs = await getPackRuns(reviewer, decisionId);
    expect(runs.map((r) => r.runId)).toEqual([run.runId]);
    expect(runs[0]!.metrics?.parameters.prevalence).toBe(0.07);
    expect((await getPackData(reviewer, decisionId)).runs).toEqual(runs);
  });
});
