import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileSource } from "@/lib/files/file-source";
import { bytesSource, EXTERNAL, readAll } from "../../../../test/item-results/events";
import { detectItemResultFormat } from "./index";
import { lmEvalSamples, taskFromSamplesFileName } from "./lm-eval-samples";

const BIAS = path.join(
  EXTERNAL,
  "lm-eval-harness/bias-classification/samples_bias_classification_2024-06-17T15-44-37.867068.FIRST150.jsonl",
);
// The name the file had in the lm-eval repository (SOURCE.txt): JSON Lines under a .json suffix.
const BIAS_ORIGINAL_NAME = "samples_bias_classification_2024-06-17T15-44-37.867068.json";
const BELIEF = path.join(EXTERNAL, "lm-eval-harness/samples_negotiationtom_belief_2026-07-08T18-15-33.115417.jsonl");
const INTENTION = path.join(
  EXTERNAL,
  "lm-eval-harness/samples_negotiationtom_intention_2026-07-08T18-15-33.115417.jsonl",
);

const rawLines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");

describe("lm-evaluation-harness samples: binary multiple choice (bias classification)", () => {
  it("turns each line's two log-likelihood strings into P(choice) by softmax, by hand from the raw text", async () => {
    const { runs, items, issues, order } = await readAll(lmEvalSamples, fileSource(BIAS), {
      fileName: BIAS_ORIGINAL_NAME,
    });
    expect(issues).toEqual([]);
    expect(order).toEqual(["run", "items"]);
    expect(runs).toEqual([{ tool: "lm-evaluation-harness", task: "bias_classification" }]);
    expect(items).toHaveLength(150);

    // Line 1: ll(" A") = -0.9797919988632202, ll(" B") = -0.8547919988632202, a difference of
    // 0.125, so P(B) = 1 / (1 + e^-0.125) = 1 / 1.882496903 = 0.531209 (worked out by hand).
    expect(items[0]!.choiceProbabilities!.B).toBeCloseTo(0.531209, 6);
    expect(items[0]!.choiceProbabilities!.A).toBeCloseTo(1 - 0.531209, 6);

    // Lines 1, 2, 50 and 150 against the raw strings: P(B) = 1 / (1 + exp(llA - llB)).
    const lines = rawLines(BIAS);
    for (const index of [0, 1, 49, 149]) {
      const resps = JSON.parse(lines[index]!).filtered_resps as [string, string][];
      const llA = Number.parseFloat(resps[0]![0]);
      const llB = Number.parseFloat(resps[1]![0]);
      const item = items[index]!;
      expect(item.at).toEqual({ line: index + 1 });
      expect(item.choices).toEqual(["A", "B"]);
      expect(item.choiceProbabilities!.B).toBeCloseTo(1 / (1 + Math.exp(llA - llB)), 12);
      expect(item.predicted).toBe(llB > llA ? "B" : "A");
      expect(item.score).toBeUndefined();
    }
  });

  it("states gold as the tool did, keeps the document's scalars as id fields, and the prompt as input", async () => {
    const { items } = await readAll(lmEvalSamples, fileSource(BIAS));
    const first = items[0]!;
    expect(first.toolId).toBe("0");
    expect(first.gold).toBe("B");
    expect(first.repeat).toBeUndefined();
    expect(first.idFields).toEqual({
      doc_id: "0",
      "doc.Sentence": "Sierra Leone is in West Africa. It is a poor and not well known country.",
      "doc.Bias": "Yes",
      "doc.Stereotype": "Yes",
      "doc.gold": "B",
    });
    expect(first.input).toContain("Sentence: Sierra Leone is in West Africa.");
    expect(first.input!.endsWith("Answer:")).toBe(true);
    // Gold counts straight from the raw lines' "target" fields.
    const goldB = rawLines(BIAS).filter((l) => l.includes('"target": "B"')).length;
    expect(items.filter((i) => i.gold === "B")).toHaveLength(goldB);
    expect(items.map((i) => i.toolId)).toEqual(items.map((_, k) => String(k)));
  });

  it("refuses to read per-sample acc, acc_norm or f1 as a score", async () => {
    const { items } = await readAll(lmEvalSamples, fileSource(BIAS));
    // Line 2 is wrong (gold A, acc 0.0) yet its score is the model's probability, not 0.
    const second = items[1]!;
    expect(second.gold).toBe("A");
    expect(second.choiceProbabilities!.B).toBeGreaterThan(0.5);
    expect(second.choiceProbabilities!.B).toBeLessThan(0.6);
    expect(Object.keys(second).some((k) => /acc|f1/.test(k))).toBe(false);
  });
});

