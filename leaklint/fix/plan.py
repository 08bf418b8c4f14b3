"""Fixes planned from the facts: which call leaked, where the rows were split, and what
the corrected procedure is. Each planner reads the syntax only to check that the code
has the shape its rewrite assumes, and returns the changes as Ops (written later by
libcst, see rewrite.py). A planner that cannot show that a name keeps its meaning for
the code after it marks the fix unsafe; one that cannot rewrite gives no fix.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..findings import Fix, Op
from .tree import NoFix, Tree, argument, call_name, snake

SAFE, UNSAFE, DISPLAY = "safe", "unsafe", "display-only"
CV_FUNCTIONS = {"cross_val_score": 1, "cross_validate": 1, "cross_val_predict": 1, "learning_curve": 1,
                "validation_curve": 1, "permutation_test_score": 1}
SPLITTERS = {"KFold": 5, "StratifiedKFold": 5, "ShuffleSplit": 10, "StratifiedShuffleSplit": 10,
             "RepeatedKFold": 5, "RepeatedStratifiedKFold": 5}
SKLEARN_PIPELINE = "sklearn.pipeline"
IMBLEARN_PIPELINE = "imblearn.pipeline"
SELECTION = "sklearn.model_selection"


def plan(code: str, hit, facts, tree: Tree) -> Optional[Fix]:
    planner = PLANNERS.get(code)
    if planner is None:
        return None
    try:
        return planner(hit, facts, tree)
    except NoFix:
        return None


def _fact(hit, key: str):
    """The fact the rule named; a finding of another kind (none named) gets no fix."""
    if key not in hit.basis:
        raise NoFix
    return hit.basis[key]


# ------------------------------------------------------------ a step fitted on all rows
class Step:
    """A leaking step as the code wrote it: ``out = recv.fit_transform(data[, label])``."""

    def __init__(self, event, t: Tree):
        if event.site is not None or event.kind != "fit":
            raise NoFix
        call = t.call(event.span)
        method = call_name(call)
        out = call
        if method == "fit":  # recv.fit(X[, y]).transform(X)
            outer = t.parent.get(t.parent.get(call))
            if not (isinstance(outer, ast.Call) and outer.func is t.parent.get(call) and call_name(outer) == "transform"
                    and len(outer.args) == 1 and not outer.keywords and call.args
                    and t.source(outer.args[0]) == t.source(call.args[0])):
                raise NoFix
            out, method = outer, "fit_transform"
        elif method not in ("fit_transform", "fit_resample"):
            raise NoFix
        if not isinstance(call.func, ast.Attribute) or len(call.args) not in (1, 2) or call.keywords:
            raise NoFix
        self.call, self.out, self.method = call, out, method
        self.recv = call.func.value
        self.data = call.args[0]
        self.label = call.args[1] if len(call.args) == 2 else None
        self.stmt = t.assigned(out)
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
        if isinstance(self.recv, ast.Call):
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
        self.t = t

    def overwrites(self) -> bool:
        """``X = scaler.fit_transform(X)``: the output takes the input's name."""
        return any(isinstance(node, ast.Name) and node.id == name
                   for node, name in zip(self.inputs, self.outputs))


def step_fix(hit, facts, t: Tree) -> Fix:
    event = facts.learns[_fact(hit, "learn")]
    split = facts.splits[_fact(hit, "split")]
    if event.kind == "stat":
        return _hand_statistic(event, split, t)
    step = Step(event, t)
    splits = [facts.splits[i] for i in hit.basis.get("splits", (split.id,))]
    if all(s.kind == "cv" for s in splits):
        return _into_pipeline(step, splits, t)
    if split.kind == "split" and len(splits) == 1:
        return _split_first(step, split, t)
    raise NoFix


def _pipeline_import(t: Tree, sampler: bool) -> tuple:
    """The make_pipeline to call and the Op importing it (imblearn's for a sampler)."""
    module = IMBLEARN_PIPELINE if sampler else SKLEARN_PIPELINE
    name = "make_pipeline"
    if t.bound(name) and t.imported_from(name) != module:
        name = t.fresh("make_imb_pipeline" if sampler else "make_sk_pipeline")
        return name, Op("import", code=f"{module}:make_pipeline:{name}")
    return name, Op("import", code=f"{module}:{name}")


