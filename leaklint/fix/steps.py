"""Fixes of a step fitted on all rows (LL101-LL105): the step and the model in one
pipeline when the rows are cross-validated, the split first when they are split."""
from __future__ import annotations

import ast

from ..analysis.libraries import FIT_METHODS, FUNCTION_FORMS, FUNCTION_ONLY_KEYWORDS, PROGRESS_BARS, lib_key
from ..analysis.values import Side
from ..findings import Fix, Op
from .common import (CV_FUNCTIONS, IMBLEARN_PIPELINE, SAFE, SKLEARN_PIPELINE, UNSAFE, constructor, fact, inside,
                     search_constructor, split_call)
from .conditions import condition_early
from .positions import fit_on_head
from .rows import Draw
from .tables import rows_at, stat_table, table_root
from .tree import NoFix, Tree, argument, call_name, snake


def fitted_output(event, t: Tree) -> tuple:
    """(the fit call, the expression giving the step's output, "fit_transform" or
    "fit_resample") for ``recv.fit_transform(X[, y])``, ``recv.fit(X).transform(X)`` and
    ``recv.fit_resample(X, y)``; NoFix for any other shape."""
    if event.site is not None or event.kind != "fit":
        raise NoFix
    call = t.call(event.span)
    method = call_name(call)
    out = call
    if method == "fit":  # recv.fit(X[, y]).transform(X), or recv.fit(X) then out = recv.transform(X)
        outer = t.parent.get(t.parent.get(call))
        if not (isinstance(outer, ast.Call) and outer.func is t.parent.get(call) and _transforms(outer, call, t)):
            outer = _later_transform(call, t)
        out, method = outer, "fit_transform"
    elif method == "fit_sample":
        method = "fit_resample"  # imbalanced-learn's name before 0.8; fit_resample exists since 0.4
    elif method not in ("fit_transform", "fit_resample"):
        raise NoFix
    if not isinstance(call.func, ast.Attribute) or len(call.args) not in (1, 2) or call.keywords:
        raise NoFix
    return call, out, method


def function_form(event, t: Tree):
    """(the constructor, the class name, the Ops importing it) of the estimator a function
    of sklearn.preprocessing stands for, ``scale(X, with_mean=False)`` ->
    ``StandardScaler(with_mean=False)``; None for any other call or shape."""
    if event.site is not None or event.kind != "call":
        return None
    call = t.call(event.span)
    name = call_name(call)
    func = call.func
    if isinstance(func, ast.Name):
        module = t.imported_from(func.id)
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        owner = func.value.id
        module = t.module_of(owner) or (
            "sklearn.preprocessing" if owner == "preprocessing" and t.imported_from(owner) == "sklearn" else None)
    else:
        return None
    if module != "sklearn.preprocessing" or name not in FUNCTION_FORMS or len(call.args) != 1 \
            or isinstance(call.args[0], ast.Starred) or any(k.arg is None for k in call.keywords):
        return None
    axis = next((k.value for k in call.keywords if k.arg == "axis"), None)
    if axis is not None and not (isinstance(axis, ast.Constant) and axis.value == 0):
        return None  # each row scaled by its own values: no estimator does that
    class_name = FUNCTION_FORMS[name]
    if t.bound(class_name) and t.imported_from(class_name) != "sklearn.preprocessing":
        return None
    settings = ", ".join(f"{k.arg}={t.source(k.value)}" for k in call.keywords if k.arg not in FUNCTION_ONLY_KEYWORDS)
    imports = () if t.bound(class_name) else (Op("import", code=f"sklearn.preprocessing:{class_name}"),)
    return f"{class_name}({settings})", class_name, imports


def _transforms(outer, call, t: Tree) -> bool:
    """``outer`` is ``<step>.transform(X)`` of the rows ``call`` fitted on."""
    return (call_name(outer) == "transform" and len(outer.args) == 1 and not outer.keywords and bool(call.args)
            and t.source(outer.args[0]) == t.source(call.args[0]))


def _later_transform(call, t: Tree) -> ast.Call:
    """``scaler.fit(X)`` (or ``scaler = StandardScaler().fit(X)``) and, next in the same block,
    ``out = scaler.transform(X)`` of the same rows, unchanged in between: the transform call."""
    stmt = t.statement(call)
    if isinstance(stmt, ast.Expr) and stmt.value is call and isinstance(call.func.value, ast.Name):
        name = call.func.value.id
    elif isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0], ast.Name) and isinstance(call.func.value, ast.Call):
        name = stmt.targets[0].id
    else:
        raise NoFix
    items, index = t.block(stmt)
    for later in items[index + 1:]:
        reads = [n for n in ast.walk(later) if isinstance(n, ast.Name) and n.id == name and not _learned_read(n, t)]
        if not reads or all(_printed(n, t) for n in reads):
            continue
        value = getattr(later, "value", None)
        if not (isinstance(later, ast.Assign) and len(reads) == 1 and (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.value is reads[0]
                and _transforms(value, call, t) or _support_subset(value, reads[0], call, t))):
            raise NoFix
        t.steady(call.args[0], stmt.end_lineno, later.lineno)
        return value
    raise NoFix


