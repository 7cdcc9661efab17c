import { describe, expect, it } from "vitest";
import { db } from "../db";
import { evidenceState } from "../pack/pack-cache";
import { importLeaderboard, importServing } from "../imports";
import { attachLeaderboardModels } from "./model-names";
import { createCandidate } from "./candidates";
import { makeActor, makeDecision } from "@/test/factories";
import { bytes } from "@/test/uploads";

// One model-name identity per candidate (issue 26 item 4), on the real PostgreSQL: the matcher
// uses the version field, a confirmed mapping becomes an alias, and stranded rows can be attached.

const board = (name: string, rows: [model: string, value: number][]) =>
  bytes(name, `model,suite,metric,value\n${rows.map(([m, v]) => `${m},MMLU,acc,${v}`).join("\n")}\n`);

async function decisionWithCandidate(version = "") {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const candidate = await createCandidate(analyst, {
    decisionId,
    name: "Llama 3 8B",
    provider: "Meta",
    modelId: "",
    version,
    aliases: [],
  });
  return { analyst, decisionId, candidate };
}

const rows = async (decisionId: string) =>
  (await db()).leaderboardScore.findMany({
    where: { decisionId },
    orderBy: [{ modelName: "asc" }, { value: "asc" }],
    select: { modelName: true, candidateId: true },
  });

const audit = async (decisionId: string, action: string) =>
  (await db()).auditEvent.findMany({ where: { decisionId, action }, select: { after: true, actorId: true } });

