"""Fitting the synthetic data, and the cost of a run, to the procedure's literal arguments.

Each rule's data keeps the seeds' shape wherever the pieces allow it. The shape changes
when a piece needs more (``PCA(n_components=300)`` needs 300 features and 300 rows in
every fit), when a step's cost grows with the number of features (wrapper selectors and
mutual information: 10,000 features would take minutes per seed), or when the data's
scale would make a literal kernel width degenerate. An explicit ``--rows``/``--features``
is always kept as given. Literal arguments of the code are changed only to bound the
time a seed takes (an ensemble's size, RFE's step, a SequentialFeatureSelector's cv);
such a change is listed as substituted. Every change is stated in a note.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from leaklint.analysis.specs import CallSpec
from leaklint.audit.pieces import describe
from leaklint.audit.rebuild import Unsupported, build, resolve

MAX_ROWS = 5_000
MAX_FEATURES = 20_000
MAX_CELLS = 20_000_000  # rows x features: 160 MB of float64

# Ensembles: more members cost time in proportion and do not change what a leak does.
# Averaging ensembles average more of the same trees; boosting keeps its learning rate.
AVERAGING = frozenset(
    "RandomForestClassifier RandomForestRegressor ExtraTreesClassifier ExtraTreesRegressor "
    "BaggingClassifier BaggingRegressor".split()
)
BOOSTING = frozenset(
    "GradientBoostingClassifier GradientBoostingRegressor AdaBoostClassifier AdaBoostRegressor "
    "LGBMClassifier LGBMRegressor XGBClassifier XGBRegressor CatBoostClassifier CatBoostRegressor".split()
)
# The stage count each booster reads, where it is not n_estimators, and its default when
# unwritten and above the cap (CatBoost grows 1,000 trees unless told).
STAGE_PARAMETER = {"CatBoostClassifier": ("iterations", 1000), "CatBoostRegressor": ("iterations", 1000)}
STAGE_SYNONYMS = ("n_estimators", "num_boost_round", "num_trees")
MAX_TREES = 25  # as the rules' example forests
MAX_STAGES = 50
# LL305 chooses among a booster's stages: it keeps the default 100 and up to 200 (about
# 1 s per seed at the rule's 400 rows); the inflation barely grows past 100 on noise.
MAX_STAGES_CHOSEN = 200
HIST_BOOSTING = frozenset({"HistGradientBoostingClassifier", "HistGradientBoostingRegressor"})

# Features for the selectors whose cost grows with them (the univariate tests with
# f_classif, f_regression, chi2 or r_regression keep the seed's 10,000).
WRAPPER_FEATURES = {"RFE": 200, "SelectFromModel": 100, "RFECV": 50}
MAX_ROUNDS = {"RFE": 10, "RFECV": 5}  # elimination rounds, RFECV's once per inner fold
MUTUAL_INFORMATION = frozenset({"mutual_info_classif", "mutual_info_regression"})
MI_FEATURE_FITS = 200  # features scored per seed: ~2 ms each on 100 rows
SFS_SEED_SECONDS = 0.5  # estimated time one seed's selector fits may take
MIN_FEATURES = 10

# n_components may not exceed the features nor the rows of a fit.
COMPONENTS_BOTH = frozenset(
    "PCA IncrementalPCA TruncatedSVD SparsePCA MiniBatchSparsePCA FactorAnalysis FastICA NMF".split()
)
COMPONENTS_ROWS = frozenset({"KernelPCA"})
KERNEL_STEPS = frozenset({"KernelPCA", "Nystroem", "RBFSampler"})
NEIGHBOUR_MODELS = frozenset({"KNeighborsClassifier", "KNeighborsRegressor"})


@dataclass
class Sized:
    """The pieces as they will run, the data's shape and scale, and what was changed."""

    step: object
    model: object
    rows: int
    features: int
    scale: float = 1.0
    substituted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Folds:
    count: int  # fits of a step per fold-wise procedure (train folds, or 1 for a split)
    train_share: float  # smallest share of the rows in a training set
    test_share: float  # smallest share of the rows in a test set


