"""LL201's honest reference is stable across seeds, for a single split as for a K-fold.

Tolerances are for seeds 0..9 of the rule's example (a 25-tree forest, 500 rows of
drifting noise). Measured: a single time-ordered split of the last 20% gave honest R²
-1.42 ± 2.69 (one seed -8.0, the gap's interval +0.4 to +4.2); forecast from rolling
origins, -0.10 ± 0.37; the shuffled K-fold's TimeSeriesSplit(5), 0.03 ± 0.22.
"""
import statistics

import numpy as np
import pytest

from leaklint.audit import examples
from leaklint.audit.data import make
from leaklint.audit.procedures import Pieces, forecast_origins, shuffled_time_series, time_ordered_rows
from leaklint.audit.rebuild import build
from leaklint.audit.result import AuditResult

SPLIT = {"split": {"test_size": 0.2, "train_size": None, "shuffle": True, "random_state": 0, "stratify": False}}


def test_a_single_split_is_forecast_from_each_origin_a_block_fits():
    folds = forecast_origins(SPLIT, 500)
    assert [(len(train), len(test)) for train, test in folds] == [(100, 100), (200, 100), (300, 100), (400, 100)]
    for train, test in folds:
        assert train.tolist() == list(range(len(train))) and test[0] == len(train)
    _, last_test = time_ordered_rows(SPLIT, 500)[0]
    assert folds[-1][1].tolist() == last_test.tolist()  # the code's own held-out rows are among them
    halves = {"split": dict(SPLIT["split"], test_size=0.5)}
    assert len(forecast_origins(halves, 500)) == 1  # no earlier origin leaves a block of training rows
    assert len(forecast_origins({"cv": 5}, 500)) == 5  # a K-fold's TimeSeriesSplit is unchanged


@pytest.mark.slow
def test_the_honest_reference_of_a_single_split_is_stable_across_seeds():
    leaked, honest = [], []
    for seed in range(10):
        data = make("time", np.random.default_rng(seed), 500, 5, "regression")
        pieces = Pieces(step=None, model=build(examples.MODELS["LL201"]["regression"]), evaluation=SPLIT,
                        scorer=None, fit_method="fit_transform", task="regression", seed=seed)
        scores = shuffled_time_series(pieces, data.X, data.y)
        leaked.append(scores[0])
        honest.append(scores[1])
    assert statistics.stdev(honest) <= 0.6 and abs(statistics.fmean(honest)) <= 0.35
    result = AuditResult("LL201", "ok", 10, metric="r2_vs_train_mean", leaked_scores=leaked, honest_scores=honest)
    result.summarise()
    assert result.gap_low > 0.4 and result.short_verdict == "inflated"
