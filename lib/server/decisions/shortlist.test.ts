import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCandidate, removeCandidate, scoredSuites, shortlistCandidates, unshortlistedModels } from "./candidates";
import { db } from "../db";
import { importLeaderboard, type UploadFile } from "../imports";
import { answerResemblance, getResemblances } from "./resemblances";
import type { Actor } from "../actors";
import type { ShortlistInput } from "@/lib/schemas/candidate";
import { makeActor, makeDecision, rationaleCiting, unique } from "@/test/factories";

// Shortlisting from an empty decision (integration, real PostgreSQL, the real sample files):
// leaderboards first, candidates picked from their rows, then the three questions of resemblance.

const EXTERNAL = path.resolve(import.meta.dirname, "../../../test/fixtures/external");
const file = (relative: string): UploadFile => ({ name: path.basename(relative), path: path.join(EXTERNAL, relative) });
const ARENA = "chatbot-arena/leaderboard_table_20231206.csv";
const LM_EVAL = "lm-eval-harness/results_2026-07-08T18-15-33.115417.json";
const OPEN_LLM_V1 = "open-llm-leaderboard/v1_scrape_20231031.csv";

/** A decision with no candidate, and the three real leaderboards imported into it. */
async function decisionWithLeaderboards() {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const arena = await importLeaderboard(analyst, decisionId, file(ARENA));
  const lmEval = await importLeaderboard(analyst, decisionId, file(LM_EVAL));
  const openLlm = await importLeaderboard(analyst, decisionId, file(OPEN_LLM_V1));
  return { analyst, decisionId, arena, lmEval, openLlm };
}

const rowsOf = async (decisionId: string, modelNames: string[]) =>
  (await db()).leaderboardScore.findMany({
    where: { decisionId, modelName: { in: modelNames } },
    select: { modelName: true, candidateId: true, suite: true },
  });

const entry = (name: string, models: string[], modelId = ""): ShortlistInput["candidates"][number] => ({
  name,
  provider: "test",
  modelId,
  version: "",
  models,
});

