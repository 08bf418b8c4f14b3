"""Splits by a condition: ``train = df[df.date < cutoff]`` and ``valid = df[df.date >= cutoff]``.

One condition alone (``df[df.price > 0]``) is a filter, not a split. Two subscripts that
select by complementary comparisons of the same two expressions (``<`` and ``>=``,
``<=`` and ``>``, ``!=`` and ``==``) are the two sides of a split when the names they are
assigned to say so: one a training part (``train``, ``tr``), the other a held-out one
(``valid``, ``va``, ``test``). The condition may be named (``m = df.date < cutoff``) and
negated (``df[~m]``); any mask a name holds pairs with its negation. Without such names
the two parts are as often subgroups studied apart (``df[df.region == "South"]`` /
``!=``), and a part split again later would hide the steps fitted on it before. This
pre-scan pairs them before the interpretation, as the positional pre-scan pairs slices.
An equality with a number pairs (``df[df.saleYear == 2012]``, a year held out; a fold
number); one with text (``df[df.source == "train"]``) or on a column the file sets to a
constant (``test["interest_level"] = 3``, the competition's rows of a stacked table)
does not. Two cutoffs known as constants pair when the parts they bound do not overlap
(``<= end`` / ``>= start``), and any other selection by a paired condition is that side
(``df.loc[train_mask]``). The middle part of a three-way split by time
(``df[(df.date >= t) & (df.date < v)]``) pairs by each of its bounds with the part on
the other side of it. The folds a list computed from a fold number gives
(``df[df.kfold.isin(FOLD_MAPPING.get(FOLD))]``) pair with that fold (``df.kfold == FOLD``).
"""
from __future__ import annotations

import ast
import re

from .slices import assigned_names, named_side
from .syntax import called_name, single_bindings, statements

_COMPLEMENT = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.NotEq: ast.Eq, ast.Eq: ast.NotEq}
_TRAINING_OPS = (ast.Lt, ast.LtE, ast.NotEq)  # one of each complementary pair
_SHORT_TRAINING = {"tr", "trn", "trainset", "fit"}
_SHORT_HELD_OUT = {"va", "vl", "te", "tst", "valset", "testset", "oof"}
_NAMED = ast.Constant(True)  # the comparand of a mask named by a name: ``m`` is ``m == True``
_SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.NotEq: "!=", ast.Eq: "=="}


def frame_of(node: ast.Subscript):
    """The frame a subscript selects from (``df`` of ``df[...]`` and of ``df.loc[...]``)."""
    return node.value.value if isinstance(node.value, ast.Attribute) and node.value.attr == "loc" else node.value


def rows_key(node: ast.Subscript):
    """What selects the rows: the key of ``frame[key]``, the first of ``frame.loc[key, cols]``."""
    key = node.slice
    if isinstance(key, ast.Tuple) and len(key.elts) == 2 and frame_of(node) is not node.value:
        return key.elts[0]
    return key


def _condition(node: ast.Subscript, masks: dict):
    """(left, op, right) of the comparison ``frame[a OP b]`` / ``frame.loc[a OP b, ...]``
    selects by, also through a name bound once to it (``m = a < b; frame[m]``) and negated
    (``frame[~m]`` selects by ``a >= b``). A name bound to any other mask selects by
    ``m == True``, its negation by ``m != True``."""
    key = rows_key(node)
    negated = isinstance(key, ast.UnaryOp) and isinstance(key.op, ast.Invert)
    if negated:
        key = key.operand
    if isinstance(key, ast.Name):
        if key.id not in masks:
            return None
        key = masks[key.id] if isinstance(masks[key.id], ast.Compare) else ast.Compare(key, [ast.Eq()], [_NAMED])
    if not (isinstance(key, ast.Compare) and len(key.ops) == 1 and type(key.ops[0]) in _COMPLEMENT):
        return None
    op = type(key.ops[0])
    return key.left, _COMPLEMENT[op] if negated else op, key.comparators[0]


