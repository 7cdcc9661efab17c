import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "../db";
import { seedDemo } from "./demo-seed";
import { DEMO_DECISION_ID } from "@/lib/demo/moderation";
import { computedMetrics } from "@/test/metrics-fixtures";
import { runFigures } from "@/lib/pack/operating-figures";
import { checkSlos, rowAtSloConcurrency, type Pct } from "@/lib/pack/serving";

const previous = process.env.VERDICT_DEMO;
beforeAll(() => void (process.env.VERDICT_DEMO = "1"));
afterAll(() => void (process.env.VERDICT_DEMO = previous));

describe("demo seed", () => {
  it("refuses to run outside demo mode", async () => {
    process.env.VERDICT_DEMO = "";
    await expect(seedDemo(await database(), () => {})).rejects.toThrow(/demo mode/);
    process.env.VERDICT_DEMO = "1";
  });

  it("seeds once, idempotently, and the data tells the product's story", async () => {
    const db = await database();
    // Another test file (the exports) seeds the same database, maybe first: either way the
    // second call must find the finished seed and change nothing.
    expect(["seeded", "already-seeded"]).toContain(await seedDemo(db, () => {}));
    const events = await db.prisma.auditEvent.count({ where: { decisionId: DEMO_DECISION_ID } });
    expect(await seedDemo(db, () => {})).toBe("already-seeded");
    expect(await db.prisma.auditEvent.count({ where: { decisionId: DEMO_DECISION_ID } })).toBe(events);
    const prisma = db.prisma;
    const decision = await prisma.decision.findUniqueOrThrow({
      where: { id: DEMO_DECISION_ID },
      include: {
        candidates: true,
        scores: true,
        evalRuns: true,
        servingBenchmarks: true,
        datasets: { include: { versions: true } },
      },
    });
    expect(decision.candidates).toHaveLength(4);
    const version = decision.datasets[0]!.versions[0]!;
    expect(version.itemCount).toBeGreaterThanOrEqual(20_000);
    expect(await prisma.datasetItem.count({ where: { datasetVersionId: version.id } })).toBe(version.itemCount);
    expect(version.positiveCount / version.itemCount).toBeGreaterThan(0.025);
    expect(version.positiveCount / version.itemCount).toBeLessThan(0.035);
    expect(
      new Set(
        (
          await prisma.datasetItem.findMany({
            where: { datasetVersionId: version.id, label: true },
            select: { slice: true },
          })
        ).map((i) => i.slice),
      ).size,
    ).toBeGreaterThanOrEqual(4);

    // At least two leaderboard suites and an Elo with its interval for every candidate.
    for (const c of decision.candidates) {
      const mine = decision.scores.filter((s) => s.candidateId === c.id);
      expect(new Set(mine.filter((s) => s.stage === "LEADERBOARD").map((s) => s.suite)).size).toBeGreaterThanOrEqual(2);
      const elo = mine.find((s) => s.stage === "PREFERENCE")!;
      expect(elo.ciLow).toBeLessThan(elo.value);
      expect(elo.ciHigh).toBeGreaterThan(elo.value);
    }
    expect(decision.evalRuns.every((r) => r.status === "DONE")).toBe(true);
    expect(decision.evalRuns.some((r) => r.parseFailureCount > 0)).toBe(true);

    // The leaderboard leader is not the best choice at π = 2% and these costs.
    const mmlu = decision.scores.filter((s) => s.suite === "MMLU").sort((a, b) => b.value - a.value);
    const leader = mmlu[0]!.candidateId;
    // Each candidate at its own cost-optimal threshold (issue 14), judged on held-out figures.
    const metricsOf = (id: string) => computedMetrics(decision.evalRuns.find((r) => r.candidateId === id)!.metrics);
    const costOf = (id: string) => runFigures(metricsOf(id)).report.reweighted!.expectedCostPer1k!;
    const cheapest = [...decision.candidates].sort((a, b) => costOf(a.id) - costOf(b.id))[0]!.id;
    expect(cheapest).not.toBe(leader);
    expect(new Set(decision.candidates.map((c) => metricsOf(c.id).parameters.threshold)).size).toBe(
      decision.candidates.length,
    );
    expect(decision.candidates.every((c) => metricsOf(c.id).operatingPoint?.applies)).toBe(true);
    // The leader misses the rare violations at 0.5; it meets the recall floor only far lower, at twice the cheapest's cost.
    const leaderRun = metricsOf(leader!);
    expect(leaderRun.parameters.threshold).toBeLessThan(0.5);
    expect(costOf(leader!)).toBeGreaterThan(2 * costOf(cheapest));

    // Exactly one candidate fails an SLO at the stated concurrency; each has three or more load levels.
    const failing = decision.candidates.filter((c) => {
      const rows = decision.servingBenchmarks
        .filter((s) => s.candidateId === c.id)
        .map((s) => ({ ...s, ttftMs: s.ttftMs as Pct, e2eMs: s.e2eMs as Pct }));
      expect(new Set(rows.map((r) => r.concurrency)).size).toBeGreaterThanOrEqual(3);
      return checkSlos(decision, c, rowAtSloConcurrency(decision, rows)!).some((k) => !k.pass);
    });
    expect(failing).toHaveLength(1);
    expect(failing[0]!.id).not.toBe(cheapest);
  });
});