describe("model names that match once and for all", () => {
  it("a name equal to the candidate's version field attaches without a mapping", async () => {
    const { analyst, decisionId, candidate } = await decisionWithCandidate("meta-llama/Meta-Llama-3-8B-Instruct");
    const r = await importLeaderboard(
      analyst,
      decisionId,
      board("a.csv", [["meta-llama/Meta-Llama-3-8B-Instruct", 0.6]]),
    );
    expect(r).toMatchObject({
      models: { "meta-llama/Meta-Llama-3-8B-Instruct": candidate.id },
      unshortlistedModels: [],
    });
    const served = await importServing(
      analyst,
      decisionId,
      bytes(
        "s.csv",
        "model,tool,concurrency,request_throughput,ttft_p95_ms,e2e_p95_ms\nmeta-llama__Meta-Llama-3-8B-Instruct,vllm,8,20,100,400\n",
      ),
    );
    expect(served.models).toEqual({ "meta-llama__Meta-Llama-3-8B-Instruct": candidate.id });
  });

  it("a modelMap mapping becomes an alias (audited, same transaction): the next file with that spelling attaches by itself", async () => {
    const { analyst, decisionId, candidate } = await decisionWithCandidate();
    const first = await importLeaderboard(
      analyst,
      decisionId,
      board("one.csv", [
        ["llama3-local-q4", 0.61],
        ["other-model", 0.4],
      ]),
      {
        modelMap: { "llama3-local-q4": candidate.id },
      },
    );
    expect(first).toMatchObject({ models: { "llama3-local-q4": candidate.id }, unshortlistedModels: ["other-model"] });
    const prisma = await db();
    expect((await prisma.candidate.findUniqueOrThrow({ where: { id: candidate.id } })).aliases).toEqual([
      "llama3-local-q4",
    ]);
    expect(await audit(decisionId, "candidate.alias_add")).toEqual([
      { actorId: analyst.id, after: { aliasesAdded: ["llama3-local-q4"], via: "modelMap" } },
    ]);
    const second = await importLeaderboard(analyst, decisionId, board("two.csv", [["Llama3-Local-Q4", 0.63]]));
    expect(second).toMatchObject({ models: { "Llama3-Local-Q4": candidate.id }, unshortlistedModels: [] });
    // The remembered spelling is not added twice.
    await importLeaderboard(analyst, decisionId, board("three.csv", [["llama3-local-q4", 0.64]]), {
      modelMap: { "llama3-local-q4": candidate.id },
    });
    expect((await prisma.candidate.findUniqueOrThrow({ where: { id: candidate.id } })).aliases).toEqual([
      "llama3-local-q4",
    ]);
  });

  it("the same bytes again with modelMap attach the stranded rows of that file (200 existing), not nothing", async () => {
    const { analyst, decisionId, candidate } = await decisionWithCandidate();
    const file = () => board("b.csv", [["my-finetune", 0.7]]);
    const first = await importLeaderboard(analyst, decisionId, file());
    expect(first).toMatchObject({ existing: false, unshortlistedModels: ["my-finetune"] });
    const again = await importLeaderboard(analyst, decisionId, file(), { modelMap: { "my-finetune": candidate.id } });
    expect(again).toMatchObject({ existing: true, importId: first.importId, models: { "my-finetune": candidate.id } });
    expect(again.unshortlistedModels).toEqual([]);
    expect(await rows(decisionId)).toEqual([{ modelName: "my-finetune", candidateId: candidate.id }]);
  });

  it("stranded rows attach to an existing candidate, remembered as its alias and audited; a bad name changes nothing", async () => {
    const { analyst, decisionId, candidate } = await decisionWithCandidate();
    await importLeaderboard(
      analyst,
      decisionId,
      board("c.csv", [
        ["L3-8B-it", 0.5],
        ["L3-8B-it", 0.55],
        ["unrelated", 0.3],
      ]),
    );
    const refused = await attachLeaderboardModels(analyst, decisionId, {
      candidateId: candidate.id,
      models: ["L3-8B-it", "no-such-name"],
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "VALIDATION", details: { issues: [{ field: "models.1" }] } });
    expect((await rows(decisionId)).every((r) => r.candidateId === null)).toBe(true);

    const reviewer = await makeActor(["REVIEWER"]);
    await expect(
      attachLeaderboardModels(reviewer, decisionId, { candidateId: candidate.id, models: ["L3-8B-it"] }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });

    const stateBefore = await evidenceState(await db(), decisionId);
    const done = await attachLeaderboardModels(analyst, decisionId, {
      candidateId: candidate.id,
      models: ["L3-8B-it"],
    });
    // The pack's cached read is keyed by the evidence state: the attachment's audit event changes it.
    expect(await evidenceState(await db(), decisionId)).not.toBe(stateBefore);
    expect(done).toMatchObject({ rowsAttached: 2, aliasesAdded: ["L3-8B-it"] });
    expect(await rows(decisionId)).toEqual([
      { modelName: "L3-8B-it", candidateId: candidate.id },
      { modelName: "L3-8B-it", candidateId: candidate.id },
      { modelName: "unrelated", candidateId: null },
    ]);
    expect(await audit(decisionId, "leaderboard.attach")).toEqual([
      {
        actorId: analyst.id,
        after: {
          candidate: "Llama 3 8B",
          models: ["L3-8B-it"],
          rowsAttached: 2,
          aliasesAdded: ["L3-8B-it"],
          via: "api",
        },
      },
    ]);
    const next = await importLeaderboard(analyst, decisionId, board("d.csv", [["l3-8b-it", 0.58]]));
    expect(next.models).toEqual({ "l3-8b-it": candidate.id });
  });

  it("a spelling that already names another candidate is refused, not made ambiguous", async () => {
    const { analyst, decisionId, candidate } = await decisionWithCandidate();
    await createCandidate(analyst, {
      decisionId,
      name: "Qwen",
      provider: "Alibaba",
      modelId: "qwen-x",
      version: "",
      aliases: [],
    });
    await importLeaderboard(
      analyst,
      decisionId,
      board("e.csv", [
        ["qwen-x", 0.5],
        ["stray", 0.1],
      ]),
      { skipUnmatched: true },
    );
    const error = await importLeaderboard(analyst, decisionId, board("f.csv", [["QWEN-X", 0.5]]), {
      modelMap: { "QWEN-X": candidate.id },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "VALIDATION",
      message: expect.stringContaining("already names the candidate Qwen"),
    });
    expect((await (await db()).candidate.findUniqueOrThrow({ where: { id: candidate.id } })).aliases).toEqual([]);
  });
});
