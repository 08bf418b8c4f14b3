"""## What it does
Flags a shuffled split or K-fold (`train_test_split` without `shuffle=False`,
`KFold(shuffle=True)`, `StratifiedKFold(shuffle=True)`, `ShuffleSplit`,
`RepeatedKFold`, `torch.utils.data.random_split`, ...) applied to data the code shows
to be time-ordered: a datetime index (`index_col=` of parsed dates, `set_index` of a
date column), rows sorted by parsed dates, lag, rolling or difference features, a time
resample (`.resample()`, `groupby(pd.Grouper(freq=...))`), or a parsed date column
still in the rows being split. Dates parsed into columns (also in a loop over their
names, or made time-zone aware) order no rows by themselves, and one row per entity
aggregated from sorted rows (`groupby("symbol").agg(...)`) is a table, not a series.
A random split that no model in the file is fitted or scored on is not reported when the
file also splits the same rows in time order (a date cutoff, or sorted and cut): it is
the other option offered to callers, the fallback for data without dates.

Severity: error. A shuffled split of a series scores interpolation, not forecasting:
on drifting noise a forest's R² against the training mean is 0.88 shuffled and about 0
time-ordered (`leaklint audit`).

## Why is this bad?
A model used for forecasting only ever sees the past. A shuffled split trains on rows
from after the ones it is tested on; neighbouring rows of a time series are alike, so
the model interpolates between known neighbours instead of extrapolating into the
future. On slowly drifting noise, shuffled K-fold reports an R² near 0.99 where a
time-ordered split reports none.

`leaklint audit` measures this on drifting noise, with R² against predicting the
training mean (the forecast a model must beat). Its honest reference forecasts each test
block from the rows before it, at rolling origins. A K-fold's counterpart,
TimeSeriesSplit, already is that; a single split's, the last rows held out, is one
forecast from one origin, whose score is what the series happened to do in that one
stretch: over ten seeds of the rule's example its R² ran from -8.0 to +0.6, and the
gap's interval from +0.4 to +4.2. So the held-out block is also forecast from each
earlier origin that leaves at least a block of training rows, and the errors are
pooled: the same forecast measured several times instead of once (four for a 20% split:
R² -0.10 ± 0.37 over the same seeds; Tashman 2000).

## Example
```python
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold, cross_val_score

sales = pd.read_csv("sales.csv", parse_dates=["day"]).sort_values("day")
sales["lag_1"] = sales["units"].shift(1)
sales = sales.dropna()
X, y = sales[["lag_1"]], sales["units"]
cv = KFold(5, shuffle=True, random_state=0)
print(cross_val_score(RandomForestRegressor(), X, y, cv=cv).mean())
```

## Use instead
```python
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import TimeSeriesSplit, cross_val_score

sales = pd.read_csv("sales.csv", parse_dates=["day"]).sort_values("day")
sales["lag_1"] = sales["units"].shift(1)
sales = sales.dropna()
X, y = sales[["lag_1"]], sales["units"]
print(cross_val_score(RandomForestRegressor(), X, y, cv=TimeSeriesSplit(5)).mean())
```

## Fix safety
- `train_test_split(...)` gains `shuffle=False`, so the held-out rows are the latest
  ones. Safe when the code showed the rows follow time (sorted or indexed by the dates,
  lags, windows); unsafe when it only parsed a date column the rows may not follow (sort
  by it first). No fix when it stratifies (a stratified split must shuffle).
- `KFold`, `StratifiedKFold`, `ShuffleSplit` and their repeated forms become
  `TimeSeriesSplit` with the same number of splits, and the import follows. Unsafe: the
  folds differ in size, the first rows are never tested, and `cross_val_predict` refuses
  a splitter that is not a partition.

## Known limitations
A date parsed only to derive features (a birth date, the year and month of a sale) and
then left out of the rows that are split does not make them time-ordered: rows that
merely carry a timestamp are exchangeable until the code orders them by it. Such data
that really is a series (daily demand, hourly trips) is therefore missed unless the
code sorts or indexes it by the dates or builds lag or rolling features; add that
order (it is needed for any time-aware split anyway). Rows that carry parsed dates of two
columns or more (a branch's established and acquired dates) are records with dates among
their attributes, not points of one series, until the code orders them by one.
`pd.to_datetime` with a `format` that names no day (`"%H:%M:%S"`) parses clock times or
durations (a roast time), which order nothing. A split of entity ids is not a split of a
time series. Data is time-ordered only when the code shows it (this file,
or a loader in the project's own modules that it calls); a column named `date` that is
never parsed is not enough, and a loader from an installed package is not followed
unless its function is listed in `time-functions` in the configuration.
Grouped time series (many short series) may want a GroupKFold instead.

## References
- Bergmeir and Benítez, On the use of cross-validation for time series predictor evaluation, 2012.
- Tashman, Out-of-sample tests of forecasting accuracy: an analysis and review, 2000.
- scikit-learn, TimeSeriesSplit: https://scikit-learn.org/stable/modules/cross_validation.html#time-series-split
"""
from leaklint.analysis.facts import Span
from leaklint.ruleset import Hit, split_phrase, split_procedure

