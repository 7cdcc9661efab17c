import { describe, expect, it } from "vitest";
import { createCandidate, removeCandidate, shortlistCandidates, updateCandidate } from "./candidates";
import { db } from "../db";
import { TASK_PARAMETERS, updateDecisionParameters } from "./decisions";
import { importDataset, importLeaderboard, importPredictions, type UploadFile } from "../imports";
import { drainInlineJobs } from "../runs/queue";
import { holdInlineJobs } from "../runs/queue.test-helpers";
import { answerResemblance } from "./resemblances";
import type { Actor } from "../actors";
import { submitForReview } from "../signoff/submit-for-review";
import type { StoredRunMetrics } from "@/lib/pack/run-input";
import { computedMetrics } from "@/test/metrics-fixtures";
import { makeActor, makeCompleteDecision, makeDecision, rationaleCiting, unique } from "@/test/factories";

// Submitting a decision built from scratch (integration, real PostgreSQL): what is still missing,
// parameter changes recomputed through the job queue, and an edit racing the submission.

// Eval runs are computed by in-process jobs, so the test can hold and drain them.
process.env.VERDICT_JOBS = "inline";

const upload = (name: string, content: string): UploadFile => ({
  name,
  stream: (async function* () {
    yield Buffer.from(content, "utf8");
  })(),
});

/** A small labelled dataset, generated: 60 items, every third one violating. */
const N = 60;
const itemId = (i: number) => `item-${String(i).padStart(3, "0")}`;
const labels = Array.from({ length: N }, (_, i) => i % 3 === 0);
const datasetCsv = () =>
  ["id,label,text", ...labels.map((y, i) => `${itemId(i)},${y ? "violating" : "benign"},message ${i}`)].join("\n") +
  "\n";
/** Scores of two models: positives spread over [0.35, 0.89] or [0.2, 0.92], negatives lower but overlapping. */
const scoresOf = [
  labels.map((y, i) => (y ? 0.35 + (i % 7) * 0.09 : 0.05 + (i % 11) * 0.06)),
  labels.map((y, i) => (y ? 0.2 + (i % 9) * 0.09 : 0.02 + (i % 13) * 0.05)),
];
const predictionsCsv = (scores: number[]) =>
  ["id,score", ...scores.map((s, i) => `${itemId(i)},${s.toFixed(4)}`)].join("\n") + "\n";

/** TP and FP at threshold t, counted by hand (a score at the threshold is flagged). */
function countsAt(scores: number[], t: number) {
  const flagged = scores.map((s) => Number(s.toFixed(4)) >= t);
  return { tp: flagged.filter((f, i) => f && labels[i]).length, fp: flagged.filter((f, i) => f && !labels[i]).length };
}

/** A complete decision whose two candidates have DONE runs on an imported dataset and imported predictions. */
async function decisionWithRuns(analyst: Actor) {
  const fixture = await makeCompleteDecision(analyst, { evaluationVersion: false });
  const { decisionId, candidates } = fixture;
  const dataset = await importDataset(analyst, decisionId, upload("holdout.csv", datasetCsv()), {
    datasetName: "holdout",
    negativeLabels: ["benign"],
  });
  const runIds: number[] = [];
  for (const [k, c] of candidates.entries()) {
    const run = await importPredictions(
      analyst,
      decisionId,
      c.id,
      dataset.datasetVersionId,
      upload(`predictions-${k}.csv`, predictionsCsv(scoresOf[k]!)),
    );
    runIds.push(run.runId);
  }
  await drainInlineJobs();
  return { ...fixture, datasetVersionId: dataset.datasetVersionId, runIds };
}

const statusOf = async (decisionId: string) =>
  (await (await db()).decision.findUniqueOrThrow({ where: { id: decisionId }, select: { status: true } })).status;

async function refusal(analyst: Actor, decisionId: string) {
  const error = await submitForReview(analyst, decisionId).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "CONFLICT" });
  expect(await statusOf(decisionId)).toBe("DRAFT");
  expect(await (await db()).packRevision.count({ where: { decisionId } })).toBe(0);
  return (error as { details: { missing: string[] } }).details.missing;
}

