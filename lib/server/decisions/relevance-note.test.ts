import { describe, expect, it } from "vitest";
import { db } from "../db";
import { AppError } from "../errors";
import { answerResemblance, getResemblances, setRelevanceNote } from "./resemblances";
import { CITED_SUITE, addCandidateScore, makeActor, makeCompleteDecision } from "@/test/factories";

describe("the analyst's relevance note per suite", () => {
  it("is set, kept by a PUT of the answers alone, cleared with '', and audited with before and after", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId } = await makeCompleteDecision(analyst);
    await setRelevanceNote(analyst, { decisionId, suite: CITED_SUITE, relevanceNote: "Close to our policy." });
    await answerResemblance(analyst, {
      decisionId,
      suite: CITED_SUITE,
      task: "MATCH",
      taskNote: "",
      distribution: "PARTIAL",
      distributionNote: "",
      promptScoring: "PARTIAL",
      promptScoringNote: "",
    });
    const [suite] = await getResemblances(analyst, decisionId);
    expect(suite!.answer).toMatchObject({ task: "MATCH", relevanceNote: "Close to our policy." });
    await setRelevanceNote(analyst, { decisionId, suite: CITED_SUITE, relevanceNote: "" });
    const prisma = await db();
    const events = await prisma.auditEvent.findMany({
      where: { decisionId, action: "resemblance.relevance_note" },
      orderBy: { id: "asc" },
      select: { before: true, after: true, actorId: true },
    });
    expect(events).toEqual([
      {
        actorId: analyst.id,
        before: { suite: CITED_SUITE, relevanceNote: "" },
        after: { suite: CITED_SUITE, relevanceNote: "Close to our policy." },
      },
      {
        actorId: analyst.id,
        before: { suite: CITED_SUITE, relevanceNote: "Close to our policy." },
        after: { suite: CITED_SUITE, relevanceNote: "" },
      },
    ]);
  });

  it("refuses a suite not yet answered, one no candidate has scores on, and a reviewer; nothing changes", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId, candidates } = await makeCompleteDecision(analyst);
    await addCandidateScore(decisionId, candidates[0]!, "MMLU");
    const refusal = (suite: string) =>
      setRelevanceNote(analyst, { decisionId, suite, relevanceNote: "n" }).then(
        () => null,
        (e: AppError) => [e.code, e.message],
      );
    expect(await refusal("MMLU")).toEqual(["VALIDATION", expect.stringContaining("answer the three questions")]);
    expect(await refusal("No such suite")).toEqual(["VALIDATION", expect.stringContaining("no candidate")]);
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(setRelevanceNote(reviewer, { decisionId, suite: CITED_SUITE, relevanceNote: "n" })).rejects.toThrow();
    const prisma = await db();
    expect(await prisma.auditEvent.count({ where: { decisionId, action: "resemblance.relevance_note" } })).toBe(0);
  });
});
