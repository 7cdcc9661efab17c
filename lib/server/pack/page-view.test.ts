import { describe, expect, it } from "vitest";
import { makeActor, makeCompleteDecision } from "@/test/factories";
import { updateDecisionParameters } from "../decisions/decisions";
import { getPackData, getPackSignoff, getPackStateTag, getPageView, getStoredVerdict } from "./get-pack";
import { importDataset, importPredictions, type UploadFile } from "../imports";
import { drainInlineJobs } from "../runs/queue";
import { acrossStagesAt, packResultsAt, whatIfPack } from "@/lib/pack/what-if-pack";
import { verdictSummaryOf } from "@/lib/pack/verdict-summary";

// The decision page's view and its stored results (issue 12 item 1), integration on PostgreSQL:
// what the page renders on the server equals what the browser's what-if derives at the stored
// parameters, the view travels as JSON unchanged, and the tag follows the evidence state.
process.env.VERDICT_JOBS = "inline";

const upload = (name: string, content: string): UploadFile => ({
  name,
  stream: (async function* () {
    yield Buffer.from(content, "utf8");
  })(),
});
const N = 60;
const dataset = ["id,label", ...Array.from({ length: N }, (_, i) => `i${i},${i % 4 === 0 ? 1 : 0}`)].join("\n") + "\n";
const scores = (k: number) =>
  ["id,score", ...Array.from({ length: N }, (_, i) => `i${i},${((i * (31 + k * 6)) % 97) / 97}`)].join("\n") + "\n";

describe("the decision page's view", () => {
  it("holds the series, curves and compact pack; the stored results equal the browser's derivation; the tag follows the state", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const reviewer = await makeActor(["REVIEWER"]);
    const { decisionId, candidates } = await makeCompleteDecision(analyst, { evaluationVersion: false });
    const version = await importDataset(analyst, decisionId, upload("holdout.csv", dataset), {
      datasetName: "holdout",
    });
    for (const [k, c] of candidates.entries())
      await importPredictions(analyst, decisionId, c.id, version.datasetVersionId, upload(`${k}.csv`, scores(k)));
    await drainInlineJobs();

    const view = await getPageView(reviewer, decisionId);
    const data = await getPackData(reviewer, decisionId);
    const pack = whatIfPack(data);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view); // JSON carries it unchanged
    expect(view.whatIf).toEqual(pack);
    expect(view.tag).toBe(await getPackStateTag(reviewer, decisionId));
    expect(Object.keys(view.series).sort()).toEqual(["pr-curves", "reliability"]);
    expect(view.series["pr-curves"]!.map((s) => s.name)).toEqual(candidates.map((c) => c.name));
    for (const c of candidates) expect(view.curves[c.id]!.roc!.tp.length).toBeGreaterThan(1);

    const stored = { threshold: null, prevalence: data.decision.prevalence };
    // The stages' tables travel in the view, at the stored parameters, without the runs' curves;
    // the browser derives the across-stages summary from the view's compact pack.
    expect(acrossStagesAt(view.whatIf, { threshold: null, prevalence: view.whatIf.decision.prevalence })).toEqual(
      acrossStagesAt(pack, stored),
    );
    expect(view.sections.candidates.map((c) => c.id)).toEqual(candidates.map((c) => c.id));
    expect(view.sections.task.runs.map((r) => r.metrics!.report)).toEqual(data.runs.map((r) => r.metrics!.report));
    expect(view.sections.task.runs.every((r) => !("curves" in r.metrics!))).toBe(true);
    expect(view.sections.stress.stored.map((s) => s.runId)).toEqual(data.runs.map((r) => r.runId));
    expect(view.sections.stress.candidates.every((c) => c.roc === null && c.pr === null)).toBe(true);
    expect(view.sections.operational.charts.map((c) => c.id)).toHaveLength(4);
    expect(view.taskCharts.map((c) => c.id)).toEqual(["pr-curves", "reliability"]);
    const { summary } = await getStoredVerdict(reviewer, decisionId);
    expect(summary).toEqual(
      verdictSummaryOf(pack, packResultsAt(pack, stored), await getPackSignoff(reviewer, decisionId)),
    );

    await expect(getPageView(await makeActor([]), decisionId)).rejects.toThrow();
    await updateDecisionParameters(analyst, decisionId, { quorum: 3 });
    const after = await getPageView(reviewer, decisionId);
    expect(after.tag).not.toBe(view.tag);
    expect(after.whatIf.decision.quorum).toBe(3);
  });
});
