import { describe, expect, test } from "vitest";
import { groupModelNames, matchModels, type MatchCandidate } from "./model-match";

const candidates: MatchCandidate[] = [
  { id: "c1", name: "Llama 2 7B Chat", aliases: ["meta-llama/Llama-2-7b-chat-hf"] },
  { id: "c2", name: "Qwen3 8B", aliases: ["Qwen/Qwen3-8B"] },
  { id: "c3", name: "gpt-4o-2024-05-13", aliases: [] },
  { id: "c4", name: "Mistral 7B Instruct", aliases: ["mistralai/Mistral-7B-Instruct-v0.2"] },
  { id: "c5", name: "Other", aliases: ["someorg/Mistral-7B-Instruct-v0.2"] },
];

describe("matchModels", () => {
  test("exact, case, org prefix, lm-eval __ and LLMPerf dash sanitisation, punctuation", () => {
    const { matched, unmatched } = matchModels(
      [
        "meta-llama/Llama-2-7b-chat-hf", // exact alias
        "META-LLAMA/llama-2-7b-chat-hf", // case
        "meta-llama__Llama-2-7b-chat-hf", // lm-eval model_name_sanitized
        "meta-llama-Llama-2-7b-chat-hf", // LLMPerf file-name sanitisation
        "Qwen__Qwen3-8B",
        "Qwen3-8B", // no org prefix
        "openai/gpt-4o-2024-05-13", // HELM adapter_spec.model
        "GPT-4o (2024-05-13)", // HELM display name
        "unknown/model-x",
      ],
      candidates,
    );
    expect(Object.fromEntries(matched)).toEqual({
      "meta-llama/Llama-2-7b-chat-hf": "c1",
      "META-LLAMA/llama-2-7b-chat-hf": "c1",
      "meta-llama__Llama-2-7b-chat-hf": "c1",
      "meta-llama-Llama-2-7b-chat-hf": "c1",
      "Qwen__Qwen3-8B": "c2",
      "Qwen3-8B": "c2",
      "openai/gpt-4o-2024-05-13": "c3",
      "GPT-4o (2024-05-13)": "c3",
    });
    expect(unmatched).toEqual(["unknown/model-x"]);
  });

  test("an org-qualified name still picks its own candidate; a bare ambiguous name is not guessed", () => {
    const { matched, unmatched } = matchModels(
      ["mistralai/Mistral-7B-Instruct-v0.2", "Mistral-7B-Instruct-v0.2"],
      candidates,
    );
    expect(matched.get("mistralai/Mistral-7B-Instruct-v0.2")).toBe("c4");
    expect(unmatched).toEqual(["Mistral-7B-Instruct-v0.2"]);
  });

  test("the model id and a version that spells a model are names too; a bare revision is not", () => {
    const mine: MatchCandidate[] = [
      { id: "v", name: "Llama 3 8B", aliases: [], version: "meta-llama/Meta-Llama-3-8B-Instruct" },
      { id: "m", name: "Qwen small", aliases: [], modelId: "Qwen/Qwen2.5-7B-Instruct", version: "3" },
      { id: "r", name: "Revision", aliases: [], version: "2024-05-13" },
    ];
    const { matched, unmatched } = matchModels(
      [
        "meta-llama/Meta-Llama-3-8B-Instruct",
        "meta-llama__Meta-Llama-3-8B-Instruct",
        "Qwen2.5-7B-Instruct",
        "3",
        "2024-05-13",
      ],
      mine,
    );
    expect(Object.fromEntries(matched)).toEqual({
      "meta-llama/Meta-Llama-3-8B-Instruct": "v",
      "meta-llama__Meta-Llama-3-8B-Instruct": "v",
      "Qwen2.5-7B-Instruct": "m",
    });
    expect(unmatched).toEqual(["3", "2024-05-13"]);
  });

  test("duplicates are reported once; empty candidate list matches nothing", () => {
    expect(matchModels(["a", "a"], []).unmatched).toEqual(["a"]);
  });

  test("groupModelNames: one model's spellings across files share a group; a distinct fine-tune does not", () => {
    const groups = groupModelNames([
      "meta-llama/Llama-2-7b-chat-hf",
      "meta-llama__Llama-2-7b-chat-hf",
      "Llama-2-7b-chat-hf",
      "tiiuae/falcon-180B-chat",
      "falcon-180b-chat",
      "tiiuae/falcon-180B",
    ]);
    expect(groups.get("meta-llama__Llama-2-7b-chat-hf")).toBe("meta-llama/Llama-2-7b-chat-hf");
    expect(groups.get("Llama-2-7b-chat-hf")).toBe("meta-llama/Llama-2-7b-chat-hf");
    expect(groups.get("falcon-180b-chat")).toBe("tiiuae/falcon-180B-chat");
    expect(groups.get("tiiuae/falcon-180B")).toBe("tiiuae/falcon-180B");
  });

  test("groupModelNames keeps distinct models apart however many there are", () => {
    const names = Array.from({ length: 5000 }, (_, i) => `org${i % 50}/model-${i}`);
    expect(new Set(groupModelNames(names).values()).size).toBe(5000);
  });
});
