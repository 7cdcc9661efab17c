import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { makeActor, makeDecision, unique } from "@/test/factories";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// `verdict import` spawned as a user runs it, acting with --as, into decisions made here.
describe("verdict import", { timeout: SPAWN_TIMEOUT }, () => {
  it("imports a dataset file as the --as user, audited under that user", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const name = unique("gold");
    const result = await verdict([
      "import",
      "dataset",
      "test/fixtures/ingest/dataset.jsonl",
      "--decision",
      decisionId,
      "--dataset",
      name,
      "--as",
      analyst.email,
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      kind: "DATASET",
      existing: false,
      format: "jsonl",
      rowCount: 4,
      itemCount: 4,
      positiveCount: 2,
      version: 1,
    });

    const prisma = await db();
    const version = await prisma.datasetVersion.findUniqueOrThrow({
      where: { id: summary.datasetVersionId },
      select: { itemCount: true, dataset: { select: { name: true, decisionId: true } } },
    });
    expect(version).toEqual({ itemCount: 4, dataset: { name, decisionId } });
    const row = await prisma.import.findUniqueOrThrow({
      where: { id: summary.importId },
      select: { importedById: true, fileName: true, status: true },
    });
    expect(row).toMatchObject({ importedById: analyst.id, fileName: "dataset.jsonl" });
    expect(await prisma.auditEvent.count({ where: { decisionId, actorId: analyst.id } })).toBeGreaterThan(0);

    // The same file again is recognised (idempotent), not a second version.
    const again = await verdict([
      "import",
      "dataset",
      "test/fixtures/ingest/dataset.jsonl",
      "--decision",
      decisionId,
      "--dataset",
      name,
      "--as",
      analyst.email,
    ]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ existing: true, importId: summary.importId });
  });

  it("imports a Chatbot Arena leaderboard, matching the decision's candidates by name", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { id: decisionId } = await makeDecision(analyst);
    const prisma = await db();
    const gpt4 = await prisma.candidate.create({
      data: { decisionId, name: "GPT-4", provider: "test" },
      select: { id: true },
    });
    const claude = await prisma.candidate.create({
      data: { decisionId, name: "Claude-v1", provider: "test" },
      select: { id: true },
    });
    const file = "test/fixtures/external/chatbot-arena/leaderboard_table_20230619.csv";

    const result = await verdict(["import", "leaderboard", file, "--decision", decisionId, "--as", analyst.email]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: "LEADERBOARD", existing: false });
    const scores = await prisma.leaderboardScore.findMany({
      where: { decisionId, candidateId: { not: null } },
      select: { candidateId: true, metric: true, value: true },
    });
    expect(new Set(scores.map((s) => s.candidateId))).toEqual(new Set([gpt4.id, claude.id]));
    expect(scores.some((s) => s.candidateId === gpt4.id && s.value === 1227)).toBe(true);
  });

  it("refuses a user without the import permission and an unknown --as user (exit 1), and a missing actor (exit 2)", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const reviewer = await makeActor(["REVIEWER"]);
    const { id: decisionId } = await makeDecision(analyst);
    const args = [
      "import",
      "dataset",
      "test/fixtures/ingest/dataset.jsonl",
      "--decision",
      decisionId,
      "--dataset",
      "d",
    ];
    const forbidden = await verdict([...args, "--as", reviewer.email]);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toBe("verdict import: You do not have permission to do this.\n");
    const unknown = await verdict([...args, "--as", `${unique("ghost")}@verdict.test`]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^verdict import: No active user ghost-\w+@verdict\.test\.\n$/);
    const nobody = await verdict(args);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toMatch(/^verdict import: say who imports: --as EMAIL or --token TOKEN/);
    expect(await (await db()).dataset.count({ where: { decisionId } })).toBe(0);
  });
});
