import { describe, expect, it } from "vitest";
import { getAuditorBundle } from "@/lib/server/signoff/auditor-bundle";
import { signPack } from "@/lib/server/signoff/sign-pack";
import { submitForReview } from "@/lib/server/signoff/submit-for-review";
import { getReviewState } from "@/lib/server/signoff/review-state";
import { addLeaderboardScore, makeSignoffDecision, makeSigner, PASSWORD } from "@/lib/server/signoff/fixtures.test-helpers";
import { verifyBundle } from "./verify-pack";

async function approvedBundle() {
  const analyst = await makeSigner(["ANALYST"]);
  const { decisionId, goodId } = await makeSignoffDecision(analyst);
  const r1 = await submitForReview(analyst, decisionId);
  const a1 = await makeSigner(["APPROVER"], "Avery");
  const a2 = await makeSigner(["APPROVER"], "Blair");
  const approve = (sha: string) => ({ meaning: "APPROVAL" as const, password: PASSWORD, revisionSha256: sha, candidateId: goodId, reason: "meets every gate" });
  await signPack(a1, decisionId, approve(r1.sha256));
  await addLeaderboardScore(decisionId, goodId, analyst.id); // supersedes revision 1
  await expect(signPack(a2, decisionId, approve(r1.sha256))).rejects.toMatchObject({ code: "CONFLICT" });
  const r2 = (await getReviewState(a2, decisionId)).latestRevision!.sha256;
  await signPack(a1, decisionId, approve(r2));
  await signPack(a2, decisionId, approve(r2));
  // Through JSON, as the auditor receives it.
  return JSON.parse(JSON.stringify(await getAuditorBundle(a1, decisionId))) as Parameters<typeof verifyBundle>[0];
}

describe("offline pack verification (scripts/verify-pack.ts)", () => {
  it("passes a genuine bundle, noting the signature on the superseded revision", async () => {
    const bundle = await approvedBundle();
    const report = verifyBundle(bundle);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(bundle.revisions).toHaveLength(2);
    expect(report.notes.some((n) => /superseded revision 1/.test(n))).toBe(true);
  });

  it("finds an altered revision, a signature moved to another revision, an edited event and a missing link", async () => {
    const bundle = await approvedBundle();
    const altered = structuredClone(bundle);
    altered.revisions[1]!.canonicalJson = altered.revisions[1]!.canonicalJson.replace('"quorum":2', '"quorum":1');
    expect(verifyBundle(altered).problems.join("\n")).toMatch(/revision 2: SHA-256/);

    const moved = structuredClone(bundle);
    moved.signatures[0]!.packRevisionId = moved.revisions[1]!.id;
    expect(verifyBundle(moved).problems.join("\n")).toMatch(/carries hash/);

    const edited = structuredClone(bundle);
    const event = edited.audit.events.find((e) => e.action === "signature.create")!;
    (event.after as Record<string, unknown>).reason = "forged";
    expect(verifyBundle(edited).problems.join("\n")).toMatch(/content does not match its hash/);

    const cut = structuredClone(bundle);
    cut.audit.links.splice(1, 1);
    expect(verifyBundle(cut).problems.join("\n")).toMatch(/chain broken/);
  });
});