def _cv_call(split, t: Tree):
    """(call, estimator node, X node, y node, grid keys to prefix) of a cross-validation."""
    call = t.call(split.span)
    name = call_name(call)
    if name in CV_FUNCTIONS:
        return call, argument(call, 0, "estimator"), argument(call, 1, "X"), argument(call, 2, "y"), None
    if name == "fit" and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name):
        search = _search_constructor(call.func.value.id, call.lineno, t)
        if search is None:
            raise NoFix
        return call, argument(search, 0, "estimator"), argument(call, 0, "X"), argument(call, 1, "y"), search
    raise NoFix


def _search_constructor(name: str, before: int, t: Tree) -> Optional[ast.Call]:
    """``name = GridSearchCV(...)``, the one binding of ``name`` before line ``before``."""
    stores = [n for n in t.names.get(name, ()) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1 or stores[0].lineno >= before:
        return None
    stmt = t.parent.get(stores[0])
    if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
            and call_name(stmt.value).endswith("SearchCV")):
        return None
    return stmt.value


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
    for split in splits:
        call, estimator, x_arg, y_arg, search = _cv_call(split, t)
        if estimator is None or not isinstance(x_arg, ast.Name) or x_arg.id != step.outputs[0]:
            raise NoFix
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
                  if not _inside(n, step.stmt)]
    if step.overwrites() and used_later:
        raise NoFix  # the rows keep the step's output for later code: the raw rows are gone
    if not used_later:
        ops.append(t.op("delete", step.stmt))
    ops += [imported, *extra_ops]
    what = step.class_name
    return Fix(applicability, f"Fit {what} inside the cross-validation: put it and the model in one pipeline",
               tuple(ops))


def _inside(node, container) -> bool:
    return container.lineno <= node.lineno <= container.end_lineno and (
        node.lineno != container.lineno or node.col_offset >= container.col_offset)


def _split_call(split, t: Tree):
    """The ``a_train, a_test, ... = train_test_split(a, ...)`` statement, its call and targets."""
    return _split_statement(t.call(split.span), t)


def _split_statement(call: ast.Call, t: Tree):
    if call_name(call) != "train_test_split":
        raise NoFix
    stmt = t.assigned(call)
    target = stmt.targets[0]
    if not isinstance(target, (ast.Tuple, ast.List)) or not all(isinstance(e, ast.Name) for e in target.elts):
        raise NoFix
    if any(isinstance(a, ast.Starred) for a in call.args) or len(target.elts) != 2 * len(call.args):
        raise NoFix
    return stmt, call, [e.id for e in target.elts]


def _split_first(step: Step, split, t: Tree) -> Fix:
    """A step fitted on all rows before train_test_split: split first, fit on the training side."""
    stmt, call, targets = _split_call(split, t)
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
    # the split reads the step's output only as the rows it splits; its inputs keep their values until then
    for name in step.outputs:
        if any(_inside(n, stmt) and n is not call.args[first] and (label_at is None or n is not call.args[label_at])
               for n in t.loads(name, stmt.lineno - 1, stmt.end_lineno + 1)):
            raise NoFix  # e.g. stratify= reads the step's output
    for node in step.inputs + ([step.recv] if not step.inline else []):
        t.steady(node, step.stmt.end_lineno, stmt.lineno)
    train, test = targets[2 * first], targets[2 * first + 1]
    label_train = targets[2 * label_at] if label_at is not None else None
    ops = [t.replace(call.args[first], t.source(step.data))]
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
    return Fix(applicability, f"Split first, then fit {step.class_name} on the {side}", tuple(ops))


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
        step = _HandStep(stmt, data, target, f"{class_name}()", class_name, t)
        imports = () if t.bound(class_name) else (Op("import", code=f"{module}:{class_name}"),)
        if t.bound(class_name) and t.imported_from(class_name) != module:
            raise NoFix
        fix = _into_pipeline(step, [split], t, imports, UNSAFE)
        return Fix(UNSAFE, f"Replace the statistics by hand with {class_name} fitted inside the cross-validation "
                   "(its standard deviation divides by n, pandas' by n - 1)", fix.ops)
    if split.kind != "split":
        raise NoFix
    step = _HandStep(stmt, data, target, "", "", t)
    split_stmt, call, targets = _split_call(split, t)
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
    def __init__(self, stmt, data, target, step_code, class_name, t):
        self.stmt, self.data, self.label, self.outputs = stmt, data, None, [target]
        self.inputs, self.sampler, self.inline = [data], False, True
        self.step, self.class_name, self.recv, self.t = step_code, class_name, None, t


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


