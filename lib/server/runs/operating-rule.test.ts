import { describe, expect, it } from "vitest";
import { database, db } from "../db";
import { computeEvalRun } from "./eval-runs";
import { updateDecisionParameters } from "../decisions/decisions";
import { verifyAuditChainWith } from "../audit/verify";
import { buildPack } from "../signoff/build-pack";
import { signPack } from "../signoff/sign-pack";
import { submitForReview } from "../signoff/submit-for-review";
import { makeSignoffDecision, makeSigner, PASSWORD } from "../signoff/fixtures.test-helpers";
import { readPackModel } from "../pack/read-model";
import { seedDrillDecision } from "../pack/drill-down.test-helpers";
import { packResults } from "@/lib/pack/pack-results";
import { computedMetrics } from "@/test/metrics-fixtures";
import { jsonDiff, type JsonValue } from "@/lib/signoff/diff";

const metricsOf = async (runId: number) =>
  computedMetrics(
    (await (await db()).evalRun.findUniqueOrThrow({ where: { id: runId }, select: { metrics: true } })).metrics,
  );
const pack = async (decisionId: string) => (await db()).$transaction((tx) => buildPack(tx, decisionId));

describe("the operating-point rule of a decision (issue 14)", () => {
  it("leaves FIXED runs and packs as they were; a change of rule recomputes every run, chooses each candidate's own threshold and is a new revision", async () => {
    const { analyst, decisionId, runA, runB, runC } = await seedDrillDecision();
    const fixedA = await metricsOf(runA);
    expect("operatingPoint" in fixedA).toBe(false);
    expect(fixedA.parameters.threshold).toBe(0.5);
    const before = await pack(decisionId);
    expect(JSON.parse(before.canonicalJson).task).not.toHaveProperty("operatingRule");

    const { recomputing } = await updateDecisionParameters(analyst, decisionId, { operatingRule: "COST_OPTIMAL" });
    expect(recomputing).toEqual([runA, runB, runC]);
    for (const id of recomputing) await computeEvalRun(await database(), id);
    const [a, b, c] = await Promise.all([runA, runB, runC].map(metricsOf));
    for (const m of [a!, b!]) {
      expect(m.operatingPoint).toMatchObject({ applies: true, rule: "COST_OPTIMAL" });
      expect(m.parameters.threshold).toBe(m.operatingPoint?.applies && m.operatingPoint.threshold);
    }
    // The hard-label candidate has one operating point: the rule does not apply, and says so.
    expect(c!.operatingPoint).toMatchObject({ applies: false, reason: expect.stringMatching(/hard labels/) });

    // The gates judge the held-out figures and say so.
    const { otherRuns: _others, ...model } = await readPackModel(await db(), decisionId);
    const gates = packResults(model).gates.find(
      (g) => g.candidateId === model.runs.find((r) => r.runId === runB)!.candidateId,
    )!;
    expect(gates.gates.find((g) => g.key === "recall-floor")!.detail).toMatch(/held out|in-sample/);

    const after = await pack(decisionId);
    const diff = jsonDiff(JSON.parse(before.canonicalJson) as JsonValue, JSON.parse(after.canonicalJson) as JsonValue);
    expect(diff).toContainEqual(expect.objectContaining({ path: "task.operatingRule", kind: "added" }));
    expect(after.sha256).not.toBe(before.sha256);

    // Floors are inputs of the rule's choice: changing one recomputes, under FIXED it does not.
    expect((await updateDecisionParameters(analyst, decisionId, { recallFloor: 0.5 })).recomputing).toHaveLength(3);
    await updateDecisionParameters(analyst, decisionId, { operatingRule: "FIXED" });
    expect((await updateDecisionParameters(analyst, decisionId, { recallFloor: 0.6 })).recomputing).toEqual([]);
  });

  it("names the deployment configuration in an approval: the candidate's frozen threshold and rule, checked by verify", async () => {
    const analyst = await makeSigner(["ANALYST"], "Ana Lyst");
    const { decisionId, goodId } = await makeSignoffDecision(analyst, 1);
    const prisma = await db();
    const run = await prisma.evalRun.findFirstOrThrow({
      where: { candidateId: goodId },
      select: { id: true, metrics: true },
    });
    await prisma.evalRun.update({
      where: { id: run.id },
      data: { metrics: { ...(run.metrics as object), parameters: { threshold: 0.4321 } } },
    });
    await prisma.decision.update({ where: { id: decisionId }, data: { operatingRule: "COST_OPTIMAL" } });
    const revision = await submitForReview(analyst, decisionId);
    const approver = await makeSigner(["APPROVER"], "Avery Approver");
    const { signature, outcome } = await signPack(approver, decisionId, {
      email: approver.email,
      meaning: "APPROVAL",
      password: PASSWORD,
      revisionSha256: revision.sha256,
      candidateId: goodId,
      reason: "Lowest held-out cost; meets every gate.",
    });
    expect(outcome).toBe("approved");
    expect(signature).toMatchObject({ operatingThreshold: 0.4321, operatingRule: "COST_OPTIMAL" });
    const verification = await verifyAuditChainWith(prisma);
    expect(verification.recordProblems.filter((p) => p.id === signature.id)).toEqual([]);
  });
});
