"""## What it does
Flags a feature of time-ordered data computed from rows after each row, when a model is
fitted on it and evaluated: `shift(-k)`, `pct_change(-k)` or `diff(-k)` used as a
feature, a centred window (`rolling(..., center=True)`), a backward fill (`bfill()`,
`backfill()`, `fillna(method="bfill")`), `interpolate()` (each gap is filled from the
value after it), `pd.merge_asof(..., direction="forward" | "nearest")`, and a per-entity
aggregate over the whole history (`df.groupby("customer")["spend"].transform("mean")`
on dated rows) used as a feature of each row. Also a trailing window (`rolling`,
`expanding`, `ewm` aggregates) or a `diff`/`pct_change` of the label's own column, not
shifted, as a feature of a model predicting that column: each row's value holds the
answer (`df["kwh"].rolling(3).mean()` beside `y = df["kwh"]`; `shift(1)` before or after the
window, `closed="left"`, or a label shifted ahead is silent). Data is time-ordered when the code shows
it: a datetime index, rows sorted by parsed dates, a time resample (lag or
trailing-window features alone do not, see Known limitations). The finding is at the look-ahead operation; the model fitted on it is a
related location.

Severity: error. The feature carries the future it is used to predict: a centred
5-row mean of a random walk predicts its next move with R² 0.34, the trailing mean with
-0.09 (`leaklint audit`).

## Why is this bad?
At prediction time the rows after "now" do not exist. A feature that reads them hands
the model part of the answer, and a time-ordered split does not help. Measured by
`leaklint audit` on a random walk of 1,000 steps: predicting each next move from a
centred 5-step mean (minus the current value) with gradient boosting under
`TimeSeriesSplit(5)` scores R² 0.34, the trailing mean −0.09 (gap +0.44, 95% CI +0.41
to +0.46 over 10 seeds; every seed). As a direction classifier: ROC AUC 0.80 against
0.50. `shift(-1)` as a feature scores R² 1.00, a backward fill of 30% missing readings
0.19, `interpolate()` 0.07, each against about −0.09 for its past-only counterpart.

## Example
```python
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import TimeSeriesSplit, cross_val_score

prices = pd.read_csv("prices.csv", parse_dates=["day"], index_col="day")
prices["trend"] = prices["close"].rolling(5, center=True).mean() - prices["close"]
prices["move"] = prices["close"].diff().shift(-1)
prices = prices.dropna()
X, y = prices[["trend"]], prices["move"]
print(cross_val_score(GradientBoostingRegressor(), X, y, cv=TimeSeriesSplit(5)).mean())
```

## Use instead
```python
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import TimeSeriesSplit, cross_val_score

prices = pd.read_csv("prices.csv", parse_dates=["day"], index_col="day")
prices["trend"] = prices["close"].rolling(5).mean() - prices["close"]
prices["move"] = prices["close"].diff().shift(-1)
prices = prices.dropna()
X, y = prices[["trend"]], prices["move"]
print(cross_val_score(GradientBoostingRegressor(), X, y, cv=TimeSeriesSplit(5)).mean())
```

## Fix safety
`rolling(..., center=True)` loses `center=True`, so the window ends at the current row.
Safe. A negative `shift`, `bfill`, `interpolate` or a forward `merge_asof` gets no fix:
which value the row may know at prediction time is the user's decision.

## Known limitations
The label itself is not a feature: a look-ahead that becomes `y` (the forecasting
target, `df["close"].shift(-1)`) is how forecasting works and stays silent; the label's
gaps filled from later rows (`df["close"].interpolate()`) and then lagged into a feature
(`df["close"].shift(1)`) are reported, as the lag on a Monday is Sunday's value made
from Monday's own price. A column
known only by position (`df.iloc[:, :-1]`) is assumed to include every column built
before it, except a helper column of the label (`df["next"] = df["close"].shift(-1)`,
from which the label is computed), taken to be left out when the features are chosen by
a column list the analysis cannot read. A shift by a variable (`shift(-i)` over
`range(0, n)`) may be no shift and is not flagged; a groupby of the timestamp averages
across entities at one moment, not over a history; a lag of a look-ahead column
(`df.shift(1)` of a frame holding `close.shift(-1)`) undoes it. A model that is never
scored (predictions written to a submission file, a recording annotated offline) is not
judged, nor are its features. Data with no order shown in the code (an interpolated spectrum, a table with
a date column never parsed) is not a time series to this rule, and neither is data whose
order only the code's own lag, difference or window features suggest (`shift(1)`,
`diff()`, `rolling(...)`): those also build neighbour features of signals and sequences
labelled as a whole (ion channels, sensor segments), where the later rows exist at
prediction time. Dates parsed, a datetime index, rows sorted by dates or a resample show
the order. A per-entity aggregate
counts only when it was computed on all rows before any split; one computed on the
training part of a split made by code the analysis cannot read (`train_df, valid_df =
make_time_split(df)`, named by its parts) holds no evaluated row and does not count.

## References
- Kaufman et al., Leakage in data mining: formulation, detection, and avoidance, 2012.
- pandas, `DataFrame.rolling` (`center`): https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.rolling.html
"""
from leaklint.analysis.syntax import time_column
from leaklint.ruleset import Hit, combined, evaluated_procedure, model_pieces, short, split_procedure

