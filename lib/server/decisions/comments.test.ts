import { describe, expect, it } from "vitest";
import { db } from "../db";
import { createComment, listComments } from "./comments";
import { makeActor, makeCompleteDecision, makeDecision } from "@/test/factories";
import { submitForReview } from "../signoff/submit-for-review";

describe("comments", () => {
  it("threads replies, keeps the stage of the thread and the revision it was written on", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const reviewer = await makeActor(["REVIEWER"], "Rae Commenter");
    const approver = await makeActor(["APPROVER"], "Avery Commenter");
    const { decisionId } = await makeCompleteDecision(analyst);
    const draft = await createComment(reviewer, decisionId, { body: "Why this dataset?", stage: 3 });
    expect(draft.packRevisionId).toBeNull();
    await submitForReview(analyst, decisionId);
    const reply = await createComment(approver, decisionId, {
      body: "Because it is ours.",
      stage: null,
      parentId: draft.id,
    });
    expect(reply).toMatchObject({ stage: 3, parentId: draft.id });
    expect(reply.packRevisionId).not.toBeNull();
    const list = await listComments(reviewer, decisionId);
    expect(list.map((c) => [c.author.name, c.stage, c.packRevision?.number ?? null])).toEqual([
      ["Rae Commenter", 3, null],
      ["Avery Commenter", 3, 1],
    ]);
    expect(await (await db()).auditEvent.count({ where: { decisionId, action: "comment.create" } })).toBe(2);
  });

  it("refuses analysts, empty bodies, bad stages and replies across decisions", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const reviewer = await makeActor(["REVIEWER"]);
    const { id: a } = await makeDecision(analyst);
    const { id: b } = await makeDecision(analyst);
    await expect(createComment(analyst, a, { body: "x", stage: null })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createComment(reviewer, a, { body: "  ", stage: null })).rejects.toMatchObject({ code: "VALIDATION" });
    await expect(createComment(reviewer, a, { body: "x", stage: 6 })).rejects.toMatchObject({ code: "VALIDATION" });
    const other = await createComment(reviewer, b, { body: "on b", stage: null });
    await expect(createComment(reviewer, a, { body: "reply", stage: null, parentId: other.id })).rejects.toMatchObject({
      code: "VALIDATION",
    });
  });
});
