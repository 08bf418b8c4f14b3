"""## What it does
Flags a hyperparameter search (`GridSearchCV`, `RandomizedSearchCV`,
`HalvingGridSearchCV`, `HalvingRandomSearchCV`, an optuna study) whose best
cross-validated score (`best_score_`, `study.best_value`, `study.best_trial.value`) is
reported as the model's performance (printed, logged, returned, stored in a results
table) when nothing in the file scores a model on rows the search never saw. The
finding is at the first report; the search's fit is a related location. Silent when a
model is then scored on held-out rows the search was not fitted on (also when a later
search of the same model is fitted on a training split and scored on its test rows, as a
lesson does after showing `best_score_`; also when the tuned model, or its predictions of
such rows with their labels, is given to a function the analysis does not follow, such as
a project module's `evaluate(y_te, y_prob)`, even beside its training rows:
`evaluate_and_log(best, X_train, y_train, X_test, y_test)`), when it searches only a part
a name imported from code it cannot read calls the training part (`from data import
train_df`: the test part is kept elsewhere), and for nested cross-validation
(`cross_val_score(search, X, y)`), also of another search of the same model on the same
rows (a lesson comparing search methods' `best_score_` beside the nested estimate).
Silent, too, for a search scored by `make_scorer` of an error or a loss without
`greater_is_better=False` (`make_scorer(mean_squared_error)`): it maximises the error,
so its `best_score_` is the worst setting's, not an optimistic one (a bug of its own).

Severity: error. The best of many cross-validated scores is biased upward by the
choice: for 50 SVC settings on noise, `best_score_` is 0.56 against 0.50 nested
(`leaklint audit`), more with more settings and fewer rows.

## Why is this bad?
`best_score_` is the maximum of many noisy cross-validated scores: the same rows chose
the configuration and then score it. The more configurations tried, the higher the
maximum climbs by chance alone. Measured by `leaklint audit` on pure noise (100 rows x
20 features, balanced labels): the `best_score_` of 50 random SVC configurations under
5-fold CV is accuracy 0.56, nested cross-validation of the same search 0.50 (gap +0.06,
95% CI +0.04 to +0.08 over 10 seeds; higher on all of 50 seeds); 50 decision-tree
configurations report 0.58 against 0.50. A search over a single setting chooses nothing
and is not flagged.

## Example
```python
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC

X, y = load_breast_cancer(return_X_y=True)
search = GridSearchCV(SVC(), {"C": [0.1, 1, 10, 100], "gamma": [1e-4, 1e-3, 1e-2]}, cv=5)
search.fit(X, y)
print("accuracy:", search.best_score_)
```

## Use instead
```python
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.svm import SVC

X, y = load_breast_cancer(return_X_y=True)
search = GridSearchCV(SVC(), {"C": [0.1, 1, 10, 100], "gamma": [1e-4, 1e-3, 1e-2]}, cv=5)
print("accuracy:", cross_val_score(search, X, y, cv=5).mean())
```

## Fix safety
`search.best_score_` becomes `cross_val_score(search, X, y, cv=...).mean()`: the
search's own rows, cross-validated around the whole search (nested cross-validation),
with its own `cv` and `scoring`. A name bound to several searches in turn gets, at each
report, the search it holds there; a search inside a helper is fixed there, with the
helper's own names. Unsafe: it runs the search once per outer fold, which can take long.
An Optuna objective that scores the held-out parts of the module's `train_test_split`
tunes on a part split off the training side instead: the same split, with the same
options, of the training parts, bound to the objective as parameter defaults, so its
body is unchanged. `study.best_value` becomes that objective run once with
`optuna.trial.FixedTrial(study.best_params)` on the parts it read before, which the
search no longer sees. Unsafe: the search tunes on fewer rows. Any other `best_value`
(an objective that cross-validates all rows) gets no fix.

## Known limitations
When a line after the report could not be parsed (an unfinished homework template, a
skipped cell), the honest score may be on it, and the rule is silent. So it is when the
search learns from names the file never binds that name a training part (`X_train` in a
script cut from a longer procedure) and the file reads no held-out part: the code that
scores the tuned model on the rest is elsewhere.
`search.best_estimator_`, refitted or not, is the tuned model, also when it is kept on
an object (`self.model`) that a branch may set to a default model instead. Any score of
a model fitted after the search (or of any search's model) on rows disjoint
from the search's rows counts as the honest evaluation, and so does a score of the tuned
model, or of a model built with the search's chosen settings (`best_params_`,
`study.best_params`), on other rows of the same data (a date window the analysis cannot
tell apart from the search's). A search over a single setting
(`{"C": [10]}`, `n_iter=1`) chooses nothing and is silent, and so is a report inside a
function that nothing in the file calls. LightGBMTunerCV's `best_score` and a printed
`study.best_trial` are not followed. A search object handed in from elsewhere (a
parameter) is not known to be one. A search on the training part of a split the file
cannot read (a project function), whose held-out parts the code binds only to names
marked unused (`X_train, _X_test, y_train, _y_test = make_split(...)`), is silent: the
test part is kept for other code, which scores the tuned model there. So is a search on
a file saved as a split's training part (`X_train.csv`) when the file reads no other
part: a tuning notebook beside the script that tests. So is a best score only printed
(not called a test or left-out score) when a model fitted on the searched table then
predicts a table read whole whose predictions nothing scores, and the file scores no
held-out part: a competition's test file, scored where the predictions are submitted (a
best score stored in a leaderboard of models is still a result).
Reporting means
printing, logging (`logging`, `mlflow`, `wandb`, a logger's methods), returning,
appending to or storing in a container; a best score only compared with others is not
reported.

## References
- Cawley and Talbot, On over-fitting in model selection and subsequent selection bias in performance evaluation, JMLR, 2010.
- scikit-learn, Nested versus non-nested cross-validation: https://scikit-learn.org/stable/auto_examples/model_selection/plot_nested_cross_validation_iris.html
"""
from leaklint.analysis.facts import disjoint_rows
from leaklint.analysis.libraries import SEARCH_CLASSES, lib_key
from leaklint.analysis.specs import CallSpec, FuncRef
from leaklint.ruleset import Hit, combined, model_pieces, short

