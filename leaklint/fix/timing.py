"""Fixes of how rows are divided: a shuffled split of time-ordered rows (LL201), a
centred window (LL202), rows of one entity on both sides (LL203, shown only)."""
from __future__ import annotations

import ast

from ..findings import Fix, Op
from .common import CV_FUNCTIONS, DISPLAY, SAFE, SELECTION, SPLITTERS, UNSAFE, fact
from .tree import NoFix, Tree, argument, call_name


# ------------------------------------------------------------ LL201: a shuffled split of time-ordered rows
def time_split_fix(hit, facts, t: Tree) -> Fix:
    call = t.call(hit.span)
    name = call_name(call)
    if name == "train_test_split":
        stratify = next((k for k in call.keywords if k.arg == "stratify"), None)
        if stratify is not None and not (isinstance(stratify.value, ast.Constant) and stratify.value.value is None):
            raise NoFix  # a stratified split must shuffle
        split = facts.splits[fact(hit, "split")]
        if split.time is not None and split.time.date:  # dates parsed, the rows not shown to follow them
            return Fix(UNSAFE, "Split without shuffling (sort the rows by their date first: only then are the "
                       "held-out rows the latest ones)", (t.op("keyword", call, "shuffle=False"),))
        return Fix(SAFE, "Split without shuffling: the held-out rows are the latest ones",
                   (t.op("keyword", call, "shuffle=False"),))
    if name not in SPLITTERS:
        raise NoFix
    ops = _swap_splitter(call, "TimeSeriesSplit", t)
    return Fix(UNSAFE, f"Use TimeSeriesSplit instead of {name}: every fold trains on the past and tests on the future"
               " (the folds now differ in size, and the first rows are never tested)", tuple(ops))


def _swap_splitter(call, new: str, t: Tree) -> list:
    """Ops making ``KFold(5, shuffle=True, ...)`` into ``new(5)`` (the number of splits kept,
    as written), importing ``new`` and dropping the old class's import once unused."""
    name = call_name(call)
    n_splits = argument(call, 0, "n_splits")
    count = "" if n_splits is None else t.source(n_splits)
    if n_splits is not None and not any(a is n_splits for a in call.args):
        count = f"n_splits={count}"
    if isinstance(call.func, ast.Attribute):
        return [t.replace(call, f"{t.source(call.func.value)}.{new}({count})")]
    module = t.imported_from(name)
    if module is None or (t.bound(new) and t.imported_from(new) != SELECTION):
        raise NoFix
    return [t.replace(call, f"{new}({count})"), Op("import", code=f"{SELECTION}:{new}"),
            Op("unimport", code=f"{module}:{name}")]


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



# ------------------------------------------------------------ LL203: rows of one entity on both sides
GROUPED = {"KFold": "GroupKFold", "StratifiedKFold": "StratifiedGroupKFold", "ShuffleSplit": "GroupShuffleSplit"}


def group_fix(hit, facts, t: Tree) -> Fix:
    """The splitter made group-aware and the cross-validation handed the entity column as
    ``groups``. Shown, never applied: whether that column is the one to group by, and
    whether it still lines up with the rows at the cross-validation, is the user's call."""
    split = facts.splits[fact(hit, "split")]
    mark = fact(hit, "repeats")
    call, cv = t.call(hit.span), t.call(split.span)
    name = call_name(call)
    if name not in GROUPED or call_name(cv) not in CV_FUNCTIONS or any(k.arg == "groups" for k in cv.keywords):
        raise NoFix
    column = _entity_column(mark, t)
    ops = [*_swap_splitter(call, GROUPED[name], t), t.op("keyword", cv, f"groups={column}")]
    return Fix(DISPLAY, f"Keep each {mark.column} on one side: {GROUPED[name]} with groups={column}", tuple(ops))


def _entity_column(mark, t: Tree) -> str:
    """``visits["patient_id"]``: the entity column as the code that showed it repeats read it."""
    for node in ast.walk(t.tree):
        if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == mark.column
                and node.lineno == mark.span.line and isinstance(node.value, ast.Name)):
            return t.source(node)
    raise NoFix