# ------------------------------------------------------------ LL301: refitted on the held-out side
def refit_fix(hit, facts, t: Tree) -> Fix:
    event = facts.learns[_fact(hit, "learn")]
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
    if trained is None:
        raise NoFix
    if isinstance(recv, ast.Name):
        if method == "fit_transform":
            ops = [t.replace(out, f"{recv.id}.transform({t.source(data)})")]
        elif isinstance(t.parent.get(call), ast.Expr):
            ops = [t.op("delete", t.parent.get(call))]
        else:
            ops = [t.replace(call, recv.id)]
        return Fix(SAFE, f"Use {recv.id} as fitted on the training side: transform the held-out rows", tuple(ops))
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


def _trained_twin(event, call, recv, facts, t: Tree):
    """The latest earlier fit of the same step (the same variable, or a constructor written the
    same way) on training rows only."""
    best = None
    for other in facts.learns.values():
        if (other.kind != "fit" or other.site is not None or other.span.path is not None
                or other.span.line >= event.span.line or not other.rows
                or not all(r.side is not None and not r.side.held_out for r in other.rows)):
            continue
        try:
            twin = t.call(other.span)
        except NoFix:
            continue
        if call_name(twin) not in ("fit", "fit_transform") or not isinstance(twin.func, ast.Attribute):
            continue
        mine = twin.func.value
        if isinstance(recv, ast.Name):
            same = isinstance(mine, ast.Name) and mine.id == recv.id and not t.written(recv.id, twin.lineno, call.lineno)
        else:
            same = isinstance(recv, ast.Call) and isinstance(mine, ast.Call) and t.source(mine) == t.source(recv)
            same = same and call_name(twin) == "fit_transform"
        if same and (best is None or twin.lineno > best.lineno):
            best = twin
    return best


# ------------------------------------------------------------ LL201: a shuffled split of time-ordered rows
def time_split_fix(hit, facts, t: Tree) -> Fix:
    call = t.call(hit.span)
    name = call_name(call)
    if name == "train_test_split":
        stratify = next((k for k in call.keywords if k.arg == "stratify"), None)
        if stratify is not None and not (isinstance(stratify.value, ast.Constant) and stratify.value.value is None):
            raise NoFix  # a stratified split must shuffle
        return Fix(SAFE, "Split without shuffling: the held-out rows are the latest ones",
                   (t.op("keyword", call, "shuffle=False"),))
    if name not in SPLITTERS:
        raise NoFix
    n_splits = argument(call, 0, "n_splits")
    count = t.source(n_splits) if n_splits is not None else str(SPLITTERS[name])
    ops = []
    if isinstance(call.func, ast.Attribute):
        new = f"{t.source(call.func.value)}.TimeSeriesSplit"
    else:
        module = t.imported_from(name)
        if module is None or (t.bound("TimeSeriesSplit") and t.imported_from("TimeSeriesSplit") != SELECTION):
            raise NoFix
        new = "TimeSeriesSplit"
        ops += [Op("import", code=f"{SELECTION}:TimeSeriesSplit"), Op("unimport", code=f"{module}:{name}")]
    ops.insert(0, t.replace(call, f"{new}({'' if n_splits is None else _keyword_like(call, n_splits, count)})"))
    return Fix(UNSAFE, f"Use TimeSeriesSplit instead of {name}: every fold trains on the past and tests on the future"
               " (the folds now differ in size, and the first rows are never tested)", tuple(ops))


def _keyword_like(call, node, text: str) -> str:
    return text if any(a is node for a in call.args) else f"n_splits={text}"


