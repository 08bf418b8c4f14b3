"""## What it does
Flags a fit whose stopping point or kept checkpoint is chosen on the rows that are then
scored: xgboost / lightgbm / catboost with `eval_set=[(X_test, y_test)]` and early
stopping (`early_stopping_rounds`, `lgb.early_stopping`, CatBoost's `use_best_model` or
its overfitting detector `od_type` / `od_wait`, also when set in a `**params` dict of
the model or of its fit, with a literal or a value the code computes such as
`args.early_stopping_rounds`), the native `xgb.train(..., evals=...)` /
`lgb.train(..., valid_sets=...)` (or their fourth argument) with early stopping,
pytorch-tabnet's `eval_set` (its `patience`, 10 epochs unless 0, keeps the best
weights), and Keras `validation_data=(X_test, y_test)` with
`EarlyStopping(restore_best_weights=True)` (whatever callback comes before it) or
`ModelCheckpoint(save_best_only=True)`, when the same model is later scored on those rows. The finding is at the fit; the score
is a related location. A checkpoint kept by hand in a training loop (a torch epoch loop's
`if val_loss < best_loss: best_loss = val_loss; torch.save(model.state_dict(), path)`,
or `copy.deepcopy(model)`; in a loop that takes training steps itself, `loss.backward()`,
the best epoch's score kept alone) is flagged at the `if` when the compared score is
computed on held-out rows (a test part, a validation fold, a benchmark's test set such as
`datasets.MNIST(root, train=False)`) and those rows then report the result: a metric of
their predictions (the out-of-fold score), or the running best printed alone, as a test
score or with no model trained after it. Silent when a model of the same kind is fitted
again later (on the training and watched rows together, for the rounds found) and scored
on rows kept apart from both: the watched rows were a validation part, and its score only a check;
also when its predictions of the watched rows, made fold by fold, are only the features a
second-level model learns from (out-of-fold predictions of a stack, no metric of them);
for a checkpoint kept by hand, when rows held out apart from the compared ones are
scored or printed after it, or when it is kept in a trainer nothing in the file calls, on a
validation part the trainer cut from the rows it is handed (its best loss printed there is
a training log; the caller tests), unless what it prints is called a test score.

Severity: error. The stopping point is chosen to suit the scored rows: on noise,
boosting kept at the stage best on the test rows scores 0.58 against 0.49 when the
stage is chosen on a validation split (`leaklint audit`).

## Why is this bad?
Early stopping is model selection: of all the iterations (or epochs) it keeps the one
that scored best on the watched rows. When those rows also report the final score, the
number is the best of many tries on them, not an estimate for new data. Measured by
`leaklint audit` on noise (400 rows x 20 features, 80 test rows): gradient boosting that
keeps the stage with the best test accuracy reports 0.58; choosing the stage on a
validation split of the training rows and scoring the test rows once gives 0.49 (gap
+0.09, 95% CI +0.05 to +0.13 over 10 seeds; +0.07 over 50). In ROC AUC the gap is
+0.06. It grows with fewer test rows and more iterations to choose from.

## Example
```python
import lightgbm as lgb
import pandas as pd
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

df = pd.read_csv("churn.csv")
X, y = df.drop(columns="churned"), df["churned"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
model = lgb.LGBMClassifier(n_estimators=2000)
model.fit(X_train, y_train, eval_set=[(X_test, y_test)], callbacks=[lgb.early_stopping(50)])
print(roc_auc_score(y_test, model.predict_proba(X_test)[:, 1]))
```

## Use instead
```python
import lightgbm as lgb
import pandas as pd
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

df = pd.read_csv("churn.csv")
X, y = df.drop(columns="churned"), df["churned"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
X_fit, X_val, y_fit, y_val = train_test_split(X_train, y_train, test_size=0.2, random_state=0)
model = lgb.LGBMClassifier(n_estimators=2000)
model.fit(X_fit, y_fit, eval_set=[(X_val, y_val)], callbacks=[lgb.early_stopping(50)])
print(roc_auc_score(y_test, model.predict_proba(X_test)[:, 1]))
```

## Fix safety
A validation part of the training side (`train_test_split(X_train, y_train,
test_size=0.2)`) is split off after the split that made it (before the list the fit
watches, when the list is a name bound for it: `evals = [(X_test, y_test)]`); the model is fitted on the
rest and stops on the validation part, and the test rows only score it. Unsafe: the
model trains on fewer rows. The validation part is drawn as the split drew the test rows
(its seed, or a fold loop's splitter's shuffling and seed, or `shuffle=False`: the
latest rows of time-ordered data, of test rows cut
by position or past a cut in a column, or of training rows shown to be time-ordered when
nothing shows how the test rows were drawn; `random_state=0` for one fold of a column
of fold numbers, `df[df.kfold == fold]`). A later
`model.score(X_train, y_train)` of the same model follows the rows it now trains on.
Native boosters (`lgb.train(params, dtrain, valid_sets=[dtest])`, `xgb.train(...,
evals=[(dtest, "test")])`) get new `Dataset` / `DMatrix` containers of the two parts,
built as the originals were. A fit inside a helper of the file is fixed in the helper
when the file calls that helper once and hands it nowhere else (a splitter passed
to it is read at that call), or when the helper splits the rows itself (its own fold
loop), so that the part drawn is the same for every caller; otherwise editing the helper
would change other callers' draws too. No fix when the sides do not come from a `train_test_split` or a splitter's fold
loop, or when the model predicts its training rows some other way.

## Known limitations
A checkpoint kept by hand is recognised by the running-best idiom (`if score < best:
best = score`, with a snapshot of a model in the same branch, `state_dict()`,
`copy.deepcopy` or a `save` call, or in a loop that calls `loss.backward()`) when the
score's rows are known to be held-out rows; a score computed in a helper the file does
not show has no rows, and `max(history["val_accuracy"])` is not followed. A torch loss
(`F.mse_loss(net(X_te), y_te)`) is not a metric: a scaler fitted before a positional split
into a hand-trained network is not reported.
The scored model must be the fitted object itself, or a best checkpoint reloaded with
`load_model(...)` / `model.load_weights(...)`; until it is reloaded, the model in memory is
the last epoch and a `ModelCheckpoint(save_best_only=True)` alone is silent. Only scores
after the reload count; `model.load_weights(...)` reloads that model's checkpoint, and
`load_model(path)` the latest checkpoint no earlier load took (its path is rarely a
literal the analysis can match). A fit inside
a tuning objective (`def objective(trial)`, a function handed to `study.optimize`) that
stops on the fold it scores is flagged only when no model is then scored on rows the
study never saw: a test score after the study is the result, the trials' scores only
ranked them. A fit in a function nothing in the file calls that stops on rows it was
handed is silent (its caller made them, and decides what they score); a function
nothing calls that splits the rows itself and stops each fold on the fold it scores holds
the whole procedure and is flagged. A validation part that stops a model and is scored
too is silent when that model, or the candidate its score helped choose, is then scored
on a part split away from both its training and its validation rows (a test part kept
apart), or on a labelled test file of its own: that score is the result. Another split
of the same rows drawn independently may overlap them and does not count. Watching the
test rows without early stopping (learning curves only) is silent, and so is Keras
`EarlyStopping` without `restore_best_weights=True` (it stops on the test rows but keeps
the last epoch). A loop over folds (or bootstrap resamples) that stops each fold on its
own held-out fold and scores it is flagged, also when the fold models predict a test set
or a submission as well: the out-of-fold score is then read to compare experiments,
weigh a blend or pick a threshold, and it is optimistic (the bias is of the same kind,
usually small).

`leaklint audit` runs the code's booster: scikit-learn's at every stage
(`staged_predict`), LightGBM's and XGBoost's scikit-learn models with their first k trees
at 50 evenly spaced k, so the leaked and the honest run choose among the same stages.

## References
- Prechelt, Early stopping — but when?, in Neural Networks: Tricks of the Trade, 1998.
- LightGBM, `early_stopping` callback: https://lightgbm.readthedocs.io/en/latest/pythonapi/lightgbm.early_stopping.html
"""
import re

