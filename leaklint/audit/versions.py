"""Classes and arguments that scikit-learn and imbalanced-learn renamed, read as today's.

Old code (``Imputer(axis=0)``, ``SGDClassifier(n_iter=5, loss="log")``) describes the
same procedure the current library runs under another name. The audit runs that
procedure, says so in a note, and drops only what no longer exists and never changed
what is learned (``axis=0``, ``normalize=False``).
"""
from __future__ import annotations

from leaklint.analysis.specs import CallSpec, FuncRef

CLASSES = {"Imputer": "sklearn.impute.SimpleImputer"}

# (class, old keyword) -> new keyword
KEYWORDS = {
    **{(name, "n_iter"): "max_iter" for name in ("SGDClassifier", "SGDRegressor", "Perceptron")},
    ("OneHotEncoder", "sparse"): "sparse_output",
    **{(name, "base_estimator"): "estimator" for name in (
        "AdaBoostClassifier", "AdaBoostRegressor", "BaggingClassifier", "BaggingRegressor", "CalibratedClassifierCV")},
    **{(name, "ratio"): "sampling_strategy" for name in (
        "SMOTE", "ADASYN", "RandomOverSampler", "RandomUnderSampler", "BorderlineSMOTE", "SVMSMOTE", "NearMiss")},
}

_TREES = ("DecisionTree", "ExtraTree", "RandomForest", "ExtraTrees", "GradientBoosting")
# (class, keyword, old value) -> new value
VALUES = {
    ("SGDClassifier", "loss", "log"): "log_loss",
    ("LogisticRegression", "penalty", "none"): None,
    **{(f"{kind}Classifier", "max_features", "auto"): "sqrt" for kind in _TREES},
    **{(f"{kind}Regressor", "max_features", "auto"): 1.0 for kind in _TREES},
    **{(f"{kind}Regressor", "criterion", "mse"): "squared_error" for kind in _TREES},
    **{(f"{kind}Regressor", "criterion", "mae"): "absolute_error" for kind in _TREES},
    ("GradientBoostingRegressor", "loss", "ls"): "squared_error",
    ("GradientBoostingRegressor", "loss", "lad"): "absolute_error",
    ("GradientBoostingClassifier", "loss", "deviance"): "log_loss",
    ("SimpleImputer", "missing_values", "NaN"): FuncRef("numpy.nan"),
    # (XGBoost 2 names the device apart: the audit runs its CPU form)
    **{(name, "tree_method", "gpu_hist"): "hist" for name in ("XGBClassifier", "XGBRegressor")},
}

# (class, keyword, the value that did nothing): removed arguments, dropped when so set
REMOVED = {
    ("SimpleImputer", "axis", 0),
    *{(name, "normalize", False) for name in ("LinearRegression", "Ridge", "Lasso", "ElasticNet")},
}


# Defaults that changed, where the old code's settings need the old one to run at all:
# (class, keyword, value written, keyword unwritten) -> the old default for it
OLD_DEFAULTS = {
    ("LogisticRegression", "penalty", "l1", "solver"): "liblinear",  # the default before scikit-learn 0.22
}


SHUFFLING_SPLITTERS = frozenset({"KFold", "StratifiedKFold", "GroupKFold", "StratifiedGroupKFold"})


def current(spec, notes: list, piece: str):
    """``spec`` with the renamed class and arguments of today's library (nested specs
    included), one note per change; the spec itself when nothing was renamed."""
    if not isinstance(spec, CallSpec):
        return spec
    name = spec.qualname.rsplit(".", 1)[-1]
    qualname = spec.qualname
    if name in CLASSES and spec.qualname.split(".", 1)[0] == "sklearn":
        qualname = CLASSES[name]
        notes.append(f"{piece}: {name} is {qualname.rsplit('.', 1)[-1]} in today's scikit-learn")
        name = qualname.rsplit(".", 1)[-1]
    kwargs = []
    for keyword, value in spec.kwargs:
        value = current(value, notes, piece)
        plain = value is None or isinstance(value, (str, bool, int, float))
        if plain and (name, keyword, value) in REMOVED:
            notes.append(f"{piece}: {name}'s `{keyword}={value!r}` no longer exists and changed nothing; dropped")
            continue
        renamed = KEYWORDS.get((name, keyword), keyword)
        if renamed != keyword:
            notes.append(f"{piece}: {name}'s `{keyword}` is `{renamed}` in today's library")
        if isinstance(value, (str, bool)) and (name, keyword, value) in VALUES:
            new = VALUES[(name, keyword, value)]
            notes.append(f"{piece}: {name}'s `{keyword}={value!r}` is `{keyword}={_shown(new)}` in today's library")
            value = new
        kwargs.append((renamed, value))
    written = dict(kwargs)
    if name in SHUFFLING_SPLITTERS and "random_state" in written and written.get("shuffle") is not True:
        # (older scikit-learn ignored it; today's refuses it)
        notes.append(f"{piece}: {name}'s `random_state` without `shuffle=True` did nothing; dropped")
        kwargs = [(k, v) for k, v in kwargs if k != "random_state"]
    for (cls, keyword, value, missing), default in OLD_DEFAULTS.items():
        if cls == name and written.get(keyword) == value and missing not in written:
            notes.append(f"{piece}: {name}(`{keyword}={value!r}`) ran with `{missing}={default!r}`, its old default")
            kwargs.append((missing, default))
    args = tuple(current(a, notes, piece) for a in spec.args)
    changed = CallSpec(qualname, args, tuple(kwargs))
    return spec if changed == spec else changed


def _shown(value) -> str:
    return value.qualname.replace("numpy.", "np.") if isinstance(value, FuncRef) else repr(value)
