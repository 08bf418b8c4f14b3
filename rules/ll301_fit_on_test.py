"""## What it does
Flags a learned step or a model fitted on the held-out side of a split: `scaler.fit(X_test)`,
`scaler.fit_transform(X_test)`, `model.fit(X_test, y_test)`, a fit on the test indices
of a cross-validation loop, or on a validation split before it is used to validate; a
step fitted after the split on rows that include the held-out side
(`scaler.fit(pd.concat([X_train, X_test]))`) and applied to it before that side is
scored (after the evaluation, such a refit for deployment is fine); and
statistics recomputed by hand on the held-out side and applied to it
(`X_test = (X_test - X_test.mean()) / X_test.std()`).

Severity: error. A model fitted on the held-out rows is scored on its own training
rows (a forest on noise: accuracy 1.00 against 0.51, `leaklint audit`). A step refitted
there moves the score less, but maps the held-out rows differently from the rows the
model learned, which no deployment scoring one new row at a time can reproduce.

## Why is this bad?
The held-out rows exist to be judged by a procedure that never saw them. Refitting a
scaler on the test side makes the test rows determine their own transformation (and
puts them on a different scale from the one the model was trained on); fitting a
model on them makes the evaluation a score on training data.

## Example
```python
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("churn.csv")
X, y = df.drop(columns=["churned"]), df["churned"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
X_train = StandardScaler().fit_transform(X_train)
X_test = StandardScaler().fit_transform(X_test)
model = LogisticRegression().fit(X_train, y_train)
print(model.score(X_test, y_test))
```

## Use instead
```python
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("churn.csv")
X, y = df.drop(columns=["churned"]), df["churned"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
scaler = StandardScaler().fit(X_train)
model = LogisticRegression().fit(scaler.transform(X_train), y_train)
print(model.score(scaler.transform(X_test), y_test))
```

## Fix safety
`step.fit_transform(X_test)` becomes `step.transform(X_test)` when the same step was
fitted on the training side earlier (a `step.fit(X_test)` statement goes); for rows held
out by their score alone (a test file), the training side is what the scored model was
fitted on. When both
sides were fitted by constructors written the same way
(`StandardScaler().fit_transform(...)` twice), the step is built once, fitted on the
training side and applied to the held-out side. Safe: the held-out rows are transformed
with what the training rows taught. The same name built again before the refit
(`scaler = StandardScaler()` a second time) keeps its training fit: the new build goes
(safe). A step of its own built the same way for the held-out rows (`scaler_test =
MinMaxScaler()` beside `scaler_train = MinMaxScaler()`) becomes the training one
(`scaler_test = scaler_train`); unsafe, as later code that reads it (an
`inverse_transform`) now reads the training fit. A statistic by hand of a held-out part
of a `train_test_split` (`df_test.age.fillna(df_test.age.median())`) becomes the same
statistic of the training part the split bound beside it (`df_train.age.median()`);
unsafe, as the training part may have been changed differently before. No fix when no
step was fitted on the training side.

## Known limitations
The held-out side is known from a split in the same file, or, for rows loaded on their
own, from a model fitted on other rows that is then scored on them (`.score`, or a
metric of its predictions); unlabelled rows that are only predicted (a competition's
test file) are not held out. A model fitted with labels on the held-out side of a split
(not of a fold) that no model is then scored on (a calibration set, the second level of a
blend, rows only predicted or plotted) is a second training part and is not reported;
so is one fitted on a part cut from the training side of a split whose held-out side a
model predicts (a calibrator fitted, and its threshold picked, on a calibration part,
then the test side scored), also when that split is a project loader's named parts, or
the middle of three parts cut by position (`X[:a]`, `X[a:b]`, `X[b:]`: the last part is
the held-out one).
Nor is a model fitted with labels on held-out rows that nothing then scores or learns
from (a meta-model fitted and dropped, a line fitted to test predictions only to draw
it): it reaches no evaluation. A statistic computed on all rows before a split it
reached is reported by the split rules (LL101-LL105), not here too. Nor
is one fitted on the held-out side of a split and scored only on other rows (two-fold
cross-validation by hand: `model.fit(X2, y2).predict(X1)` beside
`model.fit(X1, y1).predict(X2)`).
Stateless transformers (PolynomialFeatures, FunctionTransformer, Normalizer),
vocabulary-only encoders, and random features or projections that read only the number
of columns (RBFSampler unless `gamma="scale"`, GaussianRandomProjection) are not reported. Nor is a surrogate fitted on the test rows to
mimic another model's predictions there (`LogisticRegression().fit(X_test_s,
black_box.predict(X_test))`), or a step fitted on the test rows whose output only such
models use: for them those rows are training rows.

## References
- The seeds' note on preprocessing inside each fold: "Recalculating the mean or
  standard deviation on the held-out fold" is the first common mistake.
"""
from leaklint.analysis.facts import disjoint_rows, holds_held_out
from leaklint.analysis.specs import CallSpec
from leaklint.ruleset import (
    combined, fit_rows, held_out_procedure, learn_hit, learned_with_held_out_by_score, short,
)

