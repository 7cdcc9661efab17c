import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { PATCH } from "@/app/api/v1/decisions/[id]/candidates/[candidateId]/route";
import { database, db } from "../db";
import { createApiToken } from "../identity/api-tokens";
import { computeEvalRun } from "../runs/eval-runs";
import { drainInlineJobs } from "../runs/queue";
import { addCandidateScore, makeActor, makeDecision, rationaleCiting, unique, CITED_SUITE } from "@/test/factories";

// The handler authenticates by the bearer token; the cookie session (Auth.js, which vitest cannot
// load outside Next) is never asked, so it is stubbed.
vi.mock("../identity/auth", () => ({ auth: async () => null }));

// Recomputation jobs run in this process, so the test can wait for them (drainInlineJobs).
process.env.VERDICT_JOBS = "inline";

/** A draft decision with one scored candidate and one computed run on six items. */
async function seed() {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const name = unique("Model");
  const candidate = await prisma.candidate.create({ data: { decisionId, name, provider: "p" }, select: { id: true } });
  await addCandidateScore(decisionId, { id: candidate.id, name });
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("ds") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: 6, positiveCount: 3 },
    select: { id: true },
  });
  const labels = [true, true, true, false, false, false];
  await prisma.datasetItem.createMany({
    data: labels.map((label, i) => ({ datasetVersionId: version.id, itemId: `i${i}`, label })),
  });
  const run = await prisma.evalRun.create({
    data: { decisionId, candidateId: candidate.id, datasetVersionId: version.id },
    select: { id: true },
  });
  await prisma.prediction.createMany({
    data: [0.9, 0.8, 0.3, 0.2, 0.6, 0.1].map((score, i) => ({ evalRunId: run.id, itemId: `i${i}`, score })),
  });
  await computeEvalRun(await database(), run.id);
  const { token } = await createApiToken(analyst, "ci");
  return { decisionId, candidateId: candidate.id, name, runId: run.id, token };
}

/** PATCH …/candidates/<candidateId> with a bearer token, through the route's handler. */
async function patch(s: Awaited<ReturnType<typeof seed>>, body: unknown, token = s.token) {
  const url = `http://localhost/api/v1/decisions/${s.decisionId}/candidates/${s.candidateId}`;
  const req = new NextRequest(url, {
    method: "PATCH",
    body: JSON.stringify(body),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  });
  const res = await PATCH(req, { params: Promise.resolve({ id: s.decisionId, candidateId: s.candidateId }) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe("PATCH /api/v1/decisions/<id>/candidates/<candidateId>", () => {
  it("answers with the runs it queues for recomputation (`recomputing`), as the decision's PATCH does", async () => {
    const s = await seed();
    const form = { name: s.name, provider: "p", version: "", shortlistRationale: rationaleCiting(CITED_SUITE) };
    const changed = await patch(s, { ...form, operatingThreshold: 0.3 });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({
      candidate: { id: s.candidateId, operatingThreshold: 0.3 },
      recomputing: [s.runId],
    });
    const prisma = await db();
    expect((await prisma.evalRun.findUniqueOrThrow({ where: { id: s.runId } })).status).toBe("PENDING");
    await drainInlineJobs();
    const run = await prisma.evalRun.findUniqueOrThrow({
      where: { id: s.runId },
      select: { status: true, metrics: true },
    });
    expect(run.status).toBe("DONE");
    expect((run.metrics as { parameters: { threshold: number } }).parameters.threshold).toBe(0.3);

    // The same threshold again: nothing to recompute.
    const same = await patch(s, { ...form, version: "v2", operatingThreshold: 0.3 });
    expect(same.status).toBe(200);
    expect(same.json).toMatchObject({ candidate: { version: "v2" }, recomputing: [] });

    // A reviewer's token may not edit: 403, nothing queued.
    const reviewer = await makeActor(["REVIEWER"]);
    const denied = await patch(s, { ...form, operatingThreshold: 0.7 }, (await createApiToken(reviewer, "r")).token);
    expect(denied.status).toBe(403);
    expect((await prisma.evalRun.findUniqueOrThrow({ where: { id: s.runId } })).status).toBe("DONE");
  });
});