from leaklint.analysis.facts import disjoint_rows
from leaklint.ruleset import Hit, combined, learn_hit, metric_pieces, model_pieces, short

TEST_WORD = re.compile(r"test")

CODE = "LL305"
NAME = "early-stopping-on-test"
SUMMARY = "the rows that are finally scored also chose the stopping point or the kept checkpoint"
HELP = "carve a validation split out of the training rows for early stopping (eval_set / validation_data) and score the test rows once at the end"
DEFAULT = True
SEVERITY = "error"
CATALOG = (
    "xgboost.*",
    "lightgbm.*",
    "catboost.*",
    "pytorch_tabnet.*",
    "keras.callbacks.EarlyStopping",
    "keras.callbacks.ModelCheckpoint",
    "tensorflow.keras.callbacks.EarlyStopping",
    "tensorflow.keras.callbacks.ModelCheckpoint",
)


def check(ctx):
    facts = ctx.facts
    hits = []
    # (a fit's own stop first: where a tuning trial's is reported at the same call, the fit's is named)
    for stop in sorted(facts.early_stops, key=lambda s: s.trial):
        event = facts.learns[stop.fit]
        watched = stop.rows - event.rows
        # (out-of-fold predictions made fold by fold that a second-level model only learns
        # from are not a score)
        scored = [ev for ev in facts.evaluations if stop.fit in ev.fits and ev.rows & watched and _after(ev.span, stop.since)
                  and (ev.scored or not ev.in_loop or ev.id not in facts.stacked)]
        if not watched or not scored or _tested_apart(stop.fit, event, watched, scored, facts):
            continue
        if stop.trial and _tuned_then_tested(event, watched, facts):
            continue
        ev = scored[0]
        name = short(event.qualname)
        message = (
            f"{name} is fitted on {event.data} with {stop.how} on {ev.data}, the rows it is "
            f"scored on at {ctx.where(ev.span)}; the kept iteration was chosen by those rows, so their score is optimistic"
        )
        related = tuple((e.span, f"the model is scored on {e.data} here") for e in scored)
        procedure = combined(combined(_procedure(event, watched, facts), model_pieces(event)), metric_pieces(ev))
        hits.append(learn_hit(event, message, related, procedure, ctx, {"watched": watched}))
    return hits + [hit for hit in (_kept_by_hand(kept, ctx) for kept in facts.kept_bests) if hit is not None]