CODE = "LL301"
NAME = "fit-on-test"
SUMMARY = "a learned step or model is fitted on the held-out side of a split"
HELP = "fit on the training side only and apply the fitted step to the held-out side with transform/predict"
DEFAULT = True
SEVERITY = "error"
CATALOG = (
    "sklearn.*",
    "imblearn.*",
    "category_encoders.*",
    "xgboost.*",
    "lightgbm.*",
    "catboost.*",
)
# Not learned from the rows, or learning only a vocabulary: fitting them on test rows is harmless.
NOT_LEARNED = {
    "PolynomialFeatures",
    "FunctionTransformer",
    "Normalizer",
    "Binarizer",
    "LabelEncoder",
    "LabelBinarizer",
    "MultiLabelBinarizer",
    "OneHotEncoder",
    "OrdinalEncoder",
    "HashingVectorizer",
    "DictVectorizer",
    "FeatureHasher",
    "KFold",
    "StratifiedKFold",
    "TimeSeriesSplit",
    # random features and projections: only the number of columns is read from the rows
    "GaussianRandomProjection",
    "SparseRandomProjection",
    "SkewedChi2Sampler",
    "AdditiveChi2Sampler",
    "PolynomialCountSketch",
}
# Random features read only the number of columns, unless gamma="scale" (the rows' variance).
RANDOM_FEATURES_SCALED_BY = {"RBFSampler": "gamma"}


# Vectorizers that learn only their vocabulary: given one (``vocabulary=...``), a fit learns nothing.
VOCABULARY_ONLY = {"CountVectorizer"}


def _not_learned(event) -> bool:
    name = short(event.qualname)
    if name in VOCABULARY_ONLY:
        spec = event.procedure.get("step")
        return isinstance(spec, CallSpec) and spec.qualname == event.qualname and \
            spec.kwarg("vocabulary") is not None
    if name in RANDOM_FEATURES_SCALED_BY:
        spec = event.procedure.get("step")
        return isinstance(spec, CallSpec) and spec.qualname == event.qualname and \
            spec.kwarg(RANDOM_FEATURES_SCALED_BY[name], 1.0) != "scale"
    return name in NOT_LEARNED


def _learned_step(event, ctx) -> bool:
    return event.kind in ("fit", "call") and event.qualname in ctx.catalog and not _not_learned(event)


def _scored_later(event, split, facts) -> bool:
    """A model is scored on the split's held-out side after the step was fitted (ids
    follow the order of analysis); without that, the fit is a refit for deployment."""
    return any(evaluation.id > event.id and holds_held_out(evaluation.rows, split.id) for evaluation in facts.evaluations)


def _scored_on_held_out(split, facts) -> bool:
    """Some model is scored on the split's held-out side (a score, not only predictions),
    anywhere in the file."""
    return any(evaluation.scored and holds_held_out(evaluation.rows, split.id) for evaluation in facts.evaluations)


def _cut_from_a_tested_training_side(split, facts) -> bool:
    """The split divides the training side of an earlier split (or the part named "train" of
    a split the analysis cannot read), and a model predicts that split's held-out side (its
    scoring may be a project helper's): the part held out here is a validation part."""
    sides = {r.side for r in split.rows}
    side = sides.pop() if len(sides) == 1 else None
    if side is not None:
        return side.kind == "train" and any(holds_held_out(e.rows, side.split) for e in facts.evaluations)
    named = {facts.named_parts.get(r.root) for r in split.rows}
    part, whole = named.pop() if len(named) == 1 and None not in named else (None, None)
    held = {root for root, (other, of) in facts.named_parts.items() if other != "train" and of == whole}
    return part == "train" and any(r.root in held for e in facts.evaluations for r in e.rows)


