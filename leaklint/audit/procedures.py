"""The leaked and the honest procedure of each rule, run on one dataset.

Each procedure returns (leaked, honest) for one seed. The two share their folds
wherever they see the same rows, so the per-seed difference is a paired comparison.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, TransformerMixin, clone
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    GroupShuffleSplit,
    TimeSeriesSplit,
    check_cv,
    train_test_split,
)
from sklearn.pipeline import Pipeline
from sklearn.utils.metaestimators import available_if

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
    # The rule's own literal settings: LL202 form/window/periods, LL304 candidates.
    options: dict = field(default_factory=dict)
    groups: Optional[np.ndarray] = None  # LL203: each row's entity
    gaps: Optional[np.ndarray] = None  # LL202: the readings missing from the gappy copy of the series


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
    """LL201: the shuffled split as written, or its time-ordered counterpart at rolling
    origins (``forecast_origins``).

    A regression is scored against predicting the training mean; a classification by
    its scorer, on labels balanced within every stretch of the series.
    """
    shuffled = split_rows(p.evaluation, y, p.task, p.seed)
    ordered = forecast_origins(p.evaluation, len(y))
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


# -- LL202: a feature read from later rows ----------------------------------------------

LOOK_AHEAD_FORMS = ("center", "shift", "bfill", "interpolate", "own")


def look_ahead_feature(p: Pieces, X, y):
    """LL202: the next move predicted from a feature that reads later values, or from its
    past-only counterpart; both under the same time-ordered folds.

    ``X`` is the walk (one value more than rows), ``y`` each row's next move. Each feature
    is taken relative to the row's current value, as a distance from a trend is: a level
    of a random walk says nothing of its next move, and the folds' levels drift apart.
    """
    leaked, honest = look_ahead_pair(X, p.gaps, p.options["form"], p.options["window"], p.options["periods"])
    kept = np.flatnonzero(np.isfinite(leaked) & np.isfinite(honest))
    target = y[kept]
    folds = time_folds(p.evaluation, len(kept))
    return (
        _mean_score(p, p.model, leaked[kept, None], target, folds),
        _mean_score(p, p.model, honest[kept, None], target, folds),
    )


def look_ahead_pair(x, gaps, form: str, window: int, periods: int):
    """Each row's (look-ahead, past-only) feature minus its current value; nan where undefined.

    center: the centred ``window``-row rolling mean (pandas ``center=True``: it reaches
    ``(window - 1) // 2`` rows ahead), or the trailing one. own: the trailing mean that
    holds the value predicted (the label's own window), or the one ending a row before it.
    shift: the value ``periods``
    rows ahead, or as many back. bfill / interpolate: a copy of the series with the
    readings at ``gaps`` missing, filled from the next reading (or between the readings on
    both sides), or forward from the last one.
    """
    if form == "center":
        leaked, honest = _rolling_mean(x, window, (window - 1) // 2), _rolling_mean(x, window, 0)
    elif form == "own":
        leaked, honest = _rolling_mean(x, window, 1), _rolling_mean(x, window, 0)
    elif form == "shift":
        leaked, honest = _shifted(x, periods), _shifted(x, -periods)
    else:
        readings = np.where(gaps, np.nan, x)
        leaked = _backward_fill(readings) if form == "bfill" else _interpolated(readings)
        honest = _forward_fill(readings)
    current = x[:-1]
    return leaked[:-1] - current, honest[:-1] - current


def _rolling_mean(x, window: int, ahead: int):
    """The mean of ``x[t + ahead - window + 1 .. t + ahead]`` at each t (nan past either end)."""
    n = len(x)
    sums = np.concatenate([[0.0], np.cumsum(x)])
    end = np.arange(n) + ahead
    start = end - window + 1
    out = np.full(n, np.nan)
    inside = (start >= 0) & (end < n)
    out[inside] = (sums[end[inside] + 1] - sums[start[inside]]) / window
    return out


def _shifted(x, ahead: int):
    """``x[t + ahead]`` at each t: pandas ``shift(-ahead)``."""
    out = np.full(len(x), np.nan)
    if ahead >= 0:
        out[: len(x) - ahead] = x[ahead:]
    else:
        out[-ahead:] = x[: len(x) + ahead]
    return out


def _forward_fill(readings):
    positions = np.where(np.isfinite(readings), np.arange(len(readings)), -1)
    last = np.maximum.accumulate(positions)
    return np.where(last >= 0, readings[np.maximum(last, 0)], np.nan)


def _backward_fill(readings):
    return _forward_fill(readings[::-1])[::-1]


def _interpolated(readings):
    """pandas ``interpolate()``: linear between readings; the gaps after the last reading
    take its value, those before the first stay missing."""
    seen = np.flatnonzero(np.isfinite(readings))
    if len(seen) == 0:
        return readings.copy()
    out = np.interp(np.arange(len(readings)), seen, readings[seen])
    out[: seen[0]] = np.nan
    return out


def time_folds(evaluation: dict, n: int):
    """The code's own TimeSeriesSplit, or the time-ordered counterpart of its evaluation."""
    cv = evaluation.get("cv")
    if isinstance(cv, TimeSeriesSplit):
        return list(cv.split(np.zeros((n, 1))))
    return time_ordered_rows(evaluation, n)


def time_folds_description(evaluation: dict) -> str:
    cv = evaluation.get("cv")
    return splitter_text(cv) if isinstance(cv, TimeSeriesSplit) else time_ordered_description(evaluation)


def splitter_text(splitter) -> str:
    """``GroupKFold(5)``: a splitter's class, its folds, and the settings it was given."""
    import inspect

    parameters = inspect.signature(type(splitter).__init__).parameters
    shown = []
    for name, parameter in parameters.items():
        if name in ("self", "n_splits") or parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
            continue
        value = getattr(splitter, name, parameter.default)
        if value is not parameter.default and value != parameter.default:
            shown.append(f"{name}={value!r}")
    folds = getattr(splitter, "n_splits", None)
    return f"{type(splitter).__name__}({', '.join(([str(folds)] if folds is not None else []) + shown)})"


# -- LL203: rows of one entity on both sides --------------------------------------------


def shared_entities(p: Pieces, X, y):
    """LL203: the row-level split as written, or the same split of whole entities."""
    rows = split_rows(p.evaluation, y, p.task, p.seed)
    grouped = grouped_rows(p.evaluation, y, p.groups, p.seed)
    return _mean_score(p, p.model, X, y, rows), _mean_score(p, p.model, X, y, grouped)


def grouped_splitter(evaluation: dict, seed: int):
    """The split of whole entities that matches a row-level evaluation."""
    options = evaluation.get("split")
    if options is not None:
        test, train = options["test_size"], options["train_size"]
        state = seed if options["random_state"] is None else options["random_state"]
        return GroupShuffleSplit(1, test_size=test if test is not None or train is not None else 0.25,
                                 train_size=train, random_state=state)
    cv = evaluation["cv"]
    if isinstance(cv, int):
        return GroupKFold(cv)
    name = type(cv).__name__
    if name.startswith("Group") or name == "StratifiedGroupKFold":
        return cv  # already keeps entities together, once given the groups
    if name.endswith("ShuffleSplit"):
        state = seed if cv.random_state is None else cv.random_state
        return GroupShuffleSplit(cv.n_splits, test_size=cv.test_size, train_size=cv.train_size, random_state=state)
    folds = cv.cvargs["n_splits"] if hasattr(cv, "cvargs") else cv.get_n_splits()
    return GroupKFold(folds)


def grouped_rows(evaluation: dict, y, groups, seed: int):
    splitter = grouped_splitter(evaluation, seed)
    return list(splitter.split(np.zeros((len(y), 1)), y, groups))


def grouped_description(evaluation: dict, seed: int = 0) -> str:
    return f"{splitter_text(grouped_splitter(evaluation, seed))} by entity"


# -- LL304: the best score of a search reported -----------------------------------------


def search_best_score(p: Pieces, X, y):
    """LL304: ``best_score_`` of a search over ``candidates`` drawn configurations, or the
    same search cross-validated in an outer loop of the same folds (nested CV)."""
    from leaklint.audit.spaces import configurations

    outer = split_rows(p.evaluation, y, p.task, p.seed)
    rng = np.random.default_rng(p.seed)
    grid = configurations(p.model, p.options["candidates"], rng, _smallest_inner_training(p, y, outer))
    search = GridSearchCV(p.model, grid, cv=p.evaluation["cv"], scoring=p.scorer, refit=False, error_score="raise")
    leaked = search.fit(X, y).best_score_
    nested = []
    for train, test in outer:
        fitted = clone(search).set_params(refit=True).fit(_rows(X, train), y[train])
        nested.append(p.scorer(fitted.best_estimator_, _rows(X, test), y[test]))
    return float(leaked), _finite_mean(p, nested)


def _smallest_inner_training(p: Pieces, y, outer) -> int:
    """Rows in the smallest training fold of a search nested in ``outer``."""
    train = min((t for t, _ in outer), key=len)
    inner = split_rows(p.evaluation, y[train], p.task, p.seed)
    return min(len(t) for t, _ in inner)


# -- LL305: the stopping point chosen on the scored rows ---------------------------------

VALIDATION_SHARE = 0.2  # LL305: the training rows held out to choose the stage honestly


def stopped_on_test(p: Pieces, X, y):
    """LL305: boosting whose kept stage is the one scoring best on the held-out rows that
    are then scored, or the one scoring best on a validation split of the training rows."""
    model = all_stages(p.model)
    leaked, honest = [], []
    for train, test in split_rows(p.evaluation, y, p.task, p.seed):
        fitted = clone(model).fit(_rows(X, train), y[train])
        leaked.append(np.max(staged_scores(fitted, p.scorer, _rows(X, test), y[test])))
        fit, validation = train_test_split(
            train, test_size=VALIDATION_SHARE, random_state=p.seed,
            stratify=y[train] if p.task == CLASSIFICATION else None,
        )
        fitted = clone(model).fit(_rows(X, fit), y[fit])
        chosen = int(np.argmax(staged_scores(fitted, p.scorer, _rows(X, validation), y[validation])))
        honest.append(staged_scores(fitted, p.scorer, _rows(X, test), y[test])[chosen])
    return _finite_mean(p, leaked), _finite_mean(p, honest)


# Boosters without ``staged_predict`` (LightGBM's and XGBoost's scikit-learn models) are
# read at this many stages, evenly spaced up to their last tree: the leaked and the honest
# run choose among the same stages.
STAGE_POINTS = 50
# How such a booster predicts with its first k trees: the keyword and its value for k.
_FIRST_TREES = {"lightgbm": lambda k: {"num_iteration": k}, "xgboost": lambda k: {"iteration_range": (0, k)}}


def _library(model) -> str:
    return type(model).__module__.split(".")[0]


def has_stages(model) -> bool:
    """Whether the stage a booster keeps can be chosen: scikit-learn's ``staged_predict``,
    or LightGBM's / XGBoost's prediction with the first k trees."""
    return hasattr(model, "staged_predict") or _library(model) in _FIRST_TREES


def all_stages(model):
    """The model without its own early stopping, so that every stage is grown and seen
    (the boosting libraries' early stopping settings are never built: rebuild.DROPPED)."""
    params = model.get_params(deep=False)
    changes = {}
    if params.get("early_stopping") not in (None, False):  # HistGradientBoosting*
        changes["early_stopping"] = False
    elif "early_stopping" not in params and params.get("n_iter_no_change") is not None:  # GradientBoosting*
        changes["n_iter_no_change"] = None
    return clone(model).set_params(**changes) if changes else model


def staged_scores(fitted, scorer, X, y) -> np.ndarray:
    """The scorer's value of each boosting stage of ``fitted`` on (X, y)."""
    outputs = _StagedOutputs(fitted, X)
    view = _StageClassifier if hasattr(fitted, "classes_") else _StageRegressor
    scores = [scorer(view(outputs, stage), X, y) for stage in range(outputs.stages)]
    return np.array(scores, dtype=float)


class _StagedOutputs:
    """A fitted booster's staged outputs on one X, computed once per kind as asked."""

    def __init__(self, fitted, X):
        self.fitted, self.X = fitted, X
        self.classes_ = getattr(fitted, "classes_", None)
        self._first_trees = None if hasattr(fitted, "staged_predict") else _FIRST_TREES[_library(fitted)]
        self._points = None
        if self._first_trees is not None:
            trees = fitted.n_estimators
            if trees is None:  # XGBoost leaves its default number of rounds unset
                trees = fitted.get_booster().num_boosted_rounds()
            trees = int(trees)
            self._points = sorted({max(1, round(i * trees / STAGE_POINTS)) for i in range(1, STAGE_POINTS + 1)})
        self._cache = {"predict": self._staged("predict")}
        self.stages = len(self._cache["predict"])

    def _staged(self, method: str) -> list:
        if self._first_trees is None:
            return list(getattr(self.fitted, f"staged_{method}")(self.X))
        return [getattr(self.fitted, method)(self.X, **self._first_trees(k)) for k in self._points]

    def get(self, method: str, stage: int):
        if method not in self._cache:
            self._cache[method] = self._staged(method)
        return self._cache[method][stage]


class _StageRegressor(RegressorMixin, BaseEstimator):
    """A fitted booster seen at one stage, for a scorer (only on the X it was computed for)."""

    def __init__(self, outputs=None, stage=0):
        self.outputs, self.stage = outputs, stage

    def __sklearn_is_fitted__(self):
        return True

    def predict(self, X):
        return self.outputs.get("predict", self.stage)


class _StageClassifier(ClassifierMixin, _StageRegressor):
    @property
    def classes_(self):
        return self.outputs.classes_

    def predict_proba(self, X):
        return self.outputs.get("predict_proba", self.stage)

    @available_if(lambda self: hasattr(self.outputs.fitted, "decision_function"))
    def decision_function(self, X):  # (LightGBM's and XGBoost's classifiers have none)
        return self.outputs.get("decision_function", self.stage)


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
        "{model} under {honest_evaluation} at rolling origins (each test block forecast from the rows "
        "before it; a single split's held-out block is also forecast from earlier origins)",
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
    "LL202": Procedure(
        look_ahead_feature,
        "{model} predicting each row's next move from {leaked_feature}, under {time_evaluation}",
        "{model} predicting each row's next move from {honest_feature}, under {time_evaluation}",
    ),
    "LL203": Procedure(
        shared_entities,
        "{model} under {evaluation} of the rows (an entity's rows on both sides)",
        "{model} under {grouped_evaluation} (each entity's rows on one side)",
    ),
    "LL304": Procedure(
        search_best_score,
        "best_score_ of a search over {candidates} configurations of {model} with {evaluation}",
        "the same search cross-validated in an outer {evaluation} (nested CV): each outer test fold scored once",
    ),
    "LL305": Procedure(
        stopped_on_test,
        "{model} fitted on the training rows of {evaluation}; of its stages, the one scoring best on "
        "the held-out rows is kept and scored on them",
        "{model} fitted on {fit_share} of the training rows; the stage scoring best on the other "
        "{validation_share} (validation) is kept; the held-out rows are scored once",
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


def forecast_origins(evaluation: dict, n: int):
    """LL201's honest folds: each test block forecast from all the rows before it.

    A K-fold's counterpart is TimeSeriesSplit, already one block per origin. A single
    split's counterpart, the last rows held out, is one forecast from one origin: its
    score is what the series happened to do in that one stretch (on the audit's drifting
    data, R² from -8 to +0.6 over seeds). So its block is also forecast from each earlier
    origin that leaves at least a block of training rows, and the errors are pooled:
    the same forecast, of the same length, measured several times (rolling-origin
    evaluation, Tashman 2000).
    """
    options = evaluation.get("split")
    if options is None:
        return time_ordered_rows(evaluation, n)
    block = _held_out_count(options["test_size"], options["train_size"], n)
    origins = (n - block) // block
    if origins < 2:
        return time_ordered_rows(evaluation, n)
    return list(TimeSeriesSplit(origins, test_size=block).split(np.zeros((n, 1))))


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
