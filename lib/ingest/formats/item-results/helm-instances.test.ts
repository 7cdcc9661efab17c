import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { helmInstancesParser, helmScenarioStateParser } from "./helm-instances";
import { detectItemResultFormat } from "./index";
import { EXTERNAL, collect, externalSource, textSource } from "../../../../test/item-results/sources";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const read = (relative: string) => readFileSync(path.join(EXTERNAL, relative), "utf8");
const XS = "helm/xstest/xstest_gpt-4o_";
const INSTANCES = `${XS}instances.json`;
const PREDICTIONS = `${XS}display_predictions.FIRST30.json`;
const RUN_SPEC = `${XS}run_spec.json`;
const STATE = "helm/run/scenario_state.json";
const STATS = "helm/run/per_instance_stats.json";

/** The fixture's own gold: the text of the reference tagged "correct". */
const goldOf = (instance: Json) => instance.references.find((r: Json) => r.tags.includes("correct")).output.text;

const head = (relative: string) => Buffer.from(read(relative).slice(0, 65536));

describe("HELM detection", () => {
  test("the first file of each pair is detected, its partners only as partners", () => {
    expect(detectItemResultFormat(head(INSTANCES), "instances.json")?.id).toBe("helm-instances");
    expect(detectItemResultFormat(head(STATE), "scenario_state.json")?.id).toBe("helm-scenario-state");
    expect(detectItemResultFormat(head(PREDICTIONS), "display_predictions.json")).toBeUndefined();
    expect(detectItemResultFormat(head(STATS), "per_instance_stats.json")).toBeUndefined();
    expect(detectItemResultFormat(head(RUN_SPEC), "run_spec.json")).toBeUndefined();
    const partner = (role: string) =>
      [...helmInstancesParser.partners!, ...helmScenarioStateParser.partners!].find((p) => p.role === role)!;
    expect(partner("predictions").detect(head(PREDICTIONS), "")).toBeGreaterThan(0);
    expect(partner("predictions").detect(head(STATS), "")).toBe(0);
    expect(partner("stats").detect(head(STATS), "")).toBeGreaterThan(0);
    expect(partner("stats").detect(head(PREDICTIONS), "")).toBe(0);
    expect(partner("runSpec").detect(head(RUN_SPEC), "")).toBeGreaterThan(0);
  });
});

