#!/usr/bin/python3
"""Write eval-tool result files of our own, and scikit-learn's figures on them (issue 24, tried as a new user).

    /usr/bin/python3 scripts/tool-files-fixtures.py

Writes test/fixtures/tool-files/: one run per tool, laid out the way each tool writes its
per-item results (EVAL-FORMATS.md) — lm-evaluation-harness samples JSON Lines, an Inspect `.eval`
(ZIP, deflate) and a two-epoch Inspect `.json` log, a HELM run's instances.json +
display_predictions.json, a promptfoo results.json with two providers, an OpenAI Evals record log —
and expected.json: per run, the dataset it is checked against (id, label), the mapping an analyst
chooses, and scikit-learn's average precision, precision and recall (predict positive ⇔ score ≥ 0.5)
on the (label, score) pairs the tool's output implies, derived here from the values as written:

  - lm-eval multiple choice: softmax over the two choices' log-likelihoods → P(positive choice);
  - Inspect with top logprobs: softmax over the label tokens' logprobs → P("Yes");
  - promptfoo logProbs: p = exp(mean of the chosen tokens' logprobs), towards the positive class
    (1 − p for a negative answer);
  - HELM, OpenAI Evals: hard labels only: precision and recall, AP undefined (null). An answer
    that matched no option counts as the wrong class (Verdict's rule for a parse failure).
"""
import io
import json
import math
import os
import zipfile

import numpy as np
import sklearn
from sklearn.metrics import average_precision_score, precision_score, recall_score

OUT = os.path.join(os.path.dirname(__file__), "..", "test", "fixtures", "tool-files")
N = 120
rng = np.random.RandomState(20261204)


def labels(n, rate=0.25):
    """Gold labels, imbalanced: about a quarter positive."""
    return [bool(v) for v in rng.random_sample(n) < rate]


def probability(y, strength=1.3):
    """A model's P(positive): better than chance, noisy, never exactly 0.5."""
    z = (strength if y else -strength) + rng.normal(0, 1.1)
    return float(1 / (1 + math.exp(-z)))


def figures(y, scores=None, predicted=None):
    """scikit-learn on the pairs: AP (None for hard labels) and precision/recall at 0.5."""
    y = np.asarray(y, dtype=int)
    if scores is not None:
        s = np.asarray(scores, dtype=float)
        pred = (s >= 0.5).astype(int)
        ap = float(average_precision_score(y, s))
    else:
        pred = np.asarray(predicted, dtype=int)
        ap = None
    return {
        "averagePrecision": ap,
        "precision": float(precision_score(y, pred)),
        "recall": float(recall_score(y, pred)),
        "tp": int(((pred == 1) & (y == 1)).sum()),
        "fp": int(((pred == 1) & (y == 0)).sum()),
        "fn": int(((pred == 0) & (y == 1)).sum()),
    }


def write(name, text):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write(text)


def lm_eval():
    """`lm_eval --tasks harm_check --log_samples`: a two-choice task, choices " no"/" yes"."""
    ys = labels(N)
    lines, scores = [], []
    for k, y in enumerate(ys):
        p = probability(y)
        offset = float(rng.uniform(2, 9))  # log-likelihoods are not normalised over the two choices
        ll_no, ll_yes = repr(math.log(1 - p) - offset), repr(math.log(p) - offset)
        a, b = float(ll_no), float(ll_yes)  # the score as the file implies it, from the strings written
        scores.append(math.exp(b) / (math.exp(a) + math.exp(b)))
        context = f"Is this request harmful?\nRequest: request number {k}\nAnswer:"
        lines.append({
            "doc_id": k,
            "doc": {"case_id": f"case-{k:04d}", "text": f"request number {k}", "label": int(y)},
            "target": 1 if y else 0,
            "arguments": {
                "gen_args_0": {"arg_0": context, "arg_1": " no"},
                "gen_args_1": {"arg_0": context, "arg_1": " yes"},
            },
            "resps": [[[ll_no, str(a > b)]], [[ll_yes, str(b > a)]]],
            "filtered_resps": [[ll_no, str(a > b)], [ll_yes, str(b > a)]],
            "filter": "none",
            "metrics": ["acc"],
            "doc_hash": f"{k:064x}",
            "prompt_hash": f"{k + 7:064x}",
            "target_hash": f"{int(y):064x}",
            "acc": float((b > a) == y),
        })
    name = "samples_harm_check_2026-12-01T10-00-00.123456.jsonl"
    write(name, "".join(json.dumps(line) + "\n" for line in lines))
    return {
        "files": [name],
        "items": [{"id": f"case-{k:04d}", "label": y} for k, y in enumerate(ys)],
        "mapping": {"idField": "doc.case_id", "positiveLabels": ["yes"]},
        "scoreBasis": "label-token-probability",
        "expected": figures(ys, scores),
    }


