"""Fixes of time-order leaks: a shuffled split of time-ordered rows (LL201), a centred
window (LL202)."""
from __future__ import annotations

import ast

from ..findings import Fix, Op
from .common import SAFE, SELECTION, SPLITTERS, UNSAFE
from .tree import NoFix, Tree, argument, call_name


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