def _conjuncts(node: ast.Subscript) -> list:
    """The comparisons of ``frame[(a >= t) & (a < v)]``, the middle part of a three-way split
    by time: each pairs with the part on its other side (``frame[a < t]``)."""
    key = rows_key(node)
    if not (isinstance(key, ast.BinOp) and isinstance(key.op, ast.BitAnd)):
        return []
    return [(part.left, type(part.ops[0]), part.comparators[0]) for part in (key.left, key.right)
            if isinstance(part, ast.Compare) and len(part.ops) == 1 and type(part.ops[0]) in _COMPLEMENT]


def column_name(node):
    """The column ``df.year`` / ``df["year"]`` names; None for anything else."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    return None


def pair_masks(tree: ast.AST) -> dict:
    """Map id(Subscript node) -> (the condition as text, "train" | "test") for paired
    conditions."""
    assigns = [node for node in statements(tree) if isinstance(node, ast.Assign)]
    names = assigned_names(assigns)
    candidates = {}
    for node in assigns:
        parts = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        candidates.update((id(part), part) for part in parts)
        value = node.value  # df_train = df[df.kfold != fold].reset_index(drop=True), or its .values
        while (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)) or (
                isinstance(value, ast.Attribute) and value.attr == "values"):
            value = value.func.value if isinstance(value, ast.Call) else value.value
        if value is not node.value and isinstance(value, ast.Subscript) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            names[id(value)] = node.targets[0].id
            candidates[id(value)] = value
    masks = single_bindings(assigns)
    markers = {column_name(t) for node in assigns if isinstance(node.value, ast.Constant) for t in node.targets}
    groups: dict = {}
    lists = []
    for node in candidates.values():
        if not isinstance(node, ast.Subscript) or id(node) not in names:
            continue
        frame, condition = frame_of(node), _condition(node, masks)
        if isinstance(frame, ast.Name) and frame.id == names[id(node)]:
            continue  # df = df[df.year >= 2000]: a filter
        listed = _listed(node)
        if listed is not None:
            lists.append((node, *listed))
        for left, op, compared in [condition] if condition is not None else _conjuncts(node):
            if op in (ast.Eq, ast.NotEq) and isinstance(compared, ast.Constant) and compared is not _NAMED and not (
                    isinstance(compared.value, int) and not isinstance(compared.value, bool)
                    and column_name(left) not in markers):
                continue  # df[df.source == "train"] / != "train": a table's own rows, not a fold
            groups.setdefault((ast.unparse(left), ast.unparse(compared)), {}).setdefault(op, []).append(node)
    sides = {}
    _pair_bounds(groups, names, masks, sides)
    for (left, right), by_op in groups.items():
        for op, nodes in by_op.items():
            others = by_op.get(_COMPLEMENT[op])
            if not others or op not in _TRAINING_OPS:
                continue
            said = {_part(names[id(n)]) for n in nodes}
            said_other = {_part(names[id(n)]) for n in others}
            if len(said) != 1 or len(said_other) != 1 or said | said_other != {"train", "test"}:
                continue
            text = f"{left} {_SYMBOL[op]} {right} / {_SYMBOL[_COMPLEMENT[op]]}"
            if right == ast.unparse(_NAMED):
                text = f"{left} / ~{left}"
            for node in nodes:
                sides[id(node)] = (text, _part(names[id(node)]))
            for node in others:
                sides[id(node)] = (text, _part(names[id(node)]))
    _pair_fold_lists(lists, groups, names, sides)
    _same_conditions(tree, masks, sides)
    _named_training_masks(tree, masks, sides)
    return sides


def _named_training_masks(tree: ast.AST, masks: dict, sides: dict) -> None:
    """``df.loc[train_mask, cols]`` with ``train_mask = df.date <= cutoff`` paired with no
    held-out part (the cutoff a helper's parameter): the mask's name says these are the
    training rows of a split by that condition, and what is learned from them learned
    from those rows only."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and id(node) not in sides:
            key = rows_key(node)
            if isinstance(key, ast.Name) and isinstance(masks.get(key.id), ast.Compare) and _part(key.id) == "train":
                sides[id(node)] = (f"{key.id} / ~{key.id}", "train")


def _listed(node: ast.Subscript):
    """(the column as text, the list) of ``frame[col.isin(folds)]``; None otherwise."""
    key = rows_key(node)
    if isinstance(key, ast.Call) and isinstance(key.func, ast.Attribute) and key.func.attr == "isin" \
            and len(key.args) == 1 and not key.keywords:
        return ast.unparse(key.func.value), key.args[0]
    return None


def _pair_fold_lists(lists: list, groups: dict, names: dict, sides: dict) -> None:
    """``train = df[df.kfold.isin(FOLD_MAPPING.get(FOLD))]`` and ``valid = df[df.kfold ==
    FOLD]``: the folds a list computed from a fold number gives, and that fold, are the
    two sides of a split when their names say so (the list is built to leave it out)."""
    for node, column, listed in lists:
        if _part(names[id(node)]) != "train":
            continue
        used = {n.id for n in ast.walk(listed) if isinstance(n, ast.Name)}
        for (left, right), by_op in groups.items():
            if left != column or not right.isidentifier() or right not in used:
                continue
            held = [n for n in by_op.get(ast.Eq, []) if _part(names[id(n)]) == "test"]
            if held:
                text = f"{column}.isin({ast.unparse(listed)}) / == {right}"
                sides[id(node)] = (text, "train")
                sides.update((id(n), (text, "test")) for n in held)


def _same_conditions(tree: ast.AST, masks: dict, sides: dict) -> None:
    """Other selections by the condition of a paired side (``df.loc[train_mask, cols]``
    with ``train_mask = df.date <= "2024-03-31"``, the cutoff of ``train = df[df.date <=
    end]``; ``content[df.year != 2012]`` of a column ``content`` a loop over
    ``df.items()`` gives): the same rows, that side of the same split."""
    if not sides:
        return
    subscripts = [node for node in ast.walk(tree) if isinstance(node, ast.Subscript)]
    known = {}
    for node in subscripts:
        if id(node) in sides:
            key = _condition_key(node, masks)
            if key is not None:
                known.setdefault(key, set()).add(sides[id(node)])
    columns = _item_columns(tree)
    folds = {}  # the same fold column of another table (out-of-fold predictions beside the features)
    for key, found in known.items():
        if _fold_column(key[1]):
            folds.setdefault(_fold_key(key), set()).update(found)
    for node in subscripts:
        if id(node) not in sides:
            key = _condition_key(node, masks, columns)
            fold = _fold_key(key) if key is not None and _fold_column(key[1]) else None
            if key is not None and len(known.get(key, ())) == 1:
                sides[id(node)] = next(iter(known[key]))
            elif fold is not None and len(folds.get(fold, ())) == 1:
                sides[id(node)] = next(iter(folds[fold]))


_FOLD_COLUMN = re.compile(r"""\[['"](k?folds?|fold_?(id|idx|num|number))['"]\]$|\.(k?folds?)$""")


def _fold_column(left: str):
    """The column of fold numbers ``df["fold"]`` / ``df.kfold`` selects (as text), or None."""
    found = _FOLD_COLUMN.search(left)
    return found and (found.group(1) or found.group(3))


def _fold_key(key: tuple) -> tuple:
    """A condition's key without its table: (fold column, operator, compared value)."""
    return (_fold_column(key[1]),) + key[2:]


def items_loop(loop):
    """(the column's name, the frame's text) for ``for label, name in frame.items()``;
    None for any other statement."""
    if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Attribute) \
            and loop.iter.func.attr in ("items", "iteritems") and not loop.iter.args \
            and isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2 \
            and isinstance(loop.target.elts[1], ast.Name):
        return loop.target.elts[1].id, ast.unparse(loop.iter.func.value)
    return None


