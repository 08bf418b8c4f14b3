"""Screening a finding's procedure pieces into a job the worker may rebuild.

This runs in the user's process and imports nothing from the ML stack: every piece is
either kept (a literal call of an allow-listed name), or dropped so the worker falls
back to the rule's example, and the drop is recorded as a substitution with the reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from leaklint.analysis.specs import CallSpec, FuncRef, Opaque, is_safe
from leaklint.audit import examples, versions
from leaklint.audit.allowlist import METRIC_SCORERS, REPORTS, accepts, allowed, canonical
from leaklint.findings import Finding, Location

# Keyword arguments that only name the code's own columns (category_encoders'
# ``cols=[...]``, CatBoost's ``cat_features=[...]``): the piece is applied to the
# synthetic columns instead, all numeric.
COLUMN_KEYWORDS = ("cols", "columns", "cat_features", "text_features", "embedding_features")

# The pieces whose origin each audit reports (JSON ``audit.pieces``).
PIECES = ("step", "model", "split", "metric", "data")


@dataclass(frozen=True)
class Job:
    """One finding's audit, as plain data the worker can rebuild safely."""

    code: str
    repeats: int
    rows: Optional[int] = None
    features: Optional[int] = None
    dataset: Optional[str] = None
    step: Optional[CallSpec] = None
    stat: Optional[str] = None
    form: Optional[str] = None
    fit_method: str = "fit_transform"
    model: Optional[CallSpec] = None
    cv: object = None  # an int or a splitter CallSpec
    split: Optional[dict] = None
    scoring: Optional[str] = None
    task: Optional[str] = None
    classes: int = 2  # classes of a classification's labels, where the code shows more than two
    options: Optional[dict] = None  # the rule's own literal settings (LL202, LL304)
    # Where each piece came from: {"from": "code", "line": N} or {"from": "example",
    # "reason": ...} (or "none" for a rule without that piece), as the JSON reports it.
    pieces: Optional[dict] = None


@dataclass
class Plan:
    job: Optional[Job] = None
    substituted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pieces: dict = field(default_factory=dict)  # as Job.pieces

    def substitute(self, piece: str, value, what: str = "the rule's example") -> None:
        self.substituted.append(piece)
        self.notes.append(f"{piece}: {why_not(value)}; {what} is used")


def why_not(value) -> str:
    """Why a piece of the code is not run, in a few words."""
    if value is None:
        return "not found in the code"
    names = sorted(set(qualnames(value)))
    unlisted = [name for name in names if not allowed(name)]
    if isinstance(value, CallSpec) and value.qualname in unlisted:
        return f"`{describe(value)}`: {_package_name(value.qualname)} is not on the audit's allow-list, so it was not run"
    if unlisted:
        listed = ", ".join(_package_name(n) for n in unlisted)
        return f"`{describe(value)}` names {listed}, not on the audit's allow-list, so it was not run"
    if isinstance(value, CallSpec):
        return f"`{describe(value)}` has arguments that are not literals, so it was not run"
    return f"`{describe(value)}` is not a literal call of an allow-listed library name, so it was not run"


def _short(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]


def _package_name(qualname: str) -> str:
    """``lightgbm.train``, ``tensorflow.Sequential``: a name with the package it is from."""
    parts = qualname.split(".")
    return parts[0] if len(parts) == 1 else f"{parts[0]}.{parts[-1]}"


