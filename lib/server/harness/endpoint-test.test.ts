import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer, type SimServer } from "@/lib/harness/network/sim-server";
import { LABEL_PROTOCOL, makeHarnessDecision } from "@/test/harness-fixtures";
import { makeActor, makeDecision } from "@/test/factories";
import { db } from "../db";
import { previewItem, testCandidateEndpoint } from "./endpoint-test";

// "Test the endpoint" (issue 26 item 7) against the simulated endpoint: one item, rendered through
// the protocol, sent the way a run sends it, and the answer read by the output contract.
process.env.VERDICT_HARNESS_MAX_ATTEMPTS = "2";
process.env.VERDICT_HARNESS_BACKOFF_MS = "10";
process.env.VERDICT_SECRETS_KEY = "11".repeat(32);

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ ttftMs: 5, itlMs: 1 });
});
afterAll(() => sim.close());

const items = [
  { itemId: "b-2", label: false, text: "[[sim id=b2 label=no p=0.1]]" },
  { itemId: "a-1", label: true, text: "[[sim id=a1 label=yes p=0.87 tokens=2]]" },
];

describe("testing a candidate's endpoint", () => {
  it("sends the first item by item id through the protocol and shows the parsed answer; stores nothing", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId, candidate } = await makeHarnessDecision(analyst, sim.url, items, { apiKey: "sk-test" });
    expect(await previewItem(analyst, decisionId)).toEqual({ itemId: "a-1", text: items[1]!.text, slice: null });
    const result = await testCandidateEndpoint(analyst, decisionId, candidate.id);
    expect(result).toMatchObject({
      itemId: "a-1",
      completed: true,
      httpStatus: 200,
      rawOutput: "yes",
      parsed: { ok: true, predicted: true },
      positiveLabel: "yes",
      messages: [
        { role: "system", content: LABEL_PROTOCOL.system },
        { role: "user", content: `Post a-1: ${items[1]!.text}` },
      ],
    });
    if (result.parsed?.ok) expect(result.parsed.score).toBeCloseTo(0.87, 2);
    expect(sim.log.at(-1)).toMatchObject({ id: "a1", status: 200 });
    expect(await (await db()).harnessRun.count({ where: { decisionId } })).toBe(0);
  });

  it("an answer that breaks the contract is shown with the reason; readers may not test; no protocol is a field error", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const contract = [{ itemId: "c-1", label: true, text: "[[sim id=c1 fail=contract]]" }];
    const { decisionId, candidate } = await makeHarnessDecision(analyst, sim.url, contract);
    const result = await testCandidateEndpoint(analyst, decisionId, candidate.id);
    expect(result.completed).toBe(true);
    expect(result.parsed).toMatchObject({ ok: false, reason: expect.stringContaining("not one of the labels") });

    const reviewer = await makeActor(["REVIEWER"]);
    await expect(testCandidateEndpoint(reviewer, decisionId, candidate.id)).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(testCandidateEndpoint(analyst, decisionId, "no-such-candidate")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const { id: bare } = await makeDecision(analyst);
    await expect(testCandidateEndpoint(analyst, bare, candidate.id)).rejects.toMatchObject({
      code: "VALIDATION",
      details: { issues: [{ field: "protocol" }] },
    });
  });
});