describe("submitForReview checks that the decision is complete", () => {
  it("refuses an incomplete decision with each missing thing, naming the candidate or suite, and succeeds once complete", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const dataset = "Upload a labelled dataset: the pack is evaluated on one dataset version.";
    expect(await refusal(analyst, decisionId)).toEqual(["Shortlist at least one candidate.", dataset]);

    const cited = unique("Cited");
    await importLeaderboard(
      analyst,
      decisionId,
      upload("board.csv", "model,suite,metric,value\nacme/cited-1,HELM Lite,mean win rate,0.71\n"),
    );
    const [citedCandidate] = await shortlistCandidates(analyst, decisionId, {
      candidates: [{ name: cited, provider: "acme", modelId: "acme/cited-1", version: "", models: ["acme/cited-1"] }],
    });
    const bare = await createCandidate(analyst, {
      decisionId,
      name: unique("Bare"),
      provider: "us",
      modelId: "",
      version: "",
      aliases: [],
    });
    expect(await refusal(analyst, decisionId)).toEqual([
      `${cited}: shortlist rationale — Name the benchmark you rely on — one of: HELM Lite.`,
      `${bare.name}: shortlist rationale — Import a leaderboard or preference score for this candidate first: the rationale must cite a benchmark in the pack.`,
      dataset,
    ]);

    await updateCandidate(analyst, {
      candidateId: citedCandidate!.id,
      name: cited,
      provider: "acme",
      version: "",
      shortlistRationale: rationaleCiting("HELM Lite"),
    });
    await removeCandidate(analyst, bare.id);
    expect(await refusal(analyst, decisionId)).toEqual([
      `HELM Lite (cited for ${cited}): answer the three questions of resemblance — task, class distribution, prompt and scoring.`,
      dataset,
    ]);

    await answerResemblance(analyst, {
      decisionId,
      suite: "HELM Lite",
      task: "PARTIAL",
      taskNote: "",
      distribution: "MISMATCH",
      distributionNote: "",
      promptScoring: "PARTIAL",
      promptScoringNote: "",
    });
    const version = await importDataset(analyst, decisionId, upload("holdout.csv", datasetCsv()), {
      datasetName: "holdout",
      negativeLabels: ["benign"],
    });
    const prisma = await db();
    expect(
      (
        await prisma.decision.findUniqueOrThrow({
          where: { id: decisionId },
          select: { evaluationDatasetVersionId: true },
        })
      ).evaluationDatasetVersionId,
    ).toBe(version.datasetVersionId);

    const release = holdInlineJobs();
    await importPredictions(
      analyst,
      decisionId,
      citedCandidate!.id,
      version.datasetVersionId,
      upload("predictions.csv", predictionsCsv(scoresOf[0]!)),
    );
    const missing = await refusal(analyst, decisionId);
    release();
    expect(missing).toEqual(["1 eval run is still being computed; submit when the metrics are ready."]);
    await drainInlineJobs();

    const revision = await submitForReview(analyst, decisionId);
    expect(revision.number).toBe(1);
    expect(await statusOf(decisionId)).toBe("IN_REVIEW");
    expect(await prisma.auditEvent.count({ where: { decisionId, action: "decision.transition" } })).toBe(1);
  });

  it("says what is missing in the error's message too, for the API and the CLI", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId } = await makeCompleteDecision(analyst, { evaluationVersion: false });
    await expect(submitForReview(analyst, decisionId)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/cannot be submitted yet: Upload a labelled dataset/),
    });
  });
});