describe("HELM instances.json + display_predictions.json (XSTest)", () => {
  const instances: Json[] = JSON.parse(read(INSTANCES));
  const predictions: Json[] = JSON.parse(read(PREDICTIONS));
  const byId = new Map(instances.map((i) => [i.id, i]));

  const readPair = (predictionsText?: string, withSpec = true) =>
    collect(
      helmInstancesParser.read(externalSource(INSTANCES), {
        partners: {
          predictions: predictionsText === undefined ? externalSource(PREDICTIONS) : textSource(predictionsText),
          ...(withSpec ? { runSpec: externalSource(RUN_SPEC) } : {}),
        },
      }),
    );

  test("one row per prediction (the file holds 30 of 100): gold safe/unsafe, text predicted, no score", async () => {
    const r = await readPair();
    expect(r.issues).toEqual([]);
    expect(r.order[0]).toBe("run");
    expect(r.items).toHaveLength(predictions.length);
    expect(r.items.map((i) => i.toolId)).toEqual(predictions.map((p) => p.instance_id));
    for (const [k, item] of r.items.entries()) {
      const instance = byId.get(predictions[k]!.instance_id)!;
      expect(item.gold).toBe(goldOf(instance).trim());
      expect(["safe", "unsafe"]).toContain(item.gold);
      expect(item.predicted).toBe(predictions[k]!.predicted_text.trim());
      expect(item.input).toBe(instance.input.text);
      expect(item.repeat).toBeUndefined();
      // the judges' grade is kept as a metric, never as the model's score
      expect(item.metrics?.xst_score).toBe(predictions[k]!.stats.xst_score);
      expect(item.score).toBeUndefined();
      expect(item.scoreUnknown).toBeUndefined();
    }
    const unsafe = predictions.filter((p) => goldOf(byId.get(p.instance_id)!) === "unsafe").length;
    expect(r.items.filter((i) => i.gold === "unsafe")).toHaveLength(unsafe);
    expect(unsafe).toBeGreaterThan(0);
  });

  test("the run comes from run_spec.json: model, scenario, settings; no HELM version", async () => {
    const spec = JSON.parse(read(RUN_SPEC));
    const [run] = (await readPair()).runs;
    expect(run).toMatchObject({ tool: "helm", model: spec.adapter_spec.model, task: "xstest" });
    expect(run?.toolVersion).toBeUndefined();
    expect(run?.generationConfig?.model_deployment).toBe(spec.adapter_spec.model_deployment);
    expect(run?.generationConfig?.temperature).toBe(String(spec.adapter_spec.temperature));
    const [bare] = (await readPair(undefined, false)).runs;
    expect(bare).toEqual({ tool: "helm" });
  });

  test("without display_predictions.json the file is refused, naming the partner", async () => {
    const r = await collect(helmInstancesParser.read(externalSource(INSTANCES)));
    expect(r.items).toEqual([]);
    expect(r.issues).toEqual([expect.objectContaining({ record: "display_predictions.json", field: "(file)" })]);
  });

  test("a prediction for an instance that is not in instances.json is an error at its entry", async () => {
    const changed = predictions.map((p, k) => (k === 3 ? { ...p, instance_id: "id99999" } : p));
    const r = await readPair(JSON.stringify(changed));
    expect(r.items).toEqual([]);
    expect(r.issues).toEqual([
      expect.objectContaining({ record: "display_predictions.json[3]", field: "instance_id", value: "id99999" }),
    ]);
  });

  test("a multiple-choice prediction's mapped_output (the chosen reference's text) is the prediction", async () => {
    const changed = predictions.map((p, k) => (k === 2 ? { ...p, predicted_text: "B", mapped_output: " unsafe " } : p));
    const r = await readPair(JSON.stringify(changed));
    expect(r.items[2]?.predicted).toBe("unsafe");
    expect(r.items[1]?.predicted).toBe(predictions[1]!.predicted_text.trim());
  });

  test("two references tagged correct is an error naming the instance's references", async () => {
    const target = predictions[5]!.instance_id;
    const changed = instances.map((i) =>
      i.id === target ? { ...i, references: i.references.map((r: Json) => ({ ...r, tags: ["correct"] })) } : i,
    );
    const r = await collect(
      helmInstancesParser.read(textSource(JSON.stringify(changed)), {
        partners: { predictions: externalSource(PREDICTIONS) },
      }),
    );
    expect(r.issues).toEqual([expect.objectContaining({ record: "display_predictions.json[5]", field: "references" })]);
  });
});

