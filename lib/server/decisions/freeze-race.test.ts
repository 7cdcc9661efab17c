import { describe, expect, it } from "vitest";
import { updateCandidate } from "./candidates";
import { db } from "../db";
import { updateDecisionParameters } from "./decisions";
import { importDataset, importLeaderboard, type UploadFile } from "../imports";
import { buildPack } from "../signoff/build-pack";
import { submitForReview } from "../signoff/submit-for-review";
import { makeActor, makeCompleteDecision, rationaleCiting, CITED_SUITE } from "@/test/factories";

// Issue 11 item 4 (integration, real PostgreSQL, each side on its own pooled connection): a
// change of a decision sent together with "submit" either lands before the freeze — and is in
// the frozen revision — or is refused and changes nothing. Never is the decision changed after
// it entered review. Every kind of change takes the decision's row lock inside its transaction:
// parameters, a candidate, a leaderboard import (Prisma transaction) and a dataset import (raw
// COPY transaction).

process.env.VERDICT_JOBS = "inline";

const upload = (name: string, content: string): UploadFile => ({
  name,
  stream: (async function* () {
    yield Buffer.from(content, "utf8");
  })(),
});

type Pack = {
  task: { prevalence: number };
  candidates: { id: string; version: string | null }[];
  evidence: { imports: { id: string; sha256: string; kind: string }[] };
};

const ROUNDS = 50;
const KINDS = ["parameters", "candidate", "leaderboard", "dataset"] as const;

describe("an edit racing a submission, 50 times", () => {
  it("the edit lands before the freeze (and is in the frozen revision) or is refused; the pack never changes after", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const prisma = await db();
    const tally: Record<string, number> = {};
    for (let i = 0; i < ROUNDS; i++) {
      const kind = KINDS[i % KINDS.length]!;
      const { decisionId, candidates } = await makeCompleteDecision(analyst);
      const marker = `r${i}-${Date.now()}`;
      const edits = {
        parameters: () => updateDecisionParameters(analyst, decisionId, { prevalence: 0.1 + i / 1000 }),
        candidate: () =>
          updateCandidate(analyst, {
            candidateId: candidates[0]!.id,
            name: candidates[0]!.name,
            provider: "test",
            version: marker,
            shortlistRationale: rationaleCiting(CITED_SUITE),
          }),
        leaderboard: () =>
          importLeaderboard(
            analyst,
            decisionId,
            upload(
              "board.csv",
              `model,suite,metric,value\n${candidates[0]!.name},${CITED_SUITE},mean win rate,0.${i + 10}\n`,
            ),
          ),
        dataset: () =>
          importDataset(
            analyst,
            decisionId,
            upload("holdout.csv", `id,label,text\na,violating,${marker}\nb,benign,x\n`),
            { datasetName: "holdout", negativeLabels: ["benign"] },
          ),
      };
      const edit = edits[kind];
      // An upload reads its file before its transaction: a submission a few milliseconds later
      // arrives while it spools, between its early check and its transaction.
      const delay = kind === "leaderboard" || kind === "dataset" ? (i % 5) * 4 : 0;
      const submit = async () => {
        if (delay) await new Promise((r) => setTimeout(r, delay));
        return submitForReview(analyst, decisionId);
      };
      // Started in turn one before the other, so that both orders happen.
      const [e, s] =
        i % 8 < 4
          ? await Promise.allSettled([edit(), submit()])
          : ((await Promise.allSettled([submit(), edit()])).reverse() as [
              PromiseSettledResult<unknown>,
              PromiseSettledResult<unknown>,
            ]);

      expect(s.status).toBe("fulfilled");
      const revisions = await prisma.packRevision.findMany({
        where: { decisionId },
        select: { sha256: true, canonicalJson: true },
      });
      expect(revisions).toHaveLength(1);
      const frozen = JSON.parse(revisions[0]!.canonicalJson) as Pack;
      // Nothing changed after the freeze: the pack built from the rows now is the frozen one.
      const now = await prisma.$transaction((tx) => buildPack(tx, decisionId));
      expect(now.sha256).toBe(revisions[0]!.sha256);

      const landed = e.status === "fulfilled";
      if (!landed)
        expect((e as PromiseRejectedResult).reason).toMatchObject({
          code: "CONFLICT",
          message: expect.stringMatching(/in review/),
        });
      const inFrozen = {
        parameters: () => frozen.task.prevalence === 0.1 + i / 1000,
        candidate: () => frozen.candidates.some((c) => c.version === marker),
        leaderboard: () => frozen.evidence.imports.some((imp) => imp.kind === "LEADERBOARD"),
        dataset: () => frozen.evidence.imports.some((imp) => imp.kind === "DATASET"),
      }[kind]();
      expect({ round: i, kind, landed, inFrozen }).toEqual({ round: i, kind, landed, inFrozen: landed });
      const key = `${kind}: ${landed ? "landed before the freeze" : "refused"}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    console.log("freeze race outcomes:", tally);
    expect(Object.values(tally).reduce((a, b) => a + b, 0)).toBe(ROUNDS);
  });
});