CODE = "LL304"
NAME = "tuning-score-reported"
SUMMARY = "a search's best cross-validated score is reported as the model's performance"
HELP = "report a score on rows the search never saw: score the best estimator on a held-out split, or cross-validate the whole search (nested CV)"
DEFAULT = True
SEVERITY = "error"
CATALOG = (
    "sklearn.model_selection.GridSearchCV",
    "sklearn.model_selection.RandomizedSearchCV",
    "sklearn.model_selection.HalvingGridSearchCV",
    "sklearn.model_selection.HalvingRandomSearchCV",
    "optuna.create_study",
)


def check(ctx):
    facts = ctx.facts
    first = {}
    for report in facts.tuning_reports:
        if report.span.path is None and (report.search not in first or _before(report.span, first[report.search].span)):
            first[report.search] = report
    hits = []
    for search_id, report in sorted(first.items()):
        event = facts.learns[search_id]
        submitted = report.how == "printed" and not report.held_out and _predicts_new_table(event, facts)
        if report.built in facts.nested or _nested_beside(event, facts) or _scored_elsewhere(event, facts) or submitted \
                or _test_set_aside(event, facts) or _test_saved_apart(event, facts) or _part_of_a_fragment(event, facts) \
                or _maximises_a_loss(event):
            continue
        if any(line > report.span.line for line in facts.unread_lines) and report.span.path is None:
            continue  # code after the report could not be read: it may score the model on held-out rows
        what = (
            f"the best value of the optuna study optimised at {ctx.where(event.span)}"
            if event.kind == "search"
            else f"the best cross-validated score of the {short(event.qualname)} fitted on {event.data} at {ctx.where(event.span)}"
        )
        message = (
            f"{what} is {report.how} as a result, and no model is scored on rows the search never saw; "
            "the configuration was chosen by the same scores, so the best of them is optimistic"
        )
        related = ((event.span, "the search runs here"),)
        search = event.procedure.get("step") if event.kind == "fit" else None
        procedure = {}
        if search is not None:
            built = event.procedure.get("origins", {}).get("step", event.span)
            # the search's estimator (a Pipeline's last step) and the cv and scoring it was built with
            procedure = {"search": search, "origins": {"split": built, "metric": built}}
            if "candidates" in event.procedure:  # counted from the grid's display
                procedure["candidates"] = event.procedure["candidates"]
            procedure = combined(procedure, model_pieces(event))
        hits.append(Hit(report.span, message, related, procedure, {"search": event.id}))
    return hits


def _maximises_a_loss(search) -> bool:
    """``scoring=make_scorer(mean_squared_error)``: scikit-learn's errors, losses and
    deviances are lower-is-better, and a scorer made of one without
    ``greater_is_better=False`` has the search pick the largest."""
    spec = search.procedure.get("step")
    scorer = spec.kwarg("scoring") if isinstance(spec, CallSpec) else None
    if not (isinstance(scorer, CallSpec) and scorer.qualname == "sklearn.metrics.make_scorer" and scorer.args):
        return False
    metric = scorer.args[0]
    return isinstance(metric, FuncRef) and metric.qualname.startswith("sklearn.metrics.") \
        and metric.qualname.endswith(LOSS_SUFFIXES) and scorer.kwarg("greater_is_better", True) is True


# scikit-learn's naming: a metric ending so is lower-is-better
LOSS_SUFFIXES = ("_error", "_loss", "_deviance")


def _nested_beside(search, facts) -> bool:
    """A search of the same model (or one the analysis cannot name) is cross-validated whole
    on the same rows elsewhere in the file: the file gives the honest number of tuning it
    too (a lesson setting ``best_score_`` beside the nested estimate)."""
    return any(rows & search.rows and (model is None or search.model is None or model == search.model)
               for model, rows in facts.nested.values())