def qualnames(value):
    """Every qualified name a spec calls or refers to, nested arguments included."""
    if isinstance(value, (CallSpec, FuncRef)):
        yield value.qualname
    if isinstance(value, CallSpec):
        for item in value.args + tuple(v for _, v in value.kwargs):
            yield from qualnames(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from qualnames(item)


def describe(value) -> str:
    """Short source-like text for a spec: ``SelectKBest(f_classif, k=20)``."""
    if isinstance(value, CallSpec):
        args = [describe(a) for a in value.args]
        args += [f"{name}={describe(v)}" for name, v in value.kwargs]
        return f"{value.qualname.rsplit('.', 1)[-1]}({', '.join(args)})"
    if isinstance(value, FuncRef):
        return value.qualname.rsplit(".", 1)[-1]
    if isinstance(value, Opaque):
        return value.source
    if isinstance(value, (list, tuple)):
        inner = ", ".join(describe(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    return repr(value)


def plan(finding: Finding, *, repeats: int, rows=None, features=None, dataset=None) -> Plan:
    """Screen ``finding.procedure``; the finding's code must be in ``examples.MODELS``."""
    code = finding.code
    proc = finding.procedure or {}
    result = Plan()
    pieces: dict = {}
    if code == "LL304":
        proc = _search_pieces(proc)
        pieces["options"] = {"candidates": _candidates(result, proc)}
    elif code == "LL202":
        pieces["options"] = _look_ahead(result, proc)
    if code == "LL103" and proc.get("form") == "groupby-mean":
        pieces["form"] = "groupby-mean"
    elif code in examples.STEP_RULES:
        role = "step-or-model" if code == "LL301" else "step"
        step = _by_hand(result, proc) if proc.get("step") is None else proc.get("step")
        if proc.get("step") is not None and proc.get("by_hand"):
            result.notes.append(f"step: {proc['by_hand']} runs as `{describe(step)}`")
        step = _own_functions_dropped(result, versions.current(step, result.notes, "step"))
        pieces["step"] = _accepted(result, "step", _columns_mapped(result, step), role)
        if isinstance(pieces["step"], CallSpec) and _short(pieces["step"].qualname) in CLUSTERINGS:
            result.notes.append(
                f"step: {_short(pieces['step'].qualname)}'s clusters reach the model as the distances to its "
                "centres (transform), whatever the code reads from it (labels_, fit_predict)"
            )
    if code == "LL105":
        pieces["stat"] = _stat(result, proc.get("stat"))
        if pieces["stat"] == "qcut":
            pieces["step"] = _quantile_bins(result, proc.get("bins"))
    if code in ("LL101", "LL102", "LL103") and "form" not in pieces:
        pieces["fit_method"] = _fit_method(result, code, proc.get("fit_method"))
    step = pieces.get("step")
    if not (code == "LL301" and step is not None and canonical(step.qualname, "step") is None):
        # (LL301's step may be the model itself, refitted on the test rows: then no model is used.)
        own = _selector_estimator(step)
        if own is not None and not accepts(proc.get("model"), "model"):
            result.substitute("model", proc.get("model"), f"the selector's own estimator, `{describe(own)}`,")
            pieces["model"] = own
        else:
            model = versions.current(proc.get("model"), result.notes, "model")
            pieces["model"] = _accepted(result, "model", _columns_mapped(result, model, "model"), "model")
            if pieces["model"] is not None and proc.get("model_via"):
                result.notes.append(
                    f"model: {proc['model_via']} runs as `{describe(pieces['model'])}`, its scikit-learn counterpart"
                )
    # (A search's cv is its evaluation: LL304 reads no split.)
    cv = versions.current(proc.get("cv"), result.notes, "cv")
    pieces.update(_evaluation(result, code, cv, None if code == "LL304" else proc.get("split")))
    if code == "LL201":
        # Read quietly: it decides classification, and a regression's metric is fixed.
        pieces["scoring"] = _scoring(Plan(), code, proc.get("scoring"))
    else:
        pieces["scoring"] = _scoring(result, code, proc.get("scoring"))
    task = proc.get("task")
    pieces["task"] = task if task in (examples.CLASSIFICATION, examples.REGRESSION) else None
    pieces["classes"] = classes_of(result, pieces.get("model"), proc)
    result.pieces = origins(finding, proc, result, pieces, rows, features)
    result.job = Job(code, repeats, rows, features, dataset, pieces=result.pieces, **pieces)
    return result


# Multiclass, as the code says it: a booster's objective or class count, a network's
# softmax output of k units, a metric averaged or one-vs-rest over classes.
MULTICLASS_OBJECTIVES = frozenset({"multiclass", "multiclassova", "softmax", "multi:softmax", "multi:softprob"})
DEFAULT_CLASSES = 3
MAX_CLASSES = 10


def classes_of(result: Plan, model, proc: dict) -> int:
    """How many classes the synthetic labels have: 2 unless the code shows more."""
    settings = dict(model.kwargs) if isinstance(model, CallSpec) else {}
    count, why = proc.get("classes"), "the network's softmax output"
    if count is None and isinstance(settings.get("num_class"), int):
        count, why = settings["num_class"], "num_class"
    if count is None and settings.get("objective") in MULTICLASS_OBJECTIVES:
        count, why = DEFAULT_CLASSES, f"objective={settings['objective']!r}"
    metric = proc.get("scoring")
    if count is None and isinstance(metric, CallSpec) and metric.kwarg("multi_class") in ("ovr", "ovo"):
        count, why = DEFAULT_CLASSES, f"multi_class={metric.kwarg('multi_class')!r}"
    if not isinstance(count, int) or isinstance(count, bool) or count <= 2:
        return 2
    count = min(count, MAX_CLASSES)
    result.notes.append(f"data: {count} balanced classes, as {why} says the labels have more than two")
    return count


def _by_hand(result: Plan, proc: dict):
    """A step the code performs by hand (a statistic of the held-out rows), as the
    transformer that computes the same; None when there is none."""
    raw = proc.get("stat")
    name = raw.rsplit(".", 1)[-1] if isinstance(raw, str) else None
    name = examples.STAT_ALIASES.get(name, name)
    if name not in examples.STAT_STEPS:
        return None
    step = examples.STAT_STEPS[name]
    result.notes.append(f"step: {proc.get('by_hand', name)} runs as `{describe(step)}`")
    return step


CLUSTERINGS = frozenset({"KMeans", "MiniBatchKMeans"})

# A text step's arguments that name a function of the code (``analyzer=clean_text``): it
# only shapes the tokens of the code's own texts, and the audit never runs the file's code.
OWN_FUNCTION_KEYWORDS = ("analyzer", "tokenizer", "preprocessor")


def _own_functions_dropped(result: Plan, step):
    """A vectorizer without the code's own tokenising function; the synthetic texts are
    split into words by the library's default analyzer instead."""
    if not isinstance(step, CallSpec):
        return step
    own = [(k, v) for k, v in step.kwargs if k in OWN_FUNCTION_KEYWORDS and isinstance(v, Opaque)]
    if not own:
        return step
    named = ", ".join(f"{k}={describe(v)}" for k, v in own)
    result.notes.append(
        f"step: `{named}` is a function of the code, which the audit never runs; "
        f"{_short(step.qualname)}'s default word analyzer splits the synthetic texts"
    )
    return CallSpec(step.qualname, step.args, tuple(kv for kv in step.kwargs if kv not in own))


def _columns_mapped(result: Plan, spec, piece: str = "step"):
    """A step or model without its column-naming arguments (``TargetEncoder(cols=list(df))``):
    on the synthetic data it applies to the columns the audit makes, so they are not read."""
    if not isinstance(spec, CallSpec) or not any(name in COLUMN_KEYWORDS for name, _ in spec.kwargs):
        return spec
    named = [f"{name}={describe(value)}" for name, value in spec.kwargs if name in COLUMN_KEYWORDS]
    kept = CallSpec(spec.qualname, spec.args, tuple((k, v) for k, v in spec.kwargs if k not in COLUMN_KEYWORDS))
    result.notes.append(
        f"{piece}: {', '.join(named)} names the code's own columns; {_short(spec.qualname)} is applied to "
        "the synthetic data's columns instead"
    )
    return kept


# Rules whose leak is not a step of their own: the split itself (LL201, LL203), or the
# model's own fit, search or stopping (LL302, LL304, LL305).
STEP_LESS = {
    "LL201": "the leak is the split itself",
    "LL203": "the leak is the split itself",
    "LL302": "the leak is the model's own fit on all rows",
    "LL304": "the leak is the search's own best score",
    "LL305": "the leak is the model's own early stopping",
}


def origins(finding: Finding, proc: dict, result: Plan, pieces: dict, rows, features) -> dict:
    """Where each piece of the job comes from: the code (with its line) or the example."""
    where = proc.get("origins") or {}
    reasons = {}
    for note in result.notes:
        piece, _, text = note.partition(": ")
        if piece in result.substituted:
            reasons.setdefault(piece.split(".", 1)[0], text)
    code = finding.code

    def from_code(piece: str, fallback: Optional[Location] = None) -> dict:
        location = where.get(piece) or fallback
        if not isinstance(location, Location):
            return {"from": "code"}
        out = {"from": "code", "line": location.line}
        if location.cell is not None:
            out["cell"] = location.cell
        return out

    def example(piece: str, default: str) -> dict:
        return {"from": "example", "reason": reasons.get(piece, default)}

    out = {}
    if code in STEP_LESS:
        out["step"] = {"from": "none", "reason": STEP_LESS[code]}
    elif code == "LL202":
        out["step"] = example("form", "") if "form" in result.substituted else from_code("form", finding.location)
    elif code == "LL105":
        out["step"] = example("stat", "") if "stat" in result.substituted else from_code("step", finding.location)
    elif "step" in result.substituted:
        out["step"] = example("step", "not found in the code")
    else:
        out["step"] = from_code("step", finding.location)
    if "model" in result.substituted or pieces.get("model") is None and code != "LL301":
        out["model"] = example("model", "not found in the code")
    elif pieces.get("model") is None:
        out["model"] = {"from": "none", "reason": "the step refitted on the held-out rows is the model itself"}
    else:
        out["model"] = from_code("model")
    if "cv" in result.substituted:
        out["split"] = example("cv", "not found in the code")
    else:
        out["split"] = from_code("split", finding.location if code in ("LL201", "LL203") else None)
    if "scoring" in result.substituted:
        out["metric"] = example("scoring", "not found in the code")
    elif proc.get("scoring") is not None or "metric" in where:
        out["metric"] = from_code("metric")
    else:
        default = examples.SCORINGS.get(code)
        what = f"{default}, as in the rule's example," if default else "the model's own default score (accuracy or R²)"
        out["metric"] = {"from": "example", "reason": f"the code reports no score of this model; {what} is used"}
    size = "sized by --rows/--features" if rows or features else "of the rule's example size"
    out["data"] = {"from": "example", "reason": f"synthetic data without signal, {size}"}
    return out


# LL202: the look-ahead operations the audit rebuilds, by the names a finding may give
# them (a form, or the pandas method that made the feature).
LOOK_AHEAD_FORMS = {
    "center": "center", "centre": "center", "centered": "center", "centred": "center", "rolling": "center",
    "shift": "shift", "diff": "shift", "pct_change": "shift",
    "bfill": "bfill", "backfill": "bfill", "fillna": "bfill", "merge_asof": "bfill",
    "interpolate": "interpolate",
    "own": "own",
}


def _look_ahead(result: Plan, proc: dict) -> dict:
    """LL202's form (centred window, shift(-k), bfill, interpolate) and its literal window/periods."""
    options = dict(examples.LOOK_AHEAD)
    raw = proc.get("form")
    name = raw.rsplit(".", 1)[-1].lower() if isinstance(raw, str) else None
    form = LOOK_AHEAD_FORMS.get(name)
    if form is None:
        result.substituted.append("form")
        if raw is None:
            result.notes.append("form: not found in the code; the rule's example, a centred 5-row rolling mean, is used")
        else:
            result.notes.append(
                f"form: {raw!r} is not a look-ahead the audit rebuilds (a centred rolling window, shift(-k), "
                "bfill, interpolate); the rule's example, a centred 5-row rolling mean, is used"
            )
        return options
    options["form"] = form
    if name == "merge_asof":
        result.notes.append("form: merge_asof(direction='forward') gives each row the next reading; it runs as a backward fill")
    window, periods = proc.get("window"), proc.get("periods")
    if form in ("center", "own") and _whole(window) and window >= 1:
        options["window"] = window
    elif form in ("center", "own") and window is not None:
        result.substituted.append("window")
        result.notes.append(f"window: `{describe(window)}` is not a literal row count; the rule's example window of 5 rows is used")
    if form == "shift" and _whole(periods) and periods != 0:
        options["periods"] = abs(periods)  # shift(-k) looks k rows ahead
    elif form == "shift" and periods is not None:
        result.substituted.append("periods")
        result.notes.append(f"periods: `{describe(periods)}` is not a literal row count; a look-ahead of one row is used")
    return options


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


SEARCHES = frozenset({"GridSearchCV", "RandomizedSearchCV", "HalvingGridSearchCV", "HalvingRandomSearchCV"})


def _search_pieces(proc: dict) -> dict:
    """LL304: the model, cv and scoring of the search call, where the finding gives the call.

    Only its pieces are read, each screened like any other; the parameter grid (a dict)
    never is.
    """
    search = proc.get("search")
    if not isinstance(search, CallSpec):
        return proc
    pieces = dict(proc)
    if pieces.get("model") is None:
        pieces["model"] = search.kwarg("estimator", search.args[0] if search.args else None)
    if pieces.get("cv") is None:
        cv = search.kwarg("cv")
        # cv=None is the searches' own default: 5 folds, not a missing piece
        pieces["cv"] = 5 if cv is None else cv
    if pieces.get("scoring") is None:
        pieces["scoring"] = search.kwarg("scoring")
    if pieces.get("candidates") is None and search.qualname.rsplit(".", 1)[-1] == "RandomizedSearchCV":
        pieces["candidates"] = search.kwarg("n_iter", examples.RANDOMIZED_DEFAULT_CANDIDATES)
    return pieces


def _candidates(result: Plan, proc: dict) -> int:
    raw = proc.get("candidates")
    if _whole(raw) and 2 <= raw <= examples.MAX_CANDIDATES:
        return raw
    if _whole(raw) and raw > examples.MAX_CANDIDATES:
        result.substituted.append("candidates")
        result.notes.append(
            f"candidates: {raw} configurations would take minutes per seed nested; "
            f"{examples.MAX_CANDIDATES} are drawn (the optimism still grows with the number tried)"
        )
        return examples.MAX_CANDIDATES
    result.substituted.append("candidates")
    if raw is None:
        what = "the number of configurations tried is not known from the code (a grid is a dict, never rebuilt)"
    else:
        what = f"{describe(raw)} is not a literal count of at least 2"
    result.notes.append(f"candidates: {what}; {examples.CANDIDATES} configurations, as in the rule's example, are drawn")
    return examples.CANDIDATES


# Selectors that fit an estimator of their own: when the code's model is not found, the
# features they choose are scored with that estimator, as code usually does.
WRAPPER_SELECTORS = frozenset({"RFE", "RFECV", "SelectFromModel", "SequentialFeatureSelector"})


def _selector_estimator(step) -> Optional[CallSpec]:
    if not isinstance(step, CallSpec) or step.qualname.rsplit(".", 1)[-1] not in WRAPPER_SELECTORS:
        return None
    estimator = step.kwarg("estimator", step.args[0] if step.args else None)
    return estimator if accepts(estimator, "model") else None


def _accepted(result: Plan, piece: str, spec, role: str):
    if accepts(spec, role):
        return spec
    written = _literal_settings(spec) if role == "model" else None
    if written is not None and accepts(written, role):
        # Ridge(alpha=alpha): the class and its literal settings, the library's defaults for the
        # rest (a step's settings, k or a threshold, size the leak itself: never guessed)
        dropped = ", ".join(f"{k}={describe(v)}" for k, v in spec.kwargs if isinstance(v, Opaque))
        result.notes.append(f"{piece}: `{dropped}` is not a literal; the library's default is used for it")
        return written
    result.substitute(piece, spec)
    return None


def _literal_settings(spec) -> Optional[CallSpec]:
    """``spec`` without its keyword arguments that are not literal syntax; None when a
    positional argument is not, or nothing is dropped."""
    if not isinstance(spec, CallSpec) or any(isinstance(a, Opaque) for a in spec.args):
        return None
    kept = tuple((k, v) for k, v in spec.kwargs if not isinstance(v, Opaque))
    return CallSpec(spec.qualname, spec.args, kept) if len(kept) < len(spec.kwargs) else None


def _stat(result: Plan, raw) -> str:
    name = raw.rsplit(".", 1)[-1] if isinstance(raw, str) else None
    name = examples.STAT_ALIASES.get(name, name)
    if name in examples.STAT_STEPS:
        return name
    result.substituted.append("stat")
    known = ", ".join(examples.STAT_STEPS)
    result.notes.append(f"stat: {raw!r} is not one of {known}; the mean (as in the rule's example) is used")
    return "mean"


def _quantile_bins(result: Plan, bins) -> CallSpec:
    """``pd.qcut(x, q)`` as a transformer: KBinsDiscretizer at the quantiles, q bins."""
    spec = examples.STAT_STEPS["qcut"]
    if _whole(bins) and bins >= 2:
        return CallSpec(spec.qualname, (), (("n_bins", bins),) + spec.kwargs)
    if bins is not None:
        result.notes.append(f"stat: the bins of qcut, `{describe(bins)}`, are not a literal count; 5 bins are used")
    return spec


def _fit_method(result: Plan, code: str, raw) -> str:
    if raw in ("fit", "fit_transform"):
        return raw
    default = examples.FIT_METHODS.get(code, "fit_transform")
    result.substituted.append("fit_method")
    result.notes.append(f"fit_method: unknown; `.{default}` as in the rule's example is used")
    return default


def _evaluation(result: Plan, code: str, cv, split) -> dict:
    if isinstance(cv, int) and not isinstance(cv, bool) and cv >= 2:
        return {"cv": cv}
    if accepts(cv, "cv"):
        return {"cv": cv}
    if isinstance(split, CallSpec) and canonical(split.qualname, "split"):
        return {"split": _split_options(result, split)}
    result.substitute("cv", cv if cv is not None else split)
    return dict(examples.EVALUATIONS[code])


def _split_options(result: Plan, split: CallSpec) -> dict:
    """The literal options of a ``train_test_split`` call; its data arguments are never read."""
    options = {"stratify": split.kwarg("stratify") is not None}
    for name, kind in (("test_size", (int, float)), ("train_size", (int, float)),
                       ("shuffle", bool), ("random_state", int)):
        value = split.kwarg(name)
        literal = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        if value is None or literal:
            options[name] = value
        else:
            result.substitute(f"split.{name}", value, "the train_test_split default")
            options[name] = None
    if options["shuffle"] is None:
        options["shuffle"] = True
    return options


def _scoring(result: Plan, code: str, raw) -> Optional[str]:
    if raw is None:
        return examples.SCORINGS.get(code)
    if isinstance(raw, str):
        return raw
    if isinstance(raw, FuncRef):
        name = canonical(raw.qualname)
        if name in METRIC_SCORERS:
            return METRIC_SCORERS[name]
    if isinstance(raw, CallSpec):
        scorer = _metric_call(result, raw)
        if scorer is not None:
            return scorer
    result.substitute("scoring", raw, "the rule's example scoring")
    return examples.SCORINGS.get(code)


# Averages of a classification metric over classes, as scikit-learn names their scorers.
AVERAGED = frozenset({"f1", "precision", "recall", "jaccard"})
AVERAGES = frozenset({"micro", "macro", "weighted", "samples"})


def _metric_call(result: Plan, metric: CallSpec) -> Optional[str]:
    """The scorer of a metric function called on the model's predictions, with its literal
    settings: ``f1_score(average="macro")`` is "f1_macro"; None when there is none."""
    name = canonical(metric.qualname)
    if name in REPORTS:
        result.notes.append(f"metric: {_short(name)} shows several figures; its accuracy is measured")
        return "accuracy"
    scorer = METRIC_SCORERS.get(name)
    if scorer is None or not is_safe(metric, allowed):
        return None
    average = metric.kwarg("average")
    if scorer in AVERAGED and average in AVERAGES:
        return f"{scorer}_{average}"
    if scorer == "roc_auc" and metric.kwarg("multi_class") in ("ovr", "ovo"):
        weighted = "_weighted" if average == "weighted" else ""
        return f"roc_auc_{metric.kwarg('multi_class')}{weighted}"
    if scorer == "neg_mean_squared_error" and metric.kwarg("squared") is False:
        return "neg_root_mean_squared_error"
    return scorer
