"""## What it does
Flags a model (or a whole Pipeline) fitted on rows that include the rows it is later
scored on: `model.fit(X, y)` on all rows, then `model.score(X_test, y_test)` or a
metric of `model.predict(X_test)` where `X_test` is a split of those rows.

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

## Known limitations
The evaluation must use the fitted object (`score`, `predict`, `predict_proba`,
`decision_function`) in this file or in a helper of the project's own modules that it
calls. A model saved and reloaded is not followed.

## References
- Kapoor and Narayanan, Leakage and the reproducibility crisis in ML-based science, 2023
  (overlap between training and test data).
"""
from leaklint.ruleset import learn_hit, overlaps, short

CODE = "LL302"
NAME = "train-test-overlap"
SUMMARY = "a model is fitted on rows that include the rows it is later scored on"
HELP = "fit the model on the training side of the split only; refit on all rows only after the evaluation is done"
DEFAULT = True
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
                if not overlaps(event, split) or fit_id in hits:
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
                hits[fit_id] = learn_hit(event, message, related, dict(event.procedure), ctx)
    return list(hits.values())
