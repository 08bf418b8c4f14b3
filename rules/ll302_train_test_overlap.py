"""## What it does
Flags a model (or a whole Pipeline) fitted on rows that include the rows it is later
scored on: `model.fit(X, y)` on all rows, then `model.score(X_test, y_test)` or a
metric of `model.predict(X_test)` where `X_test` is a split of those rows (reported at
the fit), also when those rows are a part that a later split divided again (fitted on
`X_train`, scored on `X_valid` of `train_test_split(X_train, ...)`). Also a model scored
on the very rows it was fitted on with no held-out score of it anywhere, and passed off
as performance: the file scores no model on held-out rows, so this is its only measure
of performance (`fit(X, y)` then `score(X, y)`); or, beside other models' held-out
scores, the only score of a kind of model the file never tests (a forest tested on the
held-out side, a support vector classifier only on its own rows; not a score taken in a
loop, such as a boosting round's weighted error), printed as a test or
validation score (`print("test accuracy:", score(X, y))`),
set against another model's held-out score (a drop-column importance computed on the
training rows against a validation baseline), or made beside a `train_test_split` of
those rows whose sides no code reads (the split was made for the evaluation, and the
model ignores it); or a model scored on all rows after a split (a second report that
includes the training rows). These are reported at the score. A training score shown
next to the same model's held-out score, beside a cross-validation of its rows, or
printed as a training or in-sample score (or "no CV"), or kept under a name or keyword
that says so (`train_acc = ...`, `Metrics(r2_train=...)`), is a diagnostic and stays silent,
as is a model fitted and scored on a table of numbers typed into the code (the four rows
of XOR: a demonstration with nothing else to generalise to), a `LinearRegression` of
one column (a named column, `x.reshape(-1, 1)`, `x[:, None]`) when no model is tested (a
trend line: its R^2 describes the data), and an
in-sample score beside held-out scores of models of its kind (a curve described by its
in-sample R^2 beside a tested linear model); predictions never compared with
labels (a submission file) are not a score, and neither are residuals (`y - pred`) that
are only plotted: they become one when summed up (`np.mean((y - pred) ** 2)`).

Severity: error. The rows scored were also learned: on noise, a forest fitted on all
rows scores 1.00 on the held-out rows against 0.49 when fitted on the training rows
only (`leaklint audit`).

## Why is this bad?
The test rows were part of the training data, so the score measures memory, not
generalisation. A flexible model (a random forest, a 1-NN) can score near perfectly
on rows it was trained on whatever the signal.

## Example
```python
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

df = pd.read_csv("loans.csv")
X, y = df.drop(columns=["default"]), df["default"]
model = RandomForestClassifier(random_state=0).fit(X, y)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
print(model.score(X_test, y_test))
```

## Use instead
```python
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

df = pd.read_csv("loans.csv")
X, y = df.drop(columns=["default"]), df["default"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
model = RandomForestClassifier(random_state=0).fit(X_train, y_train)
print(model.score(X_test, y_test))
```

## Fix safety
The fit moves after the `train_test_split`, on the training side of the rows it used
(`model.fit(X, y)` becomes `model.fit(X_train, y_train)`); a fit already after the split
gets the training parts in place of the rows split, and its `model.score(X, y)` too.
Unsafe: the model learns from fewer rows, and later code that used it as a final model
now gets this one.
A model scored on the very rows it was fitted on (a scikit-learn, XGBoost, LightGBM or
CatBoost model) is scored out of fold instead: every such score of it is rewritten,
`model.predict(X)` into `cross_val_predict(model, X, y, cv=5)` (`method=` for
`predict_proba`, `decision_function`) and `model.score(X, y)` into
`cross_val_score(model, X, y, cv=5).mean()`, with the rows and labels of its fit. Unsafe:
the fitted model is unchanged, but the numbers now come from five copies fitted without
the rows they predict. No fix when the rows or labels change between the fit and a score.

## Known limitations
The evaluation must use the fitted object (`score`, `predict`, `predict_proba`,
`decision_function`) in this file or in a helper of the project's own modules that it
calls. A model saved and reloaded is not followed. Branches are joined, not followed
path by path: a fallback that trains and scores on all rows (`if len(df) < 10: train =
test = df`) beside a branch that splits them is read as two paths, each honest about
itself, and is not reported. A training score of rows named before the file makes them
(a notebook cell run before the one that loads `X`) is not reported when the file also
cross-validates or scores held-out rows: which rows those names held is not known.

## References
- Kapoor and Narayanan, Leakage and the reproducibility crisis in ML-based science, 2023
  (overlap between training and test data).
"""
from leaklint.analysis.facts import disjoint_rows
from leaklint.analysis.values import Side
from leaklint.ruleset import Hit, evaluated_procedure, learn_hit, overlaps, short

