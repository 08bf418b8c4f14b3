"""## What it does
Flags over- or under-sampling (imbalanced-learn's SMOTE, ADASYN, RandomOverSampler,
RandomUnderSampler, ... and the hand-rolled `resample(...)` of scikit-learn (with
replacement unless `replace=False`) or `df.sample(n, replace=True)` concatenated back,
or a frame concatenated with its own rows, `pd.concat([minority, minority])`,
`pd.concat([df] + [minority] * 4)`) applied
to rows that are later split or cross-validated. Oversampled training rows that are
cross-validated count when the code reads that cross-validation's scores (a search's
`best_score_` or `cv_results_`), even if a test side judges the model afterwards: the
scores read are inflated all the same. A search on them that only picks settings for a
model then tested is not flagged, nor undersampling, which copies no row.

Severity: error. Synthetic rows made from held-out rows land in the training folds
(and copies of training rows in the test folds): on imbalanced noise a random forest's
ROC AUC is 0.99 against 0.49 honestly (`leaklint audit`).

## Why is this bad?
Oversampling before the split puts copies of the same row, or synthetic points
interpolated from it, on both sides of the split: the model is tested on rows it
has, in effect, already seen. On noise with 10% positives, SMOTE before the split
gives a random forest an AUC of about 0.99; resampling only the training folds gives
0.49. Undersampling before the split also changes the class balance of the held-out
rows, so the score no longer describes the real population; as it copies no row, it is
reported only where the file fits a model on the undersampled rows.

## Example
```python
import numpy as np
from imblearn.over_sampling import SMOTE
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score

rng = np.random.default_rng(0)
X = rng.normal(size=(1000, 20))
y = (rng.random(1000) < 0.1).astype(int)
X_res, y_res = SMOTE(random_state=0).fit_resample(X, y)
print(cross_val_score(RandomForestClassifier(), X_res, y_res, scoring="roc_auc").mean())
```

## Use instead
```python
import numpy as np
from imblearn.over_sampling import SMOTE
from imblearn.pipeline import make_pipeline
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score

rng = np.random.default_rng(0)
X = rng.normal(size=(1000, 20))
y = (rng.random(1000) < 0.1).astype(int)
model = make_pipeline(SMOTE(random_state=0), RandomForestClassifier())
print(cross_val_score(model, X, y, scoring="roc_auc").mean())
```

## Fix safety
Two fixes, planned from where the step learned and where the rows were then split:
- cross-validated (or searched): the step and the model become one `make_pipeline(...)` from imblearn.pipeline (which resamples the training folds only)
  handed the raw rows, in every cross-validation that read the step's output, and the
  now-unused intermediate goes. Safe: every name keeps its meaning for the code after it.
  With a search it is unsafe: its parameter names gain the model's step prefix
  (`svc__C`), so `best_params_` and `best_estimator_` change for later code.
- split by `train_test_split`: the split comes first, the step is fitted on the training
  side and the training side alone is resampled. Safe, unless the step's output overwrote its input
  (`X = scaler.fit_transform(X)`) and later code reads it: then that code sees the raw
  rows, and the fix is unsafe.
The pre-0.8 name `fit_sample` is written as `fit_resample` (which imbalanced-learn has
had since 0.4). No fix when the step sits in a helper, when the output is a column
assignment, or when its inputs change between the fit and the split.

## Known limitations
Resampling the training side and then cross-validating it is reported when no model is
scored on the held-out side afterwards (imbalanced-learn's documented pitfall); when
the held-out side is scored later, the inner cross-validation only tuned and stays
silent.

Hand-rolled oversampling is recognised through `sklearn.utils.resample` (unless
`replace=False`) and `DataFrame.sample` with `replace=True`, hand undersampling through
`sample(n)` of the rows of one class with `n` the size of another (`len(minority)`);
index-based duplication (`np.repeat`, `df.loc[idx.repeat(k)]`) is not followed.
Labels copied beside their features (`y = np.concatenate((y, y))` after the same for
`X`) are the same leak, reported once, at the features.

## References
- imbalanced-learn, Common pitfalls: https://imbalanced-learn.org/stable/common_pitfalls.html
"""
from leaklint.analysis.specs import CallSpec
from leaklint.ruleset import UNKNOWN_CLASS, feeds_a_model, learned_before_split, split_clause, split_phrase, step_name

