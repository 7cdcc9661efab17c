import { describe, expect, it } from "vitest";
import type { Gate } from "./gates";
import { verdictSummary, type VerdictSummaryInput } from "./verdict-summary";

const gate = (key: string, pass: boolean): Gate => ({
  key,
  label: key,
  stage: key === "recall" ? 4 : 5,
  pass,
  detail: `${key} detail`,
});
const base: VerdictSummaryInput = {
  status: "IN_REVIEW",
  quorum: 2,
  candidates: [
    { id: "atlas", name: "Atlas" },
    { id: "sentry", name: "Sentry" },
    { id: "orca", name: "Orca" },
  ],
  gates: [
    {
      candidateId: "atlas",
      gates: [gate("evidence", true), gate("recall", false), gate("latency", false)],
      recallLowerBoundMeetsFloor: false,
      passes: false,
    },
    {
      candidateId: "sentry",
      gates: [gate("evidence", true), gate("recall", true), gate("latency", true)],
      recallLowerBoundMeetsFloor: true,
      passes: true,
    },
    {
      candidateId: "orca",
      gates: [gate("evidence", true), gate("recall", true), gate("latency", true)],
      recallLowerBoundMeetsFloor: true,
      passes: true,
    },
  ],
  totals: [
    { candidateId: "atlas", errorCostPer1k: 5, servingCostPer1k: 1, totalPer1k: 6 },
    { candidateId: "sentry", errorCostPer1k: 9, servingCostPer1k: 1, totalPer1k: 10 },
    { candidateId: "orca", errorCostPer1k: 11, servingCostPer1k: 2, totalPer1k: 13 },
  ],
  bestCandidateId: "sentry",
  shortlisting: [{ label: "MMLU", ranks: { atlas: 1, orca: 2, sentry: 3 } }],
  revisions: [],
};

describe("verdict summary", () => {
  it("recommends the best candidate passing every gate and says why the leaderboard leader is not it", () => {
    const s = verdictSummary(base);
    expect(s.heading).toBe("In review");
    expect(s.recommendation).toEqual({ candidateId: "sentry", name: "Sentry", totalPer1k: 10 });
    expect(s.outcomes.map((o) => [o.name, o.passes, o.failed.map((g) => g.key)])).toEqual([
      ["Atlas", false, ["recall", "latency"]],
      ["Sentry", true, []],
      ["Orca", true, []],
    ]);
    expect(s.leader).toMatchObject({
      name: "Atlas",
      ranking: "#1 on MMLU",
      isRecommendation: false,
      firstFailedGate: { key: "recall" },
    });
  });

  it("has no recommendation when nobody passes, even though the across-stages best falls back to the lowest error cost", () => {
    const gates = base.gates.map((g) => ({ ...g, passes: false, gates: [...g.gates, gate("cost", false)] }));
    const s = verdictSummary({ ...base, gates, bestCandidateId: "atlas" });
    expect(s.recommendation).toBeNull();
    expect(s.leader?.firstFailedGate?.key).toBe("recall");
  });

  it("names the approved candidate from a quorum of distinct approvers on the newest revision holding approvals", () => {
    const sig = (
      signerId: string,
      printedName: string,
      candidateId: string | null,
      meaning: "APPROVAL" | "REVIEW" = "APPROVAL",
    ) => ({ signerId, printedName, meaning, candidateId, signedAt: "2026-12-01T10:00:00Z" });
    const s = verdictSummary({
      ...base,
      status: "APPROVED",
      revisions: [
        {
          number: 1,
          sha256: "a".repeat(64),
          supersededAt: "2026-12-01T09:00:00Z",
          signatures: [sig("u1", "Zoë Ångström", "orca")],
        },
        {
          number: 2,
          sha256: "b".repeat(64),
          supersededAt: null,
          signatures: [
            sig("u3", "Ελένη", null, "REVIEW"),
            sig("u1", "Zoë Ångström", "sentry"),
            sig("u2", "王小明", "sentry"),
          ],
        },
      ],
    });
    expect(s.heading).toBe("Approved: Sentry");
    expect(s.approved).toEqual({
      candidateId: "sentry",
      name: "Sentry",
      revision: 2,
      signers: ["Zoë Ångström", "王小明"],
    });
  });
});
