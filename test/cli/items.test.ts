import { describe, expect, it } from "vitest";
import { ALL_A, seedDrillDecision } from "@/lib/server/pack/drill-down.test-helpers";
import { makeActor } from "@/test/factories";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// `verdict items` spawned as a user runs it: the drill-down's code path, its validation and its permission.
describe("verdict items", { timeout: SPAWN_TIMEOUT }, () => {
  it("prints a page of a cell with its cursor, the errors only one candidate makes, and the whole list as CSV", async () => {
    const { analyst, decisionId, runA, runB } = await seedDrillDecision();
    const page = await verdict([
      "items",
      "--decision",
      decisionId,
      "--run",
      String(runA),
      "--cell",
      "FN",
      "--limit",
      "2",
      "--as",
      analyst.email,
    ]);
    expect(page.stderr).toBe("");
    expect(page.code).toBe(0);
    const first = JSON.parse(page.stdout) as { items: { id: string; cell: string }[]; next: string; total: number };
    expect(first.items.map((i) => i.id)).toEqual(["i04", "i05"]);
    expect(first.total).toBe(5);
    const next = await verdict([
      "items",
      "--decision",
      decisionId,
      "--run",
      String(runA),
      "--cell",
      "FN",
      "--limit",
      "2",
      "--after",
      first.next,
      "--as",
      analyst.email,
    ]);
    expect(JSON.parse(next.stdout).items.map((i: { id: string }) => i.id)).toEqual(["i02", "i11"]);

    const vs = await verdict([
      "items",
      "--decision",
      decisionId,
      "--run",
      String(runA),
      "--vs",
      String(runB),
      "--as",
      analyst.email,
    ]);
    expect(vs.code).toBe(0);
    expect(JSON.parse(vs.stdout).items.map((i: { id: string }) => i.id)).toEqual(["i04", "i05", "i02", "i06", "i10"]);

    const csv = await verdict([
      "items",
      "--decision",
      decisionId,
      "--run",
      String(runA),
      "--csv",
      "--as",
      analyst.email,
    ]);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split("\r\n");
    expect(lines[0]).toBe("id,cell,label,score,predicted,parse_failure,missing,slice,text");
    expect(lines.slice(1, -1).map((l) => l.split(",")[0])).toEqual(ALL_A);
  });

  it("names a bad option value, refuses a user who may not read the pack, and says who must act", async () => {
    const { analyst, decisionId, runA } = await seedDrillDecision();
    const bad = await verdict([
      "items",
      "--decision",
      decisionId,
      "--run",
      String(runA),
      "--cell",
      "FX",
      "--threshold",
      "high",
      "--as",
      analyst.email,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("verdict items: cell: The cell must be one of errors, all, FN, FP, TP, TN.");
    expect(bad.stderr).toContain("verdict items: threshold: The threshold must be a finite number.");
    const admin = await makeActor(["ADMIN"]);
    const refused = await verdict(["items", "--decision", decisionId, "--run", String(runA), "--as", admin.email]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("verdict items: You do not have permission to do this.\n");
    const nobody = await verdict(["items", "--decision", decisionId, "--run", String(runA)]);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain("say who reads the items");
  });
});
