import { describe, expect, it } from "vitest";
import { database, db } from "../db";
import { computeEvalRun } from "../runs/eval-runs";
import { makeActor, makeDecision } from "@/test/factories";
import { exportRunItemsCsv, listRunItems } from "./drill-down";
import { ALL_A, items, seedDrillDecision as seed } from "./drill-down.test-helpers";

/** Every id of a filter, page by page along the next links. */
async function walkForward(
  actor: Parameters<typeof listRunItems>[0],
  decisionId: string,
  runId: number,
  query: Record<string, string>,
) {
  const pages: string[][] = [];
  let after: string | undefined;
  for (;;) {
    const page = await listRunItems(actor, decisionId, runId, { ...query, ...(after ? { after } : {}) });
    pages.push(page.items.map((i) => i.id));
    if (!page.next) return { pages, last: page };
    after = page.next;
  }
}

describe("drill-down to the items behind the pack's figures", () => {
  it("lists every cell at the operating threshold in the stated order, paged by keyset cursors both ways, with the stored totals", async () => {
    const { analyst, decisionId, runA } = await seed();
    const reviewer = await makeActor(["REVIEWER"]);
    const first = await listRunItems(reviewer, decisionId, runA, {});
    expect(first.filter).toMatchObject({ cell: "all", threshold: 0.5, slice: null, vs: null });
    expect(first.items.map((i) => i.id)).toEqual(ALL_A);
    expect(first.total).toBe(11);
    expect(first.items.map((i) => i.cell)).toEqual(["FN", "FN", "FN", "FN", "FN", "FP", "FP", "FP", "TP", "TN", "TN"]);
    expect(first.items[0]).toMatchObject({
      id: "i04",
      label: true,
      score: null,
      parseFailure: true,
      missing: false,
      slice: "s2",
    });
    expect(first.items[1]).toMatchObject({ id: "i05", score: null, missing: true });
    expect(first.items[2]).toMatchObject({ id: "i02", score: 0.2, predicted: null, text: "text of i02, with a comma" });

    const { pages } = await walkForward(reviewer, decisionId, runA, { limit: "3" });
    expect(pages).toEqual([ALL_A.slice(0, 3), ALL_A.slice(3, 6), ALL_A.slice(6, 9), ALL_A.slice(9)]);
    // Back from the third page: the second, then the first (which has no previous).
    const p1 = await listRunItems(reviewer, decisionId, runA, { limit: "3" });
    const p2 = await listRunItems(reviewer, decisionId, runA, { limit: "3", after: p1.next! });
    const p3 = await listRunItems(reviewer, decisionId, runA, { limit: "3", after: p2.next! });
    const back2 = await listRunItems(reviewer, decisionId, runA, { limit: "3", before: p3.previous! });
    expect(back2.items.map((i) => i.id)).toEqual(ALL_A.slice(3, 6));
    const back1 = await listRunItems(reviewer, decisionId, runA, { limit: "3", before: back2.previous! });
    expect(back1.items.map((i) => i.id)).toEqual(ALL_A.slice(0, 3));
    expect(back1.previous).toBeNull();
    expect(p1.previous).toBeNull();

    for (const [cell, ids] of [
      ["FN", ["i04", "i05", "i02", "i11", "i03"]],
      ["FP", ["i07", "i06", "i10"]],
      ["TP", ["i01"]],
      ["TN", ["i09", "i08"]],
      ["errors", ALL_A.slice(0, 8)],
    ] as const) {
      const page = await listRunItems(analyst, decisionId, runA, { cell });
      expect(page.items.map((i) => i.id)).toEqual(ids);
      // The matrix's count of the cell (stored metrics) is the list's length.
      expect(page.total).toBe(ids.length);
    }
  });

  it("moves the cells with another operating point, filters a slice, and drills a hard-label run by its predicted labels", async () => {
    const { analyst, decisionId, runA, runC } = await seed();
    const at = await listRunItems(analyst, decisionId, runA, { cell: "FN", threshold: "0.25" });
    expect(at.items.map((i) => i.id)).toEqual(["i04", "i05", "i02", "i11"]);
    expect(at.total).toBeNull(); // not a stored figure: no count over the run
    const fp = await listRunItems(analyst, decisionId, runA, { cell: "FP", threshold: "0.25" });
    expect(fp.items.map((i) => i.id)).toEqual(["i07", "i06", "i10", "i09"]);

    const slice = await listRunItems(analyst, decisionId, runA, { slice: "s2" });
    expect(slice.items.map((i) => i.id)).toEqual(["i04", "i11", "i03", "i08"]);
    const sliceFn = await listRunItems(analyst, decisionId, runA, { slice: "s2", cell: "FN" });
    expect(sliceFn.total).toBe(3); // positives − detected of slice s2, from the stored recall per slice
    const none = await listRunItems(analyst, decisionId, runA, { slice: "(none)" });
    expect(none.items.map((i) => i.id)).toEqual(["i07", "i06", "i10", "i09"]);
    expect(slice.slices).toEqual(["s1", "s2"]);

    // C: predicted labels; its parse failure on negative i09 is a false positive.
    const c = await listRunItems(analyst, decisionId, runC, { cell: "errors" });
    expect(c.run.scoreKind).toBe("hard-labels");
    expect(c.items.map((i) => [i.id, i.cell])).toEqual([
      ["i03", "FN"],
      ["i04", "FN"],
      ["i05", "FN"],
      ["i11", "FN"],
      ["i06", "FP"],
      ["i09", "FP"],
    ]);
  });

  it("lists the errors only this candidate makes against another candidate's run that counts, matching the stored McNemar counts", async () => {
    const { analyst, decisionId, runA, runB } = await seed();
    const page = await listRunItems(analyst, decisionId, runA, { vs: String(runB) });
    expect(page.filter).toMatchObject({ cell: "errors", vs: runB });
    expect(page.items.map((i) => i.id)).toEqual(["i04", "i05", "i02", "i06", "i10"]);
    const prisma = await db();
    const comparison = await prisma.runComparison.findFirstOrThrow({
      where: {
        OR: [
          { runAId: runA, runBId: runB },
          { runAId: runB, runBId: runA },
        ],
      },
      select: { runAId: true, onlyACorrect: true, onlyBCorrect: true },
    });
    // Errors only A makes are the items only B gets right.
    expect(page.items.length).toBe(comparison.runAId === runA ? comparison.onlyBCorrect : comparison.onlyACorrect);
    const fn = await listRunItems(analyst, decisionId, runA, { vs: String(runB), cell: "FN", limit: "2" });
    expect(fn.items.map((i) => i.id)).toEqual(["i04", "i05"]);
    expect(
      (await listRunItems(analyst, decisionId, runA, { vs: String(runB), cell: "FN", after: fn.next! })).items.map(
        (i) => i.id,
      ),
    ).toEqual(["i02"]);
    expect(page.compareWith.map((r) => r.runId).sort()).toContain(runB);
  });

  it("refuses a bad parameter naming it, a run that does not count as vs, and a reader without the pack's permission", async () => {
    const { analyst, decisionId, runA, runB, a, versionId } = await seed();
    const issue = (field: string) =>
      expect.objectContaining({ issues: expect.arrayContaining([expect.objectContaining({ field })]) });
    await expect(listRunItems(analyst, decisionId, runA, { cell: "XX" })).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: ["cell"] })],
    });
    await expect(listRunItems(analyst, decisionId, runA, { threshold: "abc" })).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: ["threshold"] })],
    });
    await expect(listRunItems(analyst, decisionId, runA, { limit: "501" })).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: ["limit"] })],
    });
    await expect(listRunItems(analyst, decisionId, runA, { offset: "20" })).rejects.toMatchObject({
      issues: [expect.objectContaining({ code: "unrecognized_keys" })],
    });
    await expect(listRunItems(analyst, decisionId, runA, { after: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({
      code: "VALIDATION",
      details: issue("after"),
    });
    // A TN cursor is no position in the FN list.
    const tn = await listRunItems(analyst, decisionId, runA, { cell: "TN", limit: "1" });
    await expect(listRunItems(analyst, decisionId, runA, { cell: "FN", after: tn.next! })).rejects.toMatchObject({
      code: "VALIDATION",
      details: issue("after"),
    });
    await expect(listRunItems(analyst, decisionId, runA, { vs: String(runB), cell: "TP" })).rejects.toMatchObject({
      code: "VALIDATION",
      details: issue("cell"),
    });
    await expect(listRunItems(analyst, decisionId, runA, { vs: String(runA) })).rejects.toMatchObject({
      code: "VALIDATION",
      details: issue("vs"),
    });
    // A newer run of A supersedes runA: runA no longer counts, so it is compared with nothing.
    const prisma = await db();
    const newer = await prisma.evalRun.create({
      data: { decisionId, candidateId: a.id, datasetVersionId: versionId },
      select: { id: true },
    });
    await prisma.prediction.createMany({ data: items.map((i) => ({ evalRunId: newer.id, itemId: i.id, score: 0.5 })) });
    await computeEvalRun(await database(), newer.id);
    await expect(listRunItems(analyst, decisionId, runA, { vs: String(runB) })).rejects.toMatchObject({
      code: "VALIDATION",
      details: issue("vs"),
    });
    await expect(listRunItems(analyst, decisionId, runB, { vs: String(runA) })).rejects.toMatchObject({
      code: "VALIDATION",
      details: issue("vs"),
    });
    expect((await listRunItems(analyst, decisionId, runA, {})).run.countsInPack).toBe(false);

    const admin = await makeActor(["ADMIN"]);
    await expect(listRunItems(admin, decisionId, runA, {})).rejects.toMatchObject({ code: "FORBIDDEN" });
    const other = await makeDecision(analyst);
    await expect(listRunItems(analyst, other.id, runA, {})).rejects.toMatchObject({ code: "NOT_FOUND" });
    const pending = await prisma.evalRun.create({
      data: { decisionId, candidateId: a.id, datasetVersionId: versionId },
      select: { id: true },
    });
    await expect(listRunItems(analyst, decisionId, pending.id, {})).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("exports the whole filtered list as spreadsheet-safe CSV, and rebuilds the items of a run computed before they existed", async () => {
    const { analyst, decisionId, runA } = await seed();
    const prisma = await db();
    await prisma.runItem.deleteMany({ where: { evalRunId: runA } });
    const { fileName, body } = await exportRunItemsCsv(analyst, decisionId, runA, { cell: "errors" });
    expect(fileName).toBe(`run-${runA}-errors.csv`);
    const csv = await new Response(body).text();
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("id,cell,label,score,predicted,parse_failure,missing,slice,text");
    expect(lines.slice(1, -1).map((l) => l.split(",")[0])).toEqual(ALL_A.slice(0, 8));
    expect(lines[1]).toBe('i04,FN,1,,,1,0,s2,"text of i04, with a comma"');
    expect(lines[6]).toBe(`i07,FP,0,0.95,,0,0,,"'=HYPERLINK(""x"")"`);
    expect(await prisma.runItem.count({ where: { evalRunId: runA } })).toBe(items.length);
  });
});