def _printed(name: ast.Name, t: Tree) -> bool:
    """The fitted step read inside ``print(...)``: shown, not applied to rows."""
    node = t.parent.get(name)
    while node is not None and not isinstance(node, ast.stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            return True
        node = t.parent.get(node)
    return False


def _support_subset(value, selector: ast.Name, call, t: Tree) -> bool:
    """``value`` is ``X[X.columns[sel.get_support()]]`` (the column names may be read into a
    name first, unchanged since) or ``X.loc[:, sel.get_support()]``: the columns the selector
    ``sel``, fitted on ``X`` by ``call``, keeps; what its transform gives, in a frame."""
    support = t.parent.get(t.parent.get(selector))
    if not (isinstance(support, ast.Call) and call_name(support) == "get_support" and not support.args
            and not support.keywords and isinstance(value, ast.Subscript)):
        return False
    table, index = value.value, value.slice
    if isinstance(table, ast.Attribute) and table.attr == "loc":
        table = table.value
        if not (isinstance(index, ast.Tuple) and len(index.elts) == 2 and index.elts[1] is support
                and isinstance(index.elts[0], ast.Slice) and index.elts[0].lower is None
                and index.elts[0].upper is None and index.elts[0].step is None):
            return False
    elif isinstance(index, ast.Subscript) and index.slice is support:
        columns = index.value
        if isinstance(columns, ast.Name):
            stores = [n for n in t.names.get(columns.id, ()) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
                      and n.lineno < value.lineno]
            bound = t.parent.get(stores[-1]) if stores else None
            if not (isinstance(bound, ast.Assign) and bound.targets == [stores[-1]]):
                return False
            t.steady(columns, bound.end_lineno, value.lineno)
            columns = bound.value
        if not (isinstance(columns, ast.Attribute) and columns.attr == "columns"
                and t.source(columns.value) == t.source(table)):
            return False
    else:
        return False
    return bool(call.args) and t.source(table) == t.source(call.args[0])


def _learned_read(name: ast.Name, t: Tree) -> bool:
    """``scaler.mean_``: what the step learned, read (a display), not a call of it."""
    attribute = t.parent.get(name)
    owner = t.parent.get(attribute)
    return isinstance(attribute, ast.Attribute) and attribute.attr.endswith("_") and not (
        isinstance(owner, ast.Call) and owner.func is attribute)


class Step:
    """A leaking step as the code wrote it: ``out = recv.fit_transform(data[, label])``."""

    def __init__(self, event, t: Tree):
        form = function_form(event, t)
        if form:  # scale(X): the call gives the step's output itself
            call = out = t.call(event.span)
            method = "fit_transform"
        else:
            call, out, method = fitted_output(event, t)
        self.call = call
        self.recv = None if form else call.func.value
        self.imports = form[2] if form else ()  # Ops importing the class a function form stands for
        if isinstance(out, ast.Subscript):  # the columns it keeps: the name its support is read by
            self.recv = next(n for n in ast.walk(out.slice) if isinstance(n, ast.Call)
                             and call_name(n) == "get_support").func.value
        elif out is not call and out.func.value is not call:
            self.recv = out.func.value  # fitted in a statement of its own: the name it is read by
        self.data = call.args[0]
        if t.generator(self.data):
            raise NoFix  # a pipeline handed a generator could not draw its folds from it
        self.label = call.args[1] if len(call.args) == 2 else None
        self.out = out
        self.wrapper = frame_wrapper(out, t) if method == "fit_transform" else None
        self.stmt = t.assigned(self.wrapper or out)
        target = self.stmt.targets[0]
        if method == "fit_resample":
            if not (isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2
                    and all(isinstance(e, ast.Name) for e in target.elts) and self.label is not None):
                raise NoFix
            self.outputs = [e.id for e in target.elts]
        elif isinstance(target, ast.Name):
            self.outputs = [target.id]
        else:
            raise NoFix
        if form:
            self.inline = True
            self.step, self.class_name = form[:2]
        elif isinstance(self.recv, ast.Call):
            self.inline = True
            self.step = t.source(self.recv)
            self.class_name = call_name(self.recv)
        elif isinstance(self.recv, ast.Name):
            self.inline = False
            self.step = self.recv.id
            self.class_name = event.qualname.rsplit(".", 1)[-1]
        else:
            raise NoFix
        self.sampler = method == "fit_resample"
        self.inputs = [self.data] + ([self.label] if self.sampler else [])

    def overwrites(self) -> bool:
        """``X = scaler.fit_transform(X)``: the output takes the input's name."""
        return any(isinstance(node, ast.Name) and node.id == name
                   for node, name in zip(self.inputs, self.outputs))

    def output(self, rows: str, raw: str, t: Tree) -> str:
        """The code giving the step's output for ``rows`` (the transform of a fitted step),
        in the frame the code put it in; the frame's names read the raw rows (``raw``) where
        the code read the step's input (``columns=X.columns``)."""
        if self.wrapper is None:
            return rows
        swaps = {self.out: rows}
        if isinstance(self.data, ast.Name):
            swaps.update({n: raw for keyword in self.wrapper.keywords for n in ast.walk(keyword.value)
                          if isinstance(n, ast.Name) and n.id == self.data.id})
        return t.spliced(self.wrapper, swaps)


def frame_wrapper(node, t: Tree):
    """``pd.DataFrame(node, columns=..., index=...)``: the rows ``node`` gives, put in a
    frame with names and nothing more; None for anything else."""
    call = t.parent.get(node)
    if not (isinstance(call, ast.Call) and call_name(call) == "DataFrame" and t.origin(call.func) == "pandas"):
        return None
    given = call.args + [k.value for k in call.keywords if k.arg == "data"]
    if len(given) != 1 or given[0] is not node or len(call.args) > 1 or any(
            k.arg not in ("data", "columns", "index") for k in call.keywords):
        return None
    return call


def step_fix(hit, facts, t: Tree) -> Fix:
    """The pipeline (cross-validated rows) or the split first (split rows); where the code
    cannot be reordered, the step learns from the split's training rows drawn early."""
    event = facts.learns[fact(hit, "learn")]
    split = facts.splits[fact(hit, "split")]
    splits = [facts.splits[i] for i in hit.basis.get("splits", (split.id,))]
    try:
        if event.kind == "stat":
            return _hand_statistic(event, split, t)
        if len(splits) == 1 and split.kind == "cv" and _handed_to(event, split, t):
            return _inline_pipeline(event, split, t)
        step = Step(event, t)
        if isinstance(step.out, ast.Subscript) and not all(s.kind == "cv" for s in splits):
            raise NoFix  # the kept columns in a frame: elsewhere the fit's array would take its place
        if len(splits) == 1 and split.kind == "slice":
            return fit_on_head(step, split, t)
        if all(s.kind == "cv" for s in splits):
            return _into_pipeline(step, splits, t)
        if all(s.kind == "folds" for s in splits):
            return _into_folds(step, splits, t)
        # a later split of the training side stays clean for a step that reads no labels
        rest_clean = all(_within_training_side(s, split) for s in splits[1:]) and step.label is None
        if split.kind == "split" and (len(splits) == 1 or rest_clean):
            return _split_first(step, split, t)
        return _each_evaluation(step, splits, t)
    except NoFix:
        if event.site is None and event.kind == "stat" and len(splits) == 1 and split.kind == "mask":
            return condition_early(event, split, t)
        if event.site is None and all(s.kind == "split" for s in splits):
            try:
                return _fit_on_training_part(event, splits, t)
            except NoFix:
                pass
        # later splits of the first split's training side are clean once the step learns
        # from that side only
        if (event.site is not None and _class_fit(event, t) is None) or split.kind != "split" or not all(
                _within_training_side(s, split) or _same_draw(s, split, event, t) for s in splits[1:]):
            raise
        return _drawn_early(event, split, t)


def _each_evaluation(step: Step, splits: list, t: Tree) -> Fix:
    """A step fitted on all rows, then evaluated in several ways (cross-validated, looped
    over folds, split): each evaluation is corrected as it would be alone. The fit on all
    rows stays for any code that reads it outside these evaluations."""
    kinds = {}
    for split in splits:
        kinds.setdefault(split.kind, []).append(split)
    if step.overwrites() or len(splits) < 2 or set(kinds) - {"cv", "folds", "split"}:
        raise NoFix  # (each correction reads the raw rows under their own name)
    fixes, handled = [], set()
    if "cv" in kinds:
        fixes.append(_into_pipeline(step, kinds["cv"], t))
        handled.update(id(_cv_call(split, t)[2]) for split in kinds["cv"])
    fixed = []  # each split of the step's output is split first; a split of a training side stays
    for split in sorted(kinds.get("split", ()), key=lambda s: (s.span.line, s.span.column)):
        if not any(_within_training_side(split, done) for done in fixed):
            fixes.append(_split_first(step, split, t))
            handled.update(id(arg) for arg in split_call(split, t)[1].args)
            fixed.append(split)
    if "folds" in kinds:
        fixes.append(_into_folds(step, kinds["folds"], t, handled))
    ops = tuple(dict.fromkeys(op for fix in fixes for op in fix.ops))
    if any(op.kind == "delete" for op in ops):
        raise NoFix  # one correction found no other reader of the fit: the others are its readers
    unsafe = any(fix.applicability == UNSAFE for fix in fixes)
    return Fix(UNSAFE if unsafe else SAFE, f"Fit {step.class_name} on the training rows of each evaluation "
               "(a pipeline in the cross-validation, a fit in each fold, the split first)", ops)


def _fit_on_training_part(event, splits: list, t: Tree) -> Fix:
    """A step fitted, after the splits, on the table their rows came from
    (``scaler.fit(df["price"].values.reshape(-1, 1))``) and then applied to a training part
    the same way (``scaler.transform(X_train["price"].values.reshape(-1, 1))``): it is
    fitted on that training part, as the split last bound it."""
    call = t.call(event.span)
    if call_name(call) != "fit" or not isinstance(call.func, ast.Attribute) or not isinstance(call.func.value, ast.Name) \
            or len(call.args) != 1 or call.keywords:
        raise NoFix
    recv, data = call.func.value.id, call.args[0]
    root = data
    while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
        root = root.func if isinstance(root, ast.Call) else root.value
    parts = {}
    for split in splits:
        stmt, _, targets = split_call(split, t)
        if stmt.end_lineno >= call.lineno or t.scope_of(stmt) is not t.scope_of(call):
            raise NoFix
        parts.update((name, stmt) for name in targets[0::2])
    if not isinstance(root, ast.Name) or root is data or root.id in parts:
        raise NoFix  # the rows themselves, not a table's columns read the same way
    uses = sorted(t.loads(recv, call.end_lineno), key=lambda n: (n.lineno, n.col_offset))
    applied = []  # its transforms until it is fitted again
    for use in uses:
        method = t.parent.get(use)
        if not (isinstance(method, ast.Attribute) and isinstance(t.parent.get(method), ast.Call)):
            continue
        if method.attr in FIT_METHODS or t.written(recv, call.end_lineno, use.lineno + 1):
            break
        if method.attr == "transform":
            applied.append(t.parent.get(method))
    for name, stmt in parts.items():
        bound = t.binding(name, call)
        if bound is None or t.statement(bound) is not stmt:
            continue  # (columns added to the part since are read by the transforms too)
        shape = ast.dump(ast.parse(t.spliced(data, {root: name}), mode="eval").body)
        if any(len(c.args) == 1 and ast.dump(c.args[0]) == shape for c in applied):
            what = event.qualname.rsplit(".", 1)[-1]
            return Fix(UNSAFE, f"Fit {what} on {name}, the training part of the split at line {stmt.lineno}, "
                       "as it is applied to it", (t.replace(root, name),))
    raise NoFix


def _class_fit(event, t: Tree):
    """The call ``obj.fit(X)`` (or ``obj.fit_transform(X)``) that handed the rows to a step
    fitted inside a class this file defines, when ``obj = ThatClass(...)`` and the class has
    the method: the call to fit on other rows. None for any other helper."""
    call = t.calls.get((event.site.line, event.site.column, event.site.end_line, event.site.end_column))
    if event.kind != "fit" or call is None or getattr(event.site, "path", None) is not None or not isinstance(call.func, ast.Attribute) \
            or not isinstance(call.func.value, ast.Name) or call_name(call) not in ("fit", "fit_transform"):
        return None
    built = constructor(call.func.value.id, call, t)
    classes = [n for n in t.names.get(call_name(built), ()) if isinstance(n, ast.ClassDef)] if built else []
    if len(classes) != 1:
        return None
    methods = {n.name: n for n in classes[0].body if isinstance(n, ast.FunctionDef)}
    fit = methods.get("fit")
    if fit is None:
        return None
    if call_name(call) == "fit":
        return call
    # written as fit(rows).transform(X): fit must give the object back
    returns_self = isinstance(fit.body[-1], ast.Return) and isinstance(fit.body[-1].value, ast.Name) \
        and fit.body[-1].value.id == "self"
    return call if "transform" in methods and returns_self else None


def _same_draw(later, split, event, t: Tree) -> bool:
    """``later`` is a ``train_test_split`` with the same options as ``split`` of rows no code
    drops, adds or reorders after the step: it trains on the rows drawn for ``split``."""
    if later.kind != "split":
        return False
    site = t.statement(t.call(event.span))
    try:
        return Draw(later, site, t).options == Draw(split, site, t).options
    except NoFix:
        return False


def _within_training_side(later, split) -> bool:
    """``later`` divides only rows of ``split``'s training side (a cross-validation of
    X_train, or X_train split again into training and validation parts)."""
    if later.kind == "cv":
        return True
    return bool(later.rows) and all(r.side == Side("train", split.id) for r in later.rows)


def _drawn_early(event, split, t: Tree) -> Fix:
    """The step (or statistic) learns from the rows the split will train on, drawn here."""
    call = t.call(event.span) if event.site is None else _class_fit(event, t)
    if event.kind == "group-stat":
        return _group_statistic(call, split, t)
    if event.kind == "stat" and event.qualname in APPLIED_IN_ONE_CALL:
        return _zscore_early(call, split, t)
    if event.kind == "selection":
        return _scores_early(call, split, t)
    if event.kind == "stat":
        root = stat_table(call, t)
        draw = Draw(split, t.statement(call), t)
        ops, picked = draw.rows([root.id])
        return draw.fix(ops + [t.replace(root, picked[0])], f"the {event.qualname} of {event.data}")
    form = function_form(event, t)  # scale(X) -> StandardScaler().fit(rows).transform(X)
    method = "fit_transform" if form else call_name(call)
    if form is None and (method not in ("fit", "fit_transform") or not isinstance(call.func, ast.Attribute)
                         or call.keywords or not 1 <= len(call.args) <= 2):
        raise NoFix
    roots = [table_root(a, t) for a in call.args]
    draw = Draw(split, t.statement(call), t)
    tables = list(dict.fromkeys(r.id for r in roots))
    ops, picked = draw.rows(tables)
    rows = dict(zip(tables, picked))
    learned = ", ".join(t.spliced(a, {r: rows[r.id]}) for a, r in zip(call.args, roots))
    fitted = f"{form[0] if form else t.source(call.func.value)}.fit({learned})"
    new = f"{fitted}.transform({t.source(call.args[0])})" if method == "fit_transform" else fitted
    if form:
        what = form[1]
    else:
        what = event.qualname if event.site is None else call_name(constructor(call.func.value.id, call, t))
    return draw.fix(ops + [t.replace(call, new), *(form[2] if form else ())], what.rsplit(".", 1)[-1])


# Statistics computed and applied in the same call (a percentile rank too): drawing the
# training rows in place of their argument would return those rows only.
APPLIED_IN_ONE_CALL = frozenset(("zscore", "qcut", "winsorize", "percentile rank"))


def _zscore_early(call, split, t: Tree) -> Fix:
    """``zscore(df[c])``: the rows standardized by the mean and spread of the training rows
    drawn here, ``(df[c] - rows[c].mean(axis=0)) / rows[c].std(axis=0, ddof=0)``."""
    if call_name(call) != "zscore" or len(call.args) != 1 or any(k.arg != "ddof" for k in call.keywords):
        raise NoFix
    ddof = next((t.source(k.value) for k in call.keywords), "0")
    data = call.args[0]
    root = table_root(data, t)
    draw = Draw(split, t.statement(call), t)
    ops, picked = draw.rows([root.id])
    rows = t.spliced(data, {root: picked[0]})
    new = f"(({t.source(data)} - {rows}.mean(axis=0)) / {rows}.std(axis=0, ddof={ddof}))"
    return draw.fix(ops + [t.replace(call, new)], f"the zscore of {t.source(data)}")


def _scores_early(call, split, t: Tree) -> Fix:
    """Univariate scores by hand (``X.corrwith(y)``, ``df.corr()["price"]``,
    ``mutual_info_classif(X, y)``) computed on the training rows of the split, drawn here."""
    method = call_name(call)
    if isinstance(call.func, ast.Attribute) and method in ("corr", "corrwith"):
        nodes = [call.func.value] + call.args[:1]
    elif len(call.args) >= 2:
        nodes = call.args[:2]
    else:
        raise NoFix
    roots = [table_root(node, t) for node in nodes]
    names = list(dict.fromkeys(root.id for root in roots))
    draw = Draw(split, t.statement(call), t)
    ops, picked = draw.rows(names)
    rows = dict(zip(names, picked))
    return draw.fix(ops + [t.replace(root, rows[root.id]) for root in roots], f"the {method} scores")


def _pipeline_import(t: Tree, sampler: bool) -> tuple:
    """The make_pipeline to call and the Ops importing it (imblearn's for a sampler; none
    when the file already imports it)."""
    module = IMBLEARN_PIPELINE if sampler else SKLEARN_PIPELINE
    name = "make_pipeline"
    if t.imported_from(name) == module:
        return name, ()
    if t.bound(name):
        name = t.fresh("make_imb_pipeline" if sampler else "make_sk_pipeline")
        return name, (Op("import", code=f"{module}:make_pipeline:{name}"),)
    return name, (Op("import", code=f"{module}:{name}"),)


def _cv_call(split, t: Tree):
    """(call, estimator node, X node, y node, grid keys to prefix) of a cross-validation."""
    call = t.call(split.span)
    name = call_name(call)
    if name in CV_FUNCTIONS:
        return call, argument(call, 0, "estimator"), argument(call, 1, "X"), argument(call, 2, "y"), None
    if name == "fit" and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name):
        search = search_constructor(call.func.value.id, call, t)
        if search is None:
            raise NoFix
        return call, argument(search, 0, "estimator"), argument(call, 0, "X"), argument(call, 1, "y"), search
    raise NoFix


