"""The leaked and the honest procedure of each rule, run on one dataset.

Each procedure returns (leaked, honest) for one seed. The two share their folds
wherever they see the same rows, so the per-seed difference is a paired comparison.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.model_selection import TimeSeriesSplit, check_cv, train_test_split
from sklearn.pipeline import Pipeline

CLASSIFICATION = "classification"
LL301_MODEL = "LL301/model"  # LL301 when the step refitted on the test rows is the model itself


class NothingSelected(Exception):
    """The step kept no feature (a selector controlling false discoveries, on noise)."""

    def __init__(self, where: str):
        super().__init__(where)
        self.where = where


class ColumnsDiffer(Exception):
    """The step refitted on the held-out rows gives other columns than on the training rows."""

    def __init__(self, train: int, test: int):
        super().__init__(train, test)
        self.train, self.test = train, test


@dataclass
class Pieces:
    """The rebuilt objects of one seed's run."""

    step: object
    model: object
    evaluation: dict  # {"cv": int or splitter} or {"split": train_test_split options}
    scorer: Callable
    fit_method: str
    task: str
    seed: int
    # (undefined, scored) test folds of each mean: a fold holding one class has no ROC AUC.
    folds_scored: list = field(default_factory=list)


class GroupMeanEncoder(TransformerMixin, BaseEstimator):
    """The hand-written target encoding: each category's mean label, the row's own included."""

    def fit(self, X, y):
        codes, y = np.asarray(X, dtype=int), np.asarray(y, dtype=float)
        self.prior_ = y.mean()
        self.means_ = []
        for column in codes.T:
            counts, sums = np.bincount(column), np.bincount(column, weights=y)
            self.means_.append(np.where(counts > 0, sums / np.maximum(counts, 1), self.prior_))
        return self

    def transform(self, X):
        codes = np.asarray(X, dtype=int)
        out = np.empty(codes.shape)
        for j, means in enumerate(self.means_):
            seen = codes[:, j] < len(means)
            out[:, j] = np.where(seen, means[np.where(seen, codes[:, j], 0)], self.prior_)
        return out


def fitted_before_split(p: Pieces, X, y):
    """LL101-LL103, LL105: the step fitted on all rows, or inside each training fold."""
    step = clone(p.step)
    Xt = step.fit(X, y).transform(X) if p.fit_method == "fit" else step.fit_transform(X, y)
    if _width(Xt) == 0:
        raise NothingSelected("fitted on all rows")
    folds = split_rows(p.evaluation, y, p.task, p.seed)
    honest = Pipeline([("step", p.step), ("model", p.model)])
    return _mean_score(p, p.model, Xt, y, folds), _in_folds(p, honest, X, y, folds)


def resampled_before_split(p: Pieces, X, y):
    """LL104: resampled before the split (synthetic rows reach the test folds), or per fold."""
    from imblearn.pipeline import Pipeline as ResamplingPipeline

    Xr, yr = clone(p.step).fit_resample(X, y)
    leaked = _mean_score(p, p.model, Xr, yr, split_rows(p.evaluation, yr, p.task, p.seed))
    honest = ResamplingPipeline([("step", p.step), ("model", p.model)])
    return leaked, _mean_score(p, honest, X, y, split_rows(p.evaluation, y, p.task, p.seed))


def shuffled_time_series(p: Pieces, X, y):
    """LL201: the shuffled split as written, or the same number of time-ordered folds.

    A regression is scored against predicting the training mean; a classification by
    its scorer, on labels balanced within every stretch of the series.
    """
    shuffled = split_rows(p.evaluation, y, p.task, p.seed)
    ordered = time_ordered_rows(p.evaluation, len(y))
    if p.task == CLASSIFICATION:
        return _mean_score(p, p.model, X, y, shuffled), _mean_score(p, p.model, X, y, ordered)
    return train_mean_r2(p.model, X, y, shuffled), train_mean_r2(p.model, X, y, ordered)


def refitted_on_test(p: Pieces, X, y):
    """LL301: the step refitted on the held-out rows before the model scores them, or not."""
    folds = split_rows(p.evaluation, y, p.task, p.seed)
    scores = []
    for train, test in folds:
        X_train = clone(p.step).fit_transform(_rows(X, train), y[train])
        X_test = clone(p.step).fit_transform(_rows(X, test), y[test])
        if _width(X_train) == 0 or _width(X_test) == 0:
            raise NothingSelected("fitted on the training or the held-out rows")
        if _width(X_test) != _width(X_train):
            raise ColumnsDiffer(_width(X_train), _width(X_test))
        scores.append(p.scorer(clone(p.model).fit(X_train, y[train]), X_test, y[test]))
    honest = Pipeline([("step", p.step), ("model", p.model)])
    return _finite_mean(p, scores), _in_folds(p, honest, X, y, folds)


def model_fitted_on_test(p: Pieces, X, y):
    """LL301 when the step is the model: fitted on the held-out rows and scored on them."""
    folds = split_rows(p.evaluation, y, p.task, p.seed)
    leaked = [
        p.scorer(clone(p.step).fit(_rows(X, test), y[test]), _rows(X, test), y[test]) for _, test in folds
    ]
    return _finite_mean(p, leaked), _mean_score(p, p.step, X, y, folds)


def fitted_on_all_rows(p: Pieces, X, y):
    """LL302: the model fitted on all rows and scored on held-out ones, or on training rows."""
    folds = split_rows(p.evaluation, y, p.task, p.seed)
    fitted = clone(p.model).fit(X, y)
    leaked = _finite_mean(p, [p.scorer(fitted, _rows(X, test), y[test]) for _, test in folds])
    return leaked, _mean_score(p, p.model, X, y, folds)


