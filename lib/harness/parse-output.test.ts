import { describe, expect, it } from "vitest";
import { parseOutput, labelTokenScore } from "./parse-output";
import { protocolSchema, renderMessages, type EvalProtocol } from "./protocol";
import { endpointUrlProblem, forbiddenAddressReason } from "./network/address-guard";
import { measureServing } from "./measure";

const labels: EvalProtocol = protocolSchema.parse({
  user: "{{text}}",
  contract: { kind: "labels", labels: ["violating", "ok"], positiveLabel: "violating" },
  score: { kind: "label" },
});
const json: EvalProtocol = protocolSchema.parse({
  system: "Item {{item_id}} ({{slice}})",
  user: "{{text}}",
  contract: {
    kind: "json",
    schema: {
      type: "object",
      properties: { label: { enum: ["violating", "ok"] }, p: { type: "number", minimum: 0, maximum: 1 } },
      required: ["label", "p"],
    },
    labelField: "label",
    positiveLabel: "violating",
  },
  score: { kind: "probability", field: "p" },
});

describe("the output contract and the score", () => {
  it("reads labels trimmed and case-insensitively; anything else is a parse failure with its reason", () => {
    expect(parseOutput(labels, "  Violating\n", null)).toEqual({ ok: true, predicted: true, score: 1 });
    expect(parseOutput(labels, "ok", null)).toEqual({ ok: true, predicted: false, score: 0 });
    expect(parseOutput(labels, "probably violating", null)).toEqual({
      ok: false,
      reason: 'output "probably violating" is not one of the labels violating, ok',
    });
  });

  it("validates JSON against the schema and takes the probability field", () => {
    expect(parseOutput(json, '{"label":"violating","p":0.83}', null)).toEqual({
      ok: true,
      predicted: true,
      score: 0.83,
    });
    expect(parseOutput(json, '```json\n{"label":"ok","p":0.1}\n```', null)).toEqual({
      ok: true,
      predicted: false,
      score: 0.1,
    });
    expect(parseOutput(json, '{"label":"ok","p":1.5}', null)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("breaks the JSON schema at p"),
    });
    expect(parseOutput(json, '{"label":"maybe","p":0.5}', null)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("at label"),
    });
    expect(parseOutput(json, "{label: ok}", null)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("is not JSON"),
    });
  });

  it("scores by the label tokens' probabilities at the first position, normalised over the labels", () => {
    const lp = (p: number) => Math.log(p);
    expect(
      labelTokenScore(["yes", "no"], "yes", [
        { token: "Yes", logprob: lp(0.6) },
        { token: " no", logprob: lp(0.2) },
        { token: "maybe", logprob: lp(0.2) },
      ]),
    ).toBeCloseTo(0.75, 12);
    expect(labelTokenScore(["yes", "no"], "yes", [{ token: "maybe", logprob: lp(1) }])).toBeNull();
    const p = protocolSchema.parse({
      user: "{{text}}",
      contract: { kind: "labels", labels: ["yes", "no"], positiveLabel: "yes" },
      score: { kind: "logprobs" },
    });
    expect(parseOutput(p, "no", null)).toEqual({ ok: false, reason: "the endpoint returned no log-probabilities" });
    expect(
      parseOutput(p, "no", [
        { token: "no", logprob: lp(0.9) },
        { token: "yes", logprob: lp(0.1) },
      ]),
    ).toMatchObject({ ok: true, predicted: false });
  });

  it("fills the dataset's columns into the templates and refuses unknown variables and inconsistent choices", () => {
    expect(renderMessages(json, { itemId: "i7", text: "hello", slice: null })).toEqual([
      { role: "system", content: "Item i7 ()" },
      { role: "user", content: "hello" },
    ]);
    const bad = protocolSchema.safeParse({
      user: "{{label}}",
      contract: { kind: "labels", labels: ["a", "b"], positiveLabel: "c" },
      score: { kind: "probability", field: "p" },
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      "user: Unknown variable {{label}}: the dataset's columns are {{item_id}}, {{text}}, {{slice}}.",
      "contract.positiveLabel: The positive label must be one of the labels (a, b).",
      "score.kind: A probability field needs a JSON output contract.",
    ]);
  });
});

describe("endpoint addresses", () => {
  it("refuses link-local and cloud-metadata addresses unless allowed, and allows loopback and private ones", () => {
    expect(forbiddenAddressReason("169.254.169.254")).toMatch(/link-local/);
    expect(forbiddenAddressReason("::ffff:169.254.1.1")).toMatch(/link-local/);
    expect(forbiddenAddressReason("fd00:ec2::254")).toMatch(/metadata/);
    expect(forbiddenAddressReason("100.100.100.200")).toMatch(/metadata/);
    expect(forbiddenAddressReason("127.0.0.1")).toBeNull();
    expect(forbiddenAddressReason("10.0.0.5")).toBeNull();
    expect(endpointUrlProblem("http://169.254.169.254/latest", false)).toMatch(/link-local/);
    expect(endpointUrlProblem("http://169.254.169.254/latest", true)).toBeNull();
    expect(endpointUrlProblem("file:///etc/passwd", false)).toMatch(/http or https/);
    expect(endpointUrlProblem("http://user:pw@host/v1", false)).toMatch(/API key/);
  });
});

describe("the serving measurement", () => {
  it("computes TPOT without the first token, pools ITL, and counts failed requests apart", () => {
    const m = measureServing(
      [
        {
          completed: true,
          ttftMs: 10,
          e2eMs: 40,
          itlMs: [10, 10, 10],
          inputTokens: 100,
          outputTokens: 4,
          startedAt: 0,
        },
        { completed: true, ttftMs: 20, e2eMs: 20, itlMs: [], inputTokens: 50, outputTokens: 1, startedAt: 500 },
        { completed: false, ttftMs: null, e2eMs: 5, itlMs: [], inputTokens: null, outputTokens: null, startedAt: 980 },
      ],
      { sloP95E2eMs: 30, sloP95TtftMs: null },
    );
    expect(m).toMatchObject({
      completed: 2,
      failed: 1,
      durationS: 0.985,
      meanInputTokens: 75,
      meanOutputTokens: 2.5,
      totalOutputTokens: 5,
    });
    expect(m.tpotMs).toEqual({ mean: 10, p50: 10, p90: 10, p95: 10, p99: 10 });
    expect(m.itlMs.p50).toBe(10);
    expect(m.requestThroughput).toBeCloseTo(2 / 0.985, 12);
    expect(m.goodput).toBeCloseTo(1 / 0.985, 12);
  });
});
