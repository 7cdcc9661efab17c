import { describe, expect, it } from "vitest";
import { csvRow } from "@/lib/db/bulk-copy";
import type { PredictionRow } from "@/lib/ingest/buyer-rows";
import { predictionSpec } from "./predictions";

// predictionSpec.toCsv writes csvRow's fields out by hand (it runs once per uploaded row): the same text for every kind of field.
describe("a prediction row's COPY text", () => {
  const rows: PredictionRow[] = [
    {
      itemId: "item-1",
      score: 0.25,
      predicted: true,
      parseFailure: false,
      rawOutput: null,
      latencyMs: 12.5,
      inputTokens: 10,
      outputTokens: 3,
    },
    {
      itemId: 'a,"b"',
      score: null,
      predicted: false,
      parseFailure: true,
      rawOutput: 'two\nlines, "quoted"',
      latencyMs: null,
      inputTokens: null,
      outputTokens: null,
    },
    {
      itemId: " padded ",
      score: 1e-7,
      predicted: null,
      parseFailure: false,
      rawOutput: "",
      latencyMs: 0,
      inputTokens: 0,
      outputTokens: 2 ** 31 - 1,
    },
    {
      itemId: "x",
      score: -0,
      predicted: null,
      parseFailure: false,
      rawOutput: "plain",
      latencyMs: 123456789.125,
      inputTokens: 1,
      outputTokens: 1,
    },
  ];
  it("is csvRow's, field for field", () => {
    const spec = predictionSpec("positive", {});
    for (const r of rows)
      expect(spec.toCsv(r)).toBe(
        csvRow([
          r.itemId,
          r.score,
          r.predicted,
          r.parseFailure,
          r.rawOutput,
          r.latencyMs,
          r.inputTokens,
          r.outputTokens,
        ]),
      );
  });
});