def _kept_by_hand(kept, ctx):
    """A checkpoint kept by hand at each better score of held-out rows (a torch loop's
    ``if val_loss < best``), then those rows report the result: a metric of their
    predictions (out-of-fold, say) or the best score itself printed. None when rows kept
    apart from them are scored or printed after it (they were a validation part)."""
    facts = ctx.facts
    # held-out sides of a split, or a part the code cannot split itself (a benchmark's test
    # images, a project helper's validation ids)
    parts = {root: part for root, (part, _) in facts.named_parts.items()} | facts.part_files

    def held_out(r) -> bool:
        return (r.side is not None and r.side.held_out) or (r.side is None and parts.get(r.root) in ("test", "val", "holdout"))

    held = frozenset(r for r in kept.rows if held_out(r))
    roots = {r.root for r in held}
    # (rows of other data, unsplit, are settings read along: a device, a class count)
    if not held or any((r.side is not None and not r.side.held_out) or (r.side is None and r.root in roots
                                                                       and r not in held) for r in kept.rows):
        return None
    later = [(span, rows) for order, rows, span in facts.metric_rows if order > kept.id]
    later += [(shown.span, shown.rows) for shown in facts.printed if shown.order > kept.id]
    # (rows of other data, unsplit, read along a score are settings too: class names)
    if any(disjoint_rows(held, rows) and any(held_out(r) for r in rows)
           and not any(r.side is not None and not r.side.held_out for r in rows) for _, rows in later):
        return None
    reports = [span for order, rows, span in facts.metric_rows if order > kept.id and rows and not disjoint_rows(held, rows)]
    # the running best shown alone, as a test score or with no model trained after it (a
    # validation part's best shown before training on all rows is only a check, and shown
    # beside a score of other rows it is not the result; a trainer nothing here calls that
    # carved its validation part from the rows it was handed logs it, its caller tests)
    trained = kept.handed or any(order > kept.id for order in facts.trained_at)
    reports += [shown.span for shown in facts.printed if shown.order > kept.id and kept.best in shown.names
                and shown.rows <= kept.rows
                and (not trained or TEST_WORD.search(f"{shown.words} {kept.best} {kept.score}".lower()))]
    if not reports:
        return None
    first = min(reports, key=lambda span: (span.line, span.column))
    message = (
        f"the epoch kept by hand (each better {kept.score}, the running best {kept.best}) is chosen by its score on "
        f"held-out rows, which then report the result at {ctx.where(first)}; the best of many looks at the same rows "
        "is optimistic"
    )
    return Hit(kept.span, message, ((first, "the kept epoch is scored on those rows here"),))