def _grid_ops(search: ast.Call, estimator, t: Tree) -> list:
    """The search's parameter names prefixed with the model's step name in the pipeline."""
    grid = argument(search, 1, "param_grid")
    if grid is None:
        grid = argument(search, 1, "param_distributions")
    if isinstance(grid, ast.Name):
        stores = [n for n in t.names.get(grid.id, ()) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]
        owner = t.parent.get(stores[0]) if len(stores) == 1 else None
        if not isinstance(owner, ast.Assign) or len(t.loads(grid.id)) != 1:
            raise NoFix
        grid = owner.value
    grids = grid.elts if isinstance(grid, ast.List) else [grid]
    if isinstance(estimator, ast.Name):  # clf = DecisionTreeClassifier(...), then GridSearchCV(clf, ...)
        estimator = constructor(estimator.id, search, t)
    if not isinstance(estimator, ast.Call) or not grids or not all(isinstance(g, ast.Dict) for g in grids):
        raise NoFix
    prefix = call_name(estimator).lower() + "__"
    ops = []
    for one in grids:
        for key in one.keys:
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise NoFix
            ops.append(t.replace(key, repr(prefix + key.value)))
    return ops


def _into_pipeline(step: Step, splits: list, t: Tree, extra_ops=(), applicability=SAFE) -> Fix:
    """A step fitted on all rows, then cross-validated (once or more): step and model in one
    pipeline on the raw rows, in every cross-validation that read the step's output."""
    make, imported = _pipeline_import(t, step.sampler)
    ops, read = [], []
    if step.wrapper is not None:
        applicability = UNSAFE  # the model is handed the step's array, not the frame the code made of it
    for split in splits:
        call, estimator, x_arg, y_arg, search = _cv_call(split, t)
        if estimator is None or not isinstance(x_arg, ast.Name):
            raise NoFix
        if x_arg.id != step.outputs[0]:
            _framed_output(x_arg, step, t)
            applicability = UNSAFE
        if step.sampler and not (isinstance(y_arg, ast.Name) and y_arg.id == step.outputs[1]):
            raise NoFix
        for node in step.inputs + ([step.recv] if not step.inline else []):
            t.steady(node, step.stmt.end_lineno, call.lineno)
        ops.append(t.replace(x_arg, t.source(step.data)))
        read += [x_arg, y_arg]
        if step.sampler:
            ops.append(t.replace(y_arg, t.source(step.label)))
        if search is not None:
            ops += _grid_ops(search, estimator, t)
            applicability = UNSAFE  # best_params_ now has the pipeline's parameter names
        ops.append(t.replace(estimator, f"{make}({step.step}, {t.source(estimator)})"))
    used_later = [n for name in step.outputs for n in t.loads(name, step.stmt.lineno - 1, skip=read)
                  if not inside(n, step.stmt)]
    if step.overwrites() and used_later:
        raise NoFix  # the rows keep the step's output for later code: the raw rows are gone
    # the fitted step is still read (scaler.transform(X_test)): its fit stays, and the
    # cross-validation fits clones of it
    step_read = not step.inline and t.loads(step.recv.id, step.stmt.end_lineno)
    if not used_later and not step_read:
        ops.append(t.op("delete", step.stmt))
    ops += [*imported, *extra_ops, *step.imports]
    what = step.class_name
    return Fix(applicability, f"Fit {what} inside the cross-validation: put it and the model in one pipeline",
               tuple(ops))