describe("a change of π and threshold on computed runs", () => {
  it("marks the runs PENDING, refuses submission while they are computed, and stores metrics at π = 0.10 and t = 0.3", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId, runIds } = await decisionWithRuns(analyst);
    const prisma = await db();
    const runs = () =>
      prisma.evalRun.findMany({
        where: { decisionId },
        orderBy: { id: "asc" },
        select: { id: true, status: true, metrics: true },
      });
    for (const r of await runs()) {
      expect(r.status).toBe("DONE");
      expect(computedMetrics(r.metrics).parameters).toMatchObject({ prevalence: 0.02, threshold: 0.5 });
    }

    const release = holdInlineJobs();
    const { decision, recomputing } = await updateDecisionParameters(analyst, decisionId, {
      prevalence: 0.1,
      operatingThreshold: 0.3,
    });
    expect(decision).toMatchObject({ prevalence: 0.1, operatingThreshold: 0.3 });
    expect(recomputing).toEqual(runIds);
    expect((await runs()).map((r) => r.status)).toEqual(["PENDING", "PENDING"]);
    const queued = await prisma.auditEvent.findFirstOrThrow({
      where: { decisionId, action: "eval_run.recompute_queued" },
      select: { actorId: true, after: true },
    });
    expect(queued).toMatchObject({
      actorId: analyst.id,
      after: { runIds, reason: "changed prevalence, operatingThreshold" },
    });
    const error = await submitForReview(analyst, decisionId).catch((e: unknown) => e);
    release();
    expect(error).toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/being computed/),
      details: { missing: ["2 eval runs are still being computed; submit when the metrics are ready."] },
    });
    expect(await statusOf(decisionId)).toBe("DRAFT");

    await drainInlineJobs();
    const after = await runs();
    after.forEach((r, k) => {
      expect(r.status).toBe("DONE");
      const metrics = computedMetrics(r.metrics);
      expect(metrics.parameters).toMatchObject({ prevalence: 0.1, threshold: 0.3 });
      expect(metrics.report.atThreshold).toMatchObject({ threshold: 0.3, ...countsAt(scoresOf[k]!, 0.3) });
    });
    const comparison = await prisma.runComparison.findFirstOrThrow({
      where: { decisionId },
      select: { thresholdA: true, thresholdB: true, items: true },
    });
    expect(comparison).toEqual({ thresholdA: 0.3, thresholdB: 0.3, items: N });

    const revision = await submitForReview(analyst, decisionId);
    const frozen = JSON.parse(
      (await prisma.packRevision.findUniqueOrThrow({ where: { id: revision.id }, select: { canonicalJson: true } }))
        .canonicalJson,
    ) as {
      task: { prevalence: number; operatingThreshold: number };
      evidence: { evalRuns: { metrics: StoredRunMetrics }[] };
    };
    expect(frozen.task).toMatchObject({ prevalence: 0.1, operatingThreshold: 0.3 });
    expect(frozen.evidence.evalRuns.map((r) => r.metrics.parameters.threshold)).toEqual([0.3, 0.3]);
  });
});

