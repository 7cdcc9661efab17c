import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costPer1kRequests } from "@/lib/pack/serving";
import { renderMessages } from "@/lib/harness/protocol";
import { simPromptTokens, startSimServer, type SimServer } from "@/lib/harness/network/sim-server";
import { summarize } from "@/lib/ingest/formats/percentile";
import { LABEL_PROTOCOL, makeHarnessDecision, type HarnessItemSpec } from "@/test/harness-fixtures";
import { makeActor } from "@/test/factories";
import { db } from "../db";
import { drainInlineJobs } from "../runs/queue";
import { setCandidateEndpoint, setEvalProtocol } from "./endpoints";
import { drainInlineChunks } from "./queue";
import { cancelHarnessRun, getHarnessRun, startHarnessRun, startSweep } from "./runs";
import { highestPassingConcurrency } from "@/lib/pack/serving";
import { buildPack } from "../signoff/build-pack";
import { DEMO_PROTOCOL, DEMO_SIMULATED_INDEX, demoAnswers } from "@/lib/demo/harness";
import { DEMO_SEED, demoCandidates, generateDemoItems, generateDemoPredictions } from "@/lib/demo/moderation";

// Chunks and the metrics job run in this process; retries quick so the test measures, not waits.
process.env.VERDICT_JOBS = "inline";
process.env.VERDICT_HARNESS_MAX_ATTEMPTS = "3";
process.env.VERDICT_HARNESS_BACKOFF_MS = "10";
process.env.VERDICT_SECRETS_KEY = "11".repeat(32);

const TTFT = 25;
const ITL = 5;
let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ ttftMs: TTFT, itlMs: ITL });
});
afterAll(() => sim.close());

/** What the simulator is told per item, and so what every stored figure must say. */
const FAILS: Record<number, string> = {
  3: "fail=contract",
  7: "fail=contract",
  11: "fail=contract",
  13: "fail=429 times=2",
  17: "fail=429 times=2",
  19: "fail=500",
  23: "fail=malformed",
  29: "fail=nologprobs",
};
function plan(prefix: string, n = 40) {
  return Array.from({ length: n }, (_, k) => {
    const label = k % 2 === 0;
    const p = label ? 0.45 + (k % 9) * 0.06 : 0.05 + (k % 7) * 0.07;
    const tokens = 1 + (k % 5);
    const id = `${prefix}${String(k).padStart(2, "0")}`;
    const item: HarnessItemSpec = {
      itemId: id,
      label,
      text: `[[sim id=${id} label=${p >= 0.5 ? "yes" : "no"} p=${p} tokens=${tokens} ${FAILS[k] ?? ""}]]`,
    };
    return { item, p, tokens, fail: FAILS[k] ?? null };
  });
}