def _fitted_with_held_out(ctx) -> list:
    """A step fitted after the split on rows that include its held-out side
    (``scaler.fit(pd.concat([X_train, X_test]))``), applied to that side, which a
    model is then scored on."""
    hits = {}
    for fact in ctx.facts.contaminations:
        event = ctx.facts.learns[fact.learn]
        if fact.via != "applied" or event.before_split or not _learned_step(event, ctx) or event.id in hits:
            continue
        if not _reaches_a_model(event, ctx.facts.splits[fact.split], False, ctx.facts):
            continue
        split = ctx.facts.splits[fact.split]
        if not _scored_later(event, split, ctx.facts):
            continue
        message = (
            f"{short(event.qualname)} is fitted on {event.data}, which includes the held-out side of the "
            f"split at {ctx.where(split.span)}; the held-out rows determine what it learns, so the "
            "evaluation no longer tests unseen data"
        )
        related = ((split.span, f"the held-out rows come from the split at {ctx.where(split.span)}"),)
        procedure = combined(held_out_procedure(ctx.facts, split, event=event), event.procedure)
        hits[event.id] = learn_hit(event, message, related, procedure, ctx)
    return list(hits.values())


def _reaches_a_model(event, split, by_hand: bool, facts) -> bool:
    """What it learned reaches what a model is fitted or scored on through the split's rows
    (or it is that model). A statistic of the test rows that only feeds a metric or a log
    line is a measurement, and so is one that only shapes inputs a model predicts for a
    chart (a decision-boundary grid from the test rows' range); where no model uses the
    split's rows in this file, a fitted step whose output replaced the held-out rows still
    counts (the model is elsewhere), a statistic by hand or a copy kept for a chart does not."""
    if event.kind == "fit" and event.has_labels:
        return True
    if split.use == "evaluation":
        return event.id in split.reached and (not by_hand or any(
            event.id in t.features for t in facts.trainings) or any(
            ev.scored and event.id in ev.learned for ev in facts.evaluations))
    return not by_hand and event.overwrites


def _held_out_by_their_score(ctx) -> list:
    """Rows that a model fitted on other rows is scored on are held out, even without a
    split that names them so (rows loaded from their own file; the first part of a second
    split of the held-out rest): a step fitted or a statistic computed on them alone, and
    applied to them before that score, learned from the test rows."""
    hits = []

    def unsupervised(event) -> bool:
        return (event.kind == "stat" and event.applied or _learned_step(event, ctx)) and not event.has_labels

    for event, evaluation, rows in learned_with_held_out_by_score(ctx, unsupervised):
        by_hand = event.kind == "stat" and event.applied
        what = f"the {event.qualname} of {event.data} is computed on" if by_hand else f"{short(event.qualname)} is fitted on {event.data},"
        message = (
            f"{what} {rows}: a model fitted on other rows is scored on them at "
            f"{ctx.where(evaluation.span)}; the held-out rows determine what is learned from them, "
            "so the evaluation no longer tests unseen data"
        )
        related = ((evaluation.span, f"{evaluation.data} is scored here by a model fitted on other rows"),)
        procedure = combined(held_out_procedure(ctx.facts, None, evaluation), _step_pieces(event, by_hand))
        hits.append(learn_hit(event, message, related, procedure, ctx))
    return hits


def _only_models_of_these_rows(event, facts) -> bool:
    """What was learned from the held-out rows feeds only models fitted on those same rows
    (a surrogate fitted to mimic another model's predictions there, and scored on how well
    it does): for them these rows are training rows, and no model fitted on other rows is
    fitted on or scored on anything it learned. A model fitted there with labels is
    reported on its own fit."""
    users = [t for t in facts.trainings if event.id in t.features]
    if not users or any(not t.rows or not t.rows <= event.rows for t in users):
        return False
    for evaluation in facts.evaluations:
        if event.id in evaluation.learned:
            fitted = fit_rows(evaluation, facts)
            if not fitted or not fitted <= event.rows:
                return False
    return True


