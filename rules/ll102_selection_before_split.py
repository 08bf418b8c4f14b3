"""## What it does
Flags supervised feature selection (SelectKBest, SelectPercentile, RFE,
SelectFromModel, SequentialFeatureSelector, ...) fitted on rows that are later split
or cross-validated, and columns chosen by hand from a supervised model's
`feature_importances_`, `coef_`, CatBoost's `get_feature_importance()` or a booster's
`feature_importance()` (the top k kept, the weakest dropped) when that model learned from
those rows, by tsfresh's `select_features(X, y)`, or by each column's correlation with
the label (`pearsonr`, `np.corrcoef(X[:, j], y)`; as the `key` of `sorted`, in sorted
`(score, name)` pairs, or tested by an `if` that appends the names it keeps). Rows
held out without a split (a test file a model fitted on other rows is scored on) count
too: a selection on `pd.concat([X_train, X_test])` and both labels is the same leak.

Severity: error. The held-out labels choose the features, which routinely inflates a
score: on 100 x 10,000 noise, SelectKBest(k=20) with a logistic regression scores 0.89
against 0.53 honestly (`leaklint audit`), more with more columns screened.

## Why is this bad?
A supervised selector reads the labels of every row it is fitted on. When the
held-out rows are among them, the features are chosen for agreeing with the very
labels the model will be judged on. On pure noise (100 rows, 10,000 features, the 20
best kept, logistic regression) selection on all rows scores 0.87 accuracy in 5-fold
cross-validation; selection inside each training fold scores 0.49, the chance level.

## Example
```python
import numpy as np
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

rng = np.random.default_rng(0)
X = rng.normal(size=(100, 10_000))
y = rng.permutation(np.repeat([0, 1], 50))
X20 = SelectKBest(f_classif, k=20).fit_transform(X, y)
print(cross_val_score(LogisticRegression(), X20, y, cv=5).mean())
```

## Use instead
```python
import numpy as np
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline

rng = np.random.default_rng(0)
X = rng.normal(size=(100, 10_000))
y = rng.permutation(np.repeat([0, 1], 50))
model = make_pipeline(SelectKBest(f_classif, k=20), LogisticRegression())
print(cross_val_score(model, X, y, cv=5).mean())
```

## Fix safety
- Cross-validated (or searched): `make_pipeline(SelectKBest(...), model)` handed the raw
  features and the labels, so the selector reads only each training fold's labels. Safe;
  unsafe with a search, whose parameter names gain the model's prefix.
- Split by `train_test_split`: split first; the selector is fitted on the training
  features and the training labels (the label's side found among the split's arrays)
  and transforms both sides. Safe unless the overwritten input is read later.
- Code that cannot be reordered: the selector is fitted on the features and labels of
  the rows the seeded split trains on, drawn early with the same call (unsafe, as LL101's).
  Scores computed by hand (`X.corrwith(y)`, `df.corr()["price"]`, `mutual_info_classif(X,
  y)`) are computed the same way on those drawn rows.
- Rows evaluated in several of these ways: each evaluation is corrected as it would be
  alone, as LL101's.

## Known limitations
A selector fitted on the training side and then cross-validated on that side is
reported when no model is scored on the held-out side afterwards (the cross-validated
score is then the result, and it is biased); when the held-out side is scored later,
the inner cross-validation only tuned and stays silent.

Selection by hand is recognised when the chosen columns come from `df.corr()[label]`,
`X.corrwith(y)` or a univariate score (`f_classif`, `chi2`, `mutual_info_classif`, ...)
and flow into the columns that are split; a selection decided in an `if` inside a loop
(control flow rather than data flow) is not followed. Columns typed in by hand after
a selector's or a univariate score's output was read are reported on weaker evidence
(the message says so); a test comparing groups of rows (`ttest_ind`, `mannwhitneyu`,
`f_oneway`, `kruskal`, `ranksums`) is a hypothesis test of one feature, and its printed
p-value alone is not taken as the reason for such a list. VarianceThreshold does not read
the labels and is reported by LL101 instead.

## References
- Ambroise and McLachlan, Selection bias in gene extraction, PNAS 99(10), 2002.
- Hastie, Tibshirani, Friedman, The Elements of Statistical Learning, 7.10.2.
"""
from leaklint.analysis.libraries import SELECTING_FUNCTIONS, lib_key
from leaklint.ruleset import (
    combined, held_out_procedure, learn_hit, learned_before_split, learned_with_held_out_by_score, split_clause,
    step_name, typed_in,
)

CODE = "LL102"
NAME = "selection-before-split"
SUMMARY = "supervised feature selection is fitted on rows that are later split or cross-validated"
HELP = "select features inside each training fold: put the selector and the model in one Pipeline and cross-validate the Pipeline"
DEFAULT = True
SEVERITY = "error"
_FS = "sklearn.feature_selection."
CATALOG = tuple(
    _FS + name
    for name in (
        "f_classif",
        "f_regression",
        "chi2",
        "mutual_info_classif",
        "mutual_info_regression",
        "r_regression",
        "SelectKBest",
        "SelectPercentile",
        "SelectFpr",
        "SelectFdr",
        "SelectFwe",
        "GenericUnivariateSelect",
        "RFE",
        "RFECV",
        "SelectFromModel",
        "SequentialFeatureSelector",
    )
)


def check(ctx):
    labels = ctx.facts.label_columns

    def matches(event):
        if event.kind == "selection":
            return event.has_labels or event.column in labels
        return event.kind == "fit" and (
            event.qualname in ctx.catalog or any(step in ctx.catalog for step in event.steps)
        )

    def explain(event, split):
        return _explain(event, split) + (
            f"; the columns typed in at {ctx.where(event.typed)} were presumably chosen from its scores, "
            "so this rests on weaker evidence (no data flow, a person reading the output)"
            if typed_in(event, split)
            else ""
        )

    def _explain(event, split):
        return (f"{_chosen(event)} ({event.rows_phrase}) {split_clause(event, split, ctx)}; "
                "the held-out labels helped choose the features")

    def _chosen(event):
        if event.kind == "selection":
            how = f"their {event.method} scores" if event.qualname not in ("corr", "corrwith") else "their correlation"
            label = f" with the label {event.column!r}" if event.column else " with the label"
            if lib_key(event.qualname) in SELECTING_FUNCTIONS:  # tsfresh's select_features(X, y)
                how, label = f"{event.method}, a test of each one", label.replace(" with ", " against ")
            return f"features are chosen by {how}{label} on {event.data}"
        return f"{step_name(event, ctx.catalog)} is fitted on {event.data}"

    hits = learned_before_split(ctx, matches, explain, resplit=True)
    reported = {hit.basis["learn"] for hit in hits}
    # rows held out by their score alone (a test file): choosing with their labels is the same leak
    for event, evaluation, rows in learned_with_held_out_by_score(ctx, lambda e: matches(e) and (
            e.has_labels or e.column in labels)):
        if event.id not in reported:
            reported.add(event.id)
            message = (f"{_chosen(event)}, {rows}: a model fitted on other rows is scored on them at "
                       f"{ctx.where(evaluation.span)}; the held-out labels helped choose the features")
            related = ((evaluation.span, f"{evaluation.data} is scored here by a model fitted on other rows"),)
            procedure = combined(held_out_procedure(ctx.facts, None, evaluation), event.procedure)
            hits.append(learn_hit(event, message, related, procedure, ctx))
    return hits
