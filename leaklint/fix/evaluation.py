"""Fixes of evaluation mistakes: a step refitted on the held-out rows (LL301), a model
fitted before the split (LL302), a search's own score reported (LL304), stopping chosen
on the test rows (LL305)."""
from __future__ import annotations

import ast

from ..analysis.masks import column_name
from ..findings import Fix, Op
from .common import (SAFE, SELECTION, SPLITTERS, UNSAFE, constructor, fact, is_search, search_constructor, split_call,
                     split_function)
from .tables import stat_table
from .tree import NoFix, Tree, argument, call_name, snake


# ------------------------------------------------------------ LL301: refitted on the held-out side
def refit_fix(hit, facts, t: Tree) -> Fix:
    event = facts.learns[fact(hit, "learn")]
    if event.site is None and event.kind == "stat":
        return _held_out_statistic(event, facts, t)
    if event.site is not None or event.kind != "fit":
        raise NoFix
    call = t.call(event.span)
    method = call_name(call)
    if not isinstance(call.func, ast.Attribute) or not call.args or method not in ("fit", "fit_transform"):
        raise NoFix
    recv, data = call.func.value, call.args[0]
    out = call
    if method == "fit":
        attribute, outer = t.parent.get(call), t.parent.get(t.parent.get(call))
        if isinstance(outer, ast.Call) and outer.func is attribute and call_name(outer) == "transform":
            out, method = outer, "fit_transform"
    trained = _trained_twin(event, call, recv, facts, t)
    if trained is None or _already_applied(data, trained, call, t):
        raise NoFix
    if isinstance(recv, ast.Name):
        twin = trained.func.value.id
        if method == "fit_transform":
            ops = [t.replace(out, f"{recv.id}.transform({t.source(data)})")]
        elif isinstance(t.parent.get(call), ast.Expr):
            ops = [t.op("delete", t.parent.get(call))]
        else:
            ops = [t.replace(call, recv.id)]
        if twin == recv.id:
            ops += [t.op("delete", stmt) for stmt in _fresh_copies(recv.id, trained, call, t)]
            return Fix(SAFE, f"Use {recv.id} as fitted on the training side: transform the held-out rows", tuple(ops))
        # its own copy, built the same way: the copy fitted on the training side takes its place
        ops.append(t.replace(constructor(recv.id, call, t), twin))
        return Fix(UNSAFE, f"Use {twin}, built the same way and fitted on the training side: transform the "
                   "held-out rows with it", tuple(ops))
    if method != "fit_transform":
        raise NoFix
    train_stmt = t.statement(trained)
    name = t.fresh(snake(call_name(recv)))
    ops = [
        t.op("before", train_stmt, f"{name} = {t.source(recv)}"),
        t.replace(trained.func.value, name),
        t.replace(out, f"{name}.transform({t.source(data)})"),
    ]
    return Fix(SAFE, f"Fit {call_name(recv)} once on the training side and transform the held-out rows with it",
               tuple(ops))


def _held_out_statistic(event, facts, t: Tree) -> Fix:
    """``df_test.age.fillna(df_test.age.median())``: the statistic of the training side that
    the same ``train_test_split`` made (``df_train.age.median()``)."""
    call = t.call(event.span)
    root = stat_table(call, t)
    sides = {r.side.split for r in event.rows if r.side is not None and r.side.held_out}
    if len(sides) != 1:
        raise NoFix
    stmt, split, targets = split_call(facts.splits[sides.pop()], t)
    bound = t.binding(root.id, call)
    if root.id not in targets[1::2] or bound is None or t.parent.get(bound) is not stmt.targets[0]:
        raise NoFix  # not the held-out part as the split bound it
    twin = targets[targets.index(root.id) - 1]
    last = t.binding(twin, call)
    owner = t.parent.get(last) if last is not None else None
    if owner is not stmt.targets[0] and not (isinstance(owner, ast.Assign) and twin in t.names_in(owner.value)):
        raise NoFix  # the name holds something other than the training part by now
    return Fix(UNSAFE, f"Compute the {event.qualname} on the training side ({twin}) and apply it to the held-out rows",
               (t.replace(root, twin),))


def _trained_twin(event, call, recv, facts, t: Tree):
    """The latest earlier fit of the same step (the same variable, or a constructor written the
    same way) on training rows only: a split's training side, or the rows a model was fitted
    on that is then scored on what the refit learned (held-out rows no split names)."""
    trained = [facts.learns[f].rows for ev in facts.evaluations if event.id in ev.learned
               for f in ev.fits if f in facts.learns]
    best = None
    for other in facts.learns.values():
        if (other.kind != "fit" or other.site is not None or other.span.path is not None
                or other.span.line >= event.span.line or not other.rows
                or not (all(r.side is not None and not r.side.held_out for r in other.rows) or other.rows in trained)):
            continue
        try:
            twin = t.call(other.span)
        except NoFix:
            continue
        if call_name(twin) not in ("fit", "fit_transform") or not isinstance(twin.func, ast.Attribute):
            continue
        mine = twin.func.value
        if isinstance(recv, ast.Name):
            same = isinstance(mine, ast.Name) and (_fresh_copies(recv.id, twin, call, t) is not None if mine.id == recv.id
                                                   else _built_alike(mine.id, recv.id, twin, call, t))
        else:
            same = isinstance(recv, ast.Call) and isinstance(mine, ast.Call) and t.source(mine) == t.source(recv)
            same = same and call_name(twin) == "fit_transform"
        if same and (best is None or twin.lineno > best.lineno):
            best = twin
    return best


def _already_applied(data, twin, call, t: Tree) -> bool:
    """The held-out rows the refit reads were already transformed by the training fit
    (``Xte = scaler.transform(Xte)``, then ``Xte = sc.fit_transform(Xte)``): applying it
    again would transform them twice."""
    if not (isinstance(data, ast.Name) and isinstance(twin.func.value, ast.Name)):
        return False
    bound = t.binding(data.id, call)
    stmt = t.parent.get(bound) if bound is not None else None
    value = stmt.value if isinstance(stmt, ast.Assign) else None
    return isinstance(value, ast.Call) and call_name(value) == "transform" and isinstance(value.func, ast.Attribute) \
        and isinstance(value.func.value, ast.Name) and value.func.value.id == twin.func.value.id