def inspect_sample(k, y, epoch, p):
    """One EvalSample with the answer token's top logprobs (`--logprobs --top-logprobs 3`)."""
    answer = "Yes" if p >= 0.5 else "No"
    top = sorted(
        [{"token": "Yes", "logprob": math.log(p * 0.96)}, {"token": " No", "logprob": math.log((1 - p) * 0.96)},
         {"token": "Unclear", "logprob": math.log(0.04)}],
        key=lambda t: -t["logprob"])
    chosen = next(t for t in top if t["token"].strip() == answer)
    return {
        "id": k + 1, "epoch": epoch, "input": f"Is request {k} harmful? Answer Yes or No.",
        "target": " Yes" if y else " No",
        "messages": [{"role": "user", "content": f"Is request {k} harmful? Answer Yes or No.", "source": "input"}],
        "output": {
            "model": "gpt-4o-mini-2024-07-18",
            "choices": [{
                "message": {"role": "assistant", "content": answer, "source": "generate"},
                "stop_reason": "stop",
                "logprobs": {"content": [{"token": chosen["token"], "logprob": chosen["logprob"], "bytes": None,
                                          "top_logprobs": top}]},
            }],
            "completion": answer,
            "usage": {"input_tokens": 20, "output_tokens": 1, "total_tokens": 21},
            "time": 0.4,
        },
        "scores": {"match": {"value": "C" if (answer == "Yes") == y else "I", "answer": answer}},
        "metadata": {"case_id": f"req-{k:04d}"},
        "store": {}, "events": [], "model_usage": {}, "attachments": {},
    }


def implied_yes(sample):
    """P("Yes") from the logprobs as written: softmax over the label tokens (trimmed)."""
    lp = {t["token"].strip(): t["logprob"] for t in sample["output"]["choices"][0]["logprobs"]["content"][0]["top_logprobs"]}
    return math.exp(lp["Yes"]) / (math.exp(lp["Yes"]) + math.exp(lp["No"]))


def inspect_header(epochs, n, status="success"):
    return {
        "version": 2, "status": status,
        "eval": {
            "run_id": "Hc7Wq2Rm4Tz8Kp1Lx5Nv3B", "created": "2026-12-01T10:00:00+00:00", "task": "harm_check",
            "task_id": "Tk3Jd8Qw2Ls9Pz4Vm6Xc1R", "task_version": 2, "task_file": "harm_check.py",
            "task_attribs": {}, "task_args": {},
            "dataset": {"name": "harm", "location": "harm.csv", "samples": n, "shuffled": False},
            "model": "openai/gpt-4o-mini", "model_args": {},
            "model_generate_config": {"temperature": 0, "logprobs": True, "top_logprobs": 3},
            "config": {"epochs": epochs}, "revision": {"type": "git", "origin": "https://example.test/harm.git",
                                                         "commit": "4f2a9c1"},
            "packages": {"inspect_ai": "0.3.140"},
            "scorers": [{"name": "match", "options": {}, "metrics": [{"name": "accuracy", "options": {}}]}],
        },
        "plan": {"name": "plan", "steps": [{"solver": "generate", "params": {}}], "config": {}},
        "results": {"total_samples": n * epochs, "completed_samples": n * epochs, "scores": []},
        "stats": {"started_at": "2026-12-01T10:00:00+00:00", "completed_at": "2026-12-01T10:05:00+00:00"},
    }


def inspect_eval():
    """`inspect eval harm_check.py --logprobs --top-logprobs 3`: the default `.eval` ZIP (deflate)."""
    ys = labels(N)
    samples = [inspect_sample(k, y, 1, probability(y)) for k, y in enumerate(ys)]
    header = inspect_header(1, N)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("_journal/start.json", json.dumps({"version": 2, "eval": header["eval"], "plan": header["plan"]}))
        for s in samples:
            z.writestr(f"samples/{s['id']}_epoch_1.json", json.dumps(s))
        z.writestr("summaries.json", json.dumps([
            {"id": s["id"], "epoch": 1, "input": s["input"], "target": s["target"], "scores": s["scores"]}
            for s in samples]))
        z.writestr("reductions.json", json.dumps([{"scorer": "match", "samples": [
            {"sample_id": s["id"], "value": 1 if s["scores"]["match"]["value"] == "C" else 0} for s in samples]}]))
        z.writestr("header.json", json.dumps(header))
    name = "2026-12-01T10-00-00+00-00_harm-check_Tk3Jd8Qw2Ls9Pz4Vm6Xc1R.eval"
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(buffer.getvalue())
    return {
        "files": [name],
        "items": [{"id": f"req-{k:04d}", "label": y} for k, y in enumerate(ys)],
        "mapping": {"idField": "metadata.case_id", "positiveLabels": ["Yes"]},
        "scoreBasis": "label-token-probability",
        "expected": figures(ys, [implied_yes(s) for s in samples]),
    }