describe("a harness run against the simulated endpoint", () => {
  it("stores every figure the simulator was told to produce, and yields an eval run and a serving measurement", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const items = plan(`a${Date.now() % 1000}-`);
    const { decisionId, candidate } = await makeHarnessDecision(
      analyst,
      sim.url,
      items.map((i) => i.item),
      { apiKey: "sk-test-secret-123", concurrency: 8 },
    );
    const run = await startHarnessRun(analyst, decisionId, { candidateId: candidate.id, concurrency: 6 });
    await drainInlineChunks();
    await drainInlineJobs();

    const done = await getHarnessRun(analyst, decisionId, run.id);
    expect(done.status).toBe("DONE");
    expect(done.doneCount).toBe(40);
    expect(done.parseFailures).toBe(4);
    expect(done.failedRequests).toBe(2);

    const prisma = await db();
    const stored = await prisma.harnessItem.findMany({ where: { harnessRunId: run.id }, orderBy: { itemId: "asc" } });
    expect(stored).toHaveLength(40);
    let inTokens = 0;
    let outTokens = 0;
    let completed = 0;
    for (const [k, spec] of items.entries()) {
      const row = stored.find((s) => s.itemId === spec.item.itemId)!;
      const failedRequest = spec.fail === "fail=500" || spec.fail === "fail=malformed";
      expect(row.completed, spec.item.itemId).toBe(!failedRequest);
      expect(row.attempts).toBe(spec.fail === "fail=429 times=2" || spec.fail === "fail=500" ? 3 : 1);
      expect(sim.requestsFor(spec.item.itemId)).toBe(row.attempts);
      if (failedRequest) {
        expect(row.error).toMatch(spec.fail === "fail=500" ? /HTTP 500/ : /malformed JSON/);
        continue;
      }
      completed++;
      const expectedIn = simPromptTokens(
        renderMessages(LABEL_PROTOCOL, { itemId: spec.item.itemId, text: spec.item.text, slice: null }),
      );
      expect(row.inputTokens).toBe(expectedIn);
      expect(row.outputTokens).toBe(spec.tokens);
      inTokens += expectedIn;
      outTokens += spec.tokens;
      if (spec.fail === "fail=contract") expect(row.parseFailure).toMatch(/not one of the labels/);
      else if (spec.fail === "fail=nologprobs") expect(row.parseFailure).toMatch(/no log-probabilities/);
      else {
        expect(row.parseFailure).toBeNull();
        expect(Math.abs(row.score! - spec.p)).toBeLessThan(1e-9);
        expect(row.predicted).toBe(spec.p >= 0.5);
      }
      // The server sends token j at TTFT + j·ITL after the request arrived: nothing can arrive sooner.
      expect(row.ttftMs!).toBeGreaterThanOrEqual(TTFT);
      // (Upper bounds per item would measure this busy machine's scheduler; the percentiles are checked below.)
      expect(row.e2eMs!).toBeGreaterThanOrEqual(TTFT + (spec.tokens - 1) * ITL);
      expect(row.itlMs).toHaveLength(spec.tokens - 1);
      expect(k).toBeGreaterThanOrEqual(0);
    }

    const serving = await prisma.servingBenchmark.findUniqueOrThrow({ where: { id: done.servingBenchmarkId! } });
    expect(serving.tool).toBe("Verdict harness");
    expect(serving.concurrency).toBe(6);
    expect(serving.completed).toBe(completed);
    expect(serving.failed).toBe(2);
    expect(serving.meanInputTokens).toBeCloseTo(inTokens / completed, 9);
    expect(serving.meanOutputTokens).toBeCloseTo(outTokens / completed, 9);
    const ok = stored.filter((s) => s.completed);
    expect(serving.ttftMs).toEqual(JSON.parse(JSON.stringify(summarize(ok.map((s) => s.ttftMs!)))));
    const ttft = serving.ttftMs as { p50: number; p99: number };
    expect(ttft.p50).toBeGreaterThanOrEqual(TTFT);
    // Upper bounds leave room for a loaded machine's scheduler (the benchmark measures the overhead itself).
    expect(ttft.p50).toBeLessThan(TTFT + 250);
    const itl = serving.itlMs as { p50: number };
    expect(itl.p50).toBeGreaterThan(0);
    expect(itl.p50).toBeLessThan(ITL + 10);
    const e2e = serving.e2eMs as { p50: number };
    expect(e2e.p50).toBeGreaterThanOrEqual(TTFT + ITL);
    // Cost per 1,000 requests from the measured tokens × the candidate's prices.
    const cost = costPer1kRequests(
      { priceInputPerMTok: 0.5, priceOutputPerMTok: 1.5, pricePerHour: null },
      { ...serving, ttftMs: {}, e2eMs: {} },
    );
    expect(cost).toBeCloseTo(((inTokens * 0.5 + outTokens * 1.5) / completed / 1e6) * 1000, 12);

    const evalRun = await prisma.evalRun.findUniqueOrThrow({ where: { id: done.evalRunId! } });
    expect(evalRun.status).toBe("DONE");
    expect(evalRun.parseFailureCount).toBe(4);
    expect(evalRun.missingCount).toBe(2);
    expect(evalRun.itemCount).toBe(40);

    // The key is stored encrypted and never appears in the audit trail; its fingerprint does.
    const endpoint = await prisma.candidateEndpoint.findUniqueOrThrow({ where: { candidateId: candidate.id } });
    expect(endpoint.apiKeyCiphertext).not.toContain("sk-test");
    expect(endpoint.apiKeyFingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
    const events = await prisma.auditEvent.findMany({ where: { decisionId }, select: { action: true, after: true } });
    expect(JSON.stringify(events)).not.toContain("sk-test-secret-123");
    expect(JSON.stringify(events)).toContain(endpoint.apiKeyFingerprint);
    expect(events.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        "eval_protocol.set",
        "endpoint.set",
        "harness_run.start",
        "harness_run.finish",
        "eval_run.computed",
      ]),
    );
  });

  it("cancels a run: stored items stay, nothing more is called, no eval run", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const prefix = `c${Date.now() % 1000}-`;
    const items = Array.from({ length: 30 }, (_, k) => ({
      itemId: `${prefix}${k}`,
      label: k % 2 === 0,
      text: `[[sim id=${prefix}${k} label=yes p=0.9 tokens=3 ttft=150]]`,
    }));
    const { decisionId, candidate } = await makeHarnessDecision(analyst, sim.url, items, { concurrency: 2 });
    const run = await startHarnessRun(analyst, decisionId, { candidateId: candidate.id });
    const prisma = await db();
    await expect
      .poll(async () => (await prisma.harnessRun.findUniqueOrThrow({ where: { id: run.id } })).doneCount, {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    await cancelHarnessRun(analyst, decisionId, run.id);
    await drainInlineChunks();
    const after = await prisma.harnessRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(after.status).toBe("CANCELLED");
    expect(after.evalRunId).toBeNull();
    expect(after.doneCount).toBeLessThan(30);
    const called = items.filter((i) => sim.requestsFor(i.itemId) > 0).length;
    expect(called).toBeLessThanOrEqual(after.doneCount + 2);
    await expect(cancelHarnessRun(analyst, decisionId, run.id)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("refuses link-local and metadata endpoints and a protocol with an unknown variable, naming the field, changing nothing", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const reviewer = await makeActor(["REVIEWER"]);
    const { decisionId, candidate } = await makeHarnessDecision(
      analyst,
      sim.url,
      plan(`g${Date.now() % 1000}-`, 2).map((i) => i.item),
    );
    for (const baseUrl of [
      "http://169.254.169.254/v1",
      "http://[fe80::1]:8000/v1",
      "http://metadata.google.internal/v1",
      "http://[::ffff:169.254.169.254]/v1",
    ]) {
      await expect(
        setCandidateEndpoint(analyst, decisionId, { candidateId: candidate.id, baseUrl, model: "m" }),
      ).rejects.toMatchObject({ code: "VALIDATION", message: expect.stringMatching(/^baseUrl: Refused/) });
    }
    const prisma = await db();
    expect((await prisma.candidateEndpoint.findUniqueOrThrow({ where: { candidateId: candidate.id } })).baseUrl).toBe(
      sim.url,
    );
    await expect(
      setEvalProtocol(analyst, decisionId, { ...LABEL_PROTOCOL, user: "{{text}} {{label}}" }),
    ).rejects.toMatchObject({
      code: "VALIDATION",
      message: expect.stringContaining("protocol.user: Unknown variable {{label}}"),
    });
    await expect(setEvalProtocol(reviewer, decisionId, LABEL_PROTOCOL)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(startHarnessRun(reviewer, decisionId, { candidateId: candidate.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      startHarnessRun(analyst, decisionId, { candidateId: candidate.id, concurrency: 99 }),
    ).rejects.toMatchObject({ code: "VALIDATION", message: expect.stringMatching(/^concurrency:/) });
    expect(await prisma.harnessRun.count({ where: { decisionId } })).toBe(0);
  });

  it("the demo's simulated endpoint reproduces the demo's uploaded predictions through the JSON contract", async () => {
    const demoSim = await startSimServer({
      ttftMs: 1,
      itlMs: 0,
      output: "json",
      labels: ["violating", "ok"],
      answer: demoAnswers(),
    });
    try {
      const analyst = await makeActor(["ANALYST"]);
      const all = generateDemoItems();
      const items = all.slice(0, 120);
      const { decisionId, candidate } = await makeHarnessDecision(analyst, demoSim.url, items, {
        protocol: DEMO_PROTOCOL,
        concurrency: 8,
      });
      const run = await startHarnessRun(analyst, decisionId, { candidateId: candidate.id });
      await drainInlineChunks();
      const prisma = await db();
      const stored = await prisma.harnessItem.findMany({ where: { harnessRunId: run.id }, orderBy: { itemId: "asc" } });
      const expected = generateDemoPredictions(
        demoCandidates[DEMO_SIMULATED_INDEX]!,
        all,
        DEMO_SEED + DEMO_SIMULATED_INDEX + 1,
      ).slice(0, 120);
      expect(stored.map((s) => ({ itemId: s.itemId, score: s.score, failed: s.parseFailure !== null }))).toEqual(
        expected.map((p) => ({ itemId: p.itemId, score: p.score, failed: p.parseFailure })),
      );
    } finally {
      await demoSim.close();
    }
  });

  it("a load sweep measures each level after the previous one and stage 5 finds the highest level meeting the SLOs", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const prefix = `s${Date.now() % 1000}-`;
    // Latency grows with load on a real server; here each item's time to first token says so itself.
    const items = Array.from({ length: 16 }, (_, k) => ({
      itemId: `${prefix}${String(k).padStart(2, "0")}`,
      label: k % 2 === 0,
      text: `[[sim label=yes p=0.7 tokens=2]]`,
    }));
    const { decisionId, candidate } = await makeHarnessDecision(analyst, sim.url, items, { concurrency: 4 });
    const { runs } = await startSweep(analyst, decisionId, { candidateId: candidate.id, levels: [4, 1, 2], limit: 12 });
    await drainInlineChunks();
    const prisma = await db();
    const done = await prisma.harnessRun.findMany({
      where: { id: { in: runs.map((r) => r.id) } },
      orderBy: { id: "asc" },
      include: { servingBenchmark: true, items: { select: { startedAt: true } } },
    });
    expect(done.map((r) => [r.concurrency, r.status, r.doneCount, r.evalRunId])).toEqual([
      [1, "DONE", 12, null],
      [2, "DONE", 12, null],
      [4, "DONE", 12, null],
    ]);
    for (let i = 1; i < done.length; i++)
      expect(Math.min(...done[i]!.items.map((x) => x.startedAt))).toBeGreaterThanOrEqual(
        done[i - 1]!.finishedAt!.getTime(),
      );
    const rows = done.map((r) => ({
      ...r.servingBenchmark!,
      ttftMs: r.servingBenchmark!.ttftMs as object,
      e2eMs: r.servingBenchmark!.e2eMs as object,
    }));
    expect(rows.map((r) => r.completed)).toEqual([12, 12, 12]);
    // Throughput grows with concurrency against a server that answers each request in fixed time.
    expect(rows[2]!.requestThroughput).toBeGreaterThan(rows[0]!.requestThroughput * 1.5);
    const pricing = { priceInputPerMTok: 0.5, priceOutputPerMTok: 1.5, pricePerHour: null };
    const slos = {
      sloP95E2eMs: 10_000,
      sloP95TtftMs: null,
      sloMinThroughputRps: null,
      sloThroughputConcurrency: null,
      sloMaxCostPer1kRequests: null,
    };
    expect(highestPassingConcurrency(slos, pricing, rows)?.concurrency).toBe(4);
    expect(highestPassingConcurrency({ ...slos, sloP95E2eMs: 1 }, pricing, rows)).toBeNull();
  });

  it("the pack revision's hash covers the protocol", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId } = await makeHarnessDecision(
      analyst,
      sim.url,
      plan(`h${Date.now() % 1000}-`, 2).map((i) => i.item),
    );
    const prisma = await db();
    const before = await prisma.$transaction((tx) => buildPack(tx, decisionId));
    expect(JSON.parse(before.canonicalJson).protocol).toEqual(JSON.parse(JSON.stringify(LABEL_PROTOCOL)));
    await setEvalProtocol(analyst, decisionId, {
      ...LABEL_PROTOCOL,
      sampling: { ...LABEL_PROTOCOL.sampling, temperature: 0.2 },
    });
    const after = await prisma.$transaction((tx) => buildPack(tx, decisionId));
    expect(after.sha256).not.toBe(before.sha256);
  });
});
