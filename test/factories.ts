import { randomUUID } from "node:crypto";
import type { RoleName } from "../lib/auth/permissions.ts";
import type { Actor } from "../lib/server/session.ts";
import { db } from "../lib/server/db.ts";
import { demoDecision } from "../lib/demo/moderation.ts";

/** Per-test factories: unique names, so test files can run in parallel on one database. */
export const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Test users were enrolled an hour ago, before any revision a test freezes (the signing rules refuse later accounts). */
const ENROLLED_AT = () => new Date(Date.now() - 60 * 60_000);

/**
 * A user of its own. Printed names are unique among active users: an unnamed actor gets a unique
 * name, and a named one whose name an earlier test's user holds gets it with a suffix.
 */
export async function makeActor(roles: RoleName[], name?: string): Promise<Actor> {
  const prisma = await db();
  const email = `${unique("user")}@verdict.test`;
  const create = (printed: string) =>
    prisma.user.create({
      data: {
        email,
        name: printed,
        roles,
        passwordHash: "not-a-real-hash",
        createdAt: ENROLLED_AT(),
        approverSince: roles.includes("APPROVER") ? ENROLLED_AT() : null,
        // Confirmed by the operator (four-eyes enrolment); tests of the confirmation make their own.
        signerConfirmedAt: ENROLLED_AT(),
      },
      select: { id: true, email: true, name: true },
    });
  const user = await create(name ?? unique("Test User")).catch((error: { code?: string }) => {
    if (error.code === "P2002") return create(unique(name ?? "Test User"));
    throw error;
  });
  return { ...user, roles };
}

export async function makeDecision(
  createdBy: Actor,
  overrides: Partial<{ title: string; status: "DRAFT" | "IN_REVIEW"; quorum: number }> = {},
) {
  const prisma = await db();
  const { id: _id, ...params } = demoDecision;
  return prisma.decision.create({
    data: {
      ...params,
      operatingRule: "FIXED",
      title: overrides.title ?? unique("Decision"),
      status: overrides.status,
      quorum: overrides.quorum ?? params.quorum,
      createdById: createdBy.id,
    },
    select: { id: true },
  });
}

/** The suite the complete fixtures' rationales cite. */
export const CITED_SUITE = "HELM Lite";

/** A shortlist rationale that passes SPEC §2's rule: it names the suite and says why (≥ 15 words). */
export const rationaleCiting = (suite: string) =>
  `${suite} includes toxicity scenarios close to our moderation task, though at balanced prevalence and with its own prompt template.`;

/** One stage-1 leaderboard row for a candidate, under its own name, as an import would store it. */
export async function addCandidateScore(
  decisionId: string,
  candidate: { id: string; name: string },
  suite = CITED_SUITE,
  value = 0.7,
) {
  const prisma = await db();
  return prisma.leaderboardScore.create({
    data: {
      decisionId,
      candidateId: candidate.id,
      modelName: candidate.name,
      stage: "LEADERBOARD",
      suite,
      metric: "mean win rate",
      value,
      source: "test",
      retrievedAt: new Date("2026-01-01T00:00:00Z"),
    },
    select: { id: true },
  });
}

/**
 * Makes every candidate of the decision shortlisted as the submission check wants it: a score on
 * `suite`, a rationale citing it, and the three questions of resemblance answered for it.
 */
export async function completeShortlist(decisionId: string, suite = CITED_SUITE) {
  const prisma = await db();
  const candidates = await prisma.candidate.findMany({ where: { decisionId }, select: { id: true, name: true } });
  for (const c of candidates) {
    await addCandidateScore(decisionId, c, suite);
    await prisma.candidate.update({ where: { id: c.id }, data: { shortlistRationale: rationaleCiting(suite) } });
  }
  await prisma.suiteResemblance.upsert({
    where: { decisionId_suite: { decisionId, suite } },
    create: {
      decisionId,
      suite,
      task: "PARTIAL",
      taskNote: "toxicity, not our policy",
      distribution: "MISMATCH",
      distributionNote: "balanced classes",
      promptScoring: "PARTIAL",
    },
    update: {},
  });
}

/** A dataset of the decision with one (empty) version, made its evaluation version. */
export async function addEvaluationVersion(decisionId: string, itemCount = 2000, positiveCount = 60) {
  const prisma = await db();
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("set") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount, positiveCount },
    select: { id: true },
  });
  await prisma.decision.update({ where: { id: decisionId }, data: { evaluationDatasetVersionId: version.id } });
  return version.id;
}

/**
 * A draft decision that submitForReview accepts: candidates (each name made unique) with a cited
 * leaderboard score, rationale and resemblance answers, and an evaluation dataset version (an
 * empty one; `evaluationVersion: false` leaves it to the first dataset import). No eval runs:
 * none is required, and none is left computing.
 */
export async function makeCompleteDecision(
  analyst: Actor,
  options: { candidates?: string[]; quorum?: number; evaluationVersion?: boolean } = {},
) {
  const prisma = await db();
  const { id: decisionId } = await makeDecision(analyst, { quorum: options.quorum });
  const candidates = [];
  for (const n of options.candidates ?? ["A", "B"]) {
    candidates.push(
      await prisma.candidate.create({
        data: { decisionId, name: unique(n), provider: "test" },
        select: { id: true, name: true },
      }),
    );
  }
  await completeShortlist(decisionId);
  const datasetVersionId = options.evaluationVersion === false ? null : await addEvaluationVersion(decisionId);
  return { decisionId, candidates, datasetVersionId, suite: CITED_SUITE };
}

/** An analyst's new decision with one candidate. */
export async function makeDecisionWithCandidate(prefix = "Model") {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const candidate = await prisma.candidate.create({
    data: { decisionId, name: unique(prefix), provider: "test" },
    select: { id: true },
  });
  return { analyst, decisionId, candidateId: candidate.id };
}

/** A decision with one candidate, a dataset version of `items` items and a PENDING run with a prediction for each. */
export async function makePendingRun(items: number) {
  const { decisionId, candidateId } = await makeDecisionWithCandidate("C");
  const prisma = await db();
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("ds") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: items, positiveCount: Math.ceil(items / 10) },
    select: { id: true },
  });
  await prisma.$executeRaw`INSERT INTO "DatasetItem" ("datasetVersionId", "itemId", label) SELECT ${version.id}, 'i' || g, g % 10 = 0 FROM generate_series(1, ${items}::int) g`;
  const run = await prisma.evalRun.create({
    data: { decisionId, candidateId, datasetVersionId: version.id },
    select: { id: true },
  });
  // Scores that separate the classes imperfectly (deterministic: the same evidence, the same metrics).
  await prisma.$executeRaw`INSERT INTO "Prediction" ("evalRunId", "itemId", score) SELECT ${run.id}, 'i' || g, CASE WHEN g % 10 = 0 THEN 0.4 ELSE 0 END + (g * 7919 % 1000) / 1600.0 FROM generate_series(1, ${items}::int) g`;
  return { decisionId, runId: run.id };
}
