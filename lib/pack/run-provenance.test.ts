import { describe, expect, it } from "vitest";
import type { RunProvenance } from "@/lib/ingest/formats/item-results/provenance";
import { rankingUndefinedReason, runMappingLine, runProvenanceLine } from "./run-provenance";

const lmEval: RunProvenance = {
  tool: "lm-evaluation-harness",
  toolVersion: "0.4.8",
  model: "hf/pretrained=meta-llama/Meta-Llama-3-8B",
  task: "bias_classification",
  taskVersion: "1.0",
  format: "lm-eval-samples",
  scoreBasis: "label-token-probability",
  mapping: { idField: "doc.id", positiveLabels: ["bias"] },
  unknownScoreCount: 0,
};

describe("a tool run's provenance line", () => {
  it("names the score basis, tool, task, model and file with its SHA-256's first 12 digits", () => {
    expect(runProvenanceLine(lmEval, { name: "samples_bias.jsonl", sha256: "0123456789abcdef0123" })).toBe(
      "Scores: label-token probability — lm-evaluation-harness 0.4.8, task bias_classification (1.0), model hf/pretrained=meta-llama/Meta-Llama-3-8B, file samples_bias.jsonl (sha256 0123456789ab)",
    );
  });

  it("says what is not recorded, the model of a multi-model file, and scores left unknown", () => {
    const promptfoo: RunProvenance = {
      tool: "promptfoo",
      format: "promptfoo-results",
      scoreBasis: "hard-label",
      mapping: { idField: "vars.id", positiveLabels: ["negative"], model: "openai:gpt-5-mini" },
      unknownScoreCount: 3,
    };
    expect(runProvenanceLine(promptfoo)).toBe(
      "Scores: hard label only — promptfoo (version not recorded), model openai:gpt-5-mini; 3 item(s) with an unknown score (a label token missing from top-k, not imputed)",
    );
    expect(runMappingLine({ ...promptfoo, mapping: { ...promptfoo.mapping, repeat: "2" } })).toBe(
      "Mapping: item id from vars.id; positive label(s) “negative”; repeat 2.",
    );
  });

  it("calls AP and ROC-AUC undefined for hard labels, from the tool's basis or the computed input", () => {
    const scored = { metrics: { input: { scoreKind: "scores" as const } } };
    expect(rankingUndefinedReason(scored)).toBeNull();
    expect(rankingUndefinedReason({ ...scored, scoreBasis: "hard-label" })).toMatch(/one operating point/);
    expect(rankingUndefinedReason({ metrics: { input: { scoreKind: "hard-labels" } } })).toMatch(/hard labels only/);
    expect(rankingUndefinedReason({ scoreBasis: null, metrics: null })).toBeNull();
  });
});
