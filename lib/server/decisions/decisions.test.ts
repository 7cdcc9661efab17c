import { describe, expect, it } from "vitest";
import { db } from "../db";
import { getDecisionParameters, listDecisions, updateDecisionParameters } from "./decisions";
import { getPackModel } from "../pack/get-pack";
import { makeActor, makeDecision } from "@/test/factories";

describe("decisions", () => {
  it("an analyst changes task parameters; the audit event holds only what changed", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id } = await makeDecision(analyst);
    const updated = await updateDecisionParameters(analyst, id, { prevalence: 0.05, operatingThreshold: 0.4 });
    expect(updated.decision.prevalence).toBe(0.05);
    // No eval run yet: nothing to recompute.
    expect(updated.recomputing).toEqual([]);
    const prisma = await db();
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { decisionId: id, action: "decision.update_parameters" },
    });
    expect(event.before).toEqual({ prevalence: 0.02, operatingThreshold: 0.5 });
    expect(event.after).toEqual({ prevalence: 0.05, operatingThreshold: 0.4 });
  });

  it("a reviewer may read but not change; a decision in review is frozen", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const reviewer = await makeActor(["REVIEWER"]);
    const admin = await makeActor(["ADMIN"]);
    const { id } = await makeDecision(analyst);
    await expect(updateDecisionParameters(reviewer, id, { prevalence: 0.3 })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect((await getDecisionParameters(reviewer, id)).prevalence).toBe(0.02);
    expect((await getPackModel(reviewer, id)).decision.prevalence).toBe(0.02);
    await expect(getPackModel(admin, id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listDecisions(admin)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const frozen = await makeDecision(analyst, { status: "IN_REVIEW" });
    await expect(updateDecisionParameters(analyst, frozen.id, { prevalence: 0.3 })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("an unknown decision is not found", async () => {
    const analyst = await makeActor(["ANALYST"]);
    await expect(getPackModel(analyst, "no-such-decision")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