# least-squares lines: fitted to one column, a description of the data (a trend and its R^2)
LINES = frozenset({"sklearn.linear_model.LinearRegression", "sklearn.linear_model._base.LinearRegression"})
CODE = "LL302"
NAME = "train-test-overlap"
SUMMARY = "a model is fitted on rows that include the rows it is later scored on"
HELP = "fit the model on the training side of the split only; refit on all rows only after the evaluation is done"
DEFAULT = True
SEVERITY = "error"
CATALOG = ("sklearn.*", "imblearn.*", "xgboost.*", "lightgbm.*", "catboost.*", "keras.*", "tensorflow.*")


def check(ctx):
    hits = {}
    for evaluation in ctx.facts.evaluations:
        if not evaluation.scored:
            continue  # predictions never compared with labels (a submission file) are no score
        held = {r.side.split for r in evaluation.rows if r.side is not None and r.side.held_out}
        for fit_id in sorted(evaluation.fits):
            event = ctx.facts.learns[fit_id]
            if event.kind != "fit" or event.qualname not in ctx.catalog or not event.has_labels:
                continue
            for split_id in sorted(held):
                split = ctx.facts.splits[split_id]
                if not (overlaps(event, split) or _divided(event, split)) or fit_id in hits \
                        or _alternatives(event, evaluation, split):
                    continue
                message = (
                    f"{short(event.qualname)} is fitted on {event.data} ({event.rows_phrase}), which include the "
                    f"held-out rows {evaluation.data} it is scored on at {ctx.where(evaluation.span)}; "
                    "the score is measured on training data"
                )
                related = (
                    (evaluation.span, f"scored on {evaluation.data}"),
                    (split.span, f"{evaluation.data} comes from the split at {ctx.where(split.span)}"),
                )
                procedure = evaluated_procedure(ctx.facts, event, evaluation, split)
                hits[fit_id] = learn_hit(event, message, related, procedure, ctx, {"split": split_id})
    return list(hits.values()) + _resubstitution(ctx, set(hits))


def _divided(event, split) -> bool:
    """The model learned from the very part this split divided again (fitted on X_train,
    scored on X_valid of ``train_test_split(X_train, ...)``): that part holds its held-out
    rows."""
    return any(r.side is not None and r.side.split != split.id and r in split.rows for r in event.rows)


def _alternatives(event, evaluation, split) -> bool:
    """``if len(df) < 10: train = test = df`` / ``else: train, test = df[:n], df[n:]``: the
    model learned from the training side, or from all rows scored whole on a path of its
    own; the two paths joined are no overlap of one."""
    roots = {r.root for r in split.rows}
    whole = {r.root for r in event.rows if r.side is None and r.root in roots}
    trained = any(r.side is not None and r.side.split == split.id and not r.side.held_out for r in event.rows)
    return bool(whole) and trained and whole <= {r.root for r in evaluation.rows if r.side is None}


def _split_ignored(event, facts) -> bool:
    """The rows the model learned from were split by ``train_test_split`` into sides that
    no code reads: the split was made for this evaluation and the model ignores it."""
    roots = {r.root for r in event.rows if r.side is None}
    return bool(roots) and any(
        split.kind == "split" and split.qualname.endswith(".train_test_split")
        and {r.root for r in split.rows} == roots and all(r.side is None for r in split.rows)
        and not {Side("train", split.id), Side("test", split.id)} & facts.read_sides
        for split in facts.splits.values()
    )


def _model_fit(event, ctx) -> bool:
    return event.kind == "fit" and event.qualname in ctx.catalog and event.has_labels