describe("leaderboards before candidates", () => {
  it("keeps every row of a decision with no candidates unattached, under the model name the file spells", async () => {
    const { decisionId, arena, lmEval, openLlm } = await decisionWithLeaderboards();
    for (const result of [arena, lmEval, openLlm]) {
      expect(result).toMatchObject({ existing: false, models: {}, skippedModels: [] });
      expect(result.stored).toBeGreaterThan(0);
      expect(result.unshortlistedModels.length).toBeGreaterThan(0);
    }
    expect(arena.format).toBe("chatbot-arena-csv");
    expect(lmEval).toMatchObject({ format: "lm-eval-harness", stored: 9, unshortlistedModels: ["Qwen/Qwen3-8B"] });
    const prisma = await db();
    const rows = await prisma.leaderboardScore.findMany({
      where: { decisionId },
      select: { candidateId: true, modelName: true, importId: true },
    });
    expect(rows).toHaveLength(arena.stored + lmEval.stored + openLlm.stored);
    expect(rows.every((r) => r.candidateId === null && r.modelName !== "")).toBe(true);
    const arenaNames = new Set(rows.filter((r) => r.importId === arena.importId).map((r) => r.modelName));
    expect(arenaNames).toEqual(new Set(arena.unshortlistedModels));
    expect(arenaNames).toContain("Llama-2-70b-chat");
    const zephyr = await prisma.leaderboardScore.findMany({
      where: { decisionId, modelName: "Zephyr-7b-beta" },
      orderBy: { suite: "asc" },
      select: { suite: true, value: true },
    });
    expect(zephyr).toEqual([
      { suite: "Chatbot Arena", value: 1045 },
      { suite: "MMLU", value: 0.614 },
      { suite: "MT-bench", value: 7.34 },
    ]);
  });

  it("unshortlistedModels lists each model name once, grouping the names the model matcher takes for one model", async () => {
    const { decisionId } = await decisionWithLeaderboards();
    const reviewer = await makeActor(["REVIEWER"]);
    const models = await unshortlistedModels(reviewer, decisionId);
    const byName = new Map(models.map((m) => [m.name, m]));
    expect(byName.size).toBe(models.length);
    const group = (name: string) => byName.get(name)?.group;
    // Arena's short names and the Open LLM Leaderboard's hub ids, without their org.
    expect(group("falcon-180b-chat")).toBeDefined();
    expect(group("tiiuae/falcon-180B-chat")).toBe(group("falcon-180b-chat"));
    expect(group("tiiuae/falcon-180B")).not.toBe(group("falcon-180b-chat"));
    expect(group("quantumaikr/llama-2-70B-chat")).toBe(group("Llama-2-70b-chat"));
    expect(group("Llama-2-13b-chat")).not.toBe(group("Llama-2-70b-chat"));
    expect(group("Qwen/Qwen3-8B")).toBe("Qwen/Qwen3-8B");
    expect(
      byName
        .get("Zephyr-7b-beta")!
        .scores.map((s) => s.suite)
        .sort(),
    ).toEqual(["Chatbot Arena", "MMLU", "MT-bench"]);
    expect(byName.get("Qwen/Qwen3-8B")!.scores).toHaveLength(9);
    const admin = await makeActor(["ADMIN"]);
    await expect(unshortlistedModels(admin, decisionId)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("shortlistCandidates", () => {
  it("creates the candidates, attaches the rows of the models ticked for each, and audits each", async () => {
    const { analyst, decisionId } = await decisionWithLeaderboards();
    const created = await shortlistCandidates(analyst, decisionId, {
      candidates: [
        entry("Falcon 180B chat", ["falcon-180b-chat", "tiiuae/falcon-180B-chat"], "tiiuae/falcon-180B-chat"),
        entry("Qwen3 8B", ["Qwen/Qwen3-8B"], "Qwen/Qwen3-8B"),
      ],
    });
    // Arena: Elo and MMLU (its MT-bench cell is "-"); Open LLM Leaderboard v1: the average and four suites.
    expect(created.map((c) => [c.name, c.leaderboardRowsAttached])).toEqual([
      ["Falcon 180B chat", 2 + 5],
      ["Qwen3 8B", 9],
    ]);
    const [falcon, qwen] = created;
    const falconRows = await rowsOf(decisionId, ["falcon-180b-chat", "tiiuae/falcon-180B-chat"]);
    expect(falconRows.every((r) => r.candidateId === falcon!.id)).toBe(true);
    expect((await rowsOf(decisionId, ["Qwen/Qwen3-8B"])).every((r) => r.candidateId === qwen!.id)).toBe(true);
    // The base model is another model: it stays to shortlist.
    expect((await rowsOf(decisionId, ["tiiuae/falcon-180B"])).every((r) => r.candidateId === null)).toBe(true);
    const left = (await unshortlistedModels(analyst, decisionId)).map((m) => m.name);
    expect(left).not.toContain("falcon-180b-chat");
    expect(left).not.toContain("Qwen/Qwen3-8B");
    expect(left).toContain("tiiuae/falcon-180B");
    const suites = await scoredSuites(analyst, decisionId);
    expect(suites[qwen!.id]).toContain("negotiationtom");
    expect(suites[falcon!.id]).toContain("Chatbot Arena");

    const prisma = await db();
    const events = await prisma.auditEvent.findMany({
      where: { decisionId, action: "candidate.create" },
      orderBy: { id: "asc" },
      select: { actorId: true, entityId: true, after: true },
    });
    expect(events.map((e) => e.entityId)).toEqual([falcon!.id, qwen!.id]);
    expect(events[0]).toMatchObject({
      actorId: analyst.id,
      after: {
        name: "Falcon 180B chat",
        modelId: "tiiuae/falcon-180B-chat",
        via: "shortlist",
        leaderboardRowsAttached: 7,
      },
    });
  });

  it("gives each candidate exactly the models ticked for it, even names the matcher would group", async () => {
    const { analyst, decisionId } = await decisionWithLeaderboards();
    // quantumaikr/llama-2-70B-chat is a fine-tune, not Meta's model: the analyst keeps them apart.
    const [meta, tune] = await shortlistCandidates(analyst, decisionId, {
      candidates: [
        entry("Llama 2 70B chat", ["Llama-2-70b-chat"]),
        entry("quantumaikr Llama 2 70B chat", ["quantumaikr/llama-2-70B-chat"]),
      ],
    });
    expect((await rowsOf(decisionId, ["Llama-2-70b-chat"])).every((r) => r.candidateId === meta!.id)).toBe(true);
    expect((await rowsOf(decisionId, ["quantumaikr/llama-2-70B-chat"])).every((r) => r.candidateId === tune!.id)).toBe(
      true,
    );
    expect(tune!.leaderboardRowsAttached).toBeGreaterThan(0);
  });

  it("refuses a model ticked twice, a model not in the rows, and a name taken twice — creating nothing", async () => {
    const { analyst, decisionId } = await decisionWithLeaderboards();
    const prisma = await db();
    const attempts: [ShortlistInput, string][] = [
      [
        {
          candidates: [
            entry("Falcon", ["falcon-180b-chat"]),
            entry("Falcon again", ["tiiuae/falcon-180B-chat", "falcon-180b-chat"]),
          ],
        },
        "candidates.1.models",
      ],
      [{ candidates: [entry("Falcon", ["falcon-180b-chat", "falcon-180b-chat"])] }, "candidates.0.models"],
      [{ candidates: [entry("Qwen", ["Qwen/Qwen3-8B"]), entry("Ghost", ["no-such-model"])] }, "candidates.1.models"],
      [{ candidates: [entry("Twin", ["Qwen/Qwen3-8B"]), entry("twin", ["falcon-180b-chat"])] }, "name"],
    ];
    for (const [input, field] of attempts) {
      const error = await shortlistCandidates(analyst, decisionId, input).catch((e: unknown) => e);
      expect(error, field).toMatchObject({ code: "VALIDATION", details: { issues: [{ field }] } });
    }
    expect(await prisma.candidate.count({ where: { decisionId } })).toBe(0);
    expect(await prisma.auditEvent.count({ where: { decisionId, action: "candidate.create" } })).toBe(0);
    expect(await prisma.leaderboardScore.count({ where: { decisionId, candidateId: { not: null } } })).toBe(0);

    // Once shortlisted, a model is no longer there to tick.
    await shortlistCandidates(analyst, decisionId, { candidates: [entry("Qwen", ["Qwen/Qwen3-8B"])] });
    await expect(
      shortlistCandidates(analyst, decisionId, { candidates: [entry("Qwen 2", ["Qwen/Qwen3-8B"])] }),
    ).rejects.toMatchObject({ code: "VALIDATION" });
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(
      shortlistCandidates(reviewer, decisionId, { candidates: [entry("Falcon", ["falcon-180b-chat"])] }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await prisma.candidate.count({ where: { decisionId } })).toBe(1);
  });
});

describe("candidates by hand", () => {
  it("createCandidate attaches the unattached rows that match its name, model id or aliases", async () => {
    const { analyst, decisionId } = await decisionWithLeaderboards();
    const candidate = await createCandidate(analyst, {
      decisionId,
      name: "Falcon 180B chat",
      provider: "TII",
      modelId: "tiiuae/falcon-180B-chat",
      version: "",
      aliases: [],
    });
    expect(candidate).toMatchObject({
      name: "Falcon 180B chat",
      modelId: "tiiuae/falcon-180B-chat",
      leaderboardRowsAttached: 2 + 5,
    });
    expect(
      (await rowsOf(decisionId, ["falcon-180b-chat", "tiiuae/falcon-180B-chat"])).every(
        (r) => r.candidateId === candidate.id,
      ),
    ).toBe(true);
    expect((await rowsOf(decisionId, ["tiiuae/falcon-180B"])).every((r) => r.candidateId === null)).toBe(true);

    const none = await createCandidate(analyst, {
      decisionId,
      name: "In-house classifier",
      provider: "us",
      modelId: "",
      version: "1",
      aliases: [],
    });
    expect(none.leaderboardRowsAttached).toBe(0);
    await expect(
      createCandidate(analyst, {
        decisionId,
        name: "in-house CLASSIFIER",
        provider: "us",
        modelId: "",
        version: "",
        aliases: [],
      }),
    ).rejects.toMatchObject({ code: "VALIDATION", details: { issues: [{ field: "name" }] } });

    const prisma = await db();
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { entityId: candidate.id, action: "candidate.create" },
      select: { after: true },
    });
    expect(event.after).toMatchObject({ via: "manual", leaderboardRowsAttached: 7 });
  });

  it("removeCandidate in a draft deletes it and its runs, returns its rows to the unshortlisted models, and lists its runs in the audit event", async () => {
    const { analyst, decisionId } = await decisionWithLeaderboards();
    const prisma = await db();
    const [qwen] = await shortlistCandidates(analyst, decisionId, {
      candidates: [entry("Qwen3 8B", ["Qwen/Qwen3-8B"])],
    });
    const run = await runFor(analyst, decisionId, qwen!.id);

    const removed = await removeCandidate(analyst, qwen!.id);
    expect(removed).toMatchObject({ id: qwen!.id, name: "Qwen3 8B" });
    expect(await prisma.candidate.count({ where: { id: qwen!.id } })).toBe(0);
    expect(await prisma.evalRun.count({ where: { id: run.id } })).toBe(0);
    const rows = await rowsOf(decisionId, ["Qwen/Qwen3-8B"]);
    expect(rows).toHaveLength(9);
    expect(rows.every((r) => r.candidateId === null)).toBe(true);
    expect((await unshortlistedModels(analyst, decisionId)).map((m) => m.name)).toContain("Qwen/Qwen3-8B");
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { decisionId, action: "candidate.remove" },
      select: { entityId: true, actorId: true, before: true },
    });
    expect(event).toMatchObject({
      entityId: qwen!.id,
      actorId: analyst.id,
      before: { name: "Qwen3 8B", evalRuns: [{ id: run.id, importId: run.importId }], leaderboardRowsDetached: 9 },
    });
    // Shortlisted again from the same rows.
    const [again] = await shortlistCandidates(analyst, decisionId, {
      candidates: [entry("Qwen3 8B", ["Qwen/Qwen3-8B"])],
    });
    expect(again!.leaderboardRowsAttached).toBe(9);
  });

  it("a frozen decision refuses removing a candidate; only an analyst may remove one", async () => {
    const { analyst, decisionId } = await decisionWithLeaderboards();
    const prisma = await db();
    const [qwen] = await shortlistCandidates(analyst, decisionId, {
      candidates: [entry("Qwen3 8B", ["Qwen/Qwen3-8B"])],
    });
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(removeCandidate(reviewer, qwen!.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await prisma.decision.update({ where: { id: decisionId }, data: { status: "IN_REVIEW" } });
    await expect(removeCandidate(analyst, qwen!.id)).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/in review/),
    });
    expect(await prisma.candidate.count({ where: { id: qwen!.id } })).toBe(1);
    expect((await rowsOf(decisionId, ["Qwen/Qwen3-8B"])).every((r) => r.candidateId === qwen!.id)).toBe(true);
    await expect(removeCandidate(analyst, "no-such-candidate")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

/** An eval run of the candidate on a one-item dataset (only its existence matters here). */
async function runFor(analyst: Actor, decisionId: string, candidateId: string) {
  const prisma = await db();
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("set") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: 1, positiveCount: 1 },
    select: { id: true },
  });
  const imp = await prisma.import.create({
    data: {
      decisionId,
      kind: "PREDICTIONS",
      format: "test",
      fileName: "p.csv",
      sha256: "d".repeat(64),
      sizeBytes: 1n,
      status: "SUCCEEDED",
      importedById: analyst.id,
    },
    select: { id: true },
  });
  return prisma.evalRun.create({
    data: { decisionId, candidateId, datasetVersionId: version.id, importId: imp.id },
    select: { id: true, importId: true },
  });
}

describe("answerResemblance", () => {
  const answers = {
    task: "PARTIAL",
    taskNote: "dialogue, not moderation",
    distribution: "MISMATCH",
    distributionNote: "",
    promptScoring: "MATCH",
    promptScoringNote: "",
  } as const;

  it("upserts the three answers for a suite a candidate has scores on, with an audit event each time", async () => {
    const { analyst, decisionId } = await decisionWithLeaderboards();
    const prisma = await db();
    const [falcon] = await shortlistCandidates(analyst, decisionId, {
      candidates: [entry("Falcon 180B chat", ["falcon-180b-chat"])],
    });
    await prisma.candidate.update({
      where: { id: falcon!.id },
      data: { shortlistRationale: rationaleCiting("Chatbot Arena") },
    });
    // The rationale cites Chatbot Arena, so its resemblance is asked for; unanswered so far.
    const reviewer = await makeActor(["REVIEWER"]);
    expect(await getResemblances(reviewer, decisionId)).toEqual([
      { suite: "Chatbot Arena", candidates: ["Falcon 180B chat"], answer: null },
    ]);

    await answerResemblance(analyst, { decisionId, suite: "Chatbot Arena", ...answers });
    const changed = { ...answers, task: "MATCH", taskNote: "multi-turn instructions like our queue" } as const;
    await answerResemblance(analyst, { decisionId, suite: "Chatbot Arena", ...changed });
    const rows = await prisma.suiteResemblance.findMany({
      where: { decisionId },
      select: { suite: true, task: true, taskNote: true, distribution: true, promptScoring: true },
    });
    expect(rows).toEqual([
      {
        suite: "Chatbot Arena",
        task: "MATCH",
        taskNote: "multi-turn instructions like our queue",
        distribution: "MISMATCH",
        promptScoring: "MATCH",
      },
    ]);
    const events = await prisma.auditEvent.findMany({
      where: { decisionId, action: "resemblance.answer" },
      orderBy: { id: "asc" },
      select: { before: true, after: true },
    });
    expect(events).toHaveLength(2);
    expect(events[0]!.before).toBeNull();
    expect(events[0]!.after).toMatchObject({ suite: "Chatbot Arena", task: "PARTIAL" });
    expect(events[1]!.before).toMatchObject({ task: "PARTIAL", taskNote: "dialogue, not moderation" });
    expect(events[1]!.after).toMatchObject({ suite: "Chatbot Arena", task: "MATCH" });
    expect((await getResemblances(reviewer, decisionId))[0]!.answer).toMatchObject({
      suite: "Chatbot Arena",
      task: "MATCH",
    });
  });

  it("refuses a suite no candidate has scores on (unattached rows do not count), and anyone but an analyst", async () => {
    const { analyst, decisionId } = await decisionWithLeaderboards();
    await shortlistCandidates(analyst, decisionId, { candidates: [entry("Falcon 180B chat", ["falcon-180b-chat"])] });
    // negotiationtom rows exist, but only for Qwen3-8B, which is no candidate.
    for (const suite of ["HELM Lite", "negotiationtom"]) {
      await expect(answerResemblance(analyst, { decisionId, suite, ...answers })).rejects.toMatchObject({
        code: "VALIDATION",
        details: { issues: [{ field: "suite" }] },
      });
    }
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(answerResemblance(reviewer, { decisionId, suite: "MMLU", ...answers })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const prisma = await db();
    expect(await prisma.suiteResemblance.count({ where: { decisionId } })).toBe(0);
    expect(await prisma.auditEvent.count({ where: { decisionId, action: "resemblance.answer" } })).toBe(0);
  });
});
