import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { ParseIssue } from "@/lib/ingest/formats/types";
import { readDatasetRow, resolveDatasetColumns } from "@/lib/ingest/buyer-rows";
import { typedRows } from "@/lib/ingest/typed-rows";
import { fileSource } from "@/lib/files/file-source";
import { loadSklearnFixtures } from "../fixtures/sklearn/load";
import { root, verdict, SPAWN_TIMEOUT } from "./run-verdict";

const fixtures = path.join(root, "test/fixtures/cli");
const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), "verdict-cli-metrics-"));
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

const cli = (...args: string[]) => verdict(args);

/** What a dataset upload reports for the file (lib/ingest's row walk with the dataset rules). */
async function uploadIssues(file: string): Promise<ParseIssue[]> {
  const issues: ParseIssue[] = [];
  const state = {
    rows: 0,
    issues: {
      add: (...i: ParseIssue[]) => issues.push(...i),
      get failed() {
        return issues.length > 0;
      },
    },
  };
  const mapping = { positiveClass: "violating" };
  const rules = {
    resolve(columns: string[], line: number) {
      const r = resolveDatasetColumns(columns, {}, line);
      return r.ok
        ? {
            ok: true as const,
            read: (values: Record<string, unknown>, l: number) => readDatasetRow(values, r.cols, mapping, l),
          }
        : r;
    },
  };
  for await (const batch of typedRows(fileSource(file), "csv", rules, state)) void batch;
  return issues;
}