def _fresh_copies(name: str, twin, call, t: Tree):
    """The statements between the training fit ``twin`` and the refit ``call`` that bind
    ``name`` to a new step built as before (``scaler = StandardScaler()`` again), when nothing
    else writes it and nothing reads it from there to the refit; None otherwise."""
    first = constructor(name, twin, t)
    copies = []
    for node in t.names.get(name, ()):
        if not twin.lineno < getattr(node, "lineno", 0) < call.lineno:
            continue
        stmt = t.parent.get(node)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if t.mutated(node) or (copies and not (isinstance(stmt, ast.Attribute) and stmt.attr in FIT_METHODS)):
                return None
            continue
        if first is None or not (isinstance(stmt, ast.Assign) and stmt.targets == [node]
                                 and t.source(stmt.value) == t.source(first)):
            return None
        copies.append(stmt)
    return copies


FIT_METHODS = frozenset({"fit", "fit_transform"})


def _built_alike(other: str, name: str, twin, call, t: Tree) -> bool:
    """``name`` is a step built as ``other`` was (``scaler_test = MinMaxScaler()`` beside
    ``scaler_train = MinMaxScaler()``), read nowhere before its refit, and ``other`` keeps its
    training fit until then."""
    mine, theirs = constructor(name, call, t), constructor(other, twin, t)
    if mine is None or theirs is None or t.source(mine) != t.source(theirs):
        return False
    built = t.statement(mine)
    if any(node.lineno < call.lineno for node in t.loads(name, built.end_lineno)):
        return False
    return not t.written(other, twin.lineno, call.lineno) and not any(
        isinstance(t.parent.get(n), ast.Attribute) and t.parent.get(n).attr in FIT_METHODS
        for n in t.loads(other, twin.lineno, call.lineno + 1) if n is not twin.func.value)


# ------------------------------------------------------------ LL302: a model fitted before the split
def fit_after_split_fix(hit, facts, t: Tree) -> Fix:
    if "resubstituted" in hit.basis:
        return _out_of_fold_fix(hit, facts, t)
    event = facts.learns[fact(hit, "learn")]
    split = facts.splits[fact(hit, "split")]
    if event.site is not None or event.kind != "fit":
        raise NoFix
    call = t.call(event.span)
    if call_name(call) != "fit" or len(call.args) != 2 or call.keywords:
        raise NoFix
    fit_stmt = t.statement(call)
    if isinstance(fit_stmt, ast.Assign) and fit_stmt.value is call and len(fit_stmt.targets) == 1 \
            and isinstance(fit_stmt.targets[0], ast.Name):
        model = fit_stmt.targets[0].id
    elif isinstance(fit_stmt, ast.Expr) and fit_stmt.value is call and isinstance(call.func.value, ast.Name):
        model = call.func.value.id
    else:
        raise NoFix
    stmt, split_node, targets = split_call(split, t)
    sources = [t.source(a) for a in split_node.args]
    if stmt.end_lineno < fit_stmt.lineno:  # fitted on the rows already split: on their training side
        return _fit_on_training_side(call, model, stmt, sources, targets, t)
    items, index = t.block(fit_stmt)
    if t.block(stmt)[0] is not items or t.block(stmt)[1] <= index or not t.alone(fit_stmt):
        raise NoFix
    swaps = {}
    for arg in call.args:
        swaps[arg] = _training_part(arg, sources, targets, t)
        t.steady(arg, fit_stmt.end_lineno, stmt.lineno)
    if t.loads(model, fit_stmt.end_lineno, stmt.lineno) or t.written(model, fit_stmt.end_lineno, stmt.lineno):
        raise NoFix
    moved = t.spliced(fit_stmt, swaps)
    ops = (t.op("delete", fit_stmt), t.op("insert", stmt, moved))
    return Fix(UNSAFE, "Fit the model on the training side, after the split (it now learns from fewer rows)", ops)


def _training_part(arg, sources: list, targets: list, t: Tree) -> str:
    """The name the split binds to the training side of the rows ``arg`` reads (``X_train``
    for ``X`` of ``train_test_split(X, y)``); NoFix when the split does not split them."""
    text = t.source(arg)
    if text not in sources:
        raise NoFix
    return targets[2 * sources.index(text)]


def _fit_on_training_side(call, model: str, split_stmt, sources: list, targets: list, t: Tree) -> Fix:
    """``model.fit(X, y)`` after ``X_train, X_test, y_train, y_test = train_test_split(X, y)``
    with X and y unchanged since: the model learns from the training parts, and its later
    ``model.score(X, y)`` (its training score) follows them."""
    if t.scope_of(call) is not t.scope_of(split_stmt):
        raise NoFix
    parts = {}
    for arg in call.args:
        part = _training_part(arg, sources, targets, t)
        t.steady(arg, split_stmt.end_lineno, call.lineno)
        if not _transformed_only(part, split_stmt.end_lineno, call.lineno, t):
            raise NoFix  # the training part changed since (resampled, filtered): not the rows X held
        parts[t.source(arg)] = part
    ops = [t.replace(arg, parts[t.source(arg)]) for arg in call.args]
    fit_stmt = t.statement(call)
    for node in t.loads(model, fit_stmt.end_lineno, _next_fit(model, fit_stmt, t)):
        score = t.parent.get(t.parent.get(node))
        if isinstance(score, ast.Call) and call_name(score) == "score" and score.func.value is node \
                and [t.source(a) for a in score.args] == list(parts):
            for arg in score.args:
                t.steady(arg, fit_stmt.end_lineno, score.lineno)
                ops.append(t.replace(arg, parts[t.source(arg)]))
    return Fix(UNSAFE, "Fit the model on the training side of the split (it now learns from fewer rows)", tuple(ops))