CODE = "LL104"
NAME = "resampling-before-split"
SUMMARY = "rows are over- or under-sampled before they are split or cross-validated"
HELP = "resample only the training rows: split first, or put the sampler in an imblearn Pipeline and cross-validate the Pipeline"
DEFAULT = True
SEVERITY = "error"
_OS = "imblearn.over_sampling."
_US = "imblearn.under_sampling."
CATALOG = (
    _OS + "SMOTE",
    _OS + "BorderlineSMOTE",
    _OS + "SVMSMOTE",
    _OS + "ADASYN",
    _OS + "SMOTENC",
    _OS + "SMOTEN",
    _OS + "KMeansSMOTE",
    _OS + "RandomOverSampler",
    _US + "RandomUnderSampler",
    _US + "NearMiss",
    _US + "TomekLinks",
    _US + "EditedNearestNeighbours",
    _US + "ClusterCentroids",
    _US + "OneSidedSelection",
    "imblearn.combine.SMOTETomek",
    "imblearn.combine.SMOTEENN",
    "sklearn.utils.resample",
)


def check(ctx):
    def matches(event):
        if event.kind == "resample":
            # labels copied beside their features (``y = np.concatenate((y, y))``) are the same
            # leak as the features' copies, reported there
            # (a changed copy of every row stacked on the rows is the same rows twice: LL203)
            found = (event.qualname in ("sample", "concat") or event.qualname in ctx.catalog) \
                and event.method != "augment" and feeds_a_model(event, ctx.facts)
        elif event.unknown:
            return event.kind == "fit" and event.method in ("fit_resample", "fit_sample")
        else:
            found = event.kind == "fit" and event.qualname in ctx.catalog
        # rows dropped copy nothing across the split: what matters is a score of a model
        # this file fits on them (a script that only writes the parts out has none)
        return found and (oversamples(event) or any(event.id in t.features for t in ctx.facts.trainings))

    def explain(event, split):
        if event.unknown:
            return (
                f"{event.qualname}.{event.method} resamples {event.data} ({event.rows_phrase}) "
                f"{split_clause(event, split, ctx)}{UNKNOWN_CLASS}"
            )
        if event.kind == "resample" and event.method == "undersample":
            return f"{event.data} is undersampled to the size of another class before the rows are " + _rebalanced(
                split_phrase(split, ctx))
        if _undersampler(event, ctx.catalog):
            return (f"{step_name(event, ctx.catalog)} undersamples {event.data} ({event.rows_phrase}) before the rows "
                    "are " + _rebalanced(split_phrase(split, ctx)))
        if event.kind == "resample" and event.method == "duplicate":
            what = f"rows of {event.data} are copied by concatenating it with its own rows"
        elif event.kind == "resample":
            what = f"{event.data} is oversampled with replacement"
        else:
            what = f"{step_name(event, ctx.catalog)} resamples {event.data} ({event.rows_phrase})"
        return (
            f"{what} {split_clause(event, split, ctx)}; copies of the same rows "
            "(or points synthesised from them) land on both sides of the split"
        )

    def oversamples(event):
        return not (_undersampler(event, ctx.catalog) or event.method == "undersample")

    return learned_before_split(ctx, matches, explain, _by_hand, resplit=True, copies=oversamples)


def _rebalanced(phrase: str) -> str:
    return (f"{phrase}; the held-out rows are balanced like the training rows, not drawn as new data would be, "
            "so the score describes a population the model will not meet")


def _undersampler(event, catalog) -> bool:
    """The matching sampler keeps a subset of the original rows: nothing is copied across the
    split (ClusterCentroids replaces rows with centroids, points synthesised from them)."""
    names = [event.qualname] if event.qualname in catalog else [s for s in event.steps if s in catalog]
    return bool(names) and all(n.startswith(_US) and not n.endswith(".ClusterCentroids") for n in names)


def _by_hand(event) -> dict:
    """Resampling by hand, as the imbalanced-learn sampler that does the same (for the
    runtime checker): one class cut to another's size, or rows drawn with replacement."""
    if event.kind != "resample":
        return {}
    under = event.method == "undersample"
    sampler = "imblearn.under_sampling.RandomUnderSampler" if under else "imblearn.over_sampling.RandomOverSampler"
    how = {"undersample": "undersampling to another class's size", "duplicate": "copying rows"}.get(
        event.method, "drawing rows with replacement")
    return {"step": CallSpec(sampler), "fit_method": "fit_resample", "by_hand": how, "origins": {"step": event.span}}