def _framed_output(x_arg: ast.Name, step: Step, t: Tree) -> None:
    """NoFix unless ``x_arg`` is bound by ``X_s = pd.DataFrame(out, ...)`` to the step's
    output, in the step's scope, and neither changes before ``x_arg`` is read."""
    store = t.binding(x_arg.id, x_arg)
    stmt = t.parent.get(store)
    if not (isinstance(stmt, ast.Assign) and stmt.targets == [store] and isinstance(stmt.value, ast.Call)):
        raise NoFix
    inner = stmt.value.args[0] if stmt.value.args else None
    if not (isinstance(inner, ast.Name) and inner.id == step.outputs[0]
            and frame_wrapper(inner, t) is stmt.value and t.scope_of(stmt) is t.scope_of(step.stmt)
            and stmt.lineno > step.stmt.end_lineno):
        raise NoFix
    t.steady(inner, step.stmt.end_lineno, stmt.lineno)
    t.steady(x_arg, stmt.end_lineno, x_arg.lineno)


def _handed_to(event, split, t: Tree) -> bool:
    """The step's output is the rows argument of the cross-validation itself:
    ``cross_val_score(model, scaler.fit_transform(X), y)``."""
    try:
        _, out, _ = fitted_output(event, t)
        return _cv_call(split, t)[2] is out
    except NoFix:
        return False