describe("HELM scenario_state.json + per_instance_stats.json (BBQ, multiple choice joint)", () => {
  const state: Json = JSON.parse(read(STATE));
  const stats: Json[] = JSON.parse(read(STATS));
  const states: Json[] = state.request_states;

  const readPair = (stateText?: string, statsText?: string | null) =>
    collect(
      helmScenarioStateParser.read(stateText === undefined ? externalSource(STATE) : textSource(stateText), {
        partners:
          statsText === null ? {} : { stats: statsText === undefined ? externalSource(STATS) : textSource(statsText) },
      }),
    );

  test("the letter is mapped through output_mapping; exact_match agrees with predicted = gold", async () => {
    const r = await readPair();
    expect(r.issues).toEqual([]);
    expect(r.items).toHaveLength(states.length);
    for (const [k, item] of r.items.entries()) {
      const s = states[k]!;
      expect(item.toolId).toBe(s.instance.id);
      expect(item.gold).toBe(goldOf(s.instance));
      expect(item.predicted).toBe(s.output_mapping[s.result.completions[0].text.trim()]);
      // HELM's own per-item verdict, computed by HELM: an independent check of gold and prediction
      expect(item.metrics?.exact_match).toBe(item.predicted === item.gold ? 1 : 0);
    }
    const [run] = r.runs;
    expect(run).toMatchObject({ tool: "helm", model: state.adapter_spec.model });
    expect(run?.generationConfig?.method).toBe("multiple_choice_joint");
  });

  test("a letter that is not in output_mapping is no prediction (a parse failure), never the letter itself", async () => {
    const changed = structuredClone(state);
    changed.request_states[4].result.completions[0].text = "Z";
    const r = await readPair(JSON.stringify(changed), null);
    expect(r.items[4]?.predicted).toBeUndefined();
    expect(r.items[5]?.predicted).toBe(states[5]!.output_mapping[states[5]!.result.completions[0].text.trim()]);
  });

  test("trap: a chat model's logprob 0 is missing, never P = 1 (the run is hard-label)", async () => {
    expect(states.every((s) => s.result.completions[0].tokens[0].logprob === 0)).toBe(true);
    const r = await readPair(undefined, null);
    expect(r.items.every((i) => i.score === undefined && i.scoreUnknown === undefined)).toBe(true);
    expect(r.items.every((i) => i.metrics === undefined)).toBe(true);
  });

  test("where real logprobs exist the first token's probability is the score; a 0 among them is unknown", async () => {
    const changed = structuredClone(state);
    const logprobs = changed.request_states.map((_: Json, k: number) => (k % 3 === 0 ? 0 : -0.05 * (k + 1)));
    changed.request_states.forEach((s: Json, k: number) => (s.result.completions[0].tokens[0].logprob = logprobs[k]));
    const r = await readPair(JSON.stringify(changed), null);
    for (const [k, item] of r.items.entries()) {
      if (logprobs[k] === 0) {
        expect(item.score).toBeUndefined();
        expect(item.scoreUnknown).toMatch(/placeholder/);
      } else {
        expect(item.score).toEqual({ value: Math.exp(logprobs[k]), basis: "chosen-token-probability" });
      }
    }
  });

  test("trap: an instance listed once per metric group is merged; a clashing value is an error", async () => {
    // Split each entry's stats in two entries, as XSTest's annotator and basic metric groups are written.
    const split = stats.flatMap((e) => {
      const half = Math.floor(e.stats.length / 2);
      return [
        { ...e, stats: e.stats.slice(0, half) },
        { ...e, stats: e.stats.slice(half) },
      ];
    });
    const whole = await readPair(undefined, undefined);
    const merged = await readPair(undefined, JSON.stringify(split));
    expect(merged.issues).toEqual([]);
    expect(merged.items.map((i) => i.metrics)).toEqual(whole.items.map((i) => i.metrics));
    const exact = stats[0]!.stats.find((s: Json) => s.name.name === "exact_match");
    const clash = [...stats, { ...stats[0], stats: [{ ...exact, mean: 1 - exact.mean, sum: 1 - exact.sum }] }];
    const r = await readPair(undefined, JSON.stringify(clash));
    expect(r.items).toEqual([]);
    expect(r.issues).toEqual([
      expect.objectContaining({ record: `per_instance_stats.json[${stats.length}]`, field: "stats.exact_match" }),
    ]);
  });

  test("trap: a perturbed copy shares the instance id; repeat tells the copies apart", async () => {
    const changed = structuredClone(state);
    const perturbation = {
      name: "misspellings",
      robustness: true,
      fairness: false,
      computed_on: "perturbed",
      prob: 0.1,
    };
    const copy = structuredClone(changed.request_states[0]);
    copy.instance.perturbation = perturbation;
    changed.request_states.push(copy);
    const statsCopy = [...stats, { ...stats[0], perturbation }];
    const r = await readPair(JSON.stringify(changed), JSON.stringify(statsCopy));
    expect(r.issues).toEqual([]);
    const id = states[0]!.instance.id;
    const rows = r.items.filter((i) => i.toolId === id);
    expect(rows.map((i) => i.repeat)).toEqual([
      "trial=0",
      "trial=0;perturbation=misspellings(computed_on=perturbed,fairness=false,prob=0.1,robustness=true)",
    ]);
    expect(rows[1]?.metrics).toEqual(rows[0]?.metrics);
    expect(r.items.filter((i) => i.toolId !== id).every((i) => i.repeat === undefined)).toBe(true);
    // the same key twice is not a repeat but an error
    changed.request_states.push(copy);
    const twice = await readPair(JSON.stringify(changed), null);
    expect(twice.issues).toEqual([
      expect.objectContaining({
        record: `scenario_state.json request_states[${states.length + 1}]`,
        field: "instance_id",
      }),
    ]);
  });

  test("stats of another run are refused: they name an instance with no request", async () => {
    const other = [{ ...stats[0], instance_id: "id-not-here" }];
    const r = await readPair(undefined, JSON.stringify(other));
    expect(r.issues).toEqual([
      expect.objectContaining({ record: "per_instance_stats.json", field: "instance_id", value: "id-not-here" }),
    ]);
  });

  test("a truncated scenario_state.json is refused with its reason", async () => {
    const r = await readPair(read(STATE).slice(0, 5000), null);
    expect(r.items).toEqual([]);
    expect(r.issues[0]).toMatchObject({ record: "scenario_state.json", reason: expect.stringMatching(/truncated/) });
  });
});