# ------------------------------------------------------------ LL202: a centred window
def look_ahead_fix(hit, facts, t: Tree) -> Fix:
    node = t.call(hit.span)
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "rolling":
            centre = next((k for k in node.keywords if k.arg == "center"), None)
            if centre is None or not (isinstance(centre.value, ast.Constant) and centre.value.value is True):
                raise NoFix
            return Fix(SAFE, "Use a trailing window (drop center=True): each row sees only itself and earlier rows",
                       (t.op("keyword", node, "center="),))
        node = node.func.value
    raise NoFix


# ------------------------------------------------------------ LL302: a model fitted before the split
def fit_after_split_fix(hit, facts, t: Tree) -> Fix:
    event = facts.learns[_fact(hit, "learn")]
    split = facts.splits[_fact(hit, "split")]
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
    stmt, split_call, targets = _split_call(split, t)
    items, index = t.block(fit_stmt)
    if t.block(stmt)[0] is not items or t.block(stmt)[1] <= index or not t.alone(fit_stmt):
        raise NoFix
    sources = [t.source(a) for a in split_call.args]
    swaps = {}
    for arg in call.args:
        text = t.source(arg)
        if text not in sources:
            raise NoFix
        swaps[arg] = targets[2 * sources.index(text)]
        t.steady(arg, fit_stmt.end_lineno, stmt.lineno)
    if t.loads(model, fit_stmt.end_lineno, stmt.lineno) or t.written(model, fit_stmt.end_lineno, stmt.lineno):
        raise NoFix
    moved = _spliced(fit_stmt, swaps, t)
    ops = (t.op("delete", fit_stmt), t.op("insert", stmt, moved))
    return Fix(UNSAFE, "Fit the model on the training side, after the split (it now learns from fewer rows)", ops)