def _resubstitution(ctx, reported) -> list:
    """A model scored on the very rows it was fitted on, or on all rows after a split
    (training rows included), with no held-out score of that model beside it: the number
    describes the training data. A training score next to the same model's held-out
    score (or a cross-validation of its rows) is a diagnostic, not a report."""
    facts = ctx.facts
    held_out_scored = {  # models also scored on rows they did not learn from
        fit_id for ev in facts.evaluations if ev.scored
        for fit_id in ev.fits
        if any(r.side is not None and r.side.held_out for r in ev.rows)
        or (ev.rows and facts.learns[fit_id].rows and disjoint_rows(facts.learns[fit_id].rows, ev.rows))
    }
    cross_validated = {r.root for split in facts.splits.values() if split.kind == "cv" for r in split.rows}
    held_out = {ev.id for ev in facts.evaluations if ev.scored and (
        any(r.side is not None and r.side.held_out for r in ev.rows) or ev.fits and ev.rows and all(
            facts.learns[f].rows and disjoint_rows(facts.learns[f].rows, ev.rows) for f in ev.fits))}  # (or other data)
    tested_kinds = {facts.learns[fit_id].qualname for fit_id in held_out_scored}
    chosen_by = {ev_id for choice in facts.choices for ev_id in choice.evaluations}
    hits, scored = [], set()
    for evaluation in sorted(facts.evaluations, key=lambda e: (e.span.line, e.span.column)):
        if not evaluation.scored or not evaluation.rows:
            continue
        for fit_id in sorted(evaluation.fits):
            event = facts.learns[fit_id]
            if fit_id in reported or fit_id in scored or not _model_fit(event, ctx) or not event.rows:
                continue
            if evaluation.rows == event.rows and evaluation.data == event.data:
                roots = {r.root for r in event.rows}
                if fit_id in held_out_scored or (roots & cross_validated and evaluation.label != "held-out"):
                    continue  # (a cross-validation beside it does not make a "validation" score of the training rows one)
                if roots <= facts.early_roots and (cross_validated or held_out):
                    continue  # rows named before the file makes them (a cell run early): maybe the rows scored honestly later
                if evaluation.label == "train":
                    continue  # the code calls it a training score: a diagnostic
                if evaluation.in_loop and evaluation.id in chosen_by and evaluation.id not in facts.shown_scores:
                    continue  # only compared to pick a candidate (a greedy feature selection), never shown
                if roots <= facts.typed_roots:
                    continue  # every input typed into the code (XOR's four rows): nothing else to generalise to
                if event.feature is not None and event.qualname in LINES and not held_out:
                    continue  # a straight line through one column: its R^2 describes the data, no prediction is made
                # beside other models' held-out scores, it is a report only when no model of its
                # kind is tested, when called a test score, set against one of them, or made
                # beside a split it ignores; with no held-out score in the file, it is the only
                # measure of performance there is
                if held_out and evaluation.label != "held-out" and not (
                        evaluation.compared_with & held_out or _split_ignored(event, facts)
                        or (event.qualname not in tested_kinds and not evaluation.in_loop)):
                    continue
                what, own_rows = f"the rows it was fitted on ({event.data}, {ctx.where(event.span)})", True
                if not held_out:
                    what += ", and no model in this file is scored on rows it did not learn from"
            elif any(r.side is not None for r in event.rows) and all(
                any(e.root == r.root and e.side is None for e in evaluation.rows) for r in event.rows
            ) and any(  # the very data that was split: X after X_train, X_test = split(X)
                split.data == evaluation.data and r.side.split == split.id
                for r in event.rows if r.side is not None for split in [facts.splits[r.side.split]]
            ):
                if evaluation.label == "train":
                    continue  # the code calls it a training score: a diagnostic
                if fit_id in held_out_scored and evaluation.metric is None and evaluation.label is None:
                    continue  # residuals of all rows worked by hand beside its held-out score: tests of the fit
                what = f"all rows, including the training rows it was fitted on ({event.data}, {ctx.where(event.span)})"
                own_rows = False
            else:
                continue
            message = (
                f"{short(event.qualname)} is scored on {evaluation.data}: {what}; "
                "a training-set score measures memory, not performance on new data"
            )
            related = ((event.span, f"{short(event.qualname)} is fitted on {event.data} here"),)
            basis = {"learn": fit_id}
            if own_rows:  # every such score of it: a fix rewrites them all
                basis["resubstituted"] = tuple(
                    ev.id for ev in facts.evaluations
                    if ev.scored and fit_id in ev.fits and ev.rows == event.rows and ev.data == event.data)
            hits.append(Hit(evaluation.span, message, related, evaluated_procedure(facts, event, evaluation, None), basis))
            scored.add(fit_id)  # its first such score stands for the others
    return hits