def _predicts_new_table(search, facts) -> bool:
    """After the search, a model fitted on the searched table predicts the rows of another
    table read whole (no part of a split) and nothing scores those predictions: a
    competition's test file, scored where the predictions are submitted."""
    searched = {r.root for r in search.rows}
    if any(ev.scored and any(r.side is not None and r.side.held_out for r in ev.rows) for ev in facts.evaluations):
        return False  # the file's own held-out scores are its results
    return bool(searched) and any(
        not ev.scored and ev.id > search.id and ev.rows
        and all(r.side is None and r.root not in searched and r.root in facts.file_roots for r in ev.rows)
        and any(r.root in searched for f in ev.fits if f in facts.learns for r in facts.learns[f].rows)
        for ev in facts.evaluations)


def _test_set_aside(search, facts) -> bool:
    """The search learns from the training part of a split the file cannot read, whose
    held-out parts the code binds only to names it marks unused (``X_train, _X_test, ...``):
    they are kept for code elsewhere, which scores the tuned model."""
    parts = [facts.named_parts.get(r.root) for r in search.rows]
    if not parts or any(p is None or p[0] != "train" for p in parts):
        return False
    wholes = {p[1] for p in parts}
    held = [root for root, (part, whole) in facts.named_parts.items() if part != "train" and whole in wholes]
    return bool(held) and all(root in facts.set_aside for root in held)


def _test_saved_apart(search, facts) -> bool:
    """The search learns from a file saved as the training part of a split (``X_train.csv``)
    and the file reads no other part: the held-out part was saved for code elsewhere,
    which scores the tuned model (a tuning notebook beside a training script)."""
    return _only_training_parts(search, facts.part_files)


def _part_of_a_fragment(search, facts) -> bool:
    """The search learns from names the file never binds and that name a training part
    (``grid.fit(X_train, y_train)`` in a script cut from a longer procedure), and reads no
    held-out part: the code that split the rows, and scores the tuned model on the rest,
    is elsewhere."""
    return _only_training_parts(search, facts.free_parts)


def _only_training_parts(search, parts: dict) -> bool:
    """The search's rows include training parts in ``parts`` (root -> the part a name says
    it is; its other rows are features the code derived where the analysis cannot follow),
    and ``parts`` holds no other part."""
    roots = {r.root for r in search.rows}
    return any(parts.get(root) == "train" for root in roots) and set(parts.values()) == {"train"}


def _before(a, b) -> bool:
    return (a.line, a.column) < (b.line, b.column)


def _scored_elsewhere(search, facts) -> bool:
    """After the search, some model is scored on rows the search never saw (a held-out
    split, a test file), or a metric is computed on such rows
    (``roc_auc_score(y_test, best.predict(X_test))``). A baseline tested before the
    search says nothing about the tuned model."""
    # after the search, or a tuned model (any search's) anywhere in the file
    later = [ev for ev in facts.evaluations if ev.id > search.id or any(_is_search(facts, f) for f in ev.fits)]
    if any(ev.scored and ev.rows and disjoint_rows(search.rows, ev.rows) for ev in later):
        return True
    # the tuned model (or one built with the search's chosen settings, ``**study.best_params``)
    # scored on other rows of the same data (a date cutoff the analysis cannot tell apart
    # from the search's rows)
    if any(ev.scored and _tuned_by(facts, ev.fits, search.id) and ev.data != search.data for ev in later):
        return True
    # the same model tuned again later on a training side and scored on rows that search
    # never saw: the file gives the honest number too (a lesson showing best_score_ first)
    if search.model is not None and any(
        ev.scored and ev.id > search.id and any(_retuned(facts, f, search) and disjoint_rows(facts.learns[f].rows, ev.rows)
                                               for f in ev.fits)
        for ev in facts.evaluations
    ):
        return True
    if any(order > search.id and rows and disjoint_rows(search.rows, rows) for order, rows, _ in facts.metric_rows):
        return True
    # the tuned model given with other rows to a function the analysis does not follow (a
    # project module's evaluate_model, a display of its predictions): it may be scored there,
    # also when it is given its training rows beside them (``evaluate(best, X_tr, y_tr, X_te, y_te)``)
    return any(order > search.id and rows and _tuned_by(facts, fits, search.id)
               and (any(disjoint_rows(search.rows, {r}) for r in rows)
                    or (search.data not in texts and not _same_side(search.rows, rows)))
               for order, fits, rows, texts in facts.handed_models)


def _same_side(searched, rows) -> bool:
    """``rows`` are known to be among the search's own: sides of a split it learned from
    (other names for them, inside a helper, do not make them other rows)."""
    return bool(rows) and all(r.side is not None for r in rows) and rows <= searched


def _retuned(facts, fit_id, search) -> bool:
    event = facts.learns.get(fit_id)
    return event is not None and event.id > search.id and _is_search(facts, fit_id) and event.model == search.model


def _tuned_by(facts, fits, search_id) -> bool:
    return search_id in fits or any(search_id in facts.learns[f].tuned for f in fits if f in facts.learns)


def _is_search(facts, fit_id) -> bool:
    event = facts.learns.get(fit_id)
    return event is not None and (event.kind == "search" or lib_key(event.qualname) in SEARCH_CLASSES)
