import { describe, expect, it } from "vitest";
import { externalSource, collect } from "../../../../test/item-results/sources";
import { lmEvalSamples } from "./lm-eval-samples";
import { ItemMapper, resolveLabel, suggestMapping, type MappedItem } from "./mapping";
import type { ToolItem, ToolRun } from "./types";

const BELIEF = "lm-eval-harness/samples_negotiationtom_belief_2026-07-08T18-15-33.115417.jsonl";
const BIAS =
  "lm-eval-harness/bias-classification/samples_bias_classification_2024-06-17T15-44-37.867068.FIRST150.jsonl";

const mapAll = (mapper: ItemMapper, items: ToolItem[]) => items.map((i) => mapper.map(i));
const mapped = (outcome: ReturnType<ItemMapper["map"]>): MappedItem => {
  if (outcome.kind !== "item") throw new Error(`expected an item, got ${JSON.stringify(outcome)}`);
  return outcome.item;
};

describe("resolving labels through the choice list", () => {
  it("keeps a text that is a choice, reads an index or a letter through the list, trims", () => {
    expect(resolveLabel(" B ", ["A", "B"])).toBe("B");
    expect(resolveLabel("3", ["A", "B", "C", "D"])).toBe("D");
    expect(resolveLabel("B", ["no", "yes"])).toBe("yes");
    expect(resolveLabel("1", ["0", "1"])).toBe("1");
    expect(resolveLabel("maybe", ["no", "yes"])).toBe("maybe");
    expect(resolveLabel("2", undefined)).toBe("2");
  });
});

describe("the mapping on lm-eval samples", () => {
  it("sums P over the positive choices and resolves gold indices (negotiationtom: 4 letters, gold 0–3)", async () => {
    const { runs, items } = await collect(lmEvalSamples.read(externalSource(BELIEF)));
    const mapper = new ItemMapper(runs[0]!, { idField: "doc_id", positiveLabels: ["C", "D"], repeat: "none" });
    const out = mapAll(mapper, items).map(mapped);
    const first = items[0]!;
    expect(out[0]!.row.score).toBeCloseTo(first.choiceProbabilities!.C! + first.choiceProbabilities!.D!, 15);
    // doc.gold "3" is the fourth choice, D: positive.
    expect(first.gold).toBe("3");
    expect(out[0]).toMatchObject({ gold: true, goldText: "D", where: "line 1" });
    expect(out[1]).toMatchObject({ gold: false, goldText: "A" });
    expect(out[0]!.row).toMatchObject({ itemId: "0", predicted: false, parseFailure: false, rawOutput: "A" });
    expect(mapper.scoreBasis).toBe("label-token-probability");
    expect(mapper.unknownScoreCount).toBe(0);
  });

  it("names the id field an item lacks, and a positive label none of the choices is", async () => {
    const { runs, items } = await collect(lmEvalSamples.read(externalSource(BIAS)));
    const noField = new ItemMapper(runs[0]!, { idField: "doc.id", positiveLabels: ["B"] }).map(items[0]!);
    expect(noField).toMatchObject({ kind: "issue", issue: { line: 1, field: "doc.id" } });
    const wrong = new ItemMapper(runs[0]!, { idField: "doc_id", positiveLabels: ["bias"] }).map(items[0]!);
    expect(wrong).toMatchObject({ kind: "issue", issue: { field: "positiveLabels" } });
    expect((wrong as { issue: { reason: string } }).issue.reason).toBe(
      "none of the item's choices (A, B) is a positive label",
    );
  });
});

describe("scores that are not label-token probabilities", () => {
  const run: ToolRun = { tool: "test" };
  const item = (over: Partial<ToolItem>): ToolItem => ({ at: { line: 1 }, toolId: "x", idFields: {}, ...over });

  it("turns a chosen-token probability towards the positive class, counts unknown scores, never imputes", () => {
    const mapper = new ItemMapper(run, { idField: "toolId", positiveLabels: ["yes"] });
    const yes = mapped(
      mapper.map(item({ toolId: "a", predicted: "yes", score: { value: 0.9, basis: "chosen-token-probability" } })),
    );
    const no = mapped(
      mapper.map(item({ toolId: "b", predicted: "no", score: { value: 0.9, basis: "chosen-token-probability" } })),
    );
    const unknown = mapped(mapper.map(item({ toolId: "c", predicted: "no", scoreUnknown: "label token missing" })));
    expect([yes.row.score, no.row.score]).toEqual([0.9, 1 - 0.9]);
    expect(unknown.row).toMatchObject({ score: null, predicted: false, parseFailure: false });
    expect(mapper.scoreBasis).toBe("chosen-token-probability");
    expect(mapper.unknownScoreCount).toBe(1);
  });

  it("keeps a hard label run hard: no score, an unreadable answer a parse failure", () => {
    const mapper = new ItemMapper(run, { idField: "toolId", positiveLabels: ["yes"] });
    const none = mapped(mapper.map(item({ toolId: "a" })));
    expect(none.row).toMatchObject({ score: null, predicted: null, parseFailure: true });
    expect(mapper.scoreBasis).toBe("hard-label");
    expect(mapper.unknownScoreCount).toBe(0);
  });

  it("gives positional ids from the dataset's order and says when the file has more items", () => {
    const mapper = new ItemMapper(run, { idField: "position", positiveLabels: ["yes"] }, ["d1"]);
    expect(mapped(mapper.map(item({ predicted: "yes" }))).row.itemId).toBe("d1");
    expect(mapper.map(item({ predicted: "yes", at: { line: 2 } }))).toMatchObject({
      kind: "issue",
      issue: { line: 2, field: "position" },
    });
  });
});

describe("the suggested mapping", () => {
  it("takes the id field whose values are dataset ids, the positive class's label, the first repeat and model", () => {
    const preview = {
      idFields: [
        { path: "toolId", values: ["0", "1", "2"] },
        { path: "doc.id", values: ["q-0", "q-1", "q-2"] },
      ],
      labels: ["Safe", "Unsafe"],
      repeats: ["1", "2"],
      models: ["m1"],
    };
    expect(suggestMapping(preview, new Set(["q-0", "q-2"]), "unsafe")).toEqual({
      idField: "doc.id",
      positiveLabels: ["Unsafe"],
      repeat: "1",
      model: "m1",
    });
    expect(suggestMapping(preview, null, "violating")).toMatchObject({ idField: "toolId", positiveLabels: [] });
  });
});
