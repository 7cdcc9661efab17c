import { describe, expect, it } from "vitest";
import {
  POSITION,
  choiceProblems,
  importTargets,
  initialChoices,
  mappingFor,
  matchText,
  type ToolResultsPreview,
} from "./tool-results-state";

const preview = (over: Partial<ToolResultsPreview> = {}): ToolResultsPreview => ({
  format: { id: "lm-eval-samples", label: "lm-evaluation-harness samples" },
  run: { tool: "lm-evaluation-harness", toolVersion: "0.4.8", task: "bias" },
  itemCount: 150,
  scoreBasis: "label-token-probability",
  idFields: [
    { path: "toolId", examples: ["0", "1"], matches: 0, sampled: 20 },
    { path: "doc.id", examples: ["a1", "a2"], matches: 20, sampled: 20 },
  ],
  labels: ["bias", "no bias"],
  repeats: [],
  models: [],
  suggested: { idField: "doc.id", positiveLabels: ["bias"] },
  candidates: [],
  ...over,
});

describe("the mapping step's rules", () => {
  it("starts from the server's suggestion and imports one run for a single-model file", () => {
    const p = preview();
    const c = initialChoices(p, "cand-1");
    expect(c).toMatchObject({ idField: "doc.id", positiveLabels: ["bias"], candidateId: "cand-1" });
    expect(choiceProblems(p, c)).toEqual({});
    expect(importTargets(p, c)).toEqual([{ model: null, candidateId: "cand-1" }]);
    expect(mappingFor(p, c, null)).toEqual({ idField: "doc.id", positiveLabels: ["bias"] });
  });

  it("offers the position as an id only when the analyst says the order is the dataset's", () => {
    const p = preview();
    const c = { ...initialChoices(p, "cand-1"), idField: POSITION };
    expect(choiceProblems(p, c).idField).toMatch(/order is the dataset's order/);
    expect(choiceProblems(p, { ...c, orderIsDatasetOrder: true })).toEqual({});
  });

  it("needs a positive label, and a negative one left unticked", () => {
    const p = preview();
    const c = initialChoices(p, "cand-1");
    expect(choiceProblems(p, { ...c, positiveLabels: [] }).positiveLabels).toMatch(/Tick the label/);
    expect(choiceProblems(p, { ...c, positiveLabels: ["bias", "no bias"] }).positiveLabels).toMatch(/Every label/);
  });

  it("maps each model of a multi-model file to its own candidate, skipping unmapped ones", () => {
    const p = preview({
      models: ["openai:gpt-5-mini", "anthropic:claude"],
      candidates: [
        { model: "openai:gpt-5-mini", candidateId: "c-gpt" },
        { model: "anthropic:claude", candidateId: null },
      ],
      repeats: ["1", "2"],
      suggested: { idField: "vars.id", positiveLabels: ["bias"], repeat: "1" },
    });
    const c = initialChoices(p, "c-first");
    expect(c.modelCandidates).toEqual({ "openai:gpt-5-mini": "c-gpt", "anthropic:claude": "" });
    expect(importTargets(p, c)).toEqual([{ model: "openai:gpt-5-mini", candidateId: "c-gpt" }]);
    expect(choiceProblems(p, c)).toEqual({});
    const both = { ...c, modelCandidates: { ...c.modelCandidates, "anthropic:claude": "c-gpt" } };
    expect(choiceProblems(p, both).candidate).toMatch(/same candidate/);
    const none = { ...c, modelCandidates: { "openai:gpt-5-mini": "", "anthropic:claude": "" } };
    expect(choiceProblems(p, none).candidate).toMatch(/Choose the candidate/);
    expect(mappingFor(p, c, "openai:gpt-5-mini")).toEqual({
      idField: "vars.id",
      positiveLabels: ["bias"],
      repeat: "1",
      model: "openai:gpt-5-mini",
    });
    expect(choiceProblems(p, { ...c, repeat: "7" }).repeat).toMatch(/repeat/);
  });

  it("states how many sampled values match the dataset's ids", () => {
    expect(matchText({ matches: 1200, sampled: 2000 })).toBe("1,200 of 2,000 match the dataset's ids");
  });
});
