#!/usr/bin/python3
"""Generate scikit-learn reference fixtures for lib/metrics (run with Debian's /usr/bin/python3).

    /usr/bin/python3 scripts/sklearn-fixtures.py

Writes test/fixtures/sklearn/cases.json.gz: every case's inputs and scikit-learn's results.
Where scikit-learn warns or raises, the expected value is null with the message as reason,
which is what the engine must return. The 200,000-item case stores every summary figure and a
deterministic sample of curve points (with their indices) to stay small.
"""
import gzip
import json
import math
import os
import warnings

import numpy as np
import scipy
import scipy.stats
import sklearn
from sklearn.calibration import calibration_curve
from sklearn.metrics import (
    auc,
    average_precision_score,
    brier_score_loss,
    confusion_matrix,
    f1_score,
    log_loss,
    precision_recall_curve,
    precision_score,
    recall_score,
    roc_auc_score,
    roc_curve,
)

OUT = os.path.join(os.path.dirname(__file__), "..", "test", "fixtures", "sklearn", "cases.json.gz")


def call(fn, *args, **kwargs):
    """(value, reason): reason is the warning or error message when scikit-learn warns or raises."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn(*args, **kwargs)
        except ValueError as e:
            return None, str(e)
    relevant = [w for w in caught if not issubclass(w.category, (DeprecationWarning, FutureWarning))]
    if relevant:
        return value, str(relevant[0].message)
    return value, None


def arr(a):
    return [float(v) for v in np.asarray(a, dtype=float)]


def maybe(value, reason):
    return None if reason is not None else value


def at_threshold(y, s, t, w=None):
    pred = (s >= t).astype(int)
    tn, fp, fn, tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
    p, pr = call(precision_score, y, pred, zero_division="warn")
    r, rr = call(recall_score, y, pred, zero_division="warn")
    f, fr = call(f1_score, y, pred, zero_division="warn")
    row = {
        "threshold": float(t), "tp": int(tp), "fp": int(fp), "tn": int(tn), "fn": int(fn),
        "precision": maybe(float(p), pr), "recall": maybe(float(r), rr), "f1": maybe(float(f), fr),
        "fpr": float(fp / (fp + tn)) if fp + tn > 0 else None,
    }
    if w is not None:
        pw, pwr = call(precision_score, y, pred, sample_weight=w, zero_division="warn")
        row["precision_at_prevalence"] = maybe(float(pw), pwr)
    return row


def pr_curve(y, s, w=None):
    (precision, recall, thresholds), reason = call(precision_recall_curve, y, s, sample_weight=w)
    return {"precision": arr(precision), "recall": None if reason else arr(recall), "thresholds": arr(thresholds)}, reason


def sample_points(curve, keys, stride):
    n = len(curve[keys[0]])
    idx = sorted(set(list(range(min(50, n))) + list(range(0, n, stride)) + list(range(max(0, n - 50), n))))
    return {"length": n, "indices": idx, **{k: [curve[k][i] for i in idx] for k in keys}}


def expected(y, s, thresholds, prevalence, stride=None):
    out = {}
    pr, pr_reason = pr_curve(y, s)
    out["pr_recall_reason"] = pr_reason
    ap, ap_reason = call(average_precision_score, y, s)
    out["ap"], out["ap_reason"] = maybe(float(ap), ap_reason) if ap is not None else None, ap_reason
    roc, roc_reason = call(roc_curve, y, s)
    roc = None if roc_reason else {"fpr": arr(roc[0]), "tpr": arr(roc[1]), "thresholds": arr(roc[2])}
    out["roc_reason"] = roc_reason
    ra, ra_reason = call(roc_auc_score, y, s)
    out["roc_auc"], out["roc_auc_reason"] = maybe(ra if ra is None else float(ra), ra_reason), ra_reason
    if pr["recall"] is not None:
        out["pr_auc_trapezoid"] = float(auc(pr["recall"], pr["precision"]))
    else:
        out["pr_auc_trapezoid"] = None
    b, b_reason = call(brier_score_loss, y, s)
    out["brier"], out["brier_reason"] = maybe(b if b is None else float(b), b_reason), b_reason
    ll, ll_reason = call(log_loss, y, s, eps=1e-15)
    out["log_loss"], out["log_loss_reason"] = maybe(ll if ll is None else float(ll), ll_reason), ll_reason
    cal, cal_reason = call(calibration_curve, y, s, n_bins=10, strategy="uniform")
    out["calibration"] = None if cal_reason else {"prob_true": arr(cal[0]), "prob_pred": arr(cal[1])}
    w = None
    n_pos = int(y.sum())
    if prevalence is not None and 0 < n_pos < len(y):
        p = n_pos / len(y)
        w = np.where(y == 1, prevalence / p, (1 - prevalence) / (1 - p))
        wap, wap_reason = call(average_precision_score, y, s, sample_weight=w)
        wpr, _ = pr_curve(y, s, w)
        out["weighted"] = {"ap": maybe(float(wap), wap_reason), "pr": wpr if stride is None else sample_points(wpr, ["precision", "recall"], stride)}
    out["at"] = [at_threshold(y, s, t, w) for t in thresholds]
    if stride is None:
        out["pr"], out["roc"] = pr, roc
    else:
        out["pr"] = sample_points(pr, ["precision", "recall"], stride)
        out["pr"]["thresholds"] = [pr["thresholds"][i] for i in out["pr"]["indices"] if i < len(pr["thresholds"])]
        out["roc"] = sample_points(roc, ["fpr", "tpr", "thresholds"], stride) if roc else None
    return out


def case(name, labels, scores, thresholds=(0.5,), prevalence=None, stride=None, encode=None):
    y = np.asarray(labels, dtype=int)
    s = np.asarray(scores, dtype=float)
    c = {"name": name, "prevalence": prevalence, "thresholds": [float(t) for t in thresholds]}
    if encode is None:
        c["labels"], c["scores"] = [int(v) for v in y], arr(s)
    else:
        c.update(encode)
    c["expected"] = expected(y, s, thresholds, prevalence, stride)
    return c


def wilson(k, n, z):
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z / d * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return [max(0.0, centre - half), min(1.0, centre + half)]


def main():
    rng = np.random.default_rng(20240501)
    cases = [
        case("ties", [1, 0, 1, 1, 0, 0, 1, 0], [0.9, 0.9, 0.7, 0.4, 0.4, 0.4, 0.2, 0.1], (0.4, 0.5, 0.9, 0.95), 0.1),
        case("all-equal", [1, 0, 0, 1, 0], [0.5] * 5, (0.5, 0.6), 0.2),
        case("single-positive", [0, 0, 0, 1, 0, 0], [0.1, 0.8, 0.3, 0.6, 0.2, 0.6], (0.5, 0.6, 0.7), 0.05),
        case("no-positives", [0, 0, 0, 0], [0.1, 0.5, 0.5, 0.9], (0.5, 1.0), 0.1),
        case("no-negatives", [1, 1, 1], [0.2, 0.7, 0.7], (0.5, 0.8), 0.1),
        case("zero-and-one", [0, 1, 1, 0, 1, 0, 0, 1], [0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5, 0.5], (0.0, 0.5, 1.0), 0.3),
        case("print-alike", [1, 0, 1, 0, 0, 1], [0.1 + 0.2, 0.3, 0.3, 0.1 + 0.2, 0.2, 0.30000000000000004], (0.3, 0.1 + 0.2), 0.25),
        case("single-item-positive", [1], [0.4], (0.5,), None),
        case("single-item-negative", [0], [0.4], (0.3,), None),
        case("logits", [1, 0, 1, 0, 1, 0, 0], [2.5, -1.0, 0.3, 0.3, -3.2, 7.0, -0.1], (0.0, 0.3), 0.1),
        case("perfect", [0, 0, 0, 1, 1], [0.1, 0.2, 0.3, 0.8, 0.9], (0.5,), 0.01),
        case("inverted", [1, 1, 0, 0, 0], [0.1, 0.2, 0.3, 0.8, 0.9], (0.5,), 0.5),
    ]
    for i, (n, pos_rate, levels) in enumerate([(50, 0.3, 5), (500, 0.1, 0), (2000, 0.03, 100), (5000, 0.5, 0), (3000, 0.02, 7)]):
        y = (rng.random(n) < pos_rate).astype(int)
        raw = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
        s = np.round(raw * levels) / levels if levels else raw
        cases.append(case(f"random-{i}-n{n}", y, s, (0.25, 0.5, 0.75), [0.01, 0.2, 0.5, 0.05, 0.3][i]))
    # 200,000 items: scores k/2^20 (exact doubles, many distinct, some ties), 3% positives.
    n = 200_000
    y = (rng.random(n) < 0.03).astype(int)
    k = np.clip(np.round(rng.beta(2 + 3 * y, 5, n) * 2**20), 0, 2**20).astype(np.int64)
    s = k / 2**20
    cases.append(case("large-200k", y, s, (0.3, 0.5), 0.01, stride=997,
                      encode={"labels": [int(v) for v in y], "scoreNumerators": [int(v) for v in k], "scoreDenominator": 2**20}))
    z = float(scipy.stats.norm.ppf(0.975))
    extras = {
        "wilson": [{"k": k_, "n": n_, "interval": wilson(k_, n_, z)} for k_, n_ in [(0, 10), (10, 10), (5, 10), (81, 263), (1, 1), (29, 30), (2900, 3000)]],
        "mcnemar": [{"b": b, "c": c, "p": float(min(1.0, scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue)) if b + c > 0 else 1.0}
                    for b, c in [(0, 0), (1, 0), (5, 5), (3, 12), (40, 60), (1000, 1100), (0, 30)]],
        "z95": z,
    }
    doc = {"sklearn": sklearn.__version__, "numpy": np.__version__, "scipy": scipy.__version__, "cases": cases, "extras": extras}
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(doc, f, allow_nan=False, separators=(",", ":"))
    print(f"wrote {len(cases)} cases to {os.path.normpath(OUT)} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
