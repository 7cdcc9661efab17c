import { describe, expect, it } from "vitest";
import {
  datasetRowSchema,
  MAX_ID_LENGTH,
  MAX_SLICE_LENGTH,
  MAX_TEXT_LENGTH,
  passesDatasetRow,
  passesPredictionRow,
  predictionRowSchema,
  readDatasetRow,
  readPredictionRow,
  resolveDatasetColumns,
  resolvePredictionColumns,
  type DatasetRow,
  type PredictionRow,
} from "./buyer-rows";
import { Xoshiro128 } from "../metrics/random";

/**
 * The row rules written out (passesPredictionRow / passesDatasetRow) stand in for the zod
 * schemas on the upload's hot path: they must accept exactly the rows the schemas accept, and a
 * refused row must read as the schema words it.
 */
const pick = <T>(rng: Xoshiro128, xs: readonly T[]): T => xs[rng.nextIndex(xs.length)]!;

const ids = ["", "a", " x", "item-1", "é".repeat(MAX_ID_LENGTH), "a".repeat(MAX_ID_LENGTH + 1)];
const numbers = [
  null,
  0,
  -0,
  0.5,
  -1,
  1e308,
  -1e308,
  NaN,
  Infinity,
  -Infinity,
  3,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53,
  -(2 ** 31),
];
const booleans = [null, true, false];
const texts = [
  null,
  "",
  "text",
  "x".repeat(MAX_SLICE_LENGTH),
  "x".repeat(MAX_SLICE_LENGTH + 1),
  "x".repeat(MAX_TEXT_LENGTH),
  "x".repeat(MAX_TEXT_LENGTH + 1),
];

describe("prediction row rules without zod", () => {
  it("accept exactly the rows predictionRowSchema accepts", () => {
    const rng = new Xoshiro128(12);
    let accepted = 0;
    for (let k = 0; k < 30_000; k++) {
      const row = {
        itemId: pick(rng, ids),
        score: pick(rng, numbers),
        predicted: pick(rng, booleans),
        parseFailure: pick(rng, [true, false]),
        rawOutput: pick(rng, texts),
        latencyMs: pick(rng, numbers),
        inputTokens: pick(rng, numbers),
        outputTokens: pick(rng, numbers),
      } as PredictionRow;
      const zod = predictionRowSchema.safeParse(row).success;
      expect([passesPredictionRow(row), row]).toEqual([zod, row]);
      if (zod) accepted++;
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it("read from a file's fields: the same rows accepted, the same issues for refused ones", () => {
    const resolved = resolvePredictionColumns(
      ["id", "score", "predicted", "parse_failure", "raw_output", "latency_ms", "input_tokens", "output_tokens"],
      {},
    );
    if (!resolved.ok) throw new Error("columns");
    const mapping = { positiveClass: "spam", negativeLabels: ["ham"] };
    const good = [
      {
        id: "a",
        score: "0.25",
        predicted: "1",
        parse_failure: "",
        raw_output: "",
        latency_ms: "12.5",
        input_tokens: "10",
        output_tokens: "0",
      },
      {
        id: "b",
        score: "",
        predicted: "ham",
        parse_failure: "0",
        raw_output: "out",
        latency_ms: "",
        input_tokens: "",
        output_tokens: "",
      },
      {
        id: "c",
        score: "",
        predicted: "",
        parse_failure: "true",
        raw_output: "x",
        latency_ms: "0",
        input_tokens: "2147483647",
        output_tokens: "1",
      },
    ];
    for (const values of good) {
      const r = readPredictionRow(values, resolved.cols, mapping, 2);
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.row).toEqual(predictionRowSchema.parse(r.row));
    }
    const bad: [Record<string, string>, string, string][] = [
      [
        {
          id: "d",
          score: "",
          predicted: "",
          parse_failure: "",
          raw_output: "",
          latency_ms: "",
          input_tokens: "",
          output_tokens: "",
        },
        "score",
        "the row has neither a score nor a predicted label",
      ],
      [
        {
          id: "e",
          score: "0.5",
          predicted: "",
          parse_failure: "",
          raw_output: "",
          latency_ms: "-3",
          input_tokens: "",
          output_tokens: "",
        },
        "latency_ms",
        "",
      ],
      [
        {
          id: "f",
          score: "0.5",
          predicted: "",
          parse_failure: "",
          raw_output: "",
          latency_ms: "",
          input_tokens: "1.5",
          output_tokens: "",
        },
        "input_tokens",
        "",
      ],
      [
        {
          id: "g",
          score: "0.5",
          predicted: "",
          parse_failure: "",
          raw_output: "",
          latency_ms: "",
          input_tokens: "",
          output_tokens: "2147483648",
        },
        "output_tokens",
        "",
      ],
      [
        {
          id: "h".repeat(MAX_ID_LENGTH + 1),
          score: "0.5",
          predicted: "",
          parse_failure: "",
          raw_output: "",
          latency_ms: "",
          input_tokens: "",
          output_tokens: "",
        },
        "id",
        "",
      ],
      [
        {
          id: "i",
          score: "0.5",
          predicted: "",
          parse_failure: "",
          raw_output: "y".repeat(MAX_TEXT_LENGTH + 1),
          latency_ms: "",
          input_tokens: "",
          output_tokens: "",
        },
        "raw_output",
        "",
      ],
    ];
    for (const [values, field, reason] of bad) {
      const r = readPredictionRow(values, resolved.cols, mapping, 7);
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      // The schema's own wording, the file's column name, the line.
      expect(r.issues.map((i) => [i.line, i.field])).toEqual([[7, field]]);
      if (reason) expect(r.issues[0]!.reason).toBe(reason);
      else expect(r.issues[0]!.reason).toMatch(/Too (big|small)|expected int|Invalid input/i);
    }
  });
});

describe("dataset row rules without zod", () => {
  it("accept exactly the rows datasetRowSchema accepts", () => {
    const rng = new Xoshiro128(13);
    for (let k = 0; k < 10_000; k++) {
      const row = {
        itemId: pick(rng, ids),
        label: pick(rng, [true, false]),
        text: pick(rng, texts),
        slice: pick(rng, texts),
      } as DatasetRow;
      expect([passesDatasetRow(row), row]).toEqual([datasetRowSchema.safeParse(row).success, row]);
    }
  });

  it("a refused dataset row reads as the schema words it", () => {
    const resolved = resolveDatasetColumns(["id", "label", "text", "slice"], {});
    if (!resolved.ok) throw new Error("columns");
    const r = readDatasetRow(
      { id: "a", label: "1", text: "t", slice: "s".repeat(MAX_SLICE_LENGTH + 1) },
      resolved.cols,
      { positiveClass: "spam" },
      3,
    );
    const zod = datasetRowSchema.safeParse({
      itemId: "a",
      label: true,
      text: "t",
      slice: "s".repeat(MAX_SLICE_LENGTH + 1),
    });
    expect(r.ok).toBe(false);
    if (!r.ok && !zod.success) expect(r.issues.map((i) => i.reason)).toEqual(zod.error.issues.map((i) => i.message));
    expect(
      readDatasetRow({ id: "b", label: "spam", text: "", slice: "" }, resolved.cols, { positiveClass: "spam" }, 4),
    ).toEqual({ ok: true, row: { itemId: "b", label: true, text: null, slice: null } });
  });
});
