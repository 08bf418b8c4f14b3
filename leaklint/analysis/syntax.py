"""Small readings of syntax nodes shared by the interpreter's parts."""
from __future__ import annotations

import ast
from typing import Optional

from . import libraries as lib
from .facts import Span
from .project import PATH_ATTRIBUTE
from .values import Estimator, Seq

_VALUE_AGGREGATES = {"mean", "median", "sum", "std", "var", "min", "max"}


def span_of(node: ast.AST) -> Span:
    line = getattr(node, "lineno", 1)
    col = getattr(node, "col_offset", 0)
    end_line, end_col = getattr(node, "end_lineno", None) or line, getattr(node, "end_col_offset", None) or col
    return Span(line, col, end_line, end_col, getattr(node, PATH_ATTRIBUTE, None))


def text_of(node: Optional[ast.AST]) -> str:
    if node is None:
        return "the data"
    try:
        text = ast.unparse(node)
    except Exception:  # malformed synthetic trees
        return "the data"
    return text if len(text) <= 40 else text[:37] + "..."


def const_str(node) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def truthy_const(node) -> Optional[bool]:
    if isinstance(node, ast.Constant):
        return bool(node.value)
    return None


def keyword_node(node, name):
    if node is None:
        return None
    for kw in node.keywords:
        if kw.arg == name:
            return kw.value
    return None


def keyword_fraction(node) -> bool:
    """``sample(frac=0.8)``: a fraction of the rows, not all of them (a shuffle)."""
    value = keyword_node(node, "frac")
    return isinstance(value, ast.Constant) and isinstance(value.value, float) and 0 < value.value < 1


def keyword_true(node, name) -> bool:
    value = keyword_node(node, name)
    return value is not None and truthy_const(value) is True


def training_side(rows) -> bool:
    return all(r.side is not None and not r.side.held_out for r in rows)


def row_wise(node, axis_position) -> bool:
    """``X.mean(axis=1)``: one statistic per row, from that row's own values."""
    axis = keyword_node(node, "axis")
    if axis is None and axis_position is not None and len(node.args) > axis_position:
        axis = node.args[axis_position]
    if isinstance(axis, ast.Tuple):  # images.max(axis=(1, 2)): per image
        return bool(axis.elts) and all(isinstance(e, ast.Constant) and e.value not in (0, "index") for e in axis.elts)
    return isinstance(axis, ast.Constant) and axis.value in (1, "columns", -1)


def lambda_is_aggregate(func: ast.Lambda) -> bool:
    """``lambda x: x.mean()``: the lambda is the aggregate itself."""
    body = func.body
    return (
        isinstance(body, ast.Call)
        and isinstance(body.func, ast.Attribute)
        and body.func.attr in lib.FRAME_STATS
        and isinstance(body.func.value, ast.Name)
    )


def aggregates_values(node) -> bool:
    """The aggregate is a mean-like statistic of values (not a count or a size)."""
    method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
    if method in _VALUE_AGGREGATES:
        return True
    for arg in list(node.args) + [k.value for k in node.keywords]:
        for sub in ast.walk(arg):
            if isinstance(sub, ast.Constant) and sub.value in _VALUE_AGGREGATES:
                return True
            if isinstance(sub, ast.Attribute) and sub.attr in _VALUE_AGGREGATES:
                return True
        if isinstance(arg, ast.Lambda):
            return True
    return False


def aggregated_columns(node) -> list:
    """Columns named in ``.agg({"target": "mean"})`` or ``.agg(m=("target", "mean"))``."""
    columns = []
    for arg in node.args:
        if isinstance(arg, ast.Dict):
            columns.extend(k.value for k in arg.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
    for kw in node.keywords:
        if isinstance(kw.value, ast.Tuple) and kw.value.elts and isinstance(kw.value.elts[0], ast.Constant):
            columns.append(kw.value.elts[0].value)
    return [c for c in columns if isinstance(c, str)]


def groupby_root(node):
    """The frame a ``df.groupby(...)...`` chain starts from, for messages."""
    current = node
    while isinstance(current, (ast.Call, ast.Attribute, ast.Subscript)):
        if isinstance(current, ast.Call):
            current = current.func
        elif isinstance(current, ast.Attribute):
            if current.attr == "groupby":
                return current.value
            current = current.value
        else:
            current = current.value
    return current


def step_names(value) -> list:
    if isinstance(value, Estimator):
        return [value.qualname, *value.steps]
    if isinstance(value, Seq):
        names = []
        for item in value.items:
            names.extend(step_names(item))
        return names
    return []
