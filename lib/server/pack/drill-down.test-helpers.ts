import "server-only";
import { computeComparisons } from "../runs/comparisons";
import { database, db } from "../db";
import { computeEvalRun } from "../runs/eval-runs";
import { makeActor, makeDecision, unique } from "@/test/factories";

// Eleven items, hand-checked at t = 0.5 (predicted positive ⇔ score ≥ t). Run A has a parse
// failure (i04) and a missing prediction (i05): both positives, so both are false negatives with
// the wrong-side score 0 (every score is a probability). Run B is another candidate on the same items.
export const items = [
  { id: "i01", label: true, slice: "s1", a: 0.9, b: 0.8 },
  { id: "i02", label: true, slice: "s1", a: 0.2, b: 0.7 },
  { id: "i03", label: true, slice: "s2", a: 0.4, b: 0.1 },
  { id: "i04", label: true, slice: "s2", a: "parse-failure", b: 0.6 },
  { id: "i05", label: true, slice: "s1", a: "missing", b: 0.9 },
  { id: "i06", label: false, slice: null, a: 0.7, b: 0.2 },
  { id: "i07", label: false, slice: null, a: 0.95, b: 0.9 },
  { id: "i08", label: false, slice: "s2", a: 0.1, b: 0.6 },
  { id: "i09", label: false, slice: null, a: 0.3, b: 0.1 },
  { id: "i10", label: false, slice: null, a: 0.5, b: 0.4 },
  { id: "i11", label: true, slice: "s2", a: 0.2, b: 0.3 },
] as const;

// FN by score ascending (i04, i05 at 0: by id), then FP by score descending (i10 at exactly t is
// predicted positive), then TP ascending, then TN descending: the worst for its label first.
export const ALL_A = ["i04", "i05", "i02", "i11", "i03", "i07", "i06", "i10", "i01", "i09", "i08"];

/** A decision with three candidates' runs that count on those items, computed, and their comparisons. */
export async function seedDrillDecision() {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const [a, b, c] = await Promise.all(
    ["A", "B", "C"].map((n) =>
      prisma.candidate.create({
        data: { decisionId, name: unique(n), provider: "p", operatingThreshold: 0.5 },
        select: { id: true, name: true },
      }),
    ),
  );
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("ds") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: items.length, positiveCount: 6 },
    select: { id: true },
  });
  await prisma.decision.update({ where: { id: decisionId }, data: { evaluationDatasetVersionId: version.id } });
  await prisma.datasetItem.createMany({
    data: items.map((i) => ({
      datasetVersionId: version.id,
      itemId: i.id,
      label: i.label,
      slice: i.slice,
      text: i.id === "i07" ? '=HYPERLINK("x")' : `text of ${i.id}, with a comma`,
    })),
  });
  const runOf = async (candidateId: string) =>
    prisma.evalRun.create({ data: { decisionId, candidateId, datasetVersionId: version.id }, select: { id: true } });
  const runA = await runOf(a!.id);
  await prisma.prediction.createMany({
    data: items.flatMap((i) =>
      i.a === "missing"
        ? []
        : [
            {
              evalRunId: runA.id,
              itemId: i.id,
              score: i.a === "parse-failure" ? null : i.a,
              parseFailure: i.a === "parse-failure",
            },
          ],
    ),
  });
  const runB = await runOf(b!.id);
  await prisma.prediction.createMany({ data: items.map((i) => ({ evalRunId: runB.id, itemId: i.id, score: i.b })) });
  // C gives hard labels only: predicted positive on i01, i02 and i06; a parse failure on negative i09.
  const runC = await runOf(c!.id);
  await prisma.prediction.createMany({
    data: items.map((i) => ({
      evalRunId: runC.id,
      itemId: i.id,
      predicted: ["i01", "i02", "i06"].includes(i.id),
      parseFailure: i.id === "i09",
    })),
  });
  for (const run of [runA, runB, runC]) await computeEvalRun(await database(), run.id);
  await computeComparisons(await database(), decisionId);
  return { analyst, decisionId, runA: runA.id, runB: runB.id, runC: runC.id, a: a!, b: b!, versionId: version.id };
}
