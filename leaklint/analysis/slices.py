"""Positional splits: ``train, test = data[:n], data[n:]`` (and ``.iloc``, 2-D keys).

A slice alone (``X[:1000]``) is a subsample, not a split. Two slices that cut at the
same bound, one ending there and one starting there, are the two sides of a split;
this pre-scan pairs them before the interpretation so either side is recognised
wherever it appears. The head is the training side unless the names the two slices are
assigned to say otherwise (``X_valid, X_train = X[:5000], X[5000:]``).
"""
from __future__ import annotations

import ast
import re

_WRAPPERS = {"int", "len", "round", "math", "np", "floor", "ceil"}


def bound_of(node) -> str:
    """The cut point of a slice, by the variables it is computed from.

    ``data[:int(n)]`` and ``data[n - 60:]`` (a look-back window) cut at ``n``, and
    ``data[:int(n * 0.7)]`` at ``n * 0.7``; a bound made of literals only is kept as
    written. A bound counted from the end (``[:-k]``) cuts elsewhere than ``[k:]``: those
    two are inputs and targets ``k`` steps apart.
    """
    if node is None:
        return ""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return "-" + bound_of(node.operand)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "<label>"  # .loc[:"2009-12-31"] / .loc["2010-01-01":]: a cut by index label
    names = sorted(
        {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id not in _WRAPPERS}
    )
    # a fraction of them cuts elsewhere: X[:int(n * 0.7)], X[int(n * 0.7):int(n * 0.85)]
    factors = sorted(
        {repr(side.value) for n in ast.walk(node) if isinstance(n, ast.BinOp)
         and isinstance(n.op, (ast.Mult, ast.Div, ast.FloorDiv))
         for side in (n.left, n.right) if isinstance(side, ast.Constant) and isinstance(side.value, (int, float))}
    )
    if names:
        return ", ".join(names) + ("".join(" * " + f for f in factors) if factors else "")
    try:
        return ast.unparse(node)
    except Exception:  # malformed synthetic trees
        return "?"


def row_slice(subscript: ast.Subscript):
    key = subscript.slice
    if isinstance(key, ast.Tuple) and key.elts:
        key = key.elts[0]
    return key if isinstance(key, ast.Slice) and key.step is None else None


# the held-out parts a name may say it holds, by the part they are
_HELD_OUT_PARTS = {"test": "test", "te": "test", "tst": "test", "valid": "val", "val": "val", "validation": "val",
                   "dev": "val", "eval": "val", "holdout": "holdout"}