def _spliced(stmt, swaps: dict, t: Tree) -> str:
    """The statement's source with some of its nodes replaced by new text."""
    text = t.source(stmt)
    lines = text.split("\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)

    def at(line, column):
        row = line - stmt.lineno
        col = t._char(line, column) - (t._char(stmt.lineno, stmt.col_offset) if row == 0 else 0)
        return offsets[row] + col

    for node, new in sorted(swaps.items(), key=lambda item: (item[0].lineno, item[0].col_offset), reverse=True):
        text = text[: at(node.lineno, node.col_offset)] + new + text[at(node.end_lineno, node.end_col_offset):]
    return text


# ------------------------------------------------------------ LL304: the tuning score reported
def nested_cv_fix(hit, facts, t: Tree) -> Fix:
    event = facts.learns[_fact(hit, "search")]
    if event.site is not None or event.kind != "fit":
        raise NoFix
    fit = t.call(event.span)
    if call_name(fit) != "fit" or not isinstance(fit.func, ast.Attribute) or not isinstance(fit.func.value, ast.Name):
        raise NoFix
    search_name = fit.func.value.id
    search = _search_constructor(search_name, fit.lineno, t)
    x, y = argument(fit, 0, "X"), argument(fit, 1, "y")
    if search is None or x is None or y is None or len(fit.args) + len(fit.keywords) != 2:
        raise NoFix
    score = _best_score(hit.span, search_name, t)
    for node in (x, y, fit.func.value):
        t.steady(node, fit.end_lineno, score.lineno)
    settings = "".join(f", {k.arg}={t.source(k.value)}" for k in search.keywords if k.arg in ("cv", "scoring")
                       and isinstance(k.value, ast.Constant))
    nested = f"cross_val_score({search_name}, {t.source(x)}, {t.source(y)}{settings}).mean()"
    if _in_fstring(score, t):  # quotes cannot nest in an f-string before Python 3.12: name it first
        report = t.statement(score)
        if not t.alone(report):
            raise NoFix
        name = t.fresh("nested_score")
        ops = [t.op("before", report, f"{name} = {nested}"), t.replace(score, name)]
    else:
        ops = [t.replace(score, nested)]
    if t.bound("cross_val_score"):
        if t.imported_from("cross_val_score") != SELECTION:
            raise NoFix
    else:
        ops.append(Op("import", code=f"{SELECTION}:cross_val_score"))
    return Fix(UNSAFE, "Report a nested cross-validation score of the whole search (it runs the search once per fold)",
               tuple(ops))


def _in_fstring(node, t: Tree) -> bool:
    while node is not None:
        if isinstance(node, ast.JoinedStr):
            return True
        node = t.parent.get(node)
    return False


def _best_score(span, search_name: str, t: Tree):
    for node in ast.walk(t.tree):
        if (isinstance(node, ast.Attribute) and node.attr == "best_score_" and isinstance(node.value, ast.Name)
                and node.value.id == search_name and isinstance(node.ctx, ast.Load)
                and (span.line, span.column) <= (node.lineno, node.col_offset)
                and (node.end_lineno, node.end_col_offset) <= (span.end_line, span.end_column)):
            return node
    raise NoFix


# ------------------------------------------------------------ LL305: stopped on the test rows
def validation_split_fix(hit, facts, t: Tree) -> Fix:
    event = facts.learns[_fact(hit, "learn")]
    if event.site is not None:
        raise NoFix
    call = t.call(event.span)
    if call_name(call) != "fit" or len(call.args) < 2 or not all(isinstance(a, ast.Name) for a in call.args[:2]):
        raise NoFix
    watch = next((k for k in call.keywords if k.arg in ("eval_set", "validation_data")), None)
    if watch is None:
        raise NoFix
    x_train, y_train = call.args[0].id, call.args[1].id
    stmt, split_call, targets = _split_origin(x_train, y_train, call, t)
    i, j = targets.index(x_train), targets.index(y_train)
    x_test, y_test = targets[i + 1], targets[j + 1]
    fit_stmt = t.statement(call)
    for name in (x_train, y_train):
        if t.written(name, stmt.end_lineno, fit_stmt.lineno):
            raise NoFix
    x_fit, x_val = t.fresh(_stem(x_train) + "_fit"), t.fresh(_stem(x_train) + "_val")
    y_fit, y_val = t.fresh(_stem(y_train) + "_fit"), t.fresh(_stem(y_train) + "_val")
    renames = {x_train: x_fit, y_train: y_fit, x_test: x_val, y_test: y_val}
    names = [n for n in ast.walk(watch.value) if isinstance(n, ast.Name)]
    if not any(n.id in (x_test, y_test) for n in names):
        raise NoFix
    seed = next((k for k in split_call.keywords if k.arg == "random_state"), None)
    settings = ", test_size=0.2" + (f", random_state={t.source(seed.value)}" if seed is not None else "")
    func = t.source(split_call.func)
    ops = [t.op("insert", stmt, f"{x_fit}, {x_val}, {y_fit}, {y_val} = {func}({x_train}, {y_train}{settings})"),
           t.replace(call.args[0], x_fit), t.replace(call.args[1], y_fit)]
    ops += [t.replace(n, renames[n.id]) for n in names if n.id in renames]
    return Fix(UNSAFE, "Stop on a validation part of the training rows, not on the test rows "
               "(the model now trains on fewer rows)", tuple(ops))


def _stem(name: str) -> str:
    return name.split("_")[0] if "_" in name else name


def _split_origin(x_train: str, y_train: str, call, t: Tree):
    """The train_test_split statement that made ``x_train`` and ``y_train``, in the fit's block."""
    fit_stmt = t.statement(call)
    items, index = t.block(fit_stmt)
    for stmt in reversed(items[:index]):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) \
                and call_name(stmt.value) == "train_test_split":
            try:
                found = _split_statement(stmt.value, t)
            except NoFix:
                continue
            targets = found[2]
            if x_train in targets[0::2] and y_train in targets[0::2]:
                return found
    raise NoFix


PLANNERS = {
    "LL101": step_fix,
    "LL102": step_fix,
    "LL103": step_fix,
    "LL104": step_fix,
    "LL105": step_fix,
    "LL201": time_split_fix,
    "LL202": look_ahead_fix,
    "LL301": refit_fix,
    "LL302": fit_after_split_fix,
    "LL304": nested_cv_fix,
    "LL305": validation_split_fix,
}