CODE = "LL202"
NAME = "look-ahead-feature"
SUMMARY = "a feature of time-ordered data is computed from later rows"
HELP = "build features from past rows only: shift(k) with k > 0, trailing windows (no center=True), ffill, merge_asof(direction=\"backward\"), shift(1).expanding() per entity"
DEFAULT = True
SEVERITY = "error"
CATALOG = (
    "pandas.DataFrame.shift",
    "pandas.DataFrame.pct_change",
    "pandas.DataFrame.diff",
    "pandas.DataFrame.rolling",
    "pandas.DataFrame.bfill",
    "pandas.DataFrame.backfill",
    "pandas.DataFrame.fillna",
    "pandas.DataFrame.interpolate",
    "pandas.merge_asof",
    "pandas.core.groupby.DataFrameGroupBy.transform",
)


def check(ctx):
    facts = ctx.facts
    # a score is computed somewhere (a metric, a cross-validation): predictions written to a
    # submission file, or a whole recording annotated offline, judge nothing
    if not _judged(facts):
        return []
    hits = {}
    for event in sorted(facts.learns.values(), key=lambda e: e.id):
        # the label's own column, gap-filled from later rows (interpolate, bfill), reaches the
        # features through its lag; the label itself is no feature
        labelled = _is_label(event, facts)
        if labelled and (event.column is None or event.id not in facts.lagged_ahead):
            continue
        if not _reads_later_rows(event, facts):
            continue
        # time order shown by dates, a datetime index or a resample: lag or window features
        # alone also build neighbour features of signals and sequences that are not forecasts
        trainings = [t for t in facts.trainings if event.id in t.features and _dated(event.time, t.time)]
        if _builds_label(event, facts) or labelled:
            # a helper column of the label, or the label's lag: a feature only where the
            # columns are read for sure
            trainings = [t for t in trainings if not t.unsure]
        if event.kind == "group-stat":  # mapped back onto the rows it was computed from
            roots = {r.root for r in event.rows}
            trainings = [t for t in trainings if roots & _cut_from(t.rows, facts)]
        if not trainings:
            continue
        first = trainings[0]
        time = _dated(event.time, first.time)
        shown = ctx.where(first.span)
        order = f"time-ordered data ({time.reason} at line {time.line})"
        what = (
            f"{event.qualname} reads the rows after each row of {order}"
            if event.kind == "ahead"
            else f"the per-group {short(event.qualname)} of {event.column!r} is taken over all rows of {order}, "
            "so each row's value includes later rows"
        )
        message = (
            f"{event.data}: {what}, and the model fitted at {shown} uses it as a feature; "
            "at prediction time those rows do not exist yet"
        )
        related = tuple((t.span, "a model is fitted on this feature here") for t in trainings)
        # at the operation itself, even inside a helper: the feature is wrong whoever calls it
        span = event.span if event.span.path is None else event.reported
        if span not in hits:
            look_ahead = dict(event.procedure) or {"form": event.kind}
            hits[span] = Hit(span, message, related, combined(_training_procedure(facts, first), look_ahead))
    for event in sorted(facts.learns.values(), key=lambda e: e.id):
        span = event.span if event.span.path is None else event.reported
        hit = _own_label(event, span, facts, ctx) if span not in hits else None
        if hit is not None:
            hits[span] = hit
    return list(hits.values())