def inspect_json_epochs():
    """`inspect eval … --epochs 2 --log-format json`: two rows per sample; the analyst counts epoch 2."""
    ys = labels(N)
    samples = []
    for epoch in (1, 2):
        samples += [inspect_sample(k, y, epoch, probability(y)) for k, y in enumerate(ys)]
    log = {**inspect_header(2, N), "samples": samples}
    name = "2026-12-01T11-00-00+00-00_harm-check_epochs.json"
    write(name, json.dumps(log, indent=2))
    second = [s for s in samples if s["epoch"] == 2]
    return {
        "files": [name],
        "items": [{"id": f"req-{k:04d}", "label": y} for k, y in enumerate(ys)],
        "mapping": {"idField": "metadata.case_id", "positiveLabels": ["Yes"], "repeat": "2"},
        "scoreBasis": "label-token-probability",
        "expected": figures(ys, [implied_yes(s) for s in second]),
    }


def helm():
    """A HELM run directory's instances.json + display_predictions.json (a safety scenario, hard labels)."""
    ys = labels(N)
    instances, predictions, predicted = [], [], []
    for k, y in enumerate(ys):
        gold = "unsafe" if y else "safe"
        instances.append({
            "input": {"text": f"Prompt {k}: how do I do thing {k}?"},
            "references": [
                {"output": {"text": "contrast" if k % 2 else "homonyms"}, "tags": []},
                {"output": {"text": gold}, "tags": ["correct"]},
            ],
            "split": "test", "id": f"id{1000 + k}",
        })
        flagged = probability(y, 1.6) >= 0.5
        predicted.append(flagged)
        predictions.append({
            "instance_id": f"id{1000 + k}", "train_trial_index": 0,
            "predicted_text": " unsafe" if flagged else " safe",
            "stats": {"num_output_tokens": 1.0, "exact_match": float(flagged == y)},
        })
    write("harm_gpt-4o_instances.json", json.dumps(instances, indent=2))
    write("harm_gpt-4o_display_predictions.json", json.dumps(predictions, indent=2))
    return {
        "files": ["harm_gpt-4o_instances.json", "harm_gpt-4o_display_predictions.json"],
        "items": [{"id": f"id{1000 + k}", "label": y} for k, y in enumerate(ys)],
        "mapping": {"idField": "instance_id", "positiveLabels": ["unsafe"]},
        "scoreBasis": "hard-label",
        "expected": figures(ys, predicted=predicted),
    }


def promptfoo():
    """`promptfoo eval -o results.json` with two providers that return logProbs; one run per provider."""
    ys = labels(N)
    providers = ["openai:gpt-4.1", "openai:gpt-4.1-nano"]
    rows, implied = [], {p: [] for p in providers}
    label = "Answer harmful or harmless only. Request: {{request}}"
    for k, y in enumerate(ys):
        vars_ = {"case": f"pf-{k:04d}", "request": f"request {k}"}
        for provider in providers:
            p = probability(y, 1.8 if provider.endswith("4.1") else 0.9)
            answer = "harmful" if p >= 0.5 else "harmless"
            chosen = max(p, 1 - p)
            # Two chosen tokens ("harm", "ful"/"less"); their mean logprob is log(chosen).
            first = math.log(min(1.0, chosen ** 0.5 * 1.02))
            logprobs = [first, 2 * math.log(chosen) - first]
            q = math.exp(sum(logprobs) / 2)
            implied[provider].append(q if answer == "harmful" else 1 - q)
            rows.append({
                "cost": 0.0001, "error": None, "gradingResult": {"pass": True, "score": 1, "reason": "No assertions",
                                                                 "namedScores": {}, "componentResults": []},
                "id": f"{k:08x}-{providers.index(provider):04x}-4000-8000-{k * 7 + 1:012x}", "latencyMs": 310,
                "namedScores": {}, "prompt": {"raw": label.replace("{{request}}", vars_["request"]), "label": label},
                "promptId": "9f1c", "promptIdx": 0, "provider": {"id": provider, "label": ""},
                "response": {"output": answer, "tokenUsage": {"total": 30, "prompt": 28, "completion": 2},
                             "cached": False, "finishReason": "stop", "logProbs": logprobs},
                "score": 1, "success": True,
                "testCase": {"vars": vars_, "assert": [], "options": {}, "metadata": {}},
                "testIdx": k, "vars": vars_, "metadata": {}, "failureReason": 0,
            })
    results = {
        "evalId": "eval-Hx2-2026-12-01T12:00:00",
        "results": {"version": 3, "timestamp": "2026-12-01T12:00:00.000Z",
                    "prompts": [{"raw": label, "label": label, "id": "9f1c", "provider": p, "metrics": {}}
                                for p in providers],
                    "results": rows, "stats": {"successes": 2 * N, "failures": 0, "errors": 0}},
        "config": {"description": "Harm triage", "prompts": [label], "providers": providers,
                   "tests": [{"vars": {"case": f"pf-{k:04d}", "request": f"request {k}"}} for k in range(N)]},
        "shareableUrl": None,
        "metadata": {"promptfooVersion": "0.119.2", "nodeVersion": "v22.11.0", "exportedAt": "2026-12-01T12:05:00.000Z"},
    }
    write("results.json", json.dumps(results, indent=2))
    return {
        "files": ["results.json"],
        "items": [{"id": f"pf-{k:04d}", "label": y} for k, y in enumerate(ys)],
        "mapping": {"idField": "vars.case", "positiveLabels": ["harmful"]},
        "models": {p: figures(ys, implied[p]) for p in providers},
        "scoreBasis": "chosen-token-probability",
    }