@dataclass(frozen=True)
class Procedure:
    run: Callable
    leaked: str  # templates over step, fitted, model, evaluation, honest_evaluation
    honest: str


_IN_FOLD = "{step} and {model} in one Pipeline, fitted within each training fold of {evaluation}"
PROCEDURES = {
    **{
        code: Procedure(fitted_before_split, "{fitted} on all rows, then {model} under {evaluation}", _IN_FOLD)
        for code in ("LL101", "LL102", "LL103", "LL105")
    },
    "LL104": Procedure(
        resampled_before_split,
        "{step}.fit_resample on all rows, then {model} under {evaluation} of the resampled rows",
        "{step} and {model} in an imblearn Pipeline, resampling only the training folds of {evaluation}",
    ),
    "LL201": Procedure(
        shuffled_time_series,
        "{model} under {evaluation} (shuffled)",
        "{model} under {honest_evaluation} (each test block after its training rows)",
    ),
    "LL301": Procedure(
        refitted_on_test,
        "{step} refitted on the held-out rows of {evaluation} before {model} scores them",
        "{step} fitted on the training rows only, in one Pipeline with {model}",
    ),
    LL301_MODEL: Procedure(
        model_fitted_on_test,
        "{step} fitted on the held-out rows of {evaluation} and scored on them",
        "{step} fitted on the training rows of {evaluation}",
    ),
    "LL302": Procedure(
        fitted_on_all_rows,
        "{model} fitted on all rows, scored on the held-out rows of {evaluation}",
        "{model} fitted on the training rows of {evaluation}",
    ),
}


def split_rows(evaluation: dict, y, task: str, seed: int):
    """The (train, test) index pairs of a cross-validation or a train_test_split."""
    n = len(y)
    options = evaluation.get("split")
    if options is None:
        cv = check_cv(evaluation["cv"], y, classifier=task == CLASSIFICATION)
        return list(cv.split(np.zeros((n, 1)), y, groups=np.arange(n)))
    shuffle = options["shuffle"]
    state = seed if options["random_state"] is None else options["random_state"]
    train, test = train_test_split(
        np.arange(n),
        test_size=options["test_size"],
        train_size=options["train_size"],
        shuffle=shuffle,
        random_state=state if shuffle else None,
        stratify=y if options["stratify"] and shuffle else None,
    )
    return [(train, test)]


def time_ordered_rows(evaluation: dict, n: int):
    """The honest counterpart for time-ordered rows: TimeSeriesSplit, or the last rows held out."""
    options = evaluation.get("split")
    if options is None:
        cv = evaluation["cv"]
        folds = cv if isinstance(cv, int) else getattr(cv, "n_splits", 5)
        return list(TimeSeriesSplit(folds).split(np.zeros((n, 1))))
    test = _held_out_count(options["test_size"], options["train_size"], n)
    return [(np.arange(n - test), np.arange(n - test, n))]


def time_ordered_description(evaluation: dict) -> str:
    if "split" in evaluation:
        return "train_test_split(shuffle=False)"
    cv = evaluation["cv"]
    return f"TimeSeriesSplit({cv if isinstance(cv, int) else getattr(cv, 'n_splits', 5)})"


def train_mean_r2(model, X, y, folds) -> float:
    """R² against predicting each training set's mean, pooled over folds: 0 is chance.

    The usual R² compares with the test fold's own mean, which a forecaster cannot know;
    on drifting data that makes every time-ordered score strongly negative and unstable.
    """
    errors = baseline = 0.0
    for train, test in folds:
        predicted = clone(model).fit(X[train], y[train]).predict(X[test])
        errors += float(np.sum((y[test] - predicted) ** 2))
        baseline += float(np.sum((y[test] - y[train].mean()) ** 2))
    return 1.0 - errors / baseline


def _held_out_count(test_size, train_size, n: int) -> int:
    if isinstance(test_size, float):
        return math.ceil(test_size * n)
    if isinstance(test_size, int):
        return test_size
    if isinstance(train_size, float):
        return n - math.floor(train_size * n)
    if isinstance(train_size, int):
        return n - train_size
    return math.ceil(0.25 * n)


def _mean_score(p: Pieces, estimator, X, y, folds) -> float:
    scores = [
        p.scorer(clone(estimator).fit(_rows(X, train), y[train]), _rows(X, test), y[test])
        for train, test in folds
    ]
    return _finite_mean(p, scores)


def _finite_mean(p: Pieces, scores) -> float:
    """The mean of the defined fold scores (nan if none is), recording how many were not."""
    kept = [float(s) for s in scores if math.isfinite(s)]
    p.folds_scored.append((len(scores) - len(kept), len(scores)))
    return float(np.mean(kept)) if kept else math.nan


def _in_folds(p: Pieces, pipeline, X, y, folds) -> float:
    """``_mean_score`` of a Pipeline whose step may keep no feature in a training fold."""
    try:
        return _mean_score(p, pipeline, X, y, folds)
    except ValueError as exc:
        if "0 feature(s)" in str(exc):
            raise NothingSelected("fitted on a training fold") from exc
        raise


def _width(X) -> int:
    return X.shape[1] if len(getattr(X, "shape", ())) == 2 else 1


def _rows(X, index):
    return X.iloc[index] if hasattr(X, "iloc") else X[index]