def size(code: str, step, model, *, rows: int, features: int, explicit_rows: bool,
         explicit_features: bool, kind: str, folds: Folds) -> Sized:
    """Adapt the default ``rows`` x ``features`` (and the specs' costs) to the pieces."""
    sized = Sized(step, model, rows, features)
    stages = MAX_STAGES_CHOSEN if code == "LL305" else MAX_STAGES
    sized.step = _cap_ensembles(sized, "step", step, stages)
    sized.model = _cap_ensembles(sized, "model", model, stages)
    name = _name(sized.step)
    if kind in ("gaussian", "missing", "nonnegative") and not explicit_features:
        _fit_cost(sized, code, name, folds)
    need_rows, need_features, reasons = _requirements(code, sized.step, sized.model, folds, kind)
    if kind in ("gaussian", "missing", "nonnegative", "text"):
        if need_features > sized.features and not explicit_features:
            _grow(sized, "features", need_features, reasons["features"], MAX_FEATURES)
        if need_rows > sized.rows and not explicit_rows:
            _grow(sized, "rows", need_rows, reasons["rows"], MAX_ROWS)
        if sized.rows * sized.features > MAX_CELLS:
            raise Unsupported(
                f"{sized.rows} rows x {sized.features} features exceed the audit's "
                f"{MAX_CELLS:,} cells of synthetic data"
            )
    if name in ("RFE", "RFECV"):
        _bound_rounds(sized, name)
    if name == "SequentialFeatureSelector":
        _bound_sfs_cv(sized, _step_fits(code, folds))
    if kind in ("gaussian", "missing"):
        _kernel_scale(sized)
        _variance_scale(sized)
    return sized


def folds_of(evaluation: dict, rows: int, task: str) -> Folds:
    """How often, and on what share of the rows, a step is fitted in each procedure."""
    from leaklint.audit.procedures import split_rows

    y = np.arange(rows) % 2 if task == "classification" else np.arange(rows, dtype=float)
    try:
        pairs = split_rows(evaluation, y, task, 0)
    except Exception:  # the procedure itself will report what is wrong with the split
        return Folds(5, 0.8, 0.2)
    train = min(len(t) for t, _ in pairs) / rows
    test = min(len(t) for _, t in pairs) / rows
    return Folds(len(pairs), train, test)


# -- cost -------------------------------------------------------------------------------


