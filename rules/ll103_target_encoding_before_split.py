"""## What it does
Flags target encoding computed on rows that are later split or cross-validated:
scikit-learn's TargetEncoder, category_encoders' supervised encoders, and the
hand-written forms (`df.groupby(c)[target].transform("mean")`,
`df[c].map(df.groupby(c)[target].mean())`, a merge of a groupby-mean of the target)
when the averaged column is the label that is later predicted.

Severity: error. Each row's encoding carries its own label, which the model reads
directly: on noise with 500 categories of 4 rows, ROC AUC 0.78 against 0.50 honestly
(`leaklint audit`).

## Why is this bad?
A target encoding replaces a category by the mean label of its rows, the row's own
label included. Held-out rows then carry their own answers into the features. On
data where the category carries no information (2,000 rows, 500 categories, random
labels) a logistic regression on the naive encoding reaches a cross-validated
ROC-AUC of 0.774; encoded out of fold inside each training fold it gets 0.48.
scikit-learn's `TargetEncoder.fit_transform` cross-fits internally and leaks much
less than `fit(X, y).transform(X)`, but both are still fitted on the held-out labels.

## Example
```python
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.preprocessing import TargetEncoder

rng = np.random.default_rng(0)
cat = rng.integers(0, 500, size=(2000, 1))
y = rng.integers(0, 2, size=2000)
encoded = TargetEncoder().fit(cat, y).transform(cat)
print(cross_val_score(LogisticRegression(), encoded, y, cv=5, scoring="roc_auc").mean())
```

## Use instead
```python
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import TargetEncoder

rng = np.random.default_rng(0)
cat = rng.integers(0, 500, size=(2000, 1))
y = rng.integers(0, 2, size=2000)
model = make_pipeline(TargetEncoder(), LogisticRegression())
print(cross_val_score(model, cat, y, cv=5, scoring="roc_auc").mean())
```

## Fix safety
- An encoder class cross-validated (or searched): `make_pipeline(TargetEncoder(), model)`
  on the raw columns, so each fold's encoding sees only its training labels. Safe.
- Split by `train_test_split`: split first, fit the encoder on the training side with
  its labels, transform both. Safe unless the overwritten input is read later.
- A group mean of the label by hand (`df.groupby(key)[label].transform("mean")`, one
  key): each row gets its group's mean over the rows the seeded later split trains on
  (`df[key].map(train_rows.groupby(key)[label].mean())`); a group seen only in the
  held-out rows gets NaN. Unsafe, for that and for the row-order assumption of LL101's
  drawn rows.

## Known limitations
An encoder fitted on the training side and then cross-validated on that side is
reported when no model is scored on the held-out side afterwards; when it is, the
inner cross-validation only tuned and stays silent.

A hand-written encoding is recognised when the averaged column is, by name, the
label of a later fit, split or cross-validation in the same file. Encodings built
in loops over dictionaries of columns, or with `np.bincount`, are not followed. A
statistic of the label that reaches models only as labels (missing labels filled from
other rows' totals) encodes nothing and is silent.

## References
- Micci-Barreca, A preprocessing scheme for high-cardinality categorical attributes, 2001.
- Prokhorenkova et al., CatBoost: unbiased boosting with categorical features, 2018, 3.2.
"""
from leaklint.ruleset import feeds_a_model, learned_before_split, split_clause, step_name

CODE = "LL103"
NAME = "target-encoding-before-split"
SUMMARY = "a target encoding is computed on rows that are later split or cross-validated"
HELP = "encode inside each training fold: put the encoder in a Pipeline with the model, or compute the category means on the training rows only"
DEFAULT = True
SEVERITY = "error"
_CE = "category_encoders."
CATALOG = (
    "sklearn.preprocessing.TargetEncoder",
    _CE + "TargetEncoder",
    _CE + "LeaveOneOutEncoder",
    _CE + "CatBoostEncoder",
    _CE + "MEstimateEncoder",
    _CE + "JamesSteinEncoder",
    _CE + "WOEEncoder",
    _CE + "GLMMEncoder",
    _CE + "QuantileEncoder",
    _CE + "SummaryEncoder",
)


def check(ctx):
    labels = ctx.facts.label_columns

    def matches(event):
        if event.kind == "group-stat":
            # an encoding is a feature: a statistic of the label that reaches models only as
            # labels (missing labels filled from other rows' totals) encodes nothing
            return event.column in labels and feeds_a_model(event, ctx.facts)
        return event.kind == "fit" and (
            event.qualname in ctx.catalog or any(step in ctx.catalog for step in event.steps)
        )

    def explain(event, split):
        if event.kind == "group-stat":
            return (
                f"the mean of the label {event.column!r} per category is computed on {event.data} "
                f"(all rows) {split_clause(event, split, ctx)}; each held-out row's "
                "encoding includes its own label"
            )
        step = step_name(event, ctx.catalog)
        return (
            f"{step} is fitted on {event.data} ({event.rows_phrase}) {split_clause(event, split, ctx)}; "
            "the encoding of the held-out rows includes their own labels"
        )

    def extra(event):
        return {"step": None, "form": "groupby-mean"} if event.kind == "group-stat" else {}

    return learned_before_split(ctx, matches, explain, extra, resplit=True)
