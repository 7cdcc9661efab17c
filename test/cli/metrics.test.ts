import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadSklearnFixtures } from "../test/fixtures/sklearn/load";

const root = path.resolve(import.meta.dirname, "..");
const fixtures = path.join(root, "test/fixtures/cli");
const run = promisify(execFile);

/** Run the real command line (bin/verdict.mjs → cli/verdict.ts), from another working directory. */
async function verdict(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, "bin/verdict.mjs"), ...args], { cwd: tmpdir(), maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("verdict metrics", () => {
  it("reads CSV with a BOM, CRLF, quoted commas and newlines", async () => {
    const { code, stdout } = await verdict("metrics", "--input", path.join(fixtures, "good.csv"), "--curve");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ n: 4, positives: 2, negatives: 2 });
    // Scores 0.9(+) 0.8(−) 0.4(+) 0.1(−): AP = ½·1 + ½·(2/3); at 0.5: TP=1 FP=1 TN=1 FN=1.
    expect(out.averagePrecision).toBeCloseTo(0.5 + 1 / 3, 15);
    expect(out.rocAuc).toBe(0.75);
    expect(out.atThreshold).toEqual({ threshold: 0.5, tp: 1, fp: 1, tn: 1, fn: 1, precision: 0.5, recall: 0.5, f1: 0.5, fpr: 0.5 });
    expect(out.curve.thresholds).toEqual([0.1, 0.4, 0.8, 0.9]);
    expect(out.curve.recall).toEqual([1, 1, 0.5, 0.5, 0]);
  });

  it("reads JSONL and keeps distinct doubles that print alike apart", async () => {
    const { code, stdout } = await verdict("metrics", "--input", path.join(fixtures, "good.jsonl"), "--curve");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.curve.thresholds).toEqual([0, 0.3, 0.30000000000000004, 0.9]);
  });

  it("reports every bad CSV row with its line number and exits non-zero", async () => {
    const { code, stdout, stderr } = await verdict("metrics", "--input", path.join(fixtures, "bad.csv"));
    expect(code).toBe(1);
    expect(stdout).toBe("");
    for (const line of [3, 4, 5, 6, 7, 9]) expect(stderr).toContain(`bad.csv:${line}:`);
    expect(stderr).not.toContain("bad.csv:2:");
    expect(stderr).not.toContain("bad.csv:8:"); // "true" is a valid label
  });

  it("reports bad JSONL rows, a missing column and invalid UTF-8", async () => {
    const jsonl = await verdict("metrics", "--input", path.join(fixtures, "bad.jsonl"));
    expect(jsonl.code).toBe(1);
    for (const line of [4, 5, 6, 7]) expect(jsonl.stderr).toContain(`bad.jsonl:${line}:`);
    const header = await verdict("metrics", "--input", path.join(fixtures, "no-label-column.csv"));
    expect(header.code).toBe(1);
    expect(header.stderr).toContain("lacks column label");
    const utf8 = await verdict("metrics", "--input", path.join(fixtures, "invalid-utf8.csv"));
    expect(utf8.code).toBe(1);
    expect(utf8.stderr).toContain("invalid-utf8.csv:3: file: invalid UTF-8");
  });

  it("prints null with a reason for metrics scikit-learn cannot define", async () => {
    const { code, stdout } = await verdict("metrics", "--input", path.join(fixtures, "no-positives.csv"), "--curve", "--prevalence", "0.1", "--bootstrap", "10");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    for (const key of ["averagePrecision", "rocAuc", "prAucTrapezoid", "logLoss", "atThreshold.recall", "curve.recall", "reweighted.averagePrecision", "intervals.rocAuc"]) {
      const value = key.split(".").reduce((o, k) => o[k], out);
      expect(value, key).toBeNull();
      expect(out.undefinedReasons[key], key).toMatch(/\w/);
    }
  });

  it("runs as `npx verdict` in the project", async () => {
    const { stdout } = await run("npx", ["--no-install", "verdict", "metrics", "--input", "test/fixtures/cli/good.csv"], { cwd: root });
    expect(JSON.parse(stdout).rocAuc).toBe(0.75);
  });

  it("rejects invalid options with exit code 2", async () => {
    expect((await verdict("metrics")).code).toBe(2);
    expect((await verdict("metrics", "--input", "x.csv", "--prevalence", "1.5")).code).toBe(2);
    expect((await verdict("metrics", "--input", "x.csv", "--cost-fn", "1")).code).toBe(2);
    expect((await verdict("nonsense")).code).toBe(2);
  });

  it("is deterministic for a seed and prints costs at π", async () => {
    const args = ["metrics", "--input", path.join(fixtures, "good.csv"), "--prevalence", "0.1", "--cost-fn", "10", "--cost-fp", "1", "--bootstrap", "50", "--seed", "9"];
    const a = JSON.parse((await verdict(...args)).stdout);
    const b = JSON.parse((await verdict(...args)).stdout);
    expect(a).toEqual(b);
    // At t = 0.5: TPR = ½, FPR = ½ → 1000·(0.1·½·10 + 0.9·½·1) = 950; at t = 0.4: TPR 1, FPR ½ → 450.
    expect(a.reweighted).toEqual({ prevalence: 0.1, averagePrecision: a.reweighted.averagePrecision, precision: 0.1, recall: 0.5, expectedCostPer1k: 950, costOptimalThreshold: 0.4, costOptimalExpectedCostPer1k: 450 });
    expect(a.intervals.averagePrecision[0]).toBeLessThanOrEqual(a.intervals.averagePrecision[1]);
  });

  it("agrees with scikit-learn on the fixture cases, through CSV", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "verdict-cli-"));
    for (const c of loadSklearnFixtures().cases.filter((c) => c.scores && c.labels.length <= 5000)) {
      const file = path.join(dir, `${c.name}.csv`);
      // repr-style shortest round-trip doubles, as Python's csv writer would print them
      writeFileSync(file, "label,score\n" + c.labels.map((y, i) => `${y},${c.scores![i]}`).join("\n") + "\n");
      const { code, stdout } = await verdict("metrics", "--input", file, "--curve", "--threshold", String(c.thresholds[0]));
      expect(code, c.name).toBe(0);
      const out = JSON.parse(stdout);
      const e = c.expected;
      const close = (a: number | null, b: number | null, what: string) => {
        if (b === null) expect(a, `${c.name} ${what}`).toBeNull();
        else expect(Math.abs(a! - b), `${c.name} ${what}`).toBeLessThanOrEqual(1e-9);
      };
      close(out.averagePrecision, e.ap, "AP");
      close(out.rocAuc, e.roc_auc, "ROC-AUC");
      close(out.prAucTrapezoid, e.pr_auc_trapezoid, "trapezoid");
      close(out.brier, e.brier, "brier");
      close(out.logLoss, e.log_loss, "log loss");
      const at = e.at[0]!;
      for (const k of ["precision", "recall", "f1", "fpr"] as const) close(out.atThreshold[k], at[k], k);
      expect(out.curve.thresholds).toEqual(e.pr.thresholds);
      out.curve.precision.forEach((p: number, i: number) => close(p, e.pr.precision[i]!, `precision[${i}]`));
      if (e.pr.recall === null) expect(out.curve.recall).toBeNull();
      else out.curve.recall.forEach((r: number, i: number) => close(r, e.pr.recall![i]!, `recall[${i}]`));
    }
  });
});
