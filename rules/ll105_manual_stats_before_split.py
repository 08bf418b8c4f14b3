"""## What it does
Flags statistics computed by hand on all rows and applied to those rows before they
are split or cross-validated: `(X - X.mean()) / X.std()`, min-max scaling by hand,
`df.fillna(df.mean())`, `df[c].fillna(df[c].median())`, centering with
`np.mean(X, axis=0)`, a percentile rank (`rank(pct=True)`), scipy's `zscore` or
`winsorize` (also through `df.apply`), gaps filled with a statistic per category
(`df["Age"].fillna(df.groupby("Title")["Age"].transform("median"))`). One per entity or
id (`groupby("breath_id")`) describes each sample from its own rows and is not reported,
nor is a statistic per category kept as a feature (an income against its occupation's
mean).
A helper of the file that fills or scales the frame it is handed in place
(`def fill(df, c): df[c] = df[c].fillna(df[c].mean())`) changes the caller's frame; the
finding is at the call. A statistic of a training part that is then cross-validated
(the part's gaps filled with its own medians, then folded) is reported when no model is
scored on the held-out part, as LL101 does: then the cross-validated score is the result.
As for LL101's scalers, a statistic that only shifts or scales columns (`(X - X.mean()) /
X.std()`, a min-max by hand) is not reported when only tree models learn from them (they
split each column the same), nor when a standardizer fitted on the training part
standardises them again (standardising a shifted and scaled column gives the same column).

Severity: warning. As with LL101's steps, these statistics learn no labels; a mean,
a spread or a fill value of all rows rarely moves a score (`leaklint audit` measures no
gap for the rule's example on noise, accuracy 0.50 both ways).

## Why is this bad?
A mean, a spread, a minimum or a fill value is a parameter learned from the data,
exactly like a fitted StandardScaler's. Computed on all rows, it lets the held-out
rows shape the features the model is trained on; the validation rows should receive
the training rows' statistics unchanged. The effect of centering and scaling is
usually small, but the procedure evaluated is not the one that will meet new data.

## Example
```python
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

df = pd.read_csv("patients.csv")
X = df.drop(columns=["outcome"])
X = (X - X.mean()) / X.std()
print(cross_val_score(LogisticRegression(), X, df["outcome"], cv=5).mean())
```

## Use instead
```python
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("patients.csv")
X = df.drop(columns=["outcome"])
model = make_pipeline(StandardScaler(), LogisticRegression())
print(cross_val_score(model, X, df["outcome"], cv=5).mean())
```

## Fix safety
A z-score `(X - X.mean()) / X.std()` or a min-max by hand is fixed in two ways:
- cross-validated: the statistics become a `StandardScaler` / `MinMaxScaler` in one
  `make_pipeline(...)` with the model. Unsafe: scikit-learn's standard deviation divides
  by n, pandas' by n - 1, so the numbers move slightly.
- split by `train_test_split`: the split comes first, the statistics are computed on the
  training side and applied to both sides by hand. Safe (unsafe when the statement
  overwrote its input and later code reads it).
Other statistics before a `train_test_split` (`df.Age.fillna(df.Age.median())`,
`np.nanmedian(df.x)`) are computed on the rows the split trains on, drawn where the
statistic is taken by the same call (unsafe, as for LL101's drawn rows; an unseeded split
gets `random_state=0`). scipy's `zscore(df[c])` there becomes
`(df[c] - rows[c].mean(axis=0)) / rows[c].std(axis=0, ddof=0)` with the drawn rows. A
statistic of a table later split by a condition (`df_train = df[df.year != 2012]`) is
computed on the rows that condition selects there, `df[df.year != 2012]["x"].median()`
(unsafe: it assumes the condition's columns and the rows do not change before the
split; no fix when that table is bound again in between). Statistics before a
cross-validation or a fold loop, quantile bins (`pd.qcut`) and ranks get no fix.

## Known limitations
A statistic used only to filter rows (`df[df.x < df.x.quantile(0.99)]`) is
deliberately not reported, nor is one that makes the labels (by comparison, classes cut
at quantiles of the target, a target clipped at its percentiles): it defines the task.
Nor is the earliest or latest date of a column of parsed dates
(`(df.day - df.day.min()).dt.days`): it is an origin for elapsed time, one constant
shift of every row. A numeric column minus its own minimum is still
reported, as centering is in the seeds: the constant came from the held-out rows.
Statistics passed through containers (a dict of means built in a loop) are followed only
when the values flow through assignments in the same file.

## References
- The seeds' note on fitting preprocessing inside each fold: "Calculating one set of
  quantities before making the folds" is the mistake this rule finds.
"""
from leaklint.analysis.syntax import entity_column, identifier_column
from leaklint.analysis.libraries import SHIFT_STATISTICS
from leaklint.ruleset import learned_before_split, only_trees_learn, split_clause

CODE = "LL105"
NAME = "manual-stats-before-split"
SUMMARY = "a statistic of all rows is applied to them before they are split or cross-validated"
HELP = "compute the statistic on the training rows and apply it to both sides, or use a scikit-learn transformer in a Pipeline"
DEFAULT = True
SEVERITY = "warning"
CATALOG = ("pandas.DataFrame.mean", "pandas.DataFrame.std", "numpy.mean", "numpy.std")


def check(ctx):
    def matches(event):
        # a statistic of the label itself (a target encoding's prior) is LL103's business
        if event.column in ctx.facts.label_columns:
            return False
        if event.kind == "stat" and event.qualname in SHIFT_STATISTICS and only_trees_learn(event.id, ctx.facts, rescaled=True):
            return False  # (X - X.mean()) / X.std() read by trees only: they split each column the same
        return event.kind == "stat" or (event.kind == "group-stat" and event.fills and _per_category(event.keys))

    def explain(event, split):
        what = f"the {event.qualname} of {event.data}"
        if event.kind == "group-stat":
            per = ", ".join(repr(k) for k in event.keys)
            what = f"a statistic of {event.data}[{event.column!r}] per {per} (groupby(...).{event.qualname})"
        return (
            f"{what} is computed on {event.rows_phrase} and applied to them "
            f"{split_clause(event, split, ctx)}; the held-out rows helped compute it"
        )

    return learned_before_split(ctx, matches, explain, lambda event: {"stat": event.qualname}, resplit=True)


def _per_category(keys) -> bool:
    """A group statistic per category (``groupby("Title")``) pools the rows of many
    samples; one per entity or id (``groupby("breath_id")``) fills each sample from its
    own rows (LL203 asks whether the split keeps them together)."""
    return bool(keys) and all(isinstance(k, str) and not entity_column(k) and not identifier_column(k) for k in keys)