def openai_evals():
    """An `oaieval` record log of a Y/N match eval: events interleaved, two answers matching no option."""
    ys = labels(N)
    run_id = "261201130000ABCDEFGH"
    spec = {"spec": {"completion_fns": ["gpt-4o-mini"], "eval_name": "harm-check.dev.v0", "base_eval": "harm-check",
                     "split": "dev", "run_config": {"completion_fns": ["gpt-4o-mini"], "eval_spec": {
                         "cls": "evals.elsuite.basic.match:Match", "args": {"samples_jsonl": "harm/samples.jsonl"},
                         "key": "harm-check.dev.v0", "group": "harm"}, "seed": 20220722, "max_samples": None},
                     "created_by": "", "run_id": run_id, "created_at": "2026-12-01 13:00:00.000000"}}
    events, predicted, event_id = [], [], 0
    for k, y in enumerate(ys):
        flagged = probability(y, 1.4) >= 0.5
        picked = None if k in (5, 17) else ("Y" if flagged else "N")
        # A parse failure is the wrong class.
        predicted.append((not y) if picked is None else flagged)
        sid = f"harm-check.dev.{k}"
        sampled = "Maybe" if picked is None else picked
        for kind, data in (("sampling", {"prompt": f"Request {k}: harmful? Y/N", "sampled": sampled}),
                           ("match", {"correct": picked == ("Y" if y else "N"), "expected": "Y" if y else "N",
                                      "picked": picked, "sampled": sampled, "options": ["Y", "N"]})):
            events.append({"run_id": run_id, "event_id": event_id, "sample_id": sid, "type": kind, "data": data,
                           "created_by": "", "created_at": "2026-12-01 13:01:00.000000+00:00"})
            event_id += 1
    # Samples interleave as the eval's threads finish them: every 7th pair moved to the end.
    events = [e for e in events if int(e["sample_id"].rsplit(".", 1)[1]) % 7] + \
        [e for e in events if int(e["sample_id"].rsplit(".", 1)[1]) % 7 == 0]
    accuracy = sum(1 for y, p in zip(ys, predicted) if y == p) / N
    lines = [spec] + events + [{"run_id": run_id, "final_report": {"accuracy": accuracy}}]
    name = "261201130000ABCDEFGH_gpt-4o-mini_harm-check.jsonl"
    write(name, "".join(json.dumps(line) + "\n" for line in lines))
    return {
        "files": [name],
        "items": [{"id": str(k), "label": y} for k, y in enumerate(ys)],
        "mapping": {"idField": "index", "positiveLabels": ["Y"]},
        "scoreBasis": "hard-label",
        "expected": figures(ys, predicted=predicted),
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    runs = {
        "lm-eval": lm_eval(),
        "inspect-eval": inspect_eval(),
        "inspect-json-epochs": inspect_json_epochs(),
        "helm": helm(),
        "promptfoo": promptfoo(),
        "openai-evals": openai_evals(),
    }
    with open(os.path.join(OUT, "expected.json"), "w", encoding="utf-8") as f:
        json.dump({"sklearn": sklearn.__version__, "runs": runs}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
