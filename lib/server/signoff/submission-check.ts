import "server-only";
import { rationaleProblem } from "@/lib/pack/rationale";
import type { Tx } from "../db";
import { AppError } from "../errors";
import { citedSuitesOf, rationalesOf } from "../decisions/resemblances";
import { comparisonsStale } from "../runs/comparison-state";

/**
 * What a decision still lacks before it can be submitted for review, as sentences a user can act
 * on (empty when it is complete): a shortlist, a rationale per candidate that cites a scored suite
 * and says why, the three resemblance answers per cited suite, the evaluation dataset version,
 * and no run nor paired comparison still being (re)computed — a pack frozen mid-recomputation
 * would mix parameters.
 */
export async function submissionProblems(tx: Tx, decisionId: string): Promise<string[]> {
  const problems: string[] = [];
  const decision = await tx.decision.findUniqueOrThrow({
    where: { id: decisionId },
    select: { evaluationDatasetVersionId: true },
  });
  const candidates = await rationalesOf(tx, decisionId);
  if (candidates.length === 0) problems.push("Shortlist at least one candidate.");
  for (const c of candidates) {
    const problem = rationaleProblem(c.rationale, c.scoredSuites);
    if (problem) problems.push(`${c.name}: shortlist rationale — ${problem}`);
  }
  const answered = new Set(
    (await tx.suiteResemblance.findMany({ where: { decisionId }, select: { suite: true } })).map((r) => r.suite),
  );
  for (const { suite, candidates: citing } of await citedSuitesOf(tx, decisionId)) {
    if (!answered.has(suite))
      problems.push(
        `${suite} (cited for ${citing.join(", ")}): answer the three questions of resemblance — task, class distribution, prompt and scoring.`,
      );
  }
  if (decision.evaluationDatasetVersionId === null)
    problems.push("Upload a labelled dataset: the pack is evaluated on one dataset version.");
  const computing = await tx.evalRun.count({ where: { decisionId, status: { in: ["PENDING", "RUNNING"] } } });
  if (computing > 0)
    problems.push(
      `${computing} eval run${computing === 1 ? " is" : "s are"} still being computed; submit when the metrics are ready.`,
    );
  else if (await comparisonsStale(tx, decisionId))
    problems.push("The paired comparisons are being recomputed; submit when they are ready.");
  return problems;
}

/** 409 listing everything missing (details.missing), so the page and the API can show the list. */
export async function assertSubmittable(tx: Tx, decisionId: string): Promise<void> {
  const missing = await submissionProblems(tx, decisionId);
  if (missing.length > 0)
    throw new AppError("CONFLICT", `The decision cannot be submitted yet: ${missing.join(" ")}`, { missing });
}
