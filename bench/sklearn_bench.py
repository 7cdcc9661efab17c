#!/usr/bin/python3
"""scikit-learn side of `npm run bench:metrics`: same raw files, same tasks; prints JSON."""
import json
import sys
import time

import numpy as np
import sklearn
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score


def load(labels_file, scores_file):
    return np.fromfile(labels_file, dtype=np.uint8), np.fromfile(scores_file, dtype="<f8")


def curves(y, s):
    t = time.perf_counter()
    precision, recall, thresholds = precision_recall_curve(y, s)
    ap = average_precision_score(y, s)
    auc = roc_auc_score(y, s)
    return time.perf_counter() - t, {"averagePrecision": float(ap), "rocAuc": float(auc), "curvePoints": len(precision)}


def bootstrap(y, s, replicates, seed=1):
    """Stratified bootstrap of AP: positives and negatives resampled separately."""
    rng = np.random.default_rng(seed)
    pos = np.flatnonzero(y == 1)
    neg = np.flatnonzero(y == 0)
    t = time.perf_counter()
    aps = np.empty(replicates)
    for b in range(replicates):
        idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        aps[b] = average_precision_score(y[idx], s[idx])
    low, high = np.percentile(aps, [2.5, 97.5])
    return time.perf_counter() - t, {"averagePrecision": [float(low), float(high)]}


if __name__ == "__main__":
    task, labels_file, scores_file = sys.argv[1:4]
    y, s = load(labels_file, scores_file)
    if task == "curves":
        seconds, result = curves(y, s)
    else:
        seconds, result = bootstrap(y, s, int(sys.argv[4]))
    print(json.dumps({"seconds": seconds, "sklearn": sklearn.__version__, "result": result}))
