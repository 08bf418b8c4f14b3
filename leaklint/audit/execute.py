"""One job in the worker: fill the missing pieces, make each seed's data, run both procedures."""
from __future__ import annotations

import math

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.metrics import get_scorer
from sklearn.model_selection import TimeSeriesSplit

from leaklint.analysis.specs import CallSpec
from leaklint.audit import examples, scoring, sizing
from leaklint.audit.data import ENTITY_ROW_NOISE, GAP_SHARE, ROWS_PER_ENTITY, label_window, make
from leaklint.audit.parallel import run_seeds
from leaklint.audit.pieces import Job, describe, qualnames
from leaklint.audit.procedures import (
    LL301_MODEL,
    PROCEDURES,
    VALIDATION_SHARE,
    ColumnsDiffer,
    GroupMeanEncoder,
    NothingSelected,
    Pieces,
    all_stages,
    grouped_description,
    has_stages,
    time_folds_description,
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


def chosen_model(job: Job):
    """The model the audit runs and the task: the code's unless its package is missing or
    the rule's procedure cannot run it. Returns (model, step, task, substituted, notes,
    origins), ``origins`` being the job's pieces with the model's origin updated."""
    origins = dict(job.pieces or {})  # where each piece comes from, for the JSON
    model, substituted, notes = _installed(job, sanitise(job.model))
    step = _step(job, None)
    task = _task(job, model, step)
    model, rule_substituted, rule_notes = _rule_model(job, model, task)
    substituted, notes = substituted + rule_substituted, notes + rule_notes
    if "model" in substituted:
        origins["model"] = {"from": "example", "reason": notes[0].split(": ", 1)[1]}
    return model or examples.MODELS[job.code][task], step, task, substituted, notes, origins


def execute(job: Job, send) -> None:
    """Send ("info", {...}) once, ("seed", leaked, honest) for each repeat, then any ("note", text)."""
    model, step, task, substituted, notes, origins = chosen_model(job)
    step = step or _step(job, task)
    evaluation = _evaluation(job)
    kind = _data_kind(job, step, model, task)
    rows, features = examples.SIZES[job.code]
    features = VOCABULARY if kind == "text" else features
    rows, features = job.rows or rows, job.features or features
    if kind == "walk":
        if job.features is not None:
            notes.append("data: --features is not used: the look-ahead audit's data is one series and one feature")
        features = 1
    sized = sizing.size(
        job.code, step, model, rows=rows, features=features, kind=kind,
        explicit_rows=job.rows is not None, explicit_features=job.features is not None,
        folds=sizing.folds_of({k: _build(v, 0) for k, v in evaluation.items()}, rows, task),
    )
    step, model = sized.step, sized.model
    metric, metric_substituted, metric_notes = _metric(job, task)
    if metric_notes and origins.get("metric", {}).get("from") == "code":
        origins["metric"] = {"from": "example", "reason": metric_notes[0].split(": ", 1)[1]}
    substituted += metric_substituted + sized.substituted
    notes += metric_notes + sized.notes
    if job.classes > 2 and task == "classification" and metric in MULTICLASS_SCORERS and kind in MULTICLASS_KINDS:
        notes.append(f"metric: {metric} over {job.classes} classes is scored as {MULTICLASS_SCORERS[metric]}")
        metric = MULTICLASS_SCORERS[metric]
    rule_notes = _rule_notes(job, model, evaluation, sized.rows)
    notes += rule_notes
    for note in rule_notes:
        if note.startswith("evaluation: ") and origins.get("split", {}).get("from") == "code":
            origins["split"] = {"from": "example", "reason": note.split(": ", 1)[1]}  # LL202's time-ordered folds
    if job.code == "LL201" and task == "classification":
        notes.append(
            f"data: the label is 1 where the drifting target is above its median over the last "
            f"{label_window(sized.rows)} rows, so it is balanced in every stretch of the series"
        )
    scorer = None if metric == scoring.TRAIN_MEAN_R2 else get_scorer(metric)
    dense = kind == "text" and not _takes_sparse(model)
    if dense:  # (as the code's own .toarray() of the vectorizer's output)
        notes.append(f"model: {describe(model)} needs dense input; the vectorizer's output is made dense for it")
    procedure = PROCEDURES[_procedure_key(job, step)]
    share = IMBALANCED_SHARE if job.code == "LL104" else 0.5
    classes = job.classes if task == "classification" and kind in MULTICLASS_KINDS else 2
    if job.classes > 2 and classes == 2:
        notes.append(f"data: two classes: the {kind} data of {job.code}'s audit is built for binary labels")
    levels = None  # a regression target of few values, where the evaluation stratifies on it
    if task == "regression" and kind in MULTICLASS_KINDS and _stratified(evaluation):
        levels = ORDINAL_LEVELS
        notes.append(f"data: the target takes {levels} values (0 to {levels - 1}): the evaluation stratifies on it")
    positive_target = task == "regression" and "log" in metric  # (mean squared log error)
    if positive_target:
        notes.append(f"data: the target is made positive for {metric}")

    def prepare(repeat: int):
        data = make(kind, np.random.default_rng(repeat), sized.rows, sized.features, task, share, classes)
        if levels is not None:
            data.y = np.random.default_rng(repeat).permutation(np.arange(sized.rows) % levels).astype(float)
        if positive_target:
            data.y = np.abs(data.y)
        if sized.scale != 1.0:
            data.X = data.X * sized.scale
        pieces = Pieces(
            step=_build(step, repeat),
            model=_dense_input(_build(model, repeat)) if dense else _build(model, repeat),
            evaluation={key: _build(value, repeat) for key, value in evaluation.items()},
            scorer=scorer,
            fit_method=job.fit_method,
            task=task,
            seed=repeat,
            options=dict(job.options or {}),
            groups=data.groups,
            gaps=data.gaps,
        )
        return data, pieces

    def run_seed(repeat: int):
        data, pieces = prepare(repeat)
        try:
            leaked, honest = procedure.run(pieces, data.X, data.y)
        except NothingSelected as exc:
            raise Unsupported(
                f"{describe(step)} keeps no feature on data without signal ({exc.where}, seed {repeat}): "
                "nothing to measure"
            ) from None
        except ColumnsDiffer as exc:
            raise Unsupported(
                f"as written the procedure fails: {describe(step)} refitted on the held-out rows gives "
                f"{exc.test} columns, not the {exc.train} the model was trained on (a different "
                "vocabulary), so the model cannot score them; this failure is itself the LL301 bug"
            ) from None
        leaked, honest = float(leaked), float(honest)
        if not (math.isfinite(leaked) and math.isfinite(honest)):
            side = "leaked" if not math.isfinite(leaked) else "honest"
            single = any(undefined == scored for undefined, scored in pieces.folds_scored)
            raise Unsupported(
                f"{metric} is undefined for the {side} procedure on seed {repeat}"
                + (": every test fold holds a single class" if single else "")
            )
        undefined = sum(u for u, _ in pieces.folds_scored)
        return leaked, honest, undefined, sum(n for _, n in pieces.folds_scored)

    data, pieces = prepare(0)
    if job.code == "LL301" and hasattr(pieces.step, "fit_resample") and not hasattr(pieces.step, "fit_transform"):
        raise Unsupported(
            f"{describe(step)} resamples the held-out rows: it changes which rows are scored, not how they "
            "are transformed, and the audit measures a step refitted to transform them"
        )
    texts = _texts(step, model, evaluation, pieces.evaluation, job.fit_method)
    texts.update(_rule_texts(job, pieces))
    send(("info", {
        "metric": metric,
        "chance": scoring.chance(metric, data.y),
        "rows": data.rows,
        "features": data.features,
        "leaked_procedure": procedure.leaked.format(**texts),
        "honest_procedure": procedure.honest.format(**texts),
        "substituted": substituted,
        "notes": notes,
        "pieces": {**origins, "data": _data_piece(job, kind, data.rows, data.features)},
    }))
    del data, pieces
    undefined = scored = 0
    for leaked, honest, seed_undefined, seed_scored in run_seeds(job.repeats, run_seed):
        undefined, scored = undefined + seed_undefined, scored + seed_scored
        send(("seed", leaked, honest))
    if undefined:
        send(("note", (
            f"metric: {undefined} of {scored} test folds held a single class, where {metric} is undefined; "
            "they are left out of the fold means"
        )))


def _takes_sparse(model) -> bool:
    from sklearn.utils import get_tags

    try:
        return bool(get_tags(build(model)).input_tags.sparse)
    except Exception:  # an estimator without tags: let it say so when it is fitted
        return True


def _to_dense(X):
    return X.toarray() if hasattr(X, "toarray") else X


def _dense_input(model):
    """``model`` behind a step that makes sparse input dense."""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer

    return make_pipeline(FunctionTransformer(_to_dense, accept_sparse=True), model)


def _installed(job: Job, model):
    """The code's model, unless its package is not installed here: (model or None,
    substituted, notes); the rule's example is then run, and the note says why."""
    if model is None:
        return None, [], []
    try:
        build(model)
    except Unsupported as exc:
        if "not installed" not in str(exc):
            raise
        return None, ["model"], [f"model: `{describe(model)}`: {exc}; the rule's example is used"]
    return model, [], []


def _data_piece(job: Job, kind: str, rows: int, features: int) -> dict:
    sized = "as --rows/--features ask" if job.rows or job.features else "sized as in the rule's example"
    return {"from": "example", "reason": f"synthetic {kind} data without signal, {rows:,} rows x {features:,} features, {sized}"}


def _task(job: Job, model, step=None) -> str:
    task = job.task
    if task is None and model is not None:
        task = _task_of(build(model))
    if task is None and isinstance(step, CallSpec):
        task = _step_task(build(step))
    if task is None and job.code in ("LL201", "LL202"):
        # (LL202's example predicts the size of the next move, unless labels are implied.)
        task = "classification" if _classification_evaluation(job) else "regression"
    task = task or "classification"
    if job.code == "LL201" and task == "regression" and isinstance(job.cv, CallSpec) and "Stratified" in job.cv.qualname:
        raise Unsupported(f"{describe(job.cv)} needs class labels, but the model is a regressor")
    if job.code == "LL104" and task != "classification":
        raise Unsupported("resampling (LL104) is audited for classification only")
    return task


def _task_of(estimator):
    if is_classifier(estimator):
        return "classification"
    return "regression" if is_regressor(estimator) else None


def _step_task(step):
    """What a step tells of the task: itself (a model), its estimator, or its score function."""
    if _task_of(step):
        return _task_of(step)
    estimator = getattr(step, "estimator", None)
    if estimator is not None and _task_of(estimator):
        return _task_of(estimator)
    if getattr(getattr(step, "score_func", None), "__name__", "").endswith("_regression"):
        return "regression"
    if getattr(step, "target_type", None) == "continuous":
        return "regression"
    return None


CLASSIFICATION_METRICS = ("accuracy", "balanced_accuracy", "roc_auc", "average_precision", "f1", "precision",
                          "recall", "neg_log_loss", "neg_brier_score", "jaccard", "matthews_corrcoef", "top_k_accuracy")


def _classification_evaluation(job: Job) -> bool:
    """Class labels are implied by a stratified split or a classification metric."""
    if isinstance(job.cv, CallSpec) and "Stratified" in job.cv.qualname.rsplit(".", 1)[-1]:
        return True
    if job.cv is None and job.split and job.split.get("stratify"):
        return True
    name = job.scoring if isinstance(job.scoring, str) else ""
    return any(name == metric or name.startswith(metric + "_") for metric in CLASSIFICATION_METRICS)


def _procedure_key(job: Job, step) -> str:
    if job.code == "LL301" and _is_model(build(step)):
        return LL301_MODEL
    return job.code


def _is_model(estimator) -> bool:
    """A predictor that is not also a transformer (LinearDiscriminantAnalysis is both)."""
    return hasattr(estimator, "predict") and not hasattr(estimator, "transform")


def _step(job: Job, task):
    """The step to run; with ``task`` None, only the code's own step (or None)."""
    if job.form == GROUPBY_MEAN:
        return GROUPBY_MEAN
    if job.code == "LL105":
        return sanitise(job.step) or examples.STAT_STEPS[job.stat]
    if job.code in examples.STEPS:
        return sanitise(job.step) or (examples.STEPS[job.code][task] if task else None)
    return None


ORDINAL_LEVELS = 5


def _stratified(evaluation: dict) -> bool:
    cv = evaluation.get("cv")
    return bool(evaluation.get("split", {}).get("stratify")) or (
        isinstance(cv, CallSpec) and cv.qualname.rsplit(".", 1)[-1].startswith("Stratified")
    )


def _evaluation(job: Job) -> dict:
    if job.cv is not None:
        return {"cv": sanitise(job.cv)}
    options = {"test_size": None, "train_size": None, "shuffle": True, "random_state": None, "stratify": False}
    return {"split": {**options, **job.split}}


# Data kinds whose labels are drawn alone (not from a series or entities): they can be multiclass.
MULTICLASS_KINDS = frozenset({"gaussian", "nonnegative", "missing", "text", "categorical", "strings"})
# Binary scorers and the multiclass scorer of the same metric.
MULTICLASS_SCORERS = {
    "f1": "f1_macro", "precision": "precision_macro", "recall": "recall_macro", "jaccard": "jaccard_macro",
    "roc_auc": "roc_auc_ovr", "average_precision": "accuracy",
}


def _metric(job: Job, task: str):
    if job.code == "LL201" and task == "regression":
        notes = []
        if job.scoring not in (None, "r2"):
            notes.append(
                f"metric: {job.scoring!r} is not used: LL201's regression audit reports R² against "
                "predicting the training mean, the score a forecast must beat"
            )
        return scoring.TRAIN_MEAN_R2, [], notes
    if job.scoring is None:
        return scoring.default_metric(task), [], []
    metric = scoring.default_metric(task)
    if not scoring.known(job.scoring):
        return metric, ["scoring"], [f"scoring: {job.scoring!r} is not a scikit-learn scorer name; {metric} is used"]
    if not scoring.fits(job.scoring, task):
        return metric, ["scoring"], [f"scoring: {job.scoring!r} does not score a {task}'s predictions; {metric} is used"]
    return job.scoring, [], []


def _data_kind(job: Job, step, model, task: str) -> str:
    if job.code == "LL201":
        return "time"
    if job.code == "LL202":
        return "walk"
    if job.code == "LL203":
        return "entities"
    names = _names(step) | _names(model)
    if job.code == "LL103" or names & ENCODERS:
        return "strings" if _roots(step) & {"category_encoders"} else "categorical"
    if job.dataset == "wine" and task == "classification" and job.code != "LL104":
        return "wine"
    for kind, marks in (("text", TEXT), ("nonnegative", NONNEGATIVE), ("missing", IMPUTERS)):
        if names & marks:
            return kind
    return "gaussian"


def _rule_model(job: Job, model, task: str):
    """The code's model, unless the rule's procedure cannot run it: (model or None, substituted, notes).

    LL304 draws configurations only for the model families in ``spaces``; LL305 chooses
    among the stages of a booster, so its model must have ``staged_predict``.
    """
    if model is None or job.code not in ("LL304", "LL305"):
        return model, [], []
    built = build(model)
    if job.code == "LL304":
        from leaklint.audit.spaces import space_of

        if space_of(built) is not None:
            return model, [], []
        why = ("the audit draws search configurations only for k-NN, single trees, linear models, SVMs, "
               "naive Bayes and discriminant analysis (a nested search of an ensemble or a network takes minutes per seed)")
    else:
        if has_stages(built):
            return model, [], []
        why = "it has no boosting stages (staged_predict, or LightGBM's or XGBoost's first k trees) to choose among"
    example = examples.MODELS[job.code][task]
    note = f"model: `{describe(model)}` is not used: {why}; the rule's example, `{describe(example)}`, is used"
    return None, ["model"], [note]


def _rule_notes(job: Job, model, evaluation: dict, rows: int) -> list[str]:
    """What the rule's own procedure did to the data or the pieces, said once."""
    notes = []
    options = job.options or {}
    if job.code == "LL202":
        built = {key: _build(value, 0) for key, value in evaluation.items()}
        ordered = isinstance(built.get("cv"), TimeSeriesSplit) or (
            "split" in built and not built["split"]["shuffle"]
        )
        if not ordered:
            notes.append(
                f"evaluation: {_evaluation_text(evaluation)} is not time-ordered; both procedures use "
                f"{time_folds_description(built)}, so that only the feature differs (a shuffled split of a "
                "time series is LL201's leak)"
            )
        if options.get("form") == "center" and options.get("window", 5) <= 2:
            notes.append(f"form: a centred window of {options['window']} rows reads no later row (pandas centres it back)")
    elif job.code == "LL203":
        notes.append(
            f"data: {max(2, rows // ROWS_PER_ENTITY)} entities of about {ROWS_PER_ENTITY} rows each; an entity's "
            f"rows share its random features (row noise sd {ENTITY_ROW_NOISE} around them) and one random label"
        )
    elif job.code == "LL305":
        built = build(model)
        if all_stages(built) is not built:
            notes.append(
                f"model: {describe(model)}'s own early stopping is turned off so that every stage is grown; "
                "the stage kept is chosen by the watched rows, as the rule describes"
            )
    return notes


def _rule_texts(job: Job, pieces: Pieces) -> dict:
    """The rule-specific words of the procedure templates."""
    options = pieces.options
    if job.code == "LL202":
        leaked, honest = _look_ahead_texts(options)
        return {
            "leaked_feature": leaked + ", minus the current value",
            "honest_feature": honest + ", minus the current value",
            "time_evaluation": time_folds_description(pieces.evaluation),
        }
    if job.code == "LL203":
        return {"grouped_evaluation": grouped_description(pieces.evaluation)}
    if job.code == "LL304":
        return {"candidates": options["candidates"]}
    if job.code == "LL305":
        return {"fit_share": f"{1 - VALIDATION_SHARE:.0%}", "validation_share": f"{VALIDATION_SHARE:.0%}"}
    return {}


def _look_ahead_texts(options: dict) -> tuple[str, str]:
    form = options["form"]
    if form == "center":
        window = options["window"]
        return f"the centred {window}-row rolling mean", f"the trailing {window}-row rolling mean"
    if form == "own":
        window = options["window"]
        return (f"the trailing {window}-row rolling mean through the value predicted",
                f"the trailing {window}-row rolling mean through the row before it")
    if form == "shift":
        k = options["periods"]
        rows = "row" if k == 1 else "rows"
        return f"the value {k} {rows} ahead (shift(-{k}))", f"the value {k} {rows} back (shift({k}))"
    gappy = f"a copy of the series with {GAP_SHARE:.0%} of its readings missing"
    filled = "filled backward from the next reading (bfill)" if form == "bfill" else "interpolated between the readings on both sides"
    return f"{gappy}, {filled}", f"{gappy}, filled forward from the last reading (ffill)"


def _evaluation_text(evaluation: dict) -> str:
    if "cv" in evaluation:
        cv = evaluation["cv"]
        return f"{cv}-fold CV" if isinstance(cv, int) else describe(cv)
    return "a shuffled train_test_split"


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
    return {name.rsplit(".", 1)[-1] for name in qualnames(spec)}


def _roots(spec) -> set[str]:
    return {name.split(".", 1)[0] for name in qualnames(spec)}