def _tested_apart(fit_id, event, watched, scored, facts) -> bool:
    """Rows the model neither learned from nor stopped on, split from the same data,
    report the result: the same model is scored on them, or a model of its kind fitted
    later (a refit for the rounds found), or, after its score on the
    watched rows helped choose among candidates, the chosen one is (a test part kept
    apart; the watched rows only chose)."""
    if any(fit_id in ev.fits and _kept_apart(ev, event, watched, facts) for ev in facts.evaluations):
        return True
    # the same kind of model fitted again later (on the training and watched rows together,
    # for the rounds found) and scored on rows kept apart: the watched rows were a validation part
    if any(ev.scored and any(f > fit_id and facts.learns[f].qualname == event.qualname for f in ev.fits)
           and _split_apart(ev, event, watched, facts) for ev in facts.evaluations):
        return True
    ids = {ev.id for ev in scored}
    chosen = [max(c.evaluations) for c in facts.choices if ids & c.evaluations]
    return bool(chosen) and any(ev.id > min(chosen) and _split_apart(ev, event, watched, facts) for ev in facts.evaluations)


def _tuned_then_tested(event, watched, facts) -> bool:
    """A trial of a tuning study stopped on the rows it is scored on, and some model is
    then scored on rows the study never saw: the trials' scores only ranked them, the
    test score is the result."""
    return any(_kept_apart(ev, event, watched, facts) for ev in facts.evaluations)


def _kept_apart(ev, event, watched, facts) -> bool:
    """``ev`` scores rows split away from both the fit's and the watched rows, or a
    labelled test file of its own."""
    return _split_apart(ev, event, watched, facts) or _elsewhere(ev, event, watched)


def _split_apart(ev, event, watched, facts) -> bool:
    """``ev`` scores another part of the watched rows' own data, split away from them."""
    roots = {r.root for r in watched}
    return (
        ev.scored and ev.rows and all(r.root in roots and r.side is not None for r in ev.rows)
        and _parted(watched, ev.rows, facts) and _parted(event.rows, ev.rows, facts)
    )


def _elsewhere(ev, event, watched) -> bool:
    """``ev`` scores rows of another dataset: a labelled test file of its own."""
    seen = {r.root for r in watched} | {r.root for r in event.rows}
    return ev.scored and ev.rows and all(r.root not in seen for r in ev.rows)


def _parted(rows, others, facts) -> bool:
    """No row of ``rows`` can be in ``others``: other datasets, other sides of one split,
    or a split made from one side of a split and that split's other side (two splits of
    the same rows made independently may overlap)."""
    def sides_part(a, b):
        split = facts.splits.get(a.split)
        return split is not None and any(
            r.side is not None and r.side.split == b.split and r.side.kind != b.kind for r in split.rows
        )

    for a in rows:
        for b in others:
            if a.root != b.root:
                continue
            if a.side is None or b.side is None:
                return False
            if a.side.split == b.side.split:
                if a.side.kind == b.side.kind:
                    return False
            elif not (sides_part(a.side, b.side) or sides_part(b.side, a.side)):
                return False
    return True


def _after(span, since) -> bool:
    """A score at ``span`` is of the reloaded checkpoint (always, when none was reloaded)."""
    return since is None or (span.path is None and (span.line, span.column) > (since.line, since.column))


def _procedure(event, watched, facts) -> dict:
    """The split that made the watched rows, and the task the model's class names."""
    model = getattr(event.model, "qualname", "") or ""  # xgb.train(params) is read as XGBRegressor by its objective
    procedure = {"task": "regression" if "Regressor" in event.qualname or "Regressor" in model else "classification"}
    for row in watched:
        split = facts.splits.get(row.side.split) if row.side is not None else None
        if split is not None and "split" in split.procedure:
            procedure["split"] = split.procedure["split"]
            procedure["origins"] = {"split": split.span}
            break
    return procedure
