"""Screening a finding's procedure pieces into a job the worker may rebuild.

This runs in the user's process and imports nothing from the ML stack: every piece is
either kept (a literal call of an allow-listed name), or dropped so the worker falls
back to the rule's example, and the drop is recorded as a substitution with the reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from leaklint.analysis.specs import CallSpec, FuncRef, Opaque
from leaklint.audit import examples
from leaklint.audit.allowlist import METRIC_SCORERS, accepts, canonical
from leaklint.findings import Finding


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
    options: Optional[dict] = None  # the rule's own literal settings (LL202, LL304)


@dataclass
class Plan:
    job: Optional[Job] = None
    substituted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def substitute(self, piece: str, value, what: str = "the rule's example") -> None:
        self.substituted.append(piece)
        if value is None:
            self.notes.append(f"{piece}: not found in the code; {what} is used")
        else:
            self.notes.append(
                f"{piece}: `{describe(value)}` is not a literal call of an allow-listed "
                f"library name, so it was not run; {what} is used"
            )


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
        pieces["step"] = _accepted(result, "step", proc.get("step"), role)
    if code == "LL105":
        pieces["stat"] = _stat(result, proc.get("stat"))
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
            pieces["model"] = _accepted(result, "model", proc.get("model"), "model")
    # (A search's cv is its evaluation: LL304 reads no split.)
    pieces.update(_evaluation(result, code, proc.get("cv"), None if code == "LL304" else proc.get("split")))
    if code == "LL201":
        # Read quietly: it decides classification, and a regression's metric is fixed.
        pieces["scoring"] = _scoring(Plan(), code, proc.get("scoring"))
    else:
        pieces["scoring"] = _scoring(result, code, proc.get("scoring"))
    task = proc.get("task")
    pieces["task"] = task if task in (examples.CLASSIFICATION, examples.REGRESSION) else None
    result.job = Job(code, repeats, rows, features, dataset, **pieces)
    return result


# LL202: the look-ahead operations the audit rebuilds, by the names a finding may give
# them (a form, or the pandas method that made the feature).
LOOK_AHEAD_FORMS = {
    "center": "center", "centre": "center", "centered": "center", "centred": "center", "rolling": "center",
    "shift": "shift", "diff": "shift", "pct_change": "shift",
    "bfill": "bfill", "backfill": "bfill", "fillna": "bfill", "merge_asof": "bfill",
    "interpolate": "interpolate",
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
    if form == "center" and _whole(window) and window >= 1:
        options["window"] = window
    elif form == "center" and window is not None:
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
    result.substitute(piece, spec)
    return None


def _stat(result: Plan, raw) -> str:
    name = raw.rsplit(".", 1)[-1] if isinstance(raw, str) else None
    if name in examples.STAT_STEPS:
        return name
    result.substituted.append("stat")
    known = ", ".join(examples.STAT_STEPS)
    result.notes.append(f"stat: {raw!r} is not one of {known}; the mean (as in the rule's example) is used")
    return "mean"


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
    result.substitute("scoring", raw, "the rule's example scoring")
    return examples.SCORINGS.get(code)
