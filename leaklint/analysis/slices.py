"""Positional splits: ``train, test = data[:n], data[n:]`` (and ``.iloc``, 2-D keys).

A slice alone (``X[:1000]``) is a subsample, not a split. Two slices that cut at the
same bound, one ending there and one starting there, are the two sides of a split;
this pre-scan pairs them before the interpretation so either side is recognised
wherever it appears.
"""
from __future__ import annotations

import ast

_WRAPPERS = {"int", "len", "round", "math", "np", "floor", "ceil"}


def _bound(node) -> str:
    """The cut point of a slice, by the variables it is computed from.

    ``data[:int(n)]`` and ``data[n - 60:]`` (a look-back window) cut at ``n``; a bound
    made of literals only is kept as written.
    """
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "<label>"  # .loc[:"2009-12-31"] / .loc["2010-01-01":]: a cut by index label
    names = sorted(
        {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id not in _WRAPPERS}
    )
    if names:
        return ", ".join(names)
    try:
        return ast.unparse(node)
    except Exception:  # malformed synthetic trees
        return "?"


def _row_slice(subscript: ast.Subscript):
    key = subscript.slice
    if isinstance(key, ast.Tuple) and key.elts:
        key = key.elts[0]
    return key if isinstance(key, ast.Slice) and key.step is None else None


def positional_sides(subscripts, loop_names=frozenset()) -> dict:
    """Map id(Subscript node) -> (bound text, "train" | "test") for paired slices.

    A bound that moves with a loop variable (``load.loc[:day]`` / ``load.loc[day:...]``
    for each forecast day) cuts windows, not one training and one held-out part.
    """
    heads, tails = {}, {}
    for node in subscripts:
        cut = _row_slice(node)
        if cut is None or any(
            isinstance(n, ast.Name) and n.id in loop_names for part in (cut.lower, cut.upper) if part for n in ast.walk(part)
        ):
            continue
        lower, upper = _bound(cut.lower), _bound(cut.upper)
        if "<label>" in (lower, upper):
            # label cuts pair by the frame they cut, since the two labels differ
            base = _bound(node.value) if not isinstance(node.value, ast.Name) else node.value.id
            lower = f"{base}@{lower}" if lower else ""
            upper = f"{base}@{upper}" if upper else ""
        if upper and lower in ("", "0"):
            heads.setdefault(upper, []).append(node)
        elif lower and lower != "0":
            tails.setdefault(lower, []).append(node)
    sides = {}
    for bound in heads.keys() & tails.keys():
        for node in heads[bound]:
            sides[id(node)] = (bound, "train")
        for node in tails[bound]:
            sides[id(node)] = (bound, "test")
    return sides
