"""Each rule's example pair as specs: what the audit runs when the code's pieces can't be used.

They mirror the Example / Use-instead snippets in ``rules/``; a piece comes from here
when the finding lacks it or when it is not a literal call of an allow-listed name.
"""
from __future__ import annotations

from leaklint.analysis.specs import CallSpec, FuncRef

CLASSIFICATION = "classification"
REGRESSION = "regression"


def _call(qualname: str, *args, **kwargs) -> CallSpec:
    return CallSpec(qualname, args, tuple(kwargs.items()))


_SCALER = _call("sklearn.preprocessing.StandardScaler")
_KNN = {
    CLASSIFICATION: _call("sklearn.neighbors.KNeighborsClassifier", 5),
    REGRESSION: _call("sklearn.neighbors.KNeighborsRegressor", 5),
}
_LINEAR = {
    CLASSIFICATION: _call("sklearn.linear_model.LogisticRegression"),
    REGRESSION: _call("sklearn.linear_model.Ridge"),
}
# A quarter of the default trees (sizing.MAX_TREES caps the code's own forests alike):
# ten seeds of a forest audit then take about 5 s, and the number of trees averaged
# does not change what a leak does to the score.
_FOREST = {
    CLASSIFICATION: _call("sklearn.ensemble.RandomForestClassifier", n_estimators=25, random_state=0),
    REGRESSION: _call("sklearn.ensemble.RandomForestRegressor", n_estimators=25, random_state=0),
}
_SELECT = {
    task: _call("sklearn.feature_selection.SelectKBest", FuncRef(f"sklearn.feature_selection.{score}"), k=20)
    for task, score in ((CLASSIFICATION, "f_classif"), (REGRESSION, "f_regression"))
}

STEPS = {
    "LL101": {task: _SCALER for task in _KNN},
    "LL102": _SELECT,
    "LL103": {task: _call("sklearn.preprocessing.TargetEncoder") for task in _KNN},
    "LL104": {CLASSIFICATION: _call("imblearn.over_sampling.SMOTE", random_state=0)},
    "LL301": {task: _SCALER for task in _KNN},
}

# LL105's hand-computed statistic, as the transformer that computes it.
STAT_STEPS = {
    "mean": _SCALER,
    "std": _SCALER,
    "var": _SCALER,
    "median": _call("sklearn.impute.SimpleImputer", strategy="median"),
    "mode": _call("sklearn.impute.SimpleImputer", strategy="most_frequent"),
    "min": _call("sklearn.preprocessing.MinMaxScaler"),
    "max": _call("sklearn.preprocessing.MinMaxScaler"),
    "zscore": _SCALER,  # scipy.stats.zscore: the mean and spread at once
    # pd.qcut: bins at the quantiles of all rows (the code's number of bins, when given)
    "qcut": _call("sklearn.preprocessing.KBinsDiscretizer", encode="ordinal", strategy="quantile"),
    # a quantile of all rows (a cap at the 99th percentile, an IQR filter): quantiles learned as a step
    "quantile": _call("sklearn.preprocessing.RobustScaler"),
}
# The same statistics by their other names (numpy's nan-aware and alias functions).
STAT_ALIASES = {
    "nanmean": "mean", "average": "mean", "nanstd": "std", "nanvar": "var", "nanmedian": "median",
    "amin": "min", "nanmin": "min", "amax": "max", "nanmax": "max", "ptp": "min",
    "nanquantile": "quantile", "percentile": "quantile", "nanpercentile": "quantile",
}

# LL202: boosting as in the rule's example, at half the default stages (as the forests);
# LL305: boosting at its default 100 stages, the iterations early stopping chooses among.
_BOOSTING_HALF = {
    CLASSIFICATION: _call("sklearn.ensemble.GradientBoostingClassifier", n_estimators=50, random_state=0),
    REGRESSION: _call("sklearn.ensemble.GradientBoostingRegressor", n_estimators=50, random_state=0),
}
_BOOSTING = {
    CLASSIFICATION: _call("sklearn.ensemble.GradientBoostingClassifier", random_state=0),
    REGRESSION: _call("sklearn.ensemble.GradientBoostingRegressor", random_state=0),
}

MODELS = {
    "LL101": _KNN,
    "LL102": _LINEAR,
    "LL103": _LINEAR,
    "LL104": _FOREST,
    "LL105": _LINEAR,
    "LL201": _FOREST,
    "LL301": _LINEAR,
    "LL302": _FOREST,
    "LL202": _BOOSTING_HALF,
    "LL203": _FOREST,
    "LL304": {CLASSIFICATION: _call("sklearn.svm.SVC"), REGRESSION: _call("sklearn.svm.SVR")},
    "LL305": _BOOSTING,
}

_FIVE_FOLD = {"cv": 5}
EVALUATIONS = {
    "LL101": _FIVE_FOLD,
    "LL102": _FIVE_FOLD,
    "LL103": _FIVE_FOLD,
    "LL104": _FIVE_FOLD,
    "LL105": _FIVE_FOLD,
    "LL201": {"cv": _call("sklearn.model_selection.KFold", 5, shuffle=True, random_state=0)},
    "LL301": {"split": {"test_size": 0.2, "random_state": 0}},
    "LL302": {"split": {"test_size": 0.25, "random_state": 0}},
    "LL202": {"cv": _call("sklearn.model_selection.TimeSeriesSplit", 5)},
    "LL203": {"cv": _call("sklearn.model_selection.KFold", 5, shuffle=True, random_state=0)},
    "LL304": _FIVE_FOLD,
    "LL305": {"split": {"test_size": 0.2, "random_state": 0}},
}

SCORINGS = {"LL103": "roc_auc", "LL104": "roc_auc"}

# LL202: the look-ahead of the rule's example, a centred 5-row rolling mean; a shift looks
# one row ahead unless the code says how many.
LOOK_AHEAD = {"form": "center", "window": 5, "periods": 1}

# LL304: configurations a search tries when the code does not say (RandomizedSearchCV's
# own default is 10); more than MAX_CANDIDATES would take over ~10 s per seed nested.
CANDIDATES = 50
RANDOMIZED_DEFAULT_CANDIDATES = 10
MAX_CANDIDATES = 100

FIT_METHODS = {"LL103": "fit"}

# The rules whose leaking step is a piece of the procedure (LL105 derives it from "stat").
STEP_RULES = frozenset(STEPS)

# (rows, features) of each rule's synthetic data, from the seeds and the rules' examples.
SIZES = {
    "LL101": (200, 20),
    "LL102": (100, 10_000),
    "LL103": (2_000, 1),
    "LL104": (300, 20),
    "LL105": (200, 20),
    "LL201": (500, 5),
    "LL301": (200, 20),
    "LL302": (400, 20),
    "LL202": (1_000, 1),  # a random walk of 1,000 moves
    "LL203": (1_000, 10),  # 100 entities x 10 rows
    "LL304": (100, 20),
    "LL305": (400, 20),
}