def _fit_cost(sized: Sized, code: str, name: Optional[str], folds: Folds) -> None:
    """Fewer features for a selector whose every fit costs time per feature."""
    fits = _step_fits(code, folds)
    target = None
    why = ""
    if name in WRAPPER_FEATURES:
        target = WRAPPER_FEATURES[name]
        why = f"{name} refits its estimator many times per fit"
    elif name == "SequentialFeatureSelector":
        target, why = _sfs_features(sized.step, fits)
    elif _score_func(sized.step) in MUTUAL_INFORMATION:
        target = max(MIN_FEATURES, MI_FEATURE_FITS // fits)
        why = f"{_score_func(sized.step)} costs about 2 ms per feature and fit ({fits} fits per seed)"
    if target is not None and target < sized.features:
        sized.notes.append(
            f"data: {target} features instead of {sized.features:,}, since {why}; "
            "the leak is measured on this narrower noise"
        )
        sized.features = target


def _step_fits(code: str, folds: Folds) -> int:
    """Fits of the step per seed: on all rows and each training set (LL301: also each test set)."""
    return 3 * folds.count if code == "LL301" else folds.count + 1


def _sfs_features(spec, fits: int):
    """Features for a SequentialFeatureSelector: twice those it selects, so it has a choice.

    Every round cross-validates each remaining candidate feature, at about 2 ms plus
    1.5 ms per fold for a small estimator: the count is kept as small as still leaves
    the selector a choice (its inner cv is bounded by ``_bound_sfs_cv``).
    """
    params = _params(spec)
    select = params.get("n_features_to_select", "auto")
    if _count(select):
        features = 2 * select
    else:  # "auto" (half the features) or a fraction
        features = 8
    return features, (
        f"SequentialFeatureSelector cross-validates every candidate feature in every round "
        f"({fits} selector fits per seed)"
    )


def _bound_sfs_cv(sized: Sized, fits: int) -> None:
    """SequentialFeatureSelector's inner cv at 2 folds when the written one costs too much."""
    params = _params(sized.step)
    cv = params.get("cv", 5)
    if not _count(cv) or cv <= 2:
        return
    features = sized.features
    select = params.get("n_features_to_select")
    rounds = select if _count(select) and select < features else features // 2
    if params.get("direction") == "backward":
        rounds = features - rounds
    candidates = sum(features - r for r in range(rounds))
    seconds = fits * candidates * (2.0 + 1.5 * cv) / 1000.0
    if seconds <= SFS_SEED_SECONDS:
        return
    sized.step = _with_kwargs(sized.step, cv=2)
    sized.substituted.append("step.cv")
    sized.notes.append(
        f"step.cv: SequentialFeatureSelector's cv={cv} would cross-validate {candidates} candidate subsets "
        f"{fits} times per seed (~{seconds:.1f} s); cv=2 is used"
    )


def _bound_rounds(sized: Sized, name: str) -> None:
    """RFE/RFECV's step as a fraction when the written step would take too many rounds."""
    params = _params(sized.step)
    features = sized.features
    keep = params.get("n_features_to_select") if name == "RFE" else params.get("min_features_to_select", 1)
    if keep is None:
        keep = features // 2
    elif isinstance(keep, float):
        keep = int(keep * features)
    step = params.get("step", 1)
    if not (_count(step) or isinstance(step, float) and 0 < step < 1) or not isinstance(keep, int):
        return  # the selector itself rejects such arguments when it runs
    removed = step if isinstance(step, int) else max(1, int(step * features))
    rounds = math.ceil(max(0, features - keep) / removed)
    limit = MAX_ROUNDS[name]
    if rounds <= limit:
        return
    fraction = math.ceil(100 * (features - keep) / (features * limit)) / 100
    sized.step = _with_kwargs(sized.step, step=fraction)
    sized.substituted.append("step.step")
    sized.notes.append(
        f"step.step: {name}'s step={step!r} would take {rounds} elimination rounds on {features} features; "
        f"step={fraction:g} (that share of the features per round, at most {limit} rounds) is used"
    )


def _cap_ensembles(sized: Sized, piece: str, spec, stages: int = MAX_STAGES):
    """Cap the members of every ensemble in ``spec``, nested estimators included.

    ``stages`` caps boosting; histogram boosting's ``max_iter`` only when it is raised
    above ``MAX_STAGES`` (LL305, whose procedure grows every iteration).
    """
    if isinstance(spec, CallSpec):
        spec = CallSpec(
            spec.qualname,
            tuple(_cap_ensembles(sized, piece, a, stages) for a in spec.args),
            tuple((k, _cap_ensembles(sized, piece, v, stages)) for k, v in spec.kwargs),
        )
        name = _name(spec)
        limit = MAX_TREES if name in AVERAGING else stages if name in BOOSTING else None
        parameter, default = STAGE_PARAMETER.get(name, ("n_estimators", None))
        if name in STAGE_PARAMETER:  # (a synonym the user wrote is the one to change)
            parameter = next((k for k in STAGE_SYNONYMS if k in _params(spec)), parameter)
        if name in HIST_BOOSTING and stages > MAX_STAGES:
            limit, parameter = stages, "max_iter"
        if limit is not None:
            written = _params(spec).get(parameter, default)
            if isinstance(written, int) and written > limit:
                shown = describe(spec)
                spec = _with_kwargs(spec, **{parameter: limit})
                sized.substituted.append(f"{piece}.{parameter}")
                default = "" if parameter in shown else f" (its default {written})"
                what = "trees averaged" if name in AVERAGING else "boosting stages, learning rate as written"
                sized.notes.append(
                    f"{piece}.{parameter}: {shown}{default} runs with {parameter}={limit} "
                    f"({what}) to keep each seed fast"
                )
        return spec
    if isinstance(spec, (list, tuple)):
        return type(spec)(_cap_ensembles(sized, piece, v, stages) for v in spec)
    return spec


# -- requirements -----------------------------------------------------------------------


def _requirements(code: str, step, model, folds: Folds, kind: str):
    """The rows and features the literal arguments need, and why."""
    # LL301 refits its step (or, when the step is a model, fits it) on the held-out rows.
    step_rows = folds.test_share if code == "LL301" else folds.train_share
    need_rows, need_features = 0, 0
    reasons = {"rows": "", "features": ""}
    name, params = _name(step), _params(step)
    components = params.get("n_components")
    if name in COMPONENTS_BOTH | COMPONENTS_ROWS and _count(components):
        rows = math.ceil((components + 1) / step_rows)
        if rows > need_rows:
            need_rows = rows
            reasons["rows"] = f"{describe(step)} needs more than {components} rows in each of its fits"
        if name in COMPONENTS_BOTH and kind != "text":
            need_features = 2 * components
            reasons["features"] = f"{describe(step)} reduces {2 * components} features to {components}"
    keep = _kept(name, params)
    if keep and 2 * keep > need_features and kind != "text":
        need_features = 2 * keep
        reasons["features"] = f"{describe(step)} keeps {keep} of {2 * keep} features"
    for spec in (step, model):
        if _name(spec) in NEIGHBOUR_MODELS:
            neighbours = _params(spec).get("n_neighbors")
            share = folds.train_share if spec is model else step_rows
            if _count(neighbours):
                rows = math.ceil((neighbours + 1) / share)
                if rows > need_rows:
                    need_rows = rows
                    reasons["rows"] = f"{describe(spec)} needs more than {neighbours} rows in each fit"
    return need_rows, need_features, reasons


def _kept(name, params) -> Optional[int]:
    if name == "SelectKBest":
        value = params.get("k")
    elif name == "GenericUnivariateSelect" and params.get("mode") == "k_best":
        value = params.get("param")
    elif name in ("RFE", "SequentialFeatureSelector"):
        value = params.get("n_features_to_select")
    elif name == "RFECV":
        value = params.get("min_features_to_select")
    else:
        return None
    return value if _count(value) else None


def _grow(sized: Sized, dimension: str, need: int, reason: str, limit: int) -> None:
    current = getattr(sized, dimension)
    if need > limit:
        raise Unsupported(f"{reason}: {need:,} {dimension} are needed, over the audit's limit of {limit:,}")
    setattr(sized, dimension, need)
    sized.notes.append(f"data: {need:,} {dimension} instead of {current:,}, since {reason}")


def _kernel_scale(sized: Sized) -> None:
    """Scale Gaussian features so that a literal RBF ``gamma`` sees typical distances."""
    name = _name(sized.step)
    if name not in KERNEL_STEPS:
        return
    params = _params(sized.step)
    gamma = params.get("gamma")
    kernel = "rbf" if name == "RBFSampler" else params.get("kernel")
    if kernel != "rbf" or not isinstance(gamma, (int, float)) or isinstance(gamma, bool) or gamma <= 0:
        return
    # Two standard normal rows lie at a squared distance of 2 x features on average.
    sized.scale = 1.0 / math.sqrt(2.0 * gamma * sized.features)
    sized.notes.append(
        f"data: features scaled by {sized.scale:.3g} so that {describe(sized.step)} sees rows at a "
        f"typical squared distance of 1/gamma (unscaled, every pair of noise rows is ~0 apart in its kernel)"
    )


def _variance_scale(sized: Sized) -> None:
    """Scale Gaussian features to the variance a literal ``VarianceThreshold(threshold=t)``
    cuts at, so that about half of them pass it (unscaled, a threshold above 1 keeps none)."""
    threshold = _params(sized.step).get("threshold") if _name(sized.step) == "VarianceThreshold" else None
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or threshold <= 0:
        return
    sized.scale = math.sqrt(threshold)
    sized.notes.append(
        f"data: features scaled by {sized.scale:.3g} so that their variances lie around "
        f"{describe(sized.step)}'s threshold and about half of them pass it"
    )


# -- specs ------------------------------------------------------------------------------


def _name(spec) -> Optional[str]:
    return spec.qualname.rsplit(".", 1)[-1] if isinstance(spec, CallSpec) else None


def _params(spec) -> dict:
    """The constructor's parameters, defaults included (only for a listed call)."""
    if not isinstance(spec, CallSpec):
        return {}
    try:
        return build(spec).get_params(deep=False)
    except Exception:  # the worker reports a failing constructor when it runs the piece
        return {}


def _score_func(spec) -> Optional[str]:
    if not isinstance(spec, CallSpec):
        return None
    value = _params(spec).get("score_func")
    return getattr(value, "__name__", None)


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _with_kwargs(spec: CallSpec, **changes) -> CallSpec:
    """``spec`` with some arguments set by keyword (a positional one becomes a keyword)."""
    names = list(inspect.signature(resolve(spec.qualname)).parameters)
    args, kwargs = list(spec.args), dict(spec.kwargs)
    for index, name in enumerate(names[: len(spec.args)]):
        if name in changes:
            for moved, value in zip(names[index:], spec.args[index:]):
                kwargs.setdefault(moved, value)
            args = args[:index]
            break
    kwargs.update(changes)
    return CallSpec(spec.qualname, tuple(args), tuple(kwargs.items()))