def _inline_pipeline(event, split, t: Tree) -> Fix:
    """The step fitted inside the cross-validation's own arguments: it joins the model in a
    pipeline handed the rows it was fitted on."""
    call, out, method = fitted_output(event, t)
    cv, estimator, _, y_arg, search = _cv_call(split, t)
    label = call.args[1] if len(call.args) == 2 else None
    if method != "fit_transform" or estimator is None or (
            label is not None and (y_arg is None or t.source(y_arg) != t.source(label))):
        raise NoFix
    recv = call.func.value
    if not isinstance(recv, (ast.Name, ast.Call)):
        raise NoFix
    make, ops = _pipeline_import(t, False)
    ops = [t.replace(out, t.source(call.args[0])), t.replace(estimator, f"{make}({t.source(recv)}, {t.source(estimator)})"),
           *ops]
    applicability = SAFE
    if search is not None:
        ops += _grid_ops(search, estimator, t)
        applicability = UNSAFE  # best_params_ now has the pipeline's parameter names
    if isinstance(recv, ast.Name) and any(
            not (isinstance(t.parent.get(n), ast.Attribute) and t.parent.get(n).attr in REFITS)
            for n in t.loads(recv.id, cv.end_lineno)):
        applicability = UNSAFE  # later code may read what the step learned here
    what = call_name(recv) if isinstance(recv, ast.Call) else event.qualname.rsplit(".", 1)[-1]
    return Fix(applicability, f"Fit {what} inside the cross-validation: put it and the model in one pipeline",
               tuple(ops))


