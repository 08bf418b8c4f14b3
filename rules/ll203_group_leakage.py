"""## What it does
Flags a random split or a shuffled K-fold (`train_test_split`, `KFold(shuffle=True)`,
`StratifiedKFold(shuffle=True)`, `ShuffleSplit`, ...) of rows of which the code itself
shows that one entity (patient, subject, user, customer, device, session) has several:
a many-to-one merge onto a per-entity table, a per-entity `groupby(...)` (a
`transform`, a count, a lag), `value_counts()` / `nunique()` / `duplicated()` of the id
column, or data read in a loop over subjects. Also rows stacked with a changed copy of
every one of them before such a split, an augmentation or a mirror (`pd.concat([df, df
+ noise])`, `pd.concat([matches, mirrored])` with `mirrored` made from `matches` by
operations that keep every row: `rename`, `assign`, column selections, arithmetic): each
row and its copy are one sample. The finding is at the split (or the shuffled
splitter's construction); where the repetition was shown is a related location.

Severity: error. The model recognises entities it met in training instead of
generalising to new ones: on entities of 10 rows sharing a random label, accuracy 0.81
under a shuffled K-fold against 0.50 grouped (`leaklint audit`).

## Why is this bad?
Rows of one entity share what makes that entity itself: its physiology, its habits, its
device. Split at random, the same entity is on both sides, and the model is scored on
recognising entities it has already met, not on new ones. Measured by `leaklint audit`
on 100 synthetic entities of 10 rows, whose rows share random entity features and one
random label (nothing carries over to a new entity): a random forest scores accuracy
0.81 under a shuffled `KFold(5)` and 0.50 under `GroupKFold(5)` (gap +0.31, 95% CI +0.28
to +0.35 over 10 seeds; every seed); 5-nearest-neighbours 0.94 against 0.50.

## Example
```python
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import KFold, cross_val_score

visits = pd.read_csv("visits.csv")
print(visits["patient_id"].value_counts().describe())
X = visits.drop(columns=["patient_id", "readmitted"])
y = visits["readmitted"]
cv = KFold(5, shuffle=True, random_state=0)
print(cross_val_score(RandomForestClassifier(), X, y, cv=cv).mean())
```

## Use instead
```python
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import GroupKFold, cross_val_score

visits = pd.read_csv("visits.csv")
print(visits["patient_id"].value_counts().describe())
X = visits.drop(columns=["patient_id", "readmitted"])
y = visits["readmitted"]
cv = GroupKFold(5)
print(cross_val_score(RandomForestClassifier(), X, y, cv=cv, groups=visits["patient_id"]).mean())
```

## Fix safety
Display-only: a shuffled `KFold` (`StratifiedKFold`, `ShuffleSplit`) handed to a
cross-validation function is shown becoming `GroupKFold` (`StratifiedGroupKFold`,
`GroupShuffleSplit`) with `groups=` the entity column the code showed repeating. It is
never applied: whether that is the column to group by, and whether it still lines up
with the rows being cross-validated, is the user's call.

## Known limitations
The entity must be named like one (`patient_id`, `SUBJECT_ID`, `UserID`, ...); a repeated
category (`neighborhood`, `product_type`, `device_model`) is not an entity. Words that
also name other things (`subject`, `session`, `device`, `account`, `client`, `machine`)
count in a count or a per-group aggregate only with an id (`subject_id`): a bare
`subject` is a news item's topic as often as a participant. A loop reading files per
subject, or tagging each file's rows with its subject, counts under any name. A lookup
table of one row per entity merged in (after `drop_duplicates`) brings no rows. Repetition must be shown by
the code: a dataset with several rows per patient that the code never counts, groups or
merges is not flagged. A split of the unique ids followed by a selection of rows by id
is the cure and stays silent. When the task really is to predict for entities already
seen (the next visit of a known patient), a split by time suits better than one by
entity; add `# noqa: LL203` with that reason.

## References
- Saeb et al., The need to approximate the use-case in clinical machine learning, GigaScience, 2017.
- scikit-learn, Cross-validation iterators for grouped data: https://scikit-learn.org/stable/modules/cross_validation.html#group-cv
"""
from leaklint.analysis.libraries import GROUP_SPLITTERS, lib_key
from leaklint.ruleset import Hit, split_phrase, split_procedure

CODE = "LL203"
NAME = "group-leakage"
SUMMARY = "rows of one entity end up on both sides of a random split"
HELP = "split by entity: GroupKFold / GroupShuffleSplit / StratifiedGroupKFold with groups=<the id column>, or split the unique ids and select rows by id"
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
)


def check(ctx):
    facts = ctx.facts
    hits = {}
    for split in sorted(facts.splits.values(), key=lambda s: s.id):
        if not split.shuffled or split.use != "evaluation" or split.distinct or _grouped(split):
            continue
        if split.rows and all(r.side is not None for r in split.rows):
            continue  # a part of an earlier split split again: the first split decides the test rows
        marks = [facts.repeats[r.root] for r in sorted(split.rows, key=lambda r: r.root) if r.root in facts.repeats]
        if not marks:
            continue
        mark = marks[0]
        entity = mark.column
        message = (
            f"{split.data} has several rows per {entity!r} ({mark.reason} at {ctx.where(mark.span)}) but is "
            f"{split_phrase(split, ctx)} at random; rows of one {entity} land on both sides, so the score "
            f"measures recognition of known {entity}s, not prediction for new ones"
        )
        span = split.shuffle_span or split.span
        related = ((split.span, f"{split.data} is {split_phrase(split, ctx)}"), (mark.span, f"several rows per {entity!r}: {mark.reason}"))
        if span not in hits:
            hits[span] = Hit(span, message, related, split_procedure(facts, split), {"split": split.id, "repeats": mark})
    for fact in facts.contaminations:  # every row stacked with a changed copy of itself, then split
        split, event = facts.splits[fact.split], facts.learns[fact.learn]
        if event.method != "augment" or fact.via == "resplit" or not split.shuffled or split.use != "evaluation" \
                or _grouped(split):
            continue
        span = split.shuffle_span or split.span
        message = (
            f"{split.data} holds every row of {event.data} twice (stacked with a changed copy of itself at "
            f"{ctx.where(event.span)}) but is {split_phrase(split, ctx)} at random; a row and its copy land on both "
            "sides, so the score measures recognition of rows seen in training, not prediction for new ones"
        )
        related = ((split.span, f"{split.data} is {split_phrase(split, ctx)}"),
                   (event.span, f"{event.data} stacked with a changed copy of itself"))
        hits.setdefault(span, Hit(span, message, related, split_procedure(facts, split), {"split": split.id}))
    return list(hits.values())


def _grouped(split) -> bool:
    """A group-aware splitter keeps each entity on one side."""
    cv = split.procedure.get("cv")
    names = [split.qualname, getattr(cv, "qualname", "")]
    return any(name and lib_key(name) in GROUP_SPLITTERS for name in names)