def _transformed_only(name: str, after: int, before: int, t: Tree) -> bool:
    """Between the lines, ``name`` is bound again only by a step's transform of itself
    (``X_train = scaler.fit_transform(X_train)``): the same rows, as the model should get them."""
    for node in t.names.get(name, ()):
        if not after < getattr(node, "lineno", 0) < before or (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
            continue
        stmt = t.parent.get(node)
        value = getattr(stmt, "value", None)
        if not (isinstance(stmt, ast.Assign) and stmt.targets == [node] and isinstance(value, ast.Call)
                and call_name(value) in ("transform", "fit_transform") and len(value.args) == 1
                and isinstance(value.args[0], ast.Name) and value.args[0].id == name):
            return False
    return True


# Packages whose models follow scikit-learn's estimator API (clone, fit, predict).
SKLEARN_API = frozenset({"sklearn", "xgboost", "lightgbm", "catboost", "imblearn"})
OUT_OF_FOLD = {"predict": "", "predict_proba": ', method="predict_proba"',
               "decision_function": ', method="decision_function"'}


def _out_of_fold_fix(hit, facts, t: Tree) -> Fix:
    """A model scored on the rows it was fitted on: each of those scores is computed from
    out-of-fold predictions instead (``cross_val_predict(model, X, y, cv=5)`` for
    ``model.predict(X)``, ``cross_val_score(model, X, y, cv=5).mean()`` for
    ``model.score(X, y)``); the fitted model itself is left as it is."""
    event = facts.learns[fact(hit, "learn")]
    if event.site is not None or event.kind != "fit" or event.qualname.split(".")[0] not in SKLEARN_API:
        raise NoFix
    fit = t.call(event.span)
    if call_name(fit) != "fit" or len(fit.args) != 2 or fit.keywords or not isinstance(fit.func, ast.Attribute):
        raise NoFix
    X, y = (t.source(a) for a in fit.args)
    ops, functions = [], set()
    for evaluation in (ev for ev in facts.evaluations if ev.id in hit.basis["resubstituted"]):
        call = t.call(evaluation.span)
        method = call_name(call)
        if not isinstance(call.func, ast.Attribute) or call.keywords:
            raise NoFix
        if call.func.value is fit:  # model.fit(X, y).score(X, y): the fitted model is the fit's value
            model = t.source(fit)
        else:
            model = _fitted_name(fit, t)
            if not (isinstance(call.func.value, ast.Name) and call.func.value.id == model and call.lineno > fit.end_lineno
                    and t.scope_of(call) is t.scope_of(fit)) or t.written(model, fit.end_lineno, call.lineno):
                raise NoFix
            if any(t.written(name, fit.end_lineno - 1, call.lineno + 1) for name in t.names_in(fit) - {model}):
                raise NoFix
        if method == "score" and [t.source(a) for a in call.args] == [X, y]:
            ops.append(t.replace(call, f"cross_val_score({model}, {X}, {y}, cv=5).mean()"))
            functions.add("cross_val_score")
        elif method in OUT_OF_FOLD and [t.source(a) for a in call.args] == [X]:
            ops.append(t.replace(call, f"cross_val_predict({model}, {X}, {y}, cv=5{OUT_OF_FOLD[method]})"))
            functions.add("cross_val_predict")
        else:
            raise NoFix
    if not ops:
        raise NoFix
    for name in sorted(functions):
        if t.bound(name) and t.imported_from(name) != SELECTION:
            raise NoFix
        if not t.bound(name):
            ops.append(Op("import", code=f"{SELECTION}:{name}"))
    return Fix(UNSAFE, "Score out-of-fold predictions (5-fold cross-validation) instead of the rows the model was "
               "fitted on (the fitted model is unchanged)", tuple(ops))


def _fitted_name(fit: ast.Call, t: Tree) -> str:
    """The name the fitted model is read by: ``model`` of ``model.fit(X, y)`` (fitted in
    place, whatever the statement does with the value) or of ``model = Model().fit(X, y)``."""
    stmt = t.statement(fit)
    if isinstance(fit.func.value, ast.Name):
        return fit.func.value.id
    if isinstance(stmt, ast.Assign) and stmt.value is fit and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    raise NoFix


# ------------------------------------------------------------ LL304: the tuning score reported
def nested_cv_fix(hit, facts, t: Tree) -> Fix:
    event = facts.learns[fact(hit, "search")]
    if event.site is None and event.kind == "search":
        return _study_fix(hit, event, facts, t)
    if event.kind != "fit":  # (a search in a helper of the file is fixed there, with its own names)
        raise NoFix
    fit = t.call(event.span)
    if call_name(fit) != "fit" or not isinstance(fit.func, ast.Attribute):
        raise NoFix
    fit_stmt = t.statement(fit)
    if isinstance(fit.func.value, ast.Name):
        search_name = fit.func.value.id
        search = search_constructor(search_name, fit, t)
    elif isinstance(fit.func.value, ast.Call) and is_search(fit.func.value, t) and isinstance(fit_stmt, ast.Assign) \
            and fit_stmt.value is fit and len(fit_stmt.targets) == 1 and isinstance(fit_stmt.targets[0], ast.Name):
        search_name, search = fit_stmt.targets[0].id, fit.func.value  # gs = GridSearchCV(...).fit(X, y)
    else:
        raise NoFix
    x, y = argument(fit, 0, "X"), argument(fit, 1, "y")
    if search is None or x is None or y is None or len(fit.args) + len(fit.keywords) != 2:
        raise NoFix
    names = {search_name}
    if isinstance(fit_stmt, ast.Assign) and fit_stmt.value is fit and len(fit_stmt.targets) == 1 \
            and isinstance(fit_stmt.targets[0], ast.Name):
        names.add(fit_stmt.targets[0].id)  # grid_result = grid.fit(X, y): fit returns the search itself
    score = _best_score(hit.span, names, "best_score_", t)
    for node in (x, y, fit.func.value):
        t.steady(node, fit.end_lineno, score.lineno)
    settings = ""
    for keyword in search.keywords:  # the outer folds split and score as the search's own
        if keyword.arg in ("cv", "scoring"):
            t.steady(keyword.value, search.end_lineno, score.lineno)
            settings += f", {keyword.arg}={t.source(keyword.value)}"
    nested = f"cross_val_score({search_name}, {t.source(x)}, {t.source(y)}{settings}).mean()"
    ops = _reported(score, names, "best_score_", nested, "nested_score", t)
    if t.bound("cross_val_score"):
        if t.imported_from("cross_val_score") != SELECTION:
            raise NoFix
    else:
        ops.append(Op("import", code=f"{SELECTION}:cross_val_score"))
    return Fix(UNSAFE, "Report a nested cross-validation score of the whole search (it runs the search once per fold)",
               tuple(ops))


def _study_fix(hit, event, facts, t: Tree) -> Fix:
    """An Optuna objective scoring the held-out parts of the module's split: it tunes on a
    part split off the training side instead (the parts it reads become parameters that
    default to the new ones), and the best configuration's score is that objective run
    once, on the parts it was given before, which the search then never saw."""
    optimize = t.call(event.span)
    objective = argument(optimize, 0, "func")
    if call_name(optimize) != "optimize" or not isinstance(optimize.func, ast.Attribute) \
            or not isinstance(optimize.func.value, ast.Name) or not isinstance(objective, ast.Name):
        raise NoFix
    study = optimize.func.value.id
    define = t.binding(objective.id, optimize)
    args = getattr(define, "args", None)
    if not isinstance(define, ast.FunctionDef) or t.parent.get(define) is not t.tree or t.scope_of(optimize) is not t.tree \
            or args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or len(args.args) != 1:
        raise NoFix
    held_out = {r.side.split for r in event.rows if r.side is not None and r.side.held_out}
    if len(held_out) != 1:
        raise NoFix
    stmt, split, targets = split_call(facts.splits[held_out.pop()], t)
    if t.parent.get(stmt) is not t.tree or stmt.lineno > define.lineno:
        raise NoFix
    stores = {n.id for n in ast.walk(define) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    read = [name for name in targets if name in t.names_in(define) and name not in stores]
    if not set(read) & set(targets[1::2]) or any(t.written(name, stmt.end_lineno, optimize.lineno + 1) for name in read):
        raise NoFix  # the objective does not score the held-out part, or the parts change before the search
    if any(isinstance(d, ast.FunctionDef) and d is not define and set(read) & t.names_in(d)
           for node in ast.walk(define) if isinstance(node, ast.Name) for d in t.names.get(node.id, ())):
        raise NoFix  # a helper the objective calls reads the parts itself
    score = _best_score(hit.span, {study}, "best_value", t)
    trial = _fixed_trial(t)
    tuned = {name: t.fresh(f"{name}_tune") for name in targets}
    options = ""
    for keyword in split.keywords:
        value = t.source(keyword.value)
        if keyword.arg == "stratify":  # the labels of the rows split again: their training part
            labels = [t.source(a) for a in split.args]
            if value not in labels:
                raise NoFix
            value = targets[2 * labels.index(value)]
        options += f", {keyword.arg}={value}"
    again = f"{', '.join(tuned[name] for name in targets)} = {t.source(split.func)}({', '.join(targets[0::2])}{options})"
    parameters = "".join(f", {name}={tuned[name]}" for name in read)
    honest = f"{objective.id}({trial[0]}({study}.best_params){''.join(f', {name}={name}' for name in read)})"
    ops = [t.op("insert", stmt, again), t.op("params", args.args[0], t.source(args.args[0]) + parameters), *trial[1]]
    ops += _reported(score, {study}, "best_value", honest, "held_out_score", t, long=True)
    return Fix(UNSAFE, f"Tune on a part split off the training side and report the best configuration's score on "
               f"{', '.join(name for name in read if name in targets[1::2])}, which the search no longer sees "
               f"(the objective runs once more)", tuple(ops))


def _fixed_trial(t: Tree) -> tuple:
    """(how to name Optuna's FixedTrial here, the Ops importing it)."""
    if t.module_of("optuna") == "optuna":
        return "optuna.trial.FixedTrial", ()
    if not t.bound("FixedTrial"):
        return "FixedTrial", (Op("import", code="optuna.trial:FixedTrial"),)
    if t.imported_from("FixedTrial") in ("optuna", "optuna.trial"):
        return "FixedTrial", ()
    raise NoFix


def _reported(score, names: set, attr: str, honest: str, name: str, t: Tree, long: bool = False) -> list:
    """Ops putting ``honest`` in the place of the reported ``score`` and of every later read
    of the same attribute until the name is bound again, or the code would print one figure
    and store the other; computed once under ``name`` when read more than once (or when
    the expression is ``long``)."""
    rebound = min((n.lineno for owner in names for n in t.names.get(owner, ()) if getattr(n, "lineno", 0) > score.lineno
                   and not (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))), default=None)
    later = [n for n in _best_scores(names, attr, t)
             if n.lineno > score.lineno and (rebound is None or n.lineno < rebound)]
    if any(t.scope_of(n) is not t.scope_of(score) for n in later):
        raise NoFix
    # (named in an f-string too: quotes cannot nest in one before 3.12)
    if not later and not long and not _in_fstring(score, t):
        return [t.replace(score, honest)]
    report = t.statement(score)
    if not t.alone(report):
        raise NoFix
    name = t.fresh(name)
    return [t.op("before", report, f"{name} = {honest}"), t.replace(score, name)] + [t.replace(n, name) for n in later]


def _in_fstring(node, t: Tree) -> bool:
    while node is not None:
        if isinstance(node, ast.JoinedStr):
            return True
        node = t.parent.get(node)
    return False


def _best_scores(names: set, attr: str, t: Tree) -> list:
    """Every ``search.best_score_`` (``attr``) read of the search under any of ``names``, in source order."""
    return sorted((n for n in ast.walk(t.tree) if isinstance(n, ast.Attribute) and n.attr == attr
                   and isinstance(n.value, ast.Name) and n.value.id in names and isinstance(n.ctx, ast.Load)),
                  key=lambda n: (n.lineno, n.col_offset))


def _best_score(span, names: set, attr: str, t: Tree):
    for node in _best_scores(names, attr, t):
        if ((span.line, span.column) <= (node.lineno, node.col_offset)
                and (node.end_lineno, node.end_col_offset) <= (span.end_line, span.end_column)):
            return node
    raise NoFix


# ------------------------------------------------------------ LL305: stopped on the test rows
SCORED = frozenset({"score", "predict", "predict_proba", "decision_function", "evaluate"})


def validation_split_fix(hit, facts, t: Tree) -> Fix:
    """A validation part split off the fit's own rows, right before the fit: the model stops
    on it, and the test rows only score it."""
    event = facts.learns[fact(hit, "learn")]
    if event.span.path is not None:
        raise NoFix  # the fit is in another module
    call = t.call(event.span)
    ordered = event.time is not None
    if event.site is not None:
        try:
            _sole_caller(call, t)
        except NoFix:
            # several callers: the helper is edited for all of them, so only a validation part
            # drawn as the helper's own split drew the watched rows will do (not one a caller's
            # time order suggests)
            ordered = False
    if call_name(call) == "train":
        train_set = argument(call, 1, "train_set") or argument(call, 1, "dtrain")
        watch = next((k.value for k in call.keywords if k.arg in ("valid_sets", "evals")), None)
        if watch is None and len(call.args) > 3:
            watch = call.args[3]  # xgb.train(params, dtrain, rounds, watchlist)
        return _native_validation_fix(call, train_set, watch, ordered, t)
    pool = argument(call, 0, "X")
    if call_name(call) == "fit" and isinstance(pool, ast.Name) and _is_container(pool, call, t):
        watch = next((k.value for k in call.keywords if k.arg == "eval_set"), None)
        return _native_validation_fix(call, pool, watch, ordered, t)  # CatBoost's fit(Pool, eval_set=Pool)
    x_node = argument(call, 0, "X") or argument(call, 0, "x") or argument(call, 0, "X_train")
    y_node = argument(call, 1, "y") or argument(call, 1, "y_train")
    watch = next((k for k in call.keywords if k.arg in ("eval_set", "validation_data")), None)
    if call_name(call) == "fit" and watch is not None and _fold_rows(x_node) and _fold_rows(y_node):
        return _fold_rows_validation_fix(call, x_node, y_node, watch, ordered, t)
    if call_name(call) != "fit" or not isinstance(y_node, ast.Name) or watch is None:
        raise NoFix
    if isinstance(x_node, (ast.List, ast.Tuple)):
        return _inputs_validation_fix(call, x_node, y_node, watch, ordered, t)
    if not isinstance(x_node, ast.Name):
        raise NoFix
    x_train, y_train = x_node.id, y_node.id
    fit_stmt = t.statement(call)
    watched, anchor = _watch_list(watch.value, fit_stmt, (x_train, y_train), t)
    pairs = [p for p in ast.walk(watched) if isinstance(p, (ast.Tuple, ast.List)) and len(p.elts) == 2
             and all(isinstance(e, ast.Name) for e in p.elts) and p.elts[0].id != x_train]
    if len(pairs) != 1 or not t.alone(anchor):
        raise NoFix
    training_scores = _training_scores(call, x_train, y_train, fit_stmt, t)
    (x_fit, x_val, y_fit, y_val), draw, imports = _validation_part([x_train, y_train], pairs[0].elts[0].id, call, t,
                                                                      ordered)
    ops = [t.op("before", anchor, draw), t.replace(x_node, x_fit), t.replace(y_node, y_fit),
           t.replace(pairs[0].elts[0], x_val), t.replace(pairs[0].elts[1], y_val), *imports]
    ops += [t.replace(n, {x_train: x_fit, y_train: y_fit}[n.id]) for n in ast.walk(watched)
            if isinstance(n, ast.Name) and n.id in (x_train, y_train)]
    # the model's training score stays the score on the rows it trained on
    ops += [t.replace(n, {x_train: x_fit, y_train: y_fit}[n.id]) for n in training_scores]
    return Fix(UNSAFE, "Stop on a validation part of the training rows, not on the test rows "
               "(the model now trains on fewer rows)", tuple(ops))


def _fold_rows(node) -> tuple:
    """(the table's name, the index's name) of ``X[tr]`` / ``X.iloc[tr]`` / ``y.loc[tr]``;
    () for any other expression."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name)):
        return ()
    table = node.value
    if isinstance(table, ast.Attribute) and table.attr in ("iloc", "loc"):
        table = table.value
    return (table.id, node.slice.id) if isinstance(table, ast.Name) else ()


def _fold_rows_validation_fix(call, x_node, y_node, watch, ordered: bool, t: Tree) -> Fix:
    """``m.fit(X.iloc[tr], y[tr], eval_set=[(X.iloc[va], y[va])])`` in a fold loop: the
    validation part is drawn from the fold's training rows, as the folds were drawn."""
    (x_table, index), (y_table, y_index) = _fold_rows(x_node), _fold_rows(y_node)
    fit_stmt = t.statement(call)
    x_text, y_text = t.source(x_node), t.source(y_node)
    if index != y_index or x_table == y_table or not t.alone(fit_stmt):
        raise NoFix
    pairs = [p for p in ast.walk(watch.value) if isinstance(p, (ast.Tuple, ast.List)) and len(p.elts) == 2
             and all(_fold_rows(e) for e in p.elts) and t.source(p.elts[0]) != x_text]
    if len(pairs) != 1 or [_fold_rows(e)[0] for e in pairs[0].elts] != [x_table, y_table]:
        raise NoFix
    held = _fold_rows(pairs[0].elts[0])[1]
    model = t.source(call.func.value) if isinstance(call.func, ast.Attribute) else None
    for node in ast.walk(t.parent.get(fit_stmt)):
        if isinstance(node, ast.Call) and node.lineno > fit_stmt.end_lineno and isinstance(node.func, ast.Attribute) \
                and t.source(node.func.value) == model and any(t.source(a) == x_text for a in node.args):
            raise NoFix  # the model's own training rows predicted later: they would now hold its validation part
    (x_fit, x_val, y_fit, y_val), draw, imports = _validation_part(
        [x_text, y_text], held, call, t, ordered, stems=[x_table, y_table])
    ops = [t.op("before", fit_stmt, draw), t.replace(x_node, x_fit), t.replace(y_node, y_fit),
           t.replace(pairs[0].elts[0], x_val), t.replace(pairs[0].elts[1], y_val), *imports]
    ops += [t.replace(n, {x_text: x_fit, y_text: y_fit}[t.source(n)]) for n in ast.walk(watch.value)
            if isinstance(n, ast.Subscript) and t.source(n) in (x_text, y_text)]
    return Fix(UNSAFE, "Stop on a validation part of the fold's training rows, not on the fold it is scored on "
               "(the model now trains on fewer rows)", tuple(ops))


def _inputs_validation_fix(call, x_node, y_node, watch, ordered: bool, t: Tree) -> Fix:
    """``model.fit([q1_train, q2_train], y_train, validation_data=([q1_test, q2_test], y_test))``:
    a model of several inputs; one draw splits every input and the labels alike."""
    inputs = [e.id for e in x_node.elts if isinstance(e, ast.Name)]
    fit_stmt = t.statement(call)
    watched, anchor = _watch_list(watch.value, fit_stmt, (*inputs, y_node.id), t)
    held = watched.elts[0] if isinstance(watched, ast.Tuple) and len(watched.elts) == 2 else None
    if not (inputs and len(inputs) == len(x_node.elts) and isinstance(held, (ast.List, ast.Tuple))
            and len(held.elts) == len(inputs) and all(isinstance(e, ast.Name) for e in held.elts)
            and isinstance(watched.elts[1], ast.Name) and t.alone(anchor)):
        raise NoFix
    parts, draw, imports = _validation_part([*inputs, y_node.id], held.elts[0].id, call, t, ordered)
    ops = [t.op("before", anchor, draw), *imports]
    ops += [t.replace(node, fit) for node, fit in zip([*x_node.elts, y_node], parts[0::2])]
    ops += [t.replace(node, val) for node, val in zip([*held.elts, watched.elts[1]], parts[1::2])]
    return Fix(UNSAFE, "Stop on a validation part of the training rows, not on the test rows "
               "(the model now trains on fewer rows)", tuple(ops))


def _watch_list(value, fit_stmt, training: tuple, t: Tree) -> tuple:
    """(the watched rows' expression, the statement the validation part is drawn before):
    the fit's own ``eval_set=[...]``, or the list a name bound just for it holds
    (``evals = [(X_test, y_test)]`` earlier in the same block, read only there)."""
    if not isinstance(value, ast.Name):
        return value, fit_stmt
    bound = t.binding(value.id, value)
    owner = _owner(bound, t)
    if not (isinstance(owner, ast.Assign) and owner.targets == [bound] and isinstance(owner.value, (ast.List, ast.Tuple))
            and t.block(owner)[0] is t.block(fit_stmt)[0] and len(t.loads(value.id, owner.lineno)) == 1):
        raise NoFix
    if any(t.written(name, owner.end_lineno, fit_stmt.lineno) for name in training):
        raise NoFix  # the training rows change between: the part drawn there would be of other rows
    return owner.value, owner


# the booster's own data containers: (data argument, label argument) names
CONTAINERS = {"Dataset": ("data", "label"), "DMatrix": ("data", "label"), "Pool": ("data", "label")}


def _sole_caller(node, t: Tree) -> ast.Call:
    """The one call of the helper of this file that holds ``node``, when the file calls it
    once and reads it nowhere else: editing the helper changes that one call. NoFix
    otherwise (other callers would change too, or the helper is handed elsewhere)."""
    helper = t.scope_of(node)
    if not isinstance(helper, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(t.parent.get(helper), ast.Module):
        raise NoFix
    reads = t.loads(helper.name)
    call = t.parent.get(reads[0]) if len(reads) == 1 else None
    if not isinstance(call, ast.Call) or call.func is not reads[0]:
        raise NoFix
    if sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in t.names.get(helper.name, ())) > 1:
        raise NoFix
    return call


def _binding(name: str, use, t: Tree):
    """The node that binds ``name`` for ``use``; for a parameter of a helper the file calls
    once, the binding of the name handed to it at that call; for a module's name a helper
    reads (an Optuna objective reading ``X_val``), its one binding in the module."""
    bound = t.binding(name, use)
    helper = t.scope_of(use)
    if bound is not None or not isinstance(helper, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return bound
    params = [a.arg for a in helper.args.posonlyargs + helper.args.args + helper.args.kwonlyargs]
    if name not in params:
        if t.scope_of(helper) is not t.tree or any(
                t.scope_of(n) is helper for n in t.names.get(name, ()) if not isinstance(n, ast.Name)
                or not isinstance(n.ctx, ast.Load)):
            return None  # a nested helper, or bound in the helper after this read
        stores = [n for n in t.names.get(name, ()) if (not isinstance(n, ast.Name) or not isinstance(n.ctx, ast.Load))
                  and t.scope_of(n) is t.tree]
        return stores[0] if len(stores) == 1 else None
    call = _sole_caller(use, t)
    index = params.index(name)
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    handed = call.args[index] if index < len(call.args) else next(
        (k.value for k in call.keywords if k.arg == name), None)
    return t.binding(handed.id, call) if isinstance(handed, ast.Name) else None


def _native_validation_fix(call, train_set, watch, ordered: bool, t: Tree) -> Fix:
    """``lgb.train(params, dtrain, valid_sets=[dtest])`` / ``xgb.train(..., evals=[(dtest, "test")])``
    / ``model.fit(train_pool, eval_set=test_pool)``: containers of a validation part of the
    training rows take the test container's place."""
    stmt = t.statement(call)
    if not isinstance(train_set, ast.Name) or watch is None:
        raise NoFix
    train_ctor, x_node, y_node = _container(train_set, call, t)
    if isinstance(watch, ast.Name) and _is_container(watch, call, t):
        watched, anchor = [watch], stmt  # valid_sets=dvalid: one set, not a list
    else:
        watch, anchor = _watch_list(watch, stmt, (x_node.id, y_node.id), t)
        if not isinstance(watch, (ast.List, ast.Tuple)):
            raise NoFix
        watched = [e.elts[0] if isinstance(e, ast.Tuple) and e.elts else e for e in watch.elts]
    if not t.alone(anchor):
        raise NoFix
    held_out = []
    for node in watched:
        if not isinstance(node, ast.Name):
            raise NoFix
        if node.id != train_set.id:
            held_out.append((node, *_container(node, call, t)))
    if len(held_out) != 1 or held_out[0][2].id == x_node.id:
        raise NoFix
    test_node, test_ctor, x_test, y_test = held_out[0]
    if call_name(call) == "fit":
        model = call.func.value if isinstance(call.func, ast.Attribute) else None
    else:
        model = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
    for node in t.loads(x_node.id, stmt.end_lineno):  # a training prediction would mix in the validation part
        parent = t.parent.get(node)
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and isinstance(model, ast.Name) \
                and isinstance(parent.func.value, ast.Name) and parent.func.value.id == model.id:
            raise NoFix
    (x_fit, x_val, y_fit, y_val), draw, imports = _validation_part([x_node.id, y_node.id], x_test.id, call, t, ordered)
    fit_set, val_set = t.fresh(train_set.id + "_fit"), t.fresh(train_set.id + "_val")
    reference = {k.value: fit_set for k in test_ctor.keywords if k.arg == "reference"
                 and isinstance(k.value, ast.Name) and k.value.id == train_set.id}
    new = [draw,
           f"{fit_set} = {t.spliced(train_ctor, {x_node: x_fit, y_node: y_fit})}",
           f"{val_set} = {t.spliced(test_ctor, {x_test: x_val, y_test: y_val, **reference})}"]
    ops = [t.op("before", anchor, "\n".join(new)), t.replace(train_set, fit_set), t.replace(test_node, val_set), *imports]
    ops += [t.replace(n, fit_set) for n in watched if n.id == train_set.id]  # still the training rows
    return Fix(UNSAFE, "Stop on a validation part of the training rows, not on the test rows "
               "(the model now trains on fewer rows)", tuple(ops))


def _is_container(name: ast.Name, use, t: Tree) -> bool:
    try:
        _container(name, use, t)
    except NoFix:
        return False
    return True


def _container(name: ast.Name, use, t: Tree) -> tuple:
    """(constructor, data node, label node) of ``name = lgb.Dataset(X, label=y)``, the
    last binding before ``use`` in its scope; NoFix for any other shape."""
    last = t.binding(name.id, use)
    stmt = t.parent.get(last)
    if not (isinstance(last, ast.Name) and isinstance(stmt, ast.Assign) and stmt.targets == [last]
            and isinstance(stmt.value, ast.Call) and call_name(stmt.value) in CONTAINERS):
        raise NoFix
    ctor = stmt.value
    data, label = argument(ctor, 0, "data"), argument(ctor, 1, "label")
    if not (isinstance(data, ast.Name) and isinstance(label, ast.Name)):
        raise NoFix
    for node in (data, label):
        t.steady(node, stmt.end_lineno, use.lineno)
    return ctor, data, label


def _training_scores(fit, x_train: str, y_train: str, fit_stmt, t: Tree) -> list:
    """The (X, y) nodes of later ``model.score(X_train, y_train)`` calls of the fitted
    model, to be pointed at the rows it now trains on; NoFix when its rows are predicted or
    scored some other way (a training score that could not follow them)."""
    model = fit.func.value if isinstance(fit.func, ast.Attribute) else None
    model_name = model.id if isinstance(model, ast.Name) else None
    nodes = []
    for node in t.loads(x_train, fit_stmt.end_lineno, _next_fit(model_name, fit_stmt, t)):
        parent = t.parent.get(node)
        if not (isinstance(parent, ast.Call) and node in parent.args and call_name(parent) in SCORED):
            continue
        receiver = parent.func.value if isinstance(parent.func, ast.Attribute) else None
        if not (isinstance(receiver, ast.Name) and receiver.id == model_name):
            continue  # another model, fitted on all of X_train
        args = parent.args
        if (call_name(parent) not in ("score", "evaluate") or len(args) < 2 or args[0] is not node
                or not (isinstance(args[1], ast.Name) and args[1].id == y_train)):
            raise NoFix
        nodes += args[:2]
    return nodes


def _next_fit(model: str, fit_stmt, t: Tree):
    """The first line after ``fit_stmt`` that binds ``model`` again or fits it again: the
    model's later reads up to there are of this fit (None: to the end)."""
    return min((n.lineno for n in t.names.get(model, ()) if getattr(n, "lineno", 0) > fit_stmt.end_lineno
                and (not isinstance(n, ast.Name) or not isinstance(n.ctx, ast.Load)
                     or isinstance(t.parent.get(n), ast.Attribute) and t.parent.get(n).attr == "fit")),
               default=None)


def _validation_part(names: list, test_name: str, fit, t: Tree, ordered: bool, stems=None) -> tuple:
    """(the names of each training part's fit and validation parts, ``(X_fit, X_val, y_fit,
    y_val)``, the statement drawing them from the training rows right before the fit, its
    import Ops): a fifth of the rows, drawn as the watched test rows ``test_name`` were; the
    latest fifth when the training rows were shown to be time-ordered (``ordered``) and the
    code does not show how the test rows were drawn."""
    if stems is None:
        stems = [_stem(name) for name in names]
        if len(set(stems)) < len(stems):  # train_x / train_y: the whole names tell the parts apart
            stems = names
    parts = tuple(t.fresh(stem + suffix) for stem in stems for suffix in ("_fit", "_val"))
    try:
        options = _draw_options(test_name, fit, t)
    except NoFix:
        if not ordered:
            raise
        options = "shuffle=False"
    func, imports = split_function(t.statement(fit), t)
    draw = f"{', '.join(parts)} = {func}({', '.join(names)}, test_size=0.2, {options})"
    return parts, draw, imports


def _threshold(key) -> bool:
    """``df[df["date"] >= cut]``, polars' ``pl.col("month") > cut``: rows on one side of a
    cut in one column, or between two cuts (``(d > a) & (d <= b)``)."""
    if isinstance(key, ast.BinOp) and isinstance(key.op, ast.BitAnd):
        return _threshold(key.left) and _threshold(key.right)
    if not (isinstance(key, ast.Compare) and len(key.ops) == 1 and isinstance(key.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))):
        return False
    column = key.left
    return isinstance(column, (ast.Subscript, ast.Attribute)) or isinstance(column, ast.Call) and call_name(column) == "col"


def _fold_number(key) -> bool:
    """``df[df.kfold == fold]``: the rows of one fold of a column of fold numbers."""
    return isinstance(key, ast.Compare) and len(key.ops) == 1 and isinstance(key.ops[0], ast.Eq) \
        and "fold" in (column_name(key.left) or "").lower()


def _owner(bound, t: Tree):
    """The statement that binds the name ``bound`` (through tuple targets)."""
    owner = t.parent.get(bound) if bound is not None else None
    while isinstance(owner, (ast.Tuple, ast.List)):
        owner = t.parent.get(owner)
    return owner


def _fold_options(loop: ast.For, t: Tree) -> str:
    """``for tr, te in splitter.split(X)``: a validation part drawn as the splitter draws its
    held-out folds (shuffled with its seed, else in order: the latest part)."""
    source = loop.iter
    while isinstance(source, ast.Call) and call_name(source) in ("enumerate", "tqdm", "list") and source.args:
        source = source.args[0]  # enumerate(kf.split(X), 1) counts from one; tqdm(...) shows progress
    if isinstance(source, ast.Name):  # folds = skf.split(X, y) bound before the loop
        owner = _owner(_binding(source.id, loop, t), t)
        source = owner.value if isinstance(owner, ast.Assign) and len(owner.targets) == 1 else None
    if not (isinstance(source, ast.Call) and call_name(source) == "split" and isinstance(source.func, ast.Attribute)
            and isinstance(source.func.value, (ast.Name, ast.Call))):
        raise NoFix
    made = source.func.value  # KFold(5, shuffle=True).split(X), or a splitter bound to a name
    if isinstance(made, ast.Name):
        owner = _owner(_binding(made.id, loop, t), t)
        made = owner.value if isinstance(owner, ast.Assign) and len(owner.targets) == 1 else None
    name = call_name(made) if isinstance(made, ast.Call) else None
    if name not in SPLITTERS:
        raise NoFix
    options = {k.arg: k.value for k in made.keywords}
    shuffled = "Shuffle" in name or (isinstance(options.get("shuffle"), ast.Constant) and options["shuffle"].value is True)
    if not shuffled:
        if "shuffle" in options and not isinstance(options["shuffle"], ast.Constant):
            raise NoFix
        return "shuffle=False"
    return _seeded(options, t)


def _seeded(options: dict, t: Tree) -> str:
    """A shuffled draw with the original's seed when it is a literal or a module's constant
    (``random_state=RANDOM_STATE``), else ``random_state=0``."""
    seed = options.get("random_state")
    if isinstance(seed, ast.Constant) and isinstance(seed.value, int):
        return f"random_state={seed.value}"
    stores = [n for n in t.names.get(seed.id, ()) if not (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))] \
        if isinstance(seed, ast.Name) else []
    if stores and all(t.scope_of(n) is t.tree for n in stores):
        return f"random_state={seed.id}"
    return "random_state=0"