def _into_folds(step: Step, splits: list, t: Tree, handled=frozenset()) -> Fix:
    """A step fitted on all rows before a loop over the folds of ``kf.split(...)``: at the
    top of the loop, a copy of the step is fitted on the fold's training rows, and the loop
    reads its output (and what the step transformed in between, ``test_s =
    scaler.transform(test)``, transformed again) under new names. Code outside the loop
    runs as before."""
    if step.sampler:
        raise NoFix
    loops = {}
    for split in splits:
        call = t.call(split.span)
        loop, train = _fold_loop(call, t)
        loops.setdefault(id(loop), (loop, train, []))[2].append(call)
    items, index = t.block(step.stmt)
    ordered = sorted(loops.values(), key=lambda entry: entry[0].lineno)
    if any(t.block(loop)[0] is not items or t.block(loop)[1] <= index for loop, _, _ in ordered):
        raise NoFix
    first = t.block(ordered[0][0])[1]
    recv = None if step.inline else step.recv.id
    derived = _transformed_between(step, items[index + 1:first], t, handled)
    in_loops = [n for loop, _, _ in ordered for n in ast.walk(loop)]
    watched = [step.outputs[0]] + ([recv] if recv else [])
    # the all-rows fit goes when only the loops read it; else it stays for the code that does
    kept = bool(derived) or any(t.loads(name, step.stmt.end_lineno, skip=in_loops) for name in watched)
    out = step.outputs[0]
    renamed = {name: t.fresh(f"{name}_fold") for name in [out, *derived] if kept or step.overwrites()}
    raw = t.source(step.data)
    ops = [] if kept else [t.op("delete", step.stmt)]
    if kept and step.overwrites():
        raw = t.fresh(f"{raw}_raw")
        ops.append(t.op("before", step.stmt, f"{raw} = {out}"))
    fitter, imported = _fold_copy(step, kept, t)
    for loop, train, calls in ordered:
        _steady_in_loop(step, loop, t)
        if any(t.written(name, loop.lineno - 1, loop.end_lineno + 1) for name in [out, *derived]):
            raise NoFix  # the loop binds the output again itself
        reads = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        for call in calls:
            for arg in call.args:
                if isinstance(arg, ast.Name) and arg.id == out:
                    ops.append(t.replace(arg, raw))
        learned = rows_at(step.data, train, t, raw)
        if step.label is not None:
            learned += ", " + rows_at(step.label, train, t)
        fold_out = renamed.get(out, out)
        used = [name for name in derived if any(n.id == name for n in reads)]
        if used:
            copy = t.fresh(f"fold_{recv or snake(step.class_name)}")
            new = [f"{copy} = {fitter}.fit({learned})", f"{fold_out} = {step.output(f'{copy}.transform({raw})', raw, t)}"]
            new += [f"{renamed[name]} = {copy}.transform({derived[name]})" for name in used]
        else:
            new = [f"{fold_out} = {step.output(f'{fitter}.fit({learned}).transform({raw})', raw, t)}"]
        ops.append(t.op("before", loop.body[0], "\n".join(new)))
        skip = {id(a) for call in calls for a in call.args}
        ops += [t.replace(n, renamed[n.id]) for n in reads if n.id in renamed and id(n) not in skip]
    return Fix(SAFE, f"Fit {step.class_name} in each fold, on the fold's training rows",
               tuple(ops) + tuple(imported) + step.imports)


def _transformed_between(step: Step, between: list, t: Tree, handled=frozenset()) -> dict:
    """{name: source of what it transformed} for ``name = recv.transform(data)`` statements
    between the step and its fold loop; NoFix when other code there binds a name from the
    step's output or its fitted state (the loop would read the all-rows fit through it).
    Reads in ``handled`` (ids of nodes another correction gives the raw rows) do not count."""
    watched = {step.outputs[0]} | ({step.recv.id} if not step.inline else set())
    derived = {}
    for stmt in between:
        if not any(isinstance(n, ast.Name) and n.id in watched and id(n) not in handled for n in ast.walk(stmt)):
            continue
        value = getattr(stmt, "value", None)
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(value, ast.Call) and call_name(value) == "transform" and len(value.args) == 1
                and not value.keywords and isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Name)
                and value.func.value.id in watched and not watched & t.names_in(value.args[0])):
            derived[stmt.targets[0].id] = t.source(value.args[0])
            continue
        if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) for n in ast.walk(stmt)) or isinstance(
                stmt, (ast.FunctionDef, ast.ClassDef)):
            raise NoFix
    return derived