CODE = "LL201"
NAME = "random-split-on-time-series"
SUMMARY = "a shuffled split or K-fold is applied to time-ordered data"
HELP = "split by time: train_test_split(..., shuffle=False) or TimeSeriesSplit, so every model is tested on rows after the ones it was trained on"
DEFAULT = True
SEVERITY = "error"
CATALOG = (
    "sklearn.model_selection.train_test_split",
    "sklearn.model_selection.KFold",
    "sklearn.model_selection.StratifiedKFold",
    "sklearn.model_selection.ShuffleSplit",
    "sklearn.model_selection.StratifiedShuffleSplit",
    "sklearn.model_selection.RepeatedKFold",
    "sklearn.model_selection.RepeatedStratifiedKFold",
    "sklearn.model_selection.GroupKFold",
    "sklearn.model_selection.GroupShuffleSplit",
)


def check(ctx):
    hits = {}
    for split in sorted(ctx.facts.splits.values(), key=lambda s: s.id):
        if not (split.shuffled and split.time and split.shuffle_span) or split.use == "other" or split.distinct:
            continue  # (a fold loop that only builds out-of-fold encodings evaluates nothing)
        if split.rows and all(r.side is not None and ctx.facts.splits[r.side.split].shuffled for r in split.rows):
            continue  # a part of a shuffled split split again: the first split is the finding
        if split.use != "evaluation" and _split_in_order_too(split, ctx.facts):
            continue  # one of two ways to split offered to callers (a fallback without dates)
        shown = ctx.where(Span(split.time.line, 0, split.time.line, 0, split.time.path))
        message = (
            f"{split.data} is time-ordered ({split.time.reason} at {shown}) but is "
            f"{split_phrase(split, ctx)} with shuffling; rows from the future train models tested on the past"
        )
        related = ((split.span, f"{split.data} is {split_phrase(split, ctx)}"),)
        if split.time.path is not None:  # shown by a loader in another module
            related += ((Span(split.time.line, 0, split.time.line, 0, split.time.path), split.time.reason),)
        hit = hits.get(split.shuffle_span)
        if hit is None:
            hits[split.shuffle_span] = Hit(split.shuffle_span, message, related, split_procedure(ctx.facts, split),
                                           {"split": split.id})
        else:
            hits[split.shuffle_span] = Hit(hit.span, hit.message, hit.related + related, hit.procedure)
    return list(hits.values())


def _split_in_order_too(split, facts) -> bool:
    """The same time-ordered rows are also split in order in this file (sorted and cut, or
    cut at a threshold: ``df[df.date < cutoff]``): the code knows their order, and a random
    split no model here is fitted or scored on is the other option it offers."""
    roots = {r.root for r in split.rows}
    return any(not other.shuffled and (other.time is not None or (other.kind == "mask" and "<" in other.qualname))
               and roots <= {r.root for r in other.rows} for other in facts.splits.values())
