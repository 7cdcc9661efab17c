import { describe, expect, it } from "vitest";
import { citedSuites, rationaleProblem } from "./rationale";

const suites = ["MMLU", "HELM Lite", "Chatbot Arena"];

describe("shortlist rationale rule", () => {
  it("accepts a rationale that names a scored suite and says why it is relevant", () => {
    const text =
      "HELM Lite's toxicity scenarios are the closest public suite to our moderation task, though scored at balanced prevalence with its own prompt.";
    expect(citedSuites(text, suites)).toEqual(["HELM Lite"]);
    expect(rationaleProblem(text, suites)).toBeNull();
  });

  it("refuses a bare rank, a rationale naming no scored suite, and a candidate without scores", () => {
    expect(rationaleProblem("Rank 1 on MMLU.", suites)).toMatch(/why the benchmark is relevant/);
    expect(
      rationaleProblem(
        "Fine-tuned on moderation data with a taxonomy close to ours, including self-harm and scams, which matters here a lot.",
        suites,
      ),
    ).toMatch(/Name the benchmark/);
    expect(rationaleProblem("anything", [])).toMatch(/Import a leaderboard/);
  });
});
