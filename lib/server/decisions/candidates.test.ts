import { describe, expect, it } from "vitest";
import { db } from "../db";
import { removeCandidate, updateCandidate } from "./candidates";
import { makeActor, makeDecision, unique } from "@/test/factories";

async function candidateWithScore() {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const c = await prisma.candidate.create({
    data: { decisionId, name: unique("M"), provider: "p" },
    select: { id: true, name: true },
  });
  await prisma.leaderboardScore.create({
    data: {
      decisionId,
      candidateId: c.id,
      modelName: c.name,
      stage: "LEADERBOARD",
      suite: "HELM Lite",
      metric: "mean win rate",
      value: 0.7,
      source: "HELM",
      retrievedAt: new Date(),
    },
  });
  return { analyst, decisionId, c };
}

const input = (candidateId: string, name: string, shortlistRationale: string) => ({
  candidateId,
  name,
  provider: "p",
  version: "v2",
  shortlistRationale,
});

describe("updateCandidate", () => {
  it("saves a rationale that cites a scored suite and says why, with an audit event of what changed", async () => {
    const { analyst, decisionId, c } = await candidateWithScore();
    const text =
      "HELM Lite includes toxicity scenarios close to our moderation task, though at balanced prevalence and with its own prompt template.";
    const saved = await updateCandidate(analyst, input(c.id, c.name, text));
    expect(saved.shortlistRationale).toBe(text);
    const prisma = await db();
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { decisionId, action: "candidate.update" },
      select: { before: true, after: true },
    });
    expect(event.after).toEqual({ version: "v2", shortlistRationale: text });
    expect(event.before).toEqual({ version: "", shortlistRationale: "" });
  });

  it("refuses a bare rank or an uncited benchmark, and anyone but an analyst", async () => {
    const { analyst, c } = await candidateWithScore();
    await expect(updateCandidate(analyst, input(c.id, c.name, "Rank 1 on HELM Lite."))).rejects.toMatchObject({
      code: "VALIDATION",
    });
    await expect(
      updateCandidate(
        analyst,
        input(
          c.id,
          c.name,
          "Rank 1 on MMLU, which tests broad knowledge that a moderation model needs to read context in messages.",
        ),
      ),
    ).rejects.toMatchObject({ code: "VALIDATION" });
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(updateCandidate(reviewer, input(c.id, c.name, "x"))).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("a candidate reached through another decision's path", () => {
  it("is not found, and neither edited nor removed", async () => {
    const { analyst, c } = await candidateWithScore();
    const { id: other } = await makeDecision(analyst);
    await expect(removeCandidate(analyst, c.id, {}, other)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(updateCandidate(analyst, input(c.id, "Renamed", "x"), {}, other)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await (await db()).candidate.findUnique({ where: { id: c.id }, select: { name: true } })).toEqual({
      name: c.name,
    });
  });
});
