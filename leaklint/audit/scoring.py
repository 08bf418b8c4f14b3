"""Metrics: which scorer a procedure is judged by, and what chance scores on it."""
from __future__ import annotations

from typing import Optional

import numpy as np
from sklearn.metrics import get_scorer, get_scorer_names

# LL201's metric: R² against the predict-the-training-mean baseline, pooled over folds.
TRAIN_MEAN_R2 = "r2_vs_train_mean"


def default_metric(task: str) -> str:
    """What ``cross_val_score`` uses without ``scoring``: the estimator's own ``score``."""
    return "accuracy" if task == "classification" else "r2"


def known(name) -> bool:
    return isinstance(name, str) and name in get_scorer_names()


def fits(name: str, task: str) -> bool:
    """Whether the scorer can judge the task's predictions: a regression's are judged by
    regression metrics only (a classification or ranking metric needs classes or
    probabilities); a classification's labels, numbers too, by any."""
    module = getattr(getattr(get_scorer(name), "_score_func", None), "__module__", "") or ""
    return task != "regression" or not module.startswith("sklearn.metrics") or module.endswith("_regression")


def chance(metric: str, y: np.ndarray) -> Optional[float]:
    """The score of a procedure that learned nothing, where the metric defines one."""
    if metric.startswith("roc_auc"):
        return 0.5
    if metric in ("r2", TRAIN_MEAN_R2):
        return 0.0
    if metric == "neg_mean_squared_error":
        return -float(np.var(y))
    if metric == "neg_root_mean_squared_error":
        return -float(np.std(y))
    _, counts = np.unique(y, return_counts=True)
    shares = counts / counts.sum()
    if metric == "accuracy":
        return float(shares.max())
    if metric == "balanced_accuracy":
        return 1.0 / len(counts)
    if metric == "average_precision" and len(counts) == 2:
        return float(shares[1])
    return None
