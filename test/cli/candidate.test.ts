import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { importLeaderboard } from "@/lib/server/imports";
import { createCandidate } from "@/lib/server/decisions/candidates";
import { makeActor, makeDecision } from "@/test/factories";
import { bytes } from "@/test/uploads";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// `verdict candidate attach` spawned as a user runs it: stranded leaderboard rows to a candidate.
describe("verdict candidate attach", { timeout: SPAWN_TIMEOUT }, () => {
  it("attaches the rows, remembers the spelling as an alias and refuses a name with no stranded row", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const candidate = await createCandidate(analyst, {
      decisionId,
      name: "Mistral Small",
      provider: "Mistral",
      modelId: "",
      version: "",
      aliases: [],
    });
    await importLeaderboard(
      analyst,
      decisionId,
      bytes("lb.csv", "model,suite,metric,value\nms-24b-local,MMLU,acc,0.7\nms-24b-local,GSM8K,acc,0.8\n"),
    );
    const args = ["candidate", "attach", "--decision", decisionId, "--candidate", candidate.id, "--as", analyst.email];

    const bad = await verdict([...args, "--model", "nope"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'verdict candidate attach: models.0: "nope" has no leaderboard row without a candidate in this decision.\n',
    );
    const reviewer = await makeActor(["REVIEWER"]);
    const forbidden = await verdict([...args.slice(0, -2), "--as", reviewer.email, "--model", "ms-24b-local"]);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toMatch(/permission/);
    expect((await verdict(["candidate", "attach", "--decision", decisionId])).code).toBe(2);

    const ok = await verdict([...args, "--model", "ms-24b-local"]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ rowsAttached: 2, aliasesAdded: ["ms-24b-local"] });
    const prisma = await db();
    expect(await prisma.leaderboardScore.count({ where: { decisionId, candidateId: candidate.id } })).toBe(2);
    expect((await prisma.candidate.findUniqueOrThrow({ where: { id: candidate.id } })).aliases).toEqual([
      "ms-24b-local",
    ]);
    const event = await prisma.auditEvent.findFirstOrThrow({ where: { decisionId, action: "leaderboard.attach" } });
    expect(event.actorId).toBe(analyst.id);
  });
});