def _stem(name: str) -> str:
    return name.split("_")[0] if "_" in name else name


def _draw_options(test_name: str, call, t: Tree, depth: int = 0) -> str:
    """How the validation part is drawn: as the ``train_test_split`` that made the watched
    rows drew them (its random_state, or ``shuffle=False`` for time-ordered rows: the
    latest part, as for rows sliced by position or taken past a cut in a column), followed
    back through assignments (``X_test_s = scaler.transform(X_test)``); NoFix when they
    were made some other way (read from another file), since a shuffled draw could then be
    the wrong one."""
    last = _binding(test_name, call, t)
    if not isinstance(last, ast.Name) or depth > 4:
        raise NoFix
    owner = _owner(last, t)
    if isinstance(owner, ast.For):
        return _fold_options(owner, t)
    if not isinstance(owner, ast.Assign):
        raise NoFix
    if isinstance(owner.value, ast.Call) and call_name(owner.value) == "train_test_split":
        options = {k.arg: k.value for k in owner.value.keywords}
        shuffle = options.get("shuffle")
        if isinstance(shuffle, ast.Constant) and shuffle.value is False:
            return "shuffle=False"
        return _seeded(options, t)
    if any(isinstance(n, ast.Subscript) and (isinstance(n.slice, ast.Slice) or _threshold(n.slice))
           or isinstance(n, ast.Call) and call_name(n) == "filter" and len(n.args) == 1 and _threshold(n.args[0])
           for n in ast.walk(owner.value)):
        return "shuffle=False"  # rows taken by position or past a cut (a series cut in time): the latest part
    if any(isinstance(n, ast.Subscript) and _fold_number(n.slice) for n in ast.walk(owner.value)):
        return "random_state=0"  # one fold of a column of fold numbers: folds drawn at random
    found = set()
    names = {n.id for n in ast.walk(owner.value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    # X.iloc[val_idx] in a fold loop: the fold indices say how the part was drawn, not how X was
    folds = {name for name in names if isinstance(_owner(t.binding(name, owner), t), ast.For)}
    for name in folds or names:
        try:
            found.add(_draw_options(name, owner, t, depth + 1))
        except NoFix:
            continue
    if len(found) != 1:
        raise NoFix
    return found.pop()


