"""The training rows of a later split by a condition, selected where a statistic learns.

``df_val = df[df.saleYear == 2012]`` / ``df_train = df[df.saleYear != 2012]`` divides the
rows by a condition the code writes out. A statistic computed on all of them before
(``content.fillna(content.median())`` over each column of ``df``) learns from the training
rows when the same condition selects them there: ``content[df.saleYear != 2012].median()``.
That holds while no row is dropped, added or reordered in between and the condition's
columns keep their values, which the code between is checked for only in part (a column
written in place may be the condition's): the fix is unsafe.
"""
from __future__ import annotations

import ast

from ..analysis.masks import frame_of, items_loop, pair_masks, rows_key
from ..findings import Fix
from .common import UNSAFE
from .rows import changes_rows, lineage
from .tables import stat_table
from .tree import NoFix, Tree


def condition_early(event, split, t: Tree) -> Fix:
    call = t.call(event.span)
    root = stat_table(call, t)
    training = _training_selection(split, t)
    key = rows_key(training)
    stmt, selecting = t.statement(call), t.statement(training)
    anchor = stmt
    while t.parent.get(anchor) is not t.parent.get(selecting):  # the statement holding the statistic, in the split's block
        anchor = t.parent.get(anchor)
        if anchor is None or isinstance(anchor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            raise NoFix
    items, first = t.block(anchor)
    if t.block(selecting)[0] is not items or t.block(selecting)[1] <= first:
        raise NoFix
    frame = frame_of(training)
    if not isinstance(frame, ast.Name) or frame.id not in (root.id, _loop_frame(root, t)):
        raise NoFix  # the same condition on another table does not pick that side
    chain, _ = lineage(training, items[first:t.block(selecting)[1]])
    if any(changes_rows(s, t) for s in chain):
        raise NoFix  # the table's rows dropped, added or reordered in between: the condition picks others
    for name in t.names_in(key):  # the condition reads names bound before the statistic, not bound again
        bound = t.binding(name, call)
        if bound is None or any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                                and stmt.lineno <= n.lineno < selecting.lineno for n in t.names.get(name, ())):
            raise NoFix
    condition = t.source(key)
    return Fix(UNSAFE, f"Compute the {event.qualname} on the rows the condition at line {selecting.lineno} trains on "
               f"({condition}), selected here (assumes its columns and the rows do not change before that line)",
               (t.replace(root, f"{root.id}[{condition}]"),))


def _loop_frame(name: ast.Name, t: Tree):
    """The frame whose columns the loop around ``name`` gives it (``for label, name in
    frame.items()``); None when no such loop binds it."""
    node = t.parent.get(name)
    while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        found = items_loop(node)
        if found is not None and found[0] == name.id:
            return found[1]
        node = t.parent.get(node)
    return None


def _training_selection(split, t: Tree) -> ast.Subscript:
    """The one subscript that takes the split's training side (``df[df.saleYear != 2012]``)."""
    sides = pair_masks(t.tree)
    found = [n for n in ast.walk(t.tree) if isinstance(n, ast.Subscript) and id(n) in sides
             and sides[id(n)] == (split.qualname, "train")]
    if len(found) != 1:
        raise NoFix
    return found[0]
