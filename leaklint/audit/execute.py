"""One job in the worker: fill the missing pieces, make each seed's data, run both procedures."""
from __future__ import annotations

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.metrics import get_scorer

from leaklint.analysis.specs import CallSpec, FuncRef
from leaklint.audit import examples, scoring
from leaklint.audit.data import make
from leaklint.audit.pieces import Job, describe
from leaklint.audit.procedures import (
    LL301_MODEL,
    PROCEDURES,
    GroupMeanEncoder,
    Pieces,
    time_ordered_description,
)
from leaklint.audit.rebuild import Unsupported, build, sanitise, seed

TEXT = {"CountVectorizer", "TfidfVectorizer", "HashingVectorizer"}
NONNEGATIVE = {"chi2", "MultinomialNB", "ComplementNB", "NMF", "LatentDirichletAllocation", "TfidfTransformer"}
IMPUTERS = {"SimpleImputer", "KNNImputer", "MissingIndicator"}
ENCODERS = {"OneHotEncoder", "OrdinalEncoder", "TargetEncoder"}
VOCABULARY = 1_000
IMBALANCED_SHARE = 0.1
GROUPBY_MEAN = "groupby-mean"


def execute(job: Job, send) -> None:
    """Send ("info", {...}) once, then ("seed", leaked, honest) for each repeat."""
    model = sanitise(job.model)
    task = _task(job, model)
    model = model or examples.MODELS[job.code][task]
    step = _step(job, task)
    evaluation = _evaluation(job)
    kind = _data_kind(job, step, model, task)
    rows = job.rows or examples.SIZES[job.code][0]
    features = job.features or (VOCABULARY if kind == "text" else examples.SIZES[job.code][1])
    metric, substituted, notes = _metric(job, task)
    scorer = None if metric == scoring.TRAIN_MEAN_R2 else get_scorer(metric)
    procedure = PROCEDURES[_procedure_key(job, step)]
    share = IMBALANCED_SHARE if job.code == "LL104" else 0.5
    for repeat in range(job.repeats):
        data = make(kind, np.random.default_rng(repeat), rows, features, task, share)
        pieces = Pieces(
            step=_build(step, repeat),
            model=_build(model, repeat),
            evaluation={key: _build(value, repeat) for key, value in evaluation.items()},
            scorer=scorer,
            fit_method=job.fit_method,
            task=task,
            seed=repeat,
        )
        if repeat == 0:
            texts = _texts(step, model, evaluation, pieces.evaluation, job.fit_method)
            send(("info", {
                "metric": metric,
                "chance": scoring.chance(metric, data.y),
                "rows": data.rows,
                "features": data.features,
                "leaked_procedure": procedure.leaked.format(**texts),
                "honest_procedure": procedure.honest.format(**texts),
                "substituted": substituted,
                "notes": notes,
            }))
        leaked, honest = procedure.run(pieces, data.X, data.y)
        send(("seed", float(leaked), float(honest)))


def _task(job: Job, model) -> str:
    task = job.task
    if task is None and model is not None:
        built = build(model)
        task = "classification" if is_classifier(built) else "regression" if is_regressor(built) else None
    task = task or ("regression" if job.code == "LL201" else "classification")
    if job.code == "LL104" and task != "classification":
        raise Unsupported("resampling (LL104) is audited for classification only")
    if job.code == "LL201" and task != "regression":
        raise Unsupported("LL201's audit forecasts a drifting numeric target; a classifier cannot be scored on it")
    return task


def _procedure_key(job: Job, step) -> str:
    if job.code == "LL301" and _is_model(build(step)):
        return LL301_MODEL
    return job.code


def _is_model(estimator) -> bool:
    """A predictor that is not also a transformer (LinearDiscriminantAnalysis is both)."""
    return hasattr(estimator, "predict") and not hasattr(estimator, "transform")


def _step(job: Job, task: str):
    if job.form == GROUPBY_MEAN:
        return GROUPBY_MEAN
    if job.code == "LL105":
        return examples.STAT_STEPS[job.stat]
    if job.code in examples.STEPS:
        return sanitise(job.step) or examples.STEPS[job.code][task]
    return None


def _evaluation(job: Job) -> dict:
    if job.cv is not None:
        return {"cv": sanitise(job.cv)}
    options = {"test_size": None, "train_size": None, "shuffle": True, "random_state": None, "stratify": False}
    return {"split": {**options, **job.split}}


def _metric(job: Job, task: str):
    if job.code == "LL201":
        return scoring.TRAIN_MEAN_R2, [], []
    if job.scoring is None or scoring.known(job.scoring):
        return job.scoring or scoring.default_metric(task), [], []
    metric = scoring.default_metric(task)
    return metric, ["scoring"], [f"scoring: {job.scoring!r} is not a scikit-learn scorer name; {metric} is used"]


def _data_kind(job: Job, step, model, task: str) -> str:
    if job.code == "LL201":
        return "time"
    names = _names(step) | _names(model)
    if job.code == "LL103" or names & ENCODERS:
        return "strings" if _roots(step) & {"category_encoders"} else "categorical"
    if job.dataset == "wine" and task == "classification" and job.code != "LL104":
        return "wine"
    for kind, marks in (("text", TEXT), ("nonnegative", NONNEGATIVE), ("missing", IMPUTERS)):
        if names & marks:
            return kind
    return "gaussian"


def _build(spec, repeat: int):
    if spec == GROUPBY_MEAN:
        return GroupMeanEncoder()
    if isinstance(spec, CallSpec):
        return seed(build(spec), repeat)
    return spec


def _texts(step, model, evaluation: dict, built: dict, fit_method: str) -> dict:
    if "cv" in evaluation:
        cv = evaluation["cv"]
        shown = f"{cv}-fold CV" if isinstance(cv, int) else describe(cv)
    else:
        defaults = {"shuffle": True, "stratify": False}
        options = {k: v for k, v in evaluation["split"].items() if v is not None and defaults.get(k) != v}
        shown = "train_test_split(" + ", ".join(
            "stratify=y" if k == "stratify" else f"{k}={v!r}" for k, v in options.items()
        ) + ")"
    step_text = "a groupby-mean of the target" if step == GROUPBY_MEAN else describe(step)
    call = ".fit(X, y).transform(X)" if fit_method == "fit" else ".fit_transform(X, y)"
    return {
        "step": step_text,
        "fitted": f"{step_text} computed" if step == GROUPBY_MEAN else step_text + call,
        "model": describe(model),
        "evaluation": shown,
        "honest_evaluation": time_ordered_description(built),
    }


def _names(spec) -> set[str]:
    return {name.rsplit(".", 1)[-1] for name in _qualnames(spec)}


def _roots(spec) -> set[str]:
    return {name.split(".", 1)[0] for name in _qualnames(spec)}


def _qualnames(spec):
    if isinstance(spec, (CallSpec, FuncRef)):
        yield spec.qualname
    if isinstance(spec, CallSpec):
        for value in spec.args + tuple(v for _, v in spec.kwargs):
            yield from _qualnames(value)
    elif isinstance(spec, (list, tuple)):
        for value in spec:
            yield from _qualnames(value)