def check(ctx):
    hits = _fitted_with_held_out(ctx) + _held_out_by_their_score(ctx)
    for event in ctx.facts.learns.values():
        by_hand = event.kind == "stat" and event.applied
        if not event.rows or not (by_hand or _learned_step(event, ctx)) or event.mimics:
            continue
        if any(r.side is None or not r.side.held_out for r in event.rows):
            continue
        split = ctx.facts.splits.get(event.held_out_sides[0].split)
        if split is not None and not _reaches_a_model(event, split, by_hand, ctx.facts):
            continue
        if _only_models_of_these_rows(event, ctx.facts) or _never_used(event, ctx.facts) or (
                split is not None and split.kind != "folds" and _roles_swapped(event, ctx.facts)):
            continue
        if split is not None and split.kind == "mask" and split.use == "other":
            continue  # two parts by a condition that are not used as training and held-out parts
        if split is not None and split.kind == "folds" and split.use == "other":
            continue  # the held-out folds of an out-of-fold encoding, put together: the training table
        if (split is not None and event.kind == "fit" and event.method == "fit" and event.has_labels
                and split.kind != "folds" and (not _scored_on_held_out(split, ctx.facts)
                                               or _cut_from_a_tested_training_side(split, ctx.facts))):
            # a model's second training part (a calibration set, a blend): nothing is scored on
            # it, or it was cut from the training side of a split whose held-out side is predicted
            # (a threshold picked on it is a choice made on training rows); a sampler or a step
            # (fit_resample, fit_transform) changes the rows themselves
            continue
        related = ()
        if split is not None:
            related = ((split.span, f"{event.data} is the held-out side of the split at {ctx.where(split.span)}"),)
        side = "test indices of a fold" if event.held_out_sides[0].kind == "fold-test" else "held-out side of a split"
        what = f"the {event.qualname} of {event.data} is computed on" if by_hand else f"{short(event.qualname)} is fitted on {event.data},"
        message = (
            f"{what} the {side}; the held-out rows determine what is learned from them, "
            "so the evaluation no longer tests unseen data"
        )
        procedure = combined(held_out_procedure(ctx.facts, split, event=event), _step_pieces(event, by_hand))
        hits.append(learn_hit(event, message, related, procedure, ctx))
    return hits


def _never_used(event, facts) -> bool:
    """A model fitted with labels that nothing scores or learns from again (a meta-model
    fitted and dropped, a line fitted to draw on a plot of predictions against labels):
    what it learned reaches no evaluation."""
    if not (event.kind == "fit" and event.method == "fit" and event.has_labels):
        return False  # (a sampler's or a step's output is rows: they are used)
    return not any(ev.scored and (event.id in ev.fits or event.id in ev.learned) for ev in facts.evaluations) \
        and not any(event.id in sink.learned for sink in facts.sinks) \
        and not any(event.id in t.features for t in facts.trainings) \
        and not any(event.id in fits for _, fits, _, _ in facts.handed_models)


def _roles_swapped(event, facts) -> bool:
    """A model fitted with labels on the held-out side and scored only on other rows,
    feeding no other model (``model.fit(X2, y2).predict(X1)`` beside
    ``model.fit(X1, y1).predict(X2)``: two-fold cross-validation by hand): the held-out
    part is its training part, and it is tested on rows it never saw. (A fold's test
    indices swapped with its training ones stay reported: that is a bug in the loop.)"""
    if not (event.kind == "fit" and event.method == "fit" and event.has_labels):
        return False
    uses = [ev for ev in facts.evaluations if event.id in ev.fits or event.id in ev.learned]
    return bool(uses) and all(event.id not in ev.learned and ev.rows and disjoint_rows(event.rows, ev.rows)
                              for ev in uses) and any(ev.scored for ev in uses) and not any(
        event.id in sink.learned for sink in facts.sinks) and not any(event.id in t.features for t in facts.trainings)


def _step_pieces(event, by_hand: bool) -> dict:
    """The step for the runtime checker: its own spec, or the statistic computed by hand."""
    if not by_hand:
        return event.procedure
    return {"stat": event.qualname, "by_hand": f"the {event.qualname} computed by hand", "origins": {"step": event.span}}