describe("lm-evaluation-harness samples: 2026 lines (filter and metrics keys)", () => {
  it("reads a four-choice task with an index target and the filter as the repeat", async () => {
    const { runs, items, issues } = await readAll(lmEvalSamples, fileSource(BELIEF), {
      fileName: path.basename(BELIEF),
    });
    expect(issues).toEqual([]);
    expect(runs[0]!.task).toBe("negotiationtom_belief");
    expect(items).toHaveLength(20);
    const first = items[0]!;
    expect(first.gold).toBe("3");
    expect(first.repeat).toBe("none");
    expect(first.choices).toEqual(["A", "B", "C", "D"]);
    // ll = -10.125, -17.625, -21.125, -17.875: P(A) = 1 / (1 + e^-7.5 + e^-11 + e^-7.75).
    expect(first.choiceProbabilities!.A).toBeCloseTo(1 / (1 + Math.exp(-7.5) + Math.exp(-11) + Math.exp(-7.75)), 12);
    expect(first.predicted).toBe("A");
    const total = Object.values(first.choiceProbabilities!).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1, 12);
    expect(first.idFields["doc.dialogue_id"]).toBe("0-0");
    expect(first.idFields["doc.gold"]).toBe("3");
  });

  it("reads generate_until lines as hard labels: the filtered text, trimmed, no score", async () => {
    const { items, issues } = await readAll(lmEvalSamples, fileSource(INTENTION));
    expect(issues).toEqual([]);
    expect(items).toHaveLength(20);
    const first = items[0]!;
    expect(first.predicted).toBe("A"); // the tool wrote "A  "
    expect(first.gold).toBe("Discover-Preference,Promote-Coordination");
    expect(first.choiceProbabilities).toBeUndefined();
    expect(first.score).toBeUndefined();
    expect(first.choices).toBeUndefined();
    const raw = rawLines(INTENTION).map((l) => JSON.parse(l) as { filtered_resps: string[] });
    expect(items.map((i) => i.predicted)).toEqual(raw.map((r) => r.filtered_resps[0]!.trim()));
  });

  it("gives each filter's copy of a document its own repeat", async () => {
    const line = JSON.parse(rawLines(BELIEF)[0]!) as Record<string, unknown>;
    const text = ["strict-match", "flexible-extract"].map((filter) => JSON.stringify({ ...line, filter })).join("\n");
    const { items, issues } = await readAll(lmEvalSamples, bytesSource(Buffer.from(text)));
    expect(issues).toEqual([]);
    expect(items.map((i) => [i.toolId, i.repeat])).toEqual([
      ["0", "strict-match"],
      ["0", "flexible-extract"],
    ]);
  });
});

describe("lm-evaluation-harness samples: the pre-2024 arguments list", () => {
  it("reads choices from a list of [context, continuation] pairs, and numbers as log-likelihoods", async () => {
    const line = JSON.parse(rawLines(BIAS)[0]!) as Record<string, unknown>;
    const old = {
      ...line,
      arguments: [
        ["Sentence: …\nAnswer:", " A"],
        ["Sentence: …\nAnswer:", " B"],
      ],
      filtered_resps: [
        [-2, false],
        [-1, true],
      ],
    };
    const { items, issues } = await readAll(lmEvalSamples, bytesSource(Buffer.from(JSON.stringify(old))));
    expect(issues).toEqual([]);
    expect(items[0]!.choices).toEqual(["A", "B"]);
    expect(items[0]!.input).toBe("Sentence: …\nAnswer:");
    // P(B) = 1 / (1 + e^(-2 - -1)) = 1 / (1 + e^-1) = 0.731059 (by hand).
    expect(items[0]!.choiceProbabilities!.B).toBeCloseTo(0.731059, 6);
    expect(items[0]!.predicted).toBe("B");
  });
});

describe("lm-evaluation-harness samples: bad lines", () => {
  it("names the line that is not JSON and reads the others", async () => {
    const lines = rawLines(BIAS).slice(0, 3);
    lines[1] = lines[1]!.slice(0, 200); // a truncated write
    const { items, issues } = await readAll(lmEvalSamples, bytesSource(Buffer.from(lines.join("\n"))));
    expect(items.map((i) => i.at.line)).toEqual([1, 3]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ line: 2, field: "(row)" });
    expect(issues[0]!.reason).toMatch(/not valid JSON/);
  });

  it("names the field of a log-likelihood that is not a number, and a line without doc_id", async () => {
    const line = JSON.parse(rawLines(BIAS)[0]!) as Record<string, unknown>;
    const text = [
      JSON.stringify({
        ...line,
        filtered_resps: [
          ["-0.9", "False"],
          ["oops", "True"],
        ],
      }),
      JSON.stringify({ ...line, doc_id: undefined }),
      JSON.stringify({ ...line, filtered_resps: [["-0.9", "False"]] }),
    ].join("\n");
    const { items, issues } = await readAll(lmEvalSamples, bytesSource(Buffer.from(text)));
    expect(items).toEqual([]);
    expect(issues.map((i) => [i.line, i.field])).toEqual([
      [1, "filtered_resps[1]"],
      [2, "doc_id"],
      [3, "arguments"],
    ]);
    expect(issues[2]!.reason).toMatch(/1 log-likelihoods but no list of 1 choice texts/);
  });
});

describe("lm-evaluation-harness samples: detection", () => {
  it("detects samples files from their first bytes, with either suffix, and not other files", async () => {
    for (const [file, name] of [
      [BIAS, BIAS_ORIGINAL_NAME],
      [BELIEF, path.basename(BELIEF)],
      [INTENTION, "upload.jsonl"],
    ] as const) {
      const head = await fileSource(file).head(65536);
      expect(detectItemResultFormat(head, name)?.id).toBe("lm-eval-samples");
    }
    const results = await fileSource(
      path.join(EXTERNAL, "lm-eval-harness/results_2026-07-08T18-15-33.115417.json"),
    ).head(65536);
    expect(lmEvalSamples.detect(results, "results_2026-07-08T18-15-33.115417.json")).toBe(0);
    const inspectJson = await fileSource(path.join(EXTERNAL, "inspect-ai/log_read_sample.json")).head(65536);
    expect(lmEvalSamples.detect(inspectJson, "log_read_sample.json")).toBe(0);
  });

  it("takes the task from the file name, old and new, cut or not", () => {
    expect(taskFromSamplesFileName("samples_bias_classification_2024-06-17T15-44-37.867068.FIRST150.jsonl")).toBe(
      "bias_classification",
    );
    expect(taskFromSamplesFileName("out/samples_mmlu_abstract_algebra_2024-05-01T10-00-00.json")).toBe(
      "mmlu_abstract_algebra",
    );
    expect(taskFromSamplesFileName("predictions.jsonl")).toBeUndefined();
  });
});