describe("verdict metrics", { timeout: SPAWN_TIMEOUT }, () => {
  it("reads CSV with a BOM, CRLF, quoted commas and newlines", async () => {
    const { code, stdout } = await cli("metrics", "--input", path.join(fixtures, "good.csv"), "--curve");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ n: 4, positives: 2, negatives: 2 });
    // Scores 0.9(+) 0.8(−) 0.4(+) 0.1(−): AP = ½·1 + ½·(2/3); at 0.5: TP=1 FP=1 TN=1 FN=1.
    expect(out.averagePrecision).toBeCloseTo(0.5 + 1 / 3, 15);
    expect(out.rocAuc).toBe(0.75);
    expect(out.atThreshold).toEqual({
      threshold: 0.5,
      tp: 1,
      fp: 1,
      tn: 1,
      fn: 1,
      precision: 0.5,
      recall: 0.5,
      f1: 0.5,
      fpr: 0.5,
    });
    expect(out.curve.thresholds).toEqual([0.1, 0.4, 0.8, 0.9]);
    expect(out.curve.recall).toEqual([1, 1, 0.5, 0.5, 0]);
  });

  it("reads a semicolon file as the upload does, says so, and refuses its decimal commas", async () => {
    const comma = await cli("metrics", "--input", path.join(fixtures, "good.csv"));
    const semicolon = write("semicolon.csv", "id;label;score\r\na;1;0.9\r\nb;0;0.8\r\nc;1;0.4\r\nd;0;0.1\r\n");
    const read = await cli("metrics", "--input", semicolon);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual(JSON.parse(comma.stdout));
    expect(read.stderr).toContain(`${semicolon}: Read as semicolon-separated.`);
    expect(comma.stderr).not.toContain("separated");
    const decimalComma = write("decimal-comma.csv", "id;label;score\na;1;0,9\nb;0;0.8\n");
    const refused = await cli("metrics", "--input", decimalComma);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${decimalComma}:2: score: decimal comma: write 0.9 (got "0,9")`);
  });

  it("reads JSONL and keeps distinct doubles that print alike apart", async () => {
    const { code, stdout } = await cli("metrics", "--input", path.join(fixtures, "good.jsonl"), "--curve");
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.curve.thresholds).toEqual([0, 0.3, 0.30000000000000004, 0.9]);
  });

  it("reports every bad CSV row with its line number and exits non-zero", async () => {
    const { code, stdout, stderr } = await cli("metrics", "--input", path.join(fixtures, "bad.csv"));
    expect(code).toBe(1);
    expect(stdout).toBe("");
    const file = path.join(fixtures, "bad.csv");
    // Line 8's "true" is a valid label; line 7's missing field is the upload's row error.
    expect(stderr.split("\n")).toEqual([
      `verdict metrics: 6 problem(s) in ${file}, nothing computed`,
      `${file}:3: label: not 0/1 or true/false (got "2")`,
      `${file}:4: score: not a number (got "abc")`,
      `${file}:5: score: missing score`,
      `${file}:6: score: not a finite number (overflow) (got "1e999")`,
      `${file}:7: (row): has 2 fields, the header has 3 (got "2 fields")`,
      `${file}:9: score: not a number (got "0x10")`,
      "",
    ]);
  });

  it("names the line an upload names after a CRLF inside a quoted field (line 4, not csv-parse's 5)", async () => {
    const file = write("crlf-in-quotes.csv", 'id,label,score\r\n"a\r\nquoted",1,0.9\r\nb,2,0.5\r\nc,0,0.1\r\n');
    const { code, stdout, stderr } = await cli("metrics", "--input", file);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(`\n${file}:4: label: not 0/1 or true/false (got "2")\n`);
    expect((await uploadIssues(file)).map((i) => [i.line, i.field])).toEqual([[4, "label"]]);
  });

  it("rejects the labels 1.00, +1 and 1e0, as an upload does, and accepts 1.0, TRUE, 0", async () => {
    const file = write(
      "number-labels.csv",
      "id,label,score\na,1.00,0.5\nb,+1,0.2\nc,1e0,0.3\nd,1.0,0.9\ne,TRUE,0.8\nf,0,0.1\n",
    );
    const { code, stderr } = await cli("metrics", "--input", file);
    expect(code).toBe(1);
    expect(stderr.split("\n").slice(1, -1)).toEqual([
      `${file}:2: label: not 0/1 or true/false (got "1.00")`,
      `${file}:3: label: not 0/1 or true/false (got "+1")`,
      `${file}:4: label: not 0/1 or true/false (got "1e0")`,
    ]);
    expect((await uploadIssues(file)).map((i) => [i.line, i.field, i.value])).toEqual([
      [2, "label", "1.00"],
      [3, "label", "+1"],
      [4, "label", "1e0"],
    ]);
  });

  it("reads standard input with --input -: the same JSON as the file, errors named <stdin>", async () => {
    for (const name of ["good.csv", "good.jsonl"]) {
      const file = path.join(fixtures, name);
      const fromFile = await cli("metrics", "--input", file, "--curve", "--prevalence", "0.1");
      const fromStdin = await verdict(["metrics", "--input", "-", "--curve", "--prevalence", "0.1"], {
        input: readFileSync(file),
      });
      expect(fromStdin.stderr, name).toBe("");
      expect(fromStdin.code, name).toBe(0);
      expect(fromStdin.stdout, name).toBe(fromFile.stdout);
    }
    const bad = await verdict(["metrics", "--input", "-"], { input: readFileSync(path.join(fixtures, "bad.jsonl")) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^verdict metrics: 4 problem\(s\) in <stdin>, nothing computed\n<stdin>:4: \(row\): not valid JSON/,
    );
    expect(bad.stderr).toContain('\n<stdin>:6: label: not 0/1 or true/false (got "yes")\n');
    const empty = await verdict(["metrics", "--input", "-"], { input: "" });
    expect(empty.stderr).toContain("<stdin>:1: (file): empty file");
    expect(empty.code).toBe(1);
  });

  it("reports bad JSONL rows, a missing column and invalid UTF-8", async () => {
    const jsonl = await cli("metrics", "--input", path.join(fixtures, "bad.jsonl"));
    expect(jsonl.code).toBe(1);
    for (const line of [4, 5, 6, 7]) expect(jsonl.stderr).toContain(`bad.jsonl:${line}:`);
    const header = await cli("metrics", "--input", path.join(fixtures, "no-label-column.csv"));
    expect(header.code).toBe(1);
    expect(header.stderr).toContain("no-label-column.csv:1: (header): no gold label column");
    const utf8 = await cli("metrics", "--input", path.join(fixtures, "invalid-utf8.csv"));
    expect(utf8.code).toBe(1);
    expect(utf8.stderr).toContain("invalid-utf8.csv:3: (file): not valid UTF-8");
  });

  it("prints null with a reason for metrics scikit-learn cannot define", async () => {
    const { code, stdout } = await cli(
      "metrics",
      "--input",
      path.join(fixtures, "no-positives.csv"),
      "--curve",
      "--prevalence",
      "0.1",
      "--bootstrap",
      "10",
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    for (const key of [
      "averagePrecision",
      "rocAuc",
      "prAucTrapezoid",
      "logLoss",
      "atThreshold.recall",
      "curve.recall",
      "reweighted.averagePrecision",
      "intervals.rocAuc",
    ]) {
      const value = key.split(".").reduce((o, k) => o[k], out);
      expect(value, key).toBeNull();
      expect(out.undefinedReasons[key], key).toMatch(/\w/);
    }
  });

  it("runs as `npx verdict` in the project, and from any working directory", async () => {
    const { stdout } = await run(
      "npx",
      ["--no-install", "verdict", "metrics", "--input", "test/fixtures/cli/good.csv"],
      { cwd: root },
    );
    expect(JSON.parse(stdout).rocAuc).toBe(0.75);
    const elsewhere = await verdict(["metrics", "--input", path.relative(dir, path.join(fixtures, "good.csv"))], {
      cwd: dir,
    });
    expect(JSON.parse(elsewhere.stdout).rocAuc).toBe(0.75);
  });

  it("rejects invalid options with exit code 2", async () => {
    expect((await cli("metrics")).code).toBe(2);
    expect((await cli("metrics", "--input", "x.csv", "--prevalence", "1.5")).code).toBe(2);
    expect((await cli("metrics", "--input", "x.csv", "--cost-fn", "1")).code).toBe(2);
    expect((await cli("metrics", "--input", "x.csv", "--format", "xml")).code).toBe(2);
    expect((await cli("nonsense")).code).toBe(2);
  });

  it("is deterministic for a seed and prints costs at π", async () => {
    const args = [
      "metrics",
      "--input",
      path.join(fixtures, "good.csv"),
      "--prevalence",
      "0.1",
      "--cost-fn",
      "10",
      "--cost-fp",
      "1",
      "--bootstrap",
      "50",
      "--seed",
      "9",
    ];
    const a = JSON.parse((await cli(...args)).stdout);
    const b = JSON.parse((await cli(...args)).stdout);
    expect(a).toEqual(b);
    // At t = 0.5: TPR = ½, FPR = ½ → 1000·(0.1·½·10 + 0.9·½·1) = 950; at t = 0.4: TPR 1, FPR ½ → 450.
    expect(a.reweighted).toEqual({
      prevalence: 0.1,
      averagePrecision: a.reweighted.averagePrecision,
      precision: 0.1,
      recall: 0.5,
      expectedCostPer1k: 950,
      costOptimalThreshold: 0.4,
      costOptimalExpectedCostPer1k: 450,
    });
    expect(a.intervals.averagePrecision[0]).toBeLessThanOrEqual(a.intervals.averagePrecision[1]);
  });

  it("agrees with scikit-learn on the fixture cases, through CSV", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "verdict-cli-"));
    for (const c of loadSklearnFixtures().cases.filter((c) => c.scores && c.labels.length <= 5000)) {
      const file = path.join(dir, `${c.name}.csv`);
      // repr-style shortest round-trip doubles, as Python's csv writer would print them
      writeFileSync(file, "label,score\n" + c.labels.map((y, i) => `${y},${c.scores![i]}`).join("\n") + "\n");
      const { code, stdout } = await cli("metrics", "--input", file, "--curve", "--threshold", String(c.thresholds[0]));
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