def _steady_in_loop(step: Step, loop, t: Tree) -> None:
    """NoFix unless the step's inputs (and the names its frame is given) keep their values
    from the step to the loop's end."""
    framing = [k.value for k in step.wrapper.keywords if k.arg != "data"] if step.wrapper is not None else []
    for node in step.inputs + ([step.recv] if not step.inline else []) + framing:
        t.steady(node, step.stmt.end_lineno, loop.end_lineno + 1)
    if step.label is not None:
        t.steady(step.label, step.stmt.end_lineno, loop.end_lineno + 1)


def _fold_copy(step: Step, kept: bool, t: Tree) -> tuple:
    """The code for the unfitted step each fold fits (a copy, while the all-rows fit is
    kept), and the Ops importing what it calls."""
    if step.inline or not kept:
        return step.step, ()
    name = "clone"
    if t.imported_from(name) == "sklearn.base":
        return f"{name}({step.recv.id})", ()
    if t.bound(name):
        name = t.fresh("sk_clone")
        return f"{name}({step.recv.id})", (Op("import", code=f"sklearn.base:clone:{name}"),)
    return f"{name}({step.recv.id})", (Op("import", code="sklearn.base:clone"),)


def _fold_loop(call, t: Tree) -> tuple:
    """(the loop, the name of its training indices) of ``for tr, va in kf.split(X)``, also
    written ``enumerate(kf.split(X))`` or wrapped in a progress bar."""
    iterable, wrapped = call, False
    loop = t.parent.get(call)
    while isinstance(loop, ast.Call) and loop.args and loop.args[0] is iterable and (
            call_name(loop) == "enumerate" or lib_key(f"{t.origin(loop.func)}.{call_name(loop)}") in PROGRESS_BARS):
        wrapped = wrapped or call_name(loop) == "enumerate"
        iterable, loop = loop, t.parent.get(loop)
    if not (isinstance(loop, ast.For) and loop.iter is iterable and call_name(call) == "split"):
        raise NoFix
    target = loop.target
    if wrapped:
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
            raise NoFix
        target = target.elts[1]
    if not (isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[0], ast.Name)):
        raise NoFix
    return loop, target.elts[0].id


REFITS = frozenset({"fit", "fit_transform", "fit_resample", "fit_sample", "set_params", "get_params"})


def _split_first(step: Step, split, t: Tree) -> Fix:
    """A step fitted on all rows before train_test_split: split first, fit on the training side."""
    if step.wrapper is not None:
        raise NoFix  # a frame made anew for each side would not keep the rows' index
    stmt, call, targets = split_call(split, t)
    items, index = t.block(step.stmt)
    if t.block(stmt)[0] is not items or t.block(stmt)[1] <= index:
        raise NoFix
    positions = {t.source(a): i for i, a in enumerate(call.args)}
    first = next((i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id == step.outputs[0]), None)
    if first is None:
        raise NoFix
    label_at = None
    if step.sampler:
        label_at = next((i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id == step.outputs[1]), None)
    elif step.label is not None:
        label_at = positions.get(t.source(step.label))
    if (step.sampler or step.label is not None) and label_at is None:
        raise NoFix
    # the split reads the step's output only as the rows it splits (and a resampled label as
    # what it stratifies by, which becomes the label as drawn); its inputs keep their values until then
    stratify = next((k.value for k in call.keywords if k.arg == "stratify"), None)
    restratified = []
    for name in step.outputs:
        for n in t.loads(name, stmt.lineno - 1, stmt.end_lineno + 1):
            if not inside(n, stmt) or n is call.args[first] or (label_at is not None and n is call.args[label_at]):
                continue
            if not (step.sampler and n is stratify and name == step.outputs[1]):
                raise NoFix
            restratified.append(t.replace(n, t.source(step.label)))
    for node in step.inputs + ([step.recv] if not step.inline else []):
        t.steady(node, step.stmt.end_lineno, stmt.lineno)
    train, test = targets[2 * first], targets[2 * first + 1]
    label_train = targets[2 * label_at] if label_at is not None else None
    ops = [t.replace(call.args[first], t.source(step.data)), *restratified]
    if step.sampler:
        ops.append(t.replace(call.args[label_at], t.source(step.label)))
        new = [f"{train}, {label_train} = {step.step}.fit_resample({train}, {label_train})"]
    else:
        name = step.step
        new = []
        if step.inline:
            name = t.fresh(snake(step.class_name))
            new.append(f"{name} = {step.step}")
        fitted_on = train + (f", {label_train}" if label_train else "")
        new += [f"{train} = {name}.fit_transform({fitted_on})", f"{test} = {name}.transform({test})"]
    ops.append(t.op("insert", stmt, "\n".join(new)))
    later = [n for name in step.outputs for n in t.loads(name, step.stmt.end_lineno, skip=call.args)]
    applicability = SAFE
    if step.overwrites():
        ops.append(t.op("delete", step.stmt))
        if later:
            applicability = UNSAFE  # later code read the step's output under the input's name
    elif not later:
        ops.append(t.op("delete", step.stmt))
    side = "training side (resampling it only)" if step.sampler else "training side, transform both sides"
    return Fix(applicability, f"Split first, then fit {step.class_name} on the {side}", tuple(ops) + step.imports)