describe("an edit racing a submission", () => {
  /** The frozen revision's task parameters must be the row's: nothing changed after the freeze. */
  async function expectFrozenMatchesRow(decisionId: string) {
    const prisma = await db();
    const row = await prisma.decision.findUniqueOrThrow({
      where: { id: decisionId },
      select: { ...TASK_PARAMETERS, evaluationDatasetVersionId: true, status: true },
    });
    const revisions = await prisma.packRevision.findMany({ where: { decisionId }, select: { canonicalJson: true } });
    if (row.status !== "IN_REVIEW") return { row, frozen: null };
    expect(revisions).toHaveLength(1);
    const frozen = (JSON.parse(revisions[0]!.canonicalJson) as { task: Record<string, unknown> }).task;
    // The FIXED rule is left out of the pack, as in packs frozen before the rule existed (issue 14).
    const { status: _s, operatingRule, ...rest } = row;
    const parameters = operatingRule === "FIXED" ? rest : { ...rest, operatingRule };
    expect(frozen).toEqual(JSON.parse(JSON.stringify(parameters)));
    return { row, frozen };
  }

  /** Runs both at once, started in turn one before the other so that both orders happen. */
  async function race<E, S>(
    i: number,
    edit: () => Promise<E>,
    submit: () => Promise<S>,
  ): Promise<[PromiseSettledResult<E>, PromiseSettledResult<S>]> {
    if (i % 2 === 0) return Promise.allSettled([edit(), submit()]);
    const [s, e] = await Promise.allSettled([submit(), edit()]);
    return [e, s];
  }

  it("never ends in review with parameters changed after its revision was frozen", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const outcomes = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const { decisionId } = await makeCompleteDecision(analyst);
      const prevalence = 0.1 + i / 100;
      const edit = () =>
        updateDecisionParameters(analyst, decisionId, { prevalence, recallFloor: 0.7, sloP95E2eMs: 1000 + i });
      const submit = () => submitForReview(analyst, decisionId);
      const [e, s] = await race(i, edit, submit);
      expect(s.status).toBe("fulfilled");
      const { row } = await expectFrozenMatchesRow(decisionId);
      expect(row.status).toBe("IN_REVIEW");
      if (e.status === "fulfilled") {
        // The edit landed first: the revision froze it.
        expect(row).toMatchObject({ prevalence, recallFloor: 0.7, sloP95E2eMs: 1000 + i });
        outcomes.add("edit first");
      } else {
        // The submission froze the decision first: the edit was refused and changed nothing.
        expect(e.reason).toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/in review/) });
        expect(row).toMatchObject({ prevalence: 0.02, recallFloor: 0.85, sloP95E2eMs: 800 });
        outcomes.add("submit first");
      }
    }
    // Which order wins is up to the database; the invariant above must hold either way.
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it("with computed runs: the edit either lands before the freeze (and the submission waits for the recomputation) or is refused", async () => {
    const analyst = await makeActor(["ANALYST"]);
    for (let i = 0; i < 3; i++) {
      const { decisionId } = await decisionWithRuns(analyst);
      const release = holdInlineJobs();
      const edit = () => updateDecisionParameters(analyst, decisionId, { prevalence: 0.1, operatingThreshold: 0.3 });
      const submit = () => submitForReview(analyst, decisionId);
      const [e, s] = await race(i, edit, submit);
      release();
      await drainInlineJobs();
      const { row } = await expectFrozenMatchesRow(decisionId);
      const prisma = await db();
      if (e.status === "fulfilled") {
        // Edit first: its runs were PENDING when the submission looked, so it was refused.
        expect(s).toMatchObject({
          status: "rejected",
          reason: { code: "CONFLICT", message: expect.stringMatching(/being computed/) },
        });
        expect(row).toMatchObject({ status: "DRAFT", prevalence: 0.1, operatingThreshold: 0.3 });
        expect(await prisma.packRevision.count({ where: { decisionId } })).toBe(0);
      } else {
        // Submission first: the runs it froze are the ones computed at the old parameters.
        expect(s.status).toBe("fulfilled");
        expect(e.reason).toMatchObject({ code: "CONFLICT" });
        expect(row).toMatchObject({ status: "IN_REVIEW", prevalence: 0.02, operatingThreshold: 0.5 });
        const runs = await prisma.evalRun.findMany({ where: { decisionId }, select: { status: true, metrics: true } });
        for (const r of runs)
          expect(computedMetrics(r.metrics).parameters).toMatchObject({ prevalence: 0.02, threshold: 0.5 });
      }
    }
  });

  it("a parameter change while a run's job is computing never leaves the run with metrics of the old parameters", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId, runIds } = await decisionWithRuns(analyst);
    const database = await (await import("../db")).database();
    const { computeEvalRun } = await import("../runs/eval-runs");
    for (const prevalence of [0.05, 0.07, 0.09]) {
      // A job already computing (as a worker would be) when the analyst changes π. A job computes
      // only a run that waits for it, so the run is queued first, as an upload leaves it.
      await (await db()).evalRun.update({ where: { id: runIds[0]! }, data: { status: "PENDING" } });
      const computing = computeEvalRun(database, runIds[0]!).catch(() => undefined);
      await updateDecisionParameters(analyst, decisionId, { prevalence });
      await computing;
      await drainInlineJobs();
      const run = await (
        await db()
      ).evalRun.findUniqueOrThrow({ where: { id: runIds[0]! }, select: { status: true, metrics: true } });
      expect(run.status).toBe("DONE");
      expect(computedMetrics(run.metrics).parameters.prevalence).toBe(prevalence);
    }
  });
});