def _own_label(event, span, facts, ctx):
    """A trailing window (or a difference) of the label's column that holds each row's own
    value, a feature of a model predicting that same column: the answer is among the
    inputs (``df["y"].rolling(3).mean()`` beside ``y = df["y"]``)."""
    if event.kind != "own":
        return None
    # (in whatever order the rows are, each row's own label is in the window)
    trainings = [t for t in facts.trainings if event.id in t.features and t.label == event.column and not t.unsure]
    if not trainings:
        return None
    first = trainings[0]
    message = (
        f"{event.data}: the {event.qualname} of {event.column!r} includes each row's own value, and the model "
        f"fitted at {ctx.where(first.span)} predicts {event.column!r} from it; the label is among its features "
        "(shift the window by one row)"
    )
    related = tuple((t.span, "a model is fitted on this feature here") for t in trainings)
    return Hit(span, message, related, combined(_training_procedure(facts, first), {"form": "own"}))


def _cut_from(rows, facts) -> set:
    """The roots of ``rows`` and of the data a split the analysis cannot read cut them from."""
    roots = {r.root for r in rows}
    return roots.union(*(facts.named_parts[root][1] for root in roots if root in facts.named_parts))


def _dated(*marks):
    """The first mark that shows time order by more than the code's own lag or window features."""
    return next((m for m in marks if m is not None and not m.derived), None)


def _judged(facts) -> bool:
    """A score is computed (a metric, a cross-validation), or a model predicts rows of the
    data it was fitted on (a later part, scored by hand)."""
    if any(ev.scored for ev in facts.evaluations) or any(s.kind == "cv" for s in facts.splits.values()):
        return True
    fitted = {r.root for t in facts.trainings for r in t.rows}
    return any(r.root in fitted for ev in facts.evaluations for r in ev.rows)


def _reads_later_rows(event, facts) -> bool:
    if event.kind == "ahead":
        return True
    # a per-entity mean over the whole history, mapped back onto each row (not the label: LL103)
    return (
        event.kind == "group-stat"
        and event.before_split
        and not event.subset  # of the rows up to a cutoff (train_df = df[df.date < cut]): the past only
        # of the training part of a split the analysis cannot read: no evaluated row is in it
        and not all(facts.named_parts.get(r.root, ("",))[0] == "train" for r in event.rows)
        and event.column is not None
        and event.column not in facts.label_columns
        and not any(time_column(k) for k in event.keys)  # across entities at one moment: not a history
    )


def _is_label(event, facts) -> bool:
    """The look-ahead is the forecasting target: the column the model is fitted on as y.
    One done on a whole frame (``df.bfill()``) and kept whole reaches its features as well."""
    if event.column is not None:
        return event.column in facts.label_columns
    return event.method == "series" and event.id in facts.label_learned


def _builds_label(event, facts) -> bool:
    """``df["next"] = df["close"].shift(-1); df["up"] = df["next"] > df["close"]``: the
    column is how the label was made."""
    shifted = event.qualname.startswith(("shift", "pct_change", "diff"))  # a new column of later values
    return event.kind == "ahead" and shifted and event.method == "series" and event.id in facts.label_learned


def _training_procedure(facts, training) -> dict:
    """The model fitted (or cross-validated) on the feature, and how it is evaluated."""
    for split in facts.splits.values():
        if split.kind == "cv" and split.span == training.span:
            return split_procedure(facts, split)
    event = next((e for e in facts.learns.values() if e.kind == "fit" and e.span == training.span), None)
    if event is None:
        return {}
    for split_id in sorted({r.side.split for r in event.rows if r.side is not None}):
        for fit_id, evaluation in facts.splits[split_id].evaluated:
            if fit_id == event.id:
                return evaluated_procedure(facts, event, evaluation, facts.splits[split_id])
    return model_pieces(event)