def side_part(name: str):
    """"train", or which held-out part ("test", "val", "holdout"), a variable's name says
    it holds (``X_train``, ``xTest``, ``Xval``, ``y_te``); None when it says neither or both."""
    words = [w for w in re.split(r"[^a-z]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()) if w]
    words.append(re.sub(r"^[xy]+|[xy]+$", "", name.lower()))  # Xtr, yval
    trained = any(w.startswith("train") or w in ("tr", "trn") for w in words)
    held = {_HELD_OUT_PARTS[w] for w in words if w in _HELD_OUT_PARTS}
    if trained + len(held) != 1:
        return None
    return "train" if trained else held.pop()


def named_side(name: str):
    """"train" or "test" when a variable's name says which side of a split it holds."""
    part = side_part(name)
    return None if part is None else ("train" if part == "train" else "test")


def assigned_names(assigns) -> dict:
    """Map id(Subscript node) -> the name it is assigned to (``a, b = x[:n], x[n:]`` too)."""
    names = {}
    for node in assigns:
        if len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "map" \
                and len(value.args) == 2 and isinstance(value.args[1], ast.Tuple):
            value = value.args[1]  # a, b = map(np.asarray, (x[:n], x[n:])): each item keeps its name
        pairs = [(target, value)]
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            pairs = zip(target.elts, value.elts)
        for name, part in pairs:
            if isinstance(name, ast.Name) and isinstance(part, ast.Subscript):
                names[id(part)] = name.id
    return names


def _head_is_held_out(heads, tails, names) -> bool:
    head_sides = {named_side(names.get(id(n), "")) for n in heads}
    tail_sides = {named_side(names.get(id(n), "")) for n in tails}
    return "test" in head_sides and "train" not in head_sides and "test" not in tail_sides


class Sides(dict):
    """id(Subscript node) -> (bound text, "train" | "test"); ``parents`` maps a bound whose
    split cuts the held-out rest of another split to that split's bound."""

    def __init__(self):
        super().__init__()
        self.parents = {}


def positional_sides(subscripts, loop_names=frozenset(), names=None) -> Sides:
    """Map id(Subscript node) -> (bound text, "train" | "test") for paired slices.

    A bound that moves with a loop variable (``load.loc[:day]`` / ``load.loc[day:...]``
    for each forecast day) cuts windows, not one training and one held-out part.
    ``names`` (from ``assigned_names``) lets the variables' names put the held-out part
    first.
    """
    heads, tails = {}, {}
    for node in subscripts:
        cut = row_slice(node)
        if cut is None or any(
            isinstance(n, ast.Name) and n.id in loop_names for part in (cut.lower, cut.upper) if part for n in ast.walk(part)
        ):
            continue
        if any(_column_count(part) for part in (cut.lower, cut.upper)):
            continue  # features[:len(DIFF_FEATURES)]: a record cut into its kinds of columns
        lower, upper = bound_of(cut.lower), bound_of(cut.upper)
        if "<label>" in (lower, upper):
            # label cuts pair by the frame they cut, since the two labels differ
            base = bound_of(node.value) if not isinstance(node.value, ast.Name) else node.value.id
            lower = f"{base}@{lower}" if lower else ""
            upper = f"{base}@{upper}" if upper else ""
        if "1" in (lower, upper) and lower in ("", "0", "1"):
            continue  # rows = data[1:] after header = data[:1]: a header row taken off, not a split
        if upper and lower in ("", "0"):
            heads.setdefault(upper, []).append(node)
        elif lower and lower != "0":
            tails.setdefault(lower, []).append(node)
    sides = Sides()
    for bound in heads.keys() & tails.keys():
        head, tail = ("test", "train") if _head_is_held_out(heads[bound], tails[bound], names or {}) else ("train", "test")
        for node in heads[bound]:
            sides[id(node)] = (bound, head)
        for node in tails[bound]:
            sides[id(node)] = (bound, tail)
    _cut_rest_again(sides, heads, tails)
    return sides


def _column_count(bound) -> bool:
    """``len(DIFF_FEATURES)``, ``len(num_cols)``: the count of a list of column names."""
    if not (isinstance(bound, ast.Call) and isinstance(bound.func, ast.Name) and bound.func.id == "len"
            and len(bound.args) == 1):
        return False
    arg = bound.args[0]
    name = arg.id if isinstance(arg, ast.Name) else arg.attr if isinstance(arg, ast.Attribute) else ""
    return _COLUMN_NAMES.search(name.lower()) is not None


_COLUMN_NAMES = re.compile(r"(features|feature_names|feats|cols|columns)$")


def _cut_rest_again(sides: "Sides", heads: dict, tails: dict) -> None:
    """``X[:a]``, ``X[a:b]``, ``X[b:]``: three parts. The rest after ``a`` is split again at
    ``b``, as a ``train_test_split`` of a held-out rest is: the middle part is the training
    side of that second split (a validation part, where a calibrator may learn) and the last
    part its held-out side."""
    for bound, nodes in tails.items():
        for node in nodes:
            upper = row_slice(node).upper
            if upper is None or sides.get(id(node)) != (bound, "test"):
                continue
            again = bound_of(upper)
            rest = [n for n in tails.get(again, ()) if row_slice(n).upper is None]
            if again == bound or again in heads or not rest:
                continue
            sides.parents[again] = bound
            sides[id(node)] = (again, "train")
            for last in rest:
                sides[id(last)] = (again, "test")


def pair_slices(tree: ast.AST) -> Sides:
    """``positional_sides`` for every slice in ``tree``: loop variables and assigned names
    read from the tree itself."""
    subscripts, loop_names, assigns = [], set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, (ast.Slice, ast.Tuple)):
            subscripts.append(node)
        elif isinstance(node, ast.Assign):
            assigns.append(node)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            loop_names.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
    return positional_sides(subscripts, frozenset(_moving_with(loop_names, assigns)), assigned_names(assigns))


_ARITHMETIC = (ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.operator, ast.unaryop, ast.expr_context)


def _arithmetic(value) -> bool:
    """A number computed from names and literals only (``i * fold_size``, ``int(start + n)``)."""
    return all(isinstance(n, _ARITHMETIC) or (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                                               and n.func.id in ("int", "round", "min", "max"))
               for n in ast.walk(value))


def _moving_with(loop_names: set, assigns) -> set:
    """Loop variables and the names computed from them (``start = i * fold_size``,
    ``end = start + fold_size``): a bound made of any of them moves with the loop."""
    moving = set(loop_names)
    arithmetic = [node for node in assigns if _arithmetic(node.value)]
    for _ in range(3):  # a chain of a few assignments
        grown = {t.id for node in arithmetic for t in node.targets if isinstance(t, ast.Name)
                 and any(isinstance(n, ast.Name) and n.id in moving for n in ast.walk(node.value))}
        if grown <= moving:
            break
        moving |= grown
    return moving
