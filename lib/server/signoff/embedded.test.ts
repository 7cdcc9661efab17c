import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openEmbedded, type Database } from "@/lib/db/connect";
import { verifyAuditChainWith } from "../audit/verify";
import { signPack } from "./sign-pack";
import { submitForReview } from "./submit-for-review";
import { makeSignoffDecision, makeSigner, PASSWORD } from "./fixtures.test-helpers";

// The same sign-off on the embedded database (no DATABASE_URL): row locks, advisory locks and
// interactive transactions must hold on PGlite's single connection too. This file's worker
// points the app's database holder at a fresh PGlite before anything opens it.
const dir = mkdtempSync(path.join(tmpdir(), "verdict-signoff-pglite-"));
const holder = globalThis as typeof globalThis & { __verdictDatabase?: Promise<Database> };
holder.__verdictDatabase = openEmbedded(path.join(dir, "db"));
afterAll(async () => {
  await (await holder.__verdictDatabase!).close();
  rmSync(dir, { recursive: true, force: true });
});

describe("sign-off on embedded PostgreSQL (PGlite)", () => {
  it("freezes a revision, takes simultaneous approvals, reaches the quorum once and keeps the chain intact", async () => {
    const analyst = await makeSigner(["ANALYST"]);
    const { decisionId, goodId } = await makeSignoffDecision(analyst, 2);
    const revision = await submitForReview(analyst, decisionId);
    const approvers = await Promise.all([0, 1, 2, 3].map((i) => makeSigner(["APPROVER"], `Approver ${i}`)));
    const results = await Promise.allSettled(
      approvers.map((a) =>
        signPack(a, decisionId, {
          email: a.email,
          meaning: "APPROVAL",
          password: PASSWORD,
          revisionSha256: revision.sha256,
          candidateId: goodId,
          reason: "meets every gate",
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const { prisma } = await holder.__verdictDatabase!;
    expect(
      (await prisma.decision.findUniqueOrThrow({ where: { id: decisionId }, select: { status: true } })).status,
    ).toBe("APPROVED");
    expect(await prisma.signature.count({ where: { decisionId } })).toBe(2);
    expect((await verifyAuditChainWith(prisma)).intact).toBe(true);
  });
});