def _item_columns(tree: ast.AST) -> dict:
    """{id(subscript): the frame} for selections of the column a loop over
    ``frame.items()`` gives, inside that loop."""
    columns = {}
    for loop in ast.walk(tree):
        found = items_loop(loop)
        if found is not None:
            for statement in loop.body:
                columns.update((id(n), found[1]) for n in ast.walk(statement) if isinstance(n, ast.Subscript)
                               and isinstance(n.value, ast.Name) and n.value.id == found[0])
    return columns


def _condition_key(node: ast.Subscript, masks: dict, columns=None):
    """(frame, column, operator, cutoff) of a selection by a comparison, the cutoff as its
    constant when one is known; a loop's column of a frame (``columns``) selects as that
    frame."""
    condition = _condition(node, masks)
    if condition is None:
        return None
    left, op, compared = condition
    value = _bound_value(compared, masks)
    frame = (columns or {}).get(id(node)) or ast.unparse(frame_of(node))
    return frame, ast.unparse(left), op, value if value is not None else ast.unparse(compared)


_LOWER, _UPPER = (ast.Lt, ast.LtE), (ast.Gt, ast.GtE)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_CALLS = frozenset({"to_datetime", "Timestamp", "datetime64"})


def _bound_value(node, masks: dict, depth: int = 0):
    """The constant a cutoff is: a number, an ISO date (``"2024-03-31"``,
    ``pd.to_datetime("2024-03-31")``), also through a name bound once to one; else None."""
    if isinstance(node, ast.Name) and node.id in masks and depth < 3:
        return _bound_value(masks[node.id], masks, depth + 1)
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        node = node.args[0] if called_name(node) in _DATE_CALLS else None
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return ("date", node.value) if _DATE.fullmatch(node.value) else None
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return ("number", node.value)
    return None


