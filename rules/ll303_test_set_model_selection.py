"""## What it does
Flags a model or hyperparameter chosen by its score on the test set: several
candidates (a loop over models or a parameter grid) are each scored on the same
held-out rows, and the best is picked by that score (`max`, `argmax`, `sorted`, an
`if score > best` update), when no separate test set judges the winner afterwards.
Opt-in: enable it with `--select LL303` or `extend-select = ["LL303"]`.

Severity: error. The winner's score is the best of several noisy scores of the same
rows, biased upward by the choice and more so the more candidates compete (as a
search's `best_score_`, LL304: 0.56 against 0.50 for 50 settings on noise).

## Why is this bad?
Selecting the candidate with the best noisy test result and reporting that same
result is optimistic: the maximum of several noisy estimates is higher than the
score the chosen model deserves. The test set has become a validation set, and
nothing is left to judge the final choice. On a target of pure noise, the best of 25
candidates can report a score no candidate could honestly earn.

## Example
```python
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier

df = pd.read_csv("wine.csv")
X, y = df.drop(columns=["quality"]), df["quality"]
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
best_k, best_acc = None, 0.0
for k in range(1, 30):
    model = KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train)
    acc = model.score(X_test, y_test)
    if acc > best_acc:
        best_k, best_acc = k, acc
print(best_k, best_acc)
```

## Use instead
```python
import pandas as pd
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.neighbors import KNeighborsClassifier

df = pd.read_csv("wine.csv")
X, y = df.drop(columns=["quality"]), df["quality"]
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": list(range(1, 30))}, cv=5)
search.fit(X_train, y_train)
print(search.best_params_, search.score(X_test, y_test))
```

## Fix safety
No fix: which candidate to keep, and how to tune it without the test rows (a search
with its own cross-validation, a validation split), are the user's decisions.

## Known limitations
A choice made by reading a printed table or a plot is not visible in the code. A
selection on a validation split is accepted when another held-out split is scored
in the same file (assumed to be the final test).

## References
- Cawley and Talbot, On over-fitting in model selection and subsequent selection bias
  in performance evaluation, JMLR 11, 2010.
"""
from leaklint.analysis.facts import disjoint_rows
from leaklint.analysis.reach import POSITIONAL
from leaklint.ruleset import Hit

CODE = "LL303"
NAME = "test-set-model-selection"
SUMMARY = "a model is chosen by its score on the same held-out rows that report it"
HELP = "choose with cross-validation on the training rows (GridSearchCV) or a separate validation split, then score the winner once on the test set"
DEFAULT = False
SEVERITY = "error"
CATALOG = ("sklearn.*", "xgboost.*", "lightgbm.*", "catboost.*")


def _held_out_splits(evaluation, facts) -> set:
    return {
        r.side.split
        for r in evaluation.rows
        if r.side is not None and r.side.kind == "test" and facts.splits[r.side.split].kind in ("split", *POSITIONAL)
    }


def check(ctx):
    facts = ctx.facts
    by_id = {e.id: e for e in facts.evaluations}
    scored_splits = {}
    for evaluation in facts.evaluations:
        for split_id in _held_out_splits(evaluation, facts):
            scored_splits.setdefault(split_id, []).append(evaluation)
    hits = []
    for choice in facts.choices:
        chosen = [by_id[i] for i in sorted(choice.evaluations) if i in by_id]
        splits = set().union(*(_held_out_splits(e, facts) for e in chosen)) if chosen else set()
        candidates = [e for e in chosen if e.in_loop or e.id in facts.looped_scores]
        if not splits or not (candidates or len({e.fits for e in chosen}) > 1):
            continue
        if set(scored_splits) - splits or _judged_elsewhere(chosen, facts):
            continue  # other held-out rows judge the winner: these ones validated
        split = facts.splits[min(splits)]
        first = chosen[0]
        message = (
            f"the best candidate is chosen by its score on {first.data}, the held-out rows of the split at "
            f"{ctx.where(split.span)}; the same rows then report the winner's score, which is optimistic"
        )
        related = ((first.span, f"candidates are scored on {first.data}"), (split.span, "the held-out rows come from this split"))
        hits.append(Hit(choice.span, message, related, {}))
    return hits


def _judged_elsewhere(chosen, facts) -> bool:
    """After the choice, a model is scored on rows that are neither the rows it chose by
    nor rows it was fitted on (a test set loaded on its own)."""
    last = max(e.id for e in chosen)
    chosen_rows = frozenset().union(*(e.rows for e in chosen))
    for evaluation in facts.evaluations:
        if evaluation.id <= last or not evaluation.scored or not evaluation.rows:
            continue
        fitted = frozenset().union(*(facts.learns[f].rows for f in evaluation.fits if f in facts.learns))
        if disjoint_rows(chosen_rows, evaluation.rows) and disjoint_rows(fitted, evaluation.rows):
            return True
    return False
