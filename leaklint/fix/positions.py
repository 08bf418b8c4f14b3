"""A step fitted on all rows before a split by position (``train = scaled[:n]``): it
learns from the rows the training slice takes (``scaler.fit(data[:n]).transform(data)``).

The step keeps every row in its output, so its output and its input have the same
positions; the bound is written where the step learns, from names that hold there what
they hold at the slice. Every later line runs unchanged: the fix is safe.
"""
from __future__ import annotations

import ast
import builtins

from ..analysis.slices import bound_of, pair_slices, row_slice
from ..findings import Fix
from .common import SAFE
from .tree import NoFix, Tree, call_name

# calls a bound may make: they read lengths and round them, nothing else
_ROUNDING = frozenset({"len", "int", "round", "min", "max", "float", "abs", "ceil", "floor"})
_BUILTINS = frozenset(dir(builtins))


def fit_on_head(step, split, t: Tree) -> Fix:
    """``step`` (a ``fitted_output`` Step) learns from the training slice of ``split``."""
    if step.sampler or step.recv is None:
        raise NoFix  # a sampler's output has other rows than its input; a function form has no step to fit
    sides = pair_slices(t.tree)
    slices = {_span(node): node for node in ast.walk(t.tree) if id(node) in sides}
    cut_at = slices.get((split.span.line, split.span.column, split.span.end_line, split.span.end_column))
    if cut_at is None:
        raise NoFix
    bound = sides[id(cut_at)][0]
    if bound in sides.parents:
        raise NoFix  # the middle of three parts is a validation part, not the rows the step may learn
    training = [node for node in slices.values() if sides[id(node)] == (bound, "train") and _of_output(node, step, t)]
    if not training:
        raise NoFix
    head = min(training, key=lambda node: (node.lineno, node.col_offset))
    fitted = t.statement(step.call)
    moves = {}
    cut = row_slice(head)
    parts = [_at_step(part, step, fitted, head, t, moves) if part is not None else "" for part in (cut.lower, cut.upper)]
    if bound_of(ast.parse(f"({parts[1] or parts[0]})", mode="eval").body) != bound:
        raise NoFix  # the bound would be written with other names: the analysis could not pair the slices
    rows = ":".join(parts)
    learned = [f"{_atom(arg, t)}[{rows}]" for arg in step.call.args]
    if call_name(step.call) == "fit_transform":
        new = f"{t.source(step.call.func.value)}.fit({', '.join(learned)}).transform({t.source(step.call.args[0])})"
        ops = [t.replace(step.call, new)]
    else:
        ops = [t.replace(arg, text) for arg, text in zip(step.call.args, learned)]
    for owner in sorted(moves, key=lambda stmt: stmt.lineno):
        ops += [t.op("before", fitted, moves[owner]), t.op("delete", owner)]
    return Fix(SAFE, f"Fit {step.class_name} on the rows the split by position at line {head.lineno} trains on "
               f"([{rows}]), and transform all of them", tuple(ops))


def _span(node) -> tuple:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset


def _of_output(node, step, t: Tree) -> bool:
    """``node`` slices the step's output (``scaled[:n]``, ``scaled[:n, :]``), bound by the
    step and unchanged until the slice, in the step's scope."""
    value = node.value
    if not (isinstance(value, ast.Name) and value.id in step.outputs and node.lineno > step.stmt.end_lineno):
        return False
    if t.scope_of(node) is not t.scope_of(step.stmt):
        return False
    return t.binding(value.id, node) in _stores(step.stmt) and not any(
        t.mutated(n) for n in t.loads(value.id, step.stmt.end_lineno, node.lineno))


def _stores(stmt) -> list:
    return [n for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def _at_step(part, step, fitted, head, t: Tree, moves: dict, depth: int = 0) -> str:
    """The bound ``part`` (read at ``head``) as code that means the same where the step is
    fitted (the statement ``fitted``): the step's output, read by its length, is its input;
    a name bound in between is bound before the step instead (``moves``: statement -> its
    new code)."""
    if depth > 2:
        raise NoFix
    _check_plain(part, t)
    swaps = {}
    for node in ast.walk(part):
        if not isinstance(node, ast.Name):
            continue
        name = node.id
        if name in step.outputs:
            if not _measured(node, t):
                raise NoFix
            if t.source(step.data) != name:
                swaps[node] = _atom(step.data, t)
            continue
        if not t.written(name, fitted.end_lineno, head.lineno):
            if not (name in _BUILTINS or t.written(name, 0, fitted.lineno) or t.imported(name)):
                raise NoFix
            continue
        owner = _single_binding(name, fitted, head, t)
        if owner not in moves:
            if t.loads(name, fitted.lineno - 1, owner.lineno):
                raise NoFix  # its earlier value is read before it is bound again
            value = _at_step(owner.value, step, fitted, owner, t, moves, depth + 1)
            moves[owner] = f"{name} = {value}"
    return t.spliced(part, swaps) if swaps else t.source(part)


def _check_plain(part, t: Tree) -> None:
    """NoFix unless the bound only does arithmetic on names, lengths and shapes."""
    for node in ast.walk(part):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name not in _ROUNDING or node.keywords:
                raise NoFix
        elif isinstance(node, ast.Attribute):
            if not (node.attr == "shape" or (isinstance(node.value, ast.Name) and t.imported(node.value.id))):
                raise NoFix
        elif isinstance(node, ast.Subscript):
            if not (isinstance(node.value, ast.Attribute) and node.value.attr == "shape"):
                raise NoFix
        elif not isinstance(node, (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop,
                                   ast.expr_context)):
            raise NoFix


def _measured(node: ast.Name, t: Tree) -> bool:
    """``len(node)`` or ``node.shape[0]``: only its number of rows is read."""
    parent = t.parent.get(node)
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len" \
            and parent.args == [node]:
        return True
    if isinstance(parent, ast.Attribute) and parent.attr == "shape":
        outer = t.parent.get(parent)
        return isinstance(outer, ast.Subscript) and isinstance(outer.slice, ast.Constant) and outer.slice.value == 0
    return False


def _single_binding(name: str, fitted, head, t: Tree) -> ast.Assign:
    """The one ``name = value`` between the statement ``fitted`` and ``head``, on lines of
    its own in the same block."""
    stores = [n for n in t.names.get(name, ()) if fitted.end_lineno < getattr(n, "lineno", 0) < head.lineno
              and not (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and not t.mutated(n))]
    if len(stores) != 1:
        raise NoFix
    owner = t.parent.get(stores[0])
    if not (isinstance(owner, ast.Assign) and owner.targets == [stores[0]] and t.alone(owner)):
        raise NoFix
    if t.block(owner)[0] is not t.block(fitted)[0]:
        raise NoFix
    return owner


def _atom(node, t: Tree) -> str:
    text = t.source(node)
    return text if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({text})"