def _pair_bounds(groups: dict, names: dict, masks: dict, sides: dict) -> None:
    """``train = df[df.date <= end]`` / ``test = df[df.date >= start]`` with ``start`` after
    ``end`` (two constants, or names bound once to them): the sides of one split with a
    gap between them, when each is the only part below or above a bound of that column."""
    by_left: dict = {}
    for (left, _right), by_op in groups.items():
        for op, nodes in by_op.items():
            if op in _LOWER + _UPPER:
                by_left.setdefault(left, {}).setdefault(op in _LOWER, []).extend((op, n) for n in nodes)
    for left, parts in by_left.items():
        lower, upper = parts.get(True, []), parts.get(False, [])
        if len(lower) != 1 or len(upper) != 1:
            continue
        (low_op, low), (high_op, high) = lower[0], upper[0]
        said = {_part(names[id(low)]), _part(names[id(high)])}
        low_condition, high_condition = _condition(low, masks), _condition(high, masks)
        if low_condition is None or high_condition is None:
            continue  # a part bounded on both sides (``(a > s) & (a <= e)``) pairs by one bound only
        low_bound, high_bound = low_condition[2], high_condition[2]
        if ast.unparse(low_bound) == ast.unparse(high_bound):
            continue  # one bound: complementary conditions pair below, or not at all
        below, above = _bound_value(low_bound, masks), _bound_value(high_bound, masks)
        if said != {"train", "test"} or below is None or above is None or below[0] != above[0]:
            continue
        if not (below[1] < above[1] or below[1] == above[1] and (low_op is ast.Lt or high_op is ast.Gt)):
            continue
        text = f"{left} {_SYMBOL[low_op]} {ast.unparse(low_bound)} / {_SYMBOL[high_op]} {ast.unparse(high_bound)}"
        for node in (low, high):
            sides[id(node)] = (text, _part(names[id(node)]))


def _part(name: str):
    """"train" or "test" when the name says which part it holds (``tr`` and ``va`` too)."""
    side = named_side(name)
    if side is None:
        tokens = set(re.split(r"[^a-z]+", name.lower()))
        side = "train" if tokens & _SHORT_TRAINING else "test" if tokens & _SHORT_HELD_OUT else None
    return side