GROUP_STATISTICS = frozenset({"mean", "median", "sum", "std", "var", "min", "max", "count", "nunique"})


def _group_statistic(call, split, t: Tree) -> Fix:
    """``df.groupby(key)[col].transform("mean")``: each row gets its group's statistic over
    the split's training rows (``df[key].map(...)``); a group only held out gets NaN."""
    grouped = call.func.value if isinstance(call.func, ast.Attribute) and call.func.attr == "transform" else None
    if not (isinstance(grouped, ast.Subscript) and isinstance(grouped.value, ast.Call)
            and call_name(grouped.value) == "groupby" and isinstance(grouped.value.func, ast.Attribute)):
        raise NoFix
    groupby = grouped.value
    data = groupby.func.value
    keys = groupby.args[0] if len(groupby.args) == 1 and not groupby.keywords else None
    if isinstance(keys, ast.List) and len(keys.elts) == 1:
        keys = keys.elts[0]
    agg = call.args[0] if len(call.args) == 1 and not call.keywords else None
    if not (isinstance(data, ast.Name) and isinstance(keys, ast.Constant) and isinstance(keys.value, str)
            and isinstance(agg, ast.Constant) and agg.value in GROUP_STATISTICS):
        raise NoFix
    draw = Draw(split, t.statement(call), t)
    ops, picked = draw.rows([data.id])
    key, column = repr(keys.value), t.source(grouped.slice)
    new = f"{data.id}[{key}].map({picked[0]}.groupby({key})[{column}].{agg.value}())"
    return draw.fix(ops + [t.replace(call, new)], f"the {agg.value} of {column} per {keys.value}")


# ------------------------------------------------------------ statistics by hand
_SCALERS = {"zscore": ("StandardScaler", "sklearn.preprocessing"), "minmax": ("MinMaxScaler", "sklearn.preprocessing")}


def _hand_statistic(event, split, t: Tree) -> Fix:
    """``(X - X.mean()) / X.std()`` or a min-max by hand: statistics of the training rows only."""
    stmt = t.statement(t.call(event.span))
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
        raise NoFix
    form, data = _scaling_form(stmt.value, t)
    target = stmt.targets[0].id
    if split.kind == "cv":
        class_name, module = _SCALERS[form]
        step = _HandStep(stmt, data, target, f"{class_name}()", class_name)
        imports = () if t.bound(class_name) else (Op("import", code=f"{module}:{class_name}"),)
        if t.bound(class_name) and t.imported_from(class_name) != module:
            raise NoFix
        fix = _into_pipeline(step, [split], t, imports, UNSAFE)
        return Fix(UNSAFE, f"Replace the statistics by hand with {class_name} fitted inside the cross-validation "
                   "(its standard deviation divides by n, pandas' by n - 1)", fix.ops)
    if split.kind != "split":
        raise NoFix
    step = _HandStep(stmt, data, target, "", "")
    split_stmt, call, targets = split_call(split, t)
    items, index = t.block(stmt)
    if t.block(split_stmt)[0] is not items or t.block(split_stmt)[1] <= index:
        raise NoFix
    first = next((i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id == target), None)
    if first is None or t.loads(target, stmt.end_lineno, split_stmt.lineno):
        raise NoFix
    t.steady(data, stmt.end_lineno, split_stmt.lineno)
    train, test = targets[2 * first], targets[2 * first + 1]
    low, spread = t.fresh(f"{train}_{'mean' if form == 'zscore' else 'min'}"), t.fresh(
        f"{train}_{'std' if form == 'zscore' else 'range'}")
    if form == "zscore":
        stats = f"{low}, {spread} = {train}.mean(), {train}.std()"
    else:
        stats = f"{low}, {spread} = {train}.min(), {train}.max() - {train}.min()"
    new = [stats, f"{train} = ({train} - {low}) / {spread}", f"{test} = ({test} - {low}) / {spread}"]
    ops = [t.replace(call.args[first], t.source(data)), t.op("insert", split_stmt, "\n".join(new))]
    later = t.loads(target, split_stmt.end_lineno)
    if step.overwrites() or not later:
        ops.append(t.op("delete", stmt))
    applicability = UNSAFE if step.overwrites() and later else SAFE
    return Fix(applicability, "Split first, then compute the statistics on the training side and apply them to both",
               tuple(ops))


class _HandStep(Step):
    """Statistics by hand seen as a step: ``target = <statistics of data>``, replaced by ``step_code``."""

    def __init__(self, stmt, data, target, step_code, class_name):
        self.stmt, self.data, self.label, self.outputs = stmt, data, None, [target]
        self.inputs, self.sampler, self.inline, self.wrapper, self.imports = [data], False, True, None, ()
        self.step, self.class_name, self.recv = step_code, class_name, None


def _scaling_form(value, t: Tree) -> tuple:
    """("zscore" | "minmax", the data node) for ``(D - D.mean()) / D.std()`` and
    ``(D - D.min()) / (D.max() - D.min())``."""
    def stat(node, name):
        return (isinstance(node, ast.Call) and call_name(node) == name and not node.args and not node.keywords
                and isinstance(node.func, ast.Attribute)) and t.source(node.func.value)

    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div) and isinstance(value.left, ast.BinOp)
            and isinstance(value.left.op, ast.Sub)):
        raise NoFix
    data = value.left.left
    text = t.source(data)
    if stat(value.left.right, "mean") == text and stat(value.right, "std") == text:
        return "zscore", data
    right = value.right
    if (stat(value.left.right, "min") == text and isinstance(right, ast.BinOp) and isinstance(right.op, ast.Sub)
            and stat(right.left, "max") == text and stat(right.right, "min") == text):
        return "minmax", data
    raise NoFix

