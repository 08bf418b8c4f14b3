"""The training rows of a later ``train_test_split``, drawn where a step learns.

When the code between a step and its split cannot be reordered (the output is wrapped,
displayed, renamed, overwritten and read again), the step can still learn from the
right rows: the same ``train_test_split`` call, with the same options, drawn on the
same number of rows, picks the same training rows. The step is then fitted on those
rows and applied to all of them, and every later line runs unchanged. That holds only
while no row is dropped, added or reordered before the split, which the code between
is checked for; the fix is unsafe all the same (an array rebuilt by hand can reorder).
"""
from __future__ import annotations

import ast

from ..analysis.syntax import drops_columns
from ..findings import Fix
from .common import UNSAFE, split_function
from .tree import NoFix, Tree, call_name

# Calls that drop, add or reorder rows: between the step and the split, any of them
# means the same draw would not pick the same rows.
ROW_CHANGES = frozenset({
    "dropna", "drop_duplicates", "query", "sample", "merge", "join", "concat", "append", "explode", "head", "tail",
    "fit_resample", "sort_values", "sort_index", "shuffle", "resample", "pivot", "pivot_table", "melt",
    "stack", "unstack", "vstack", "hstack", "r_", "set_index", "reindex", "nlargest", "nsmallest", "take",
    "train_test_split", "read_csv", "read_excel", "read_parquet", "load",
})
OPTIONS = frozenset({"random_state", "test_size", "train_size", "shuffle", "stratify"})


class Draw:
    """The later split as a call that can be repeated where the step learns."""

    def __init__(self, split, site, t: Tree):
        call = t.call(split.span)
        if call_name(call) != "train_test_split" or any(k.arg not in OPTIONS for k in call.keywords):
            raise NoFix
        seed = next((k.value for k in call.keywords if k.arg == "random_state"), None)
        # an unseeded split draws other rows each time: it gets a seed, the same as the draw here
        self.seeding = [t.op("keyword", call, "random_state=0")] if seed is None else []
        if seed is not None and not (isinstance(seed, ast.Name) or (
                isinstance(seed, ast.Constant) and isinstance(seed.value, int))):
            raise NoFix
        split_stmt = t.statement(call)
        items, split_index = t.block(split_stmt)
        anchor = site
        while True:  # the statement holding the site, in the split's block
            try:
                if t.block(anchor)[0] is items:
                    break
            except NoFix:
                pass
            anchor = t.parent.get(anchor)
            if anchor is None:
                raise NoFix
        index = t.block(anchor)[1]
        if index >= split_index:
            raise NoFix
        chain, self.sources = lineage(call, items[index:split_index])
        if any(changes_rows(stmt, t) for stmt in chain):
            raise NoFix
        options = {}
        for keyword in call.keywords:  # its options mean the same where the step learns
            options[keyword.arg] = t.source(keyword.value)
            if any(t.written(name, anchor.lineno - 1, split_stmt.lineno) or not t.written(name, 0, anchor.lineno)
                   for name in t.names_in(keyword.value)):
                if keyword.arg != "stratify" or not isinstance(keyword.value, ast.Name):
                    raise NoFix
                options["stratify"] = _label_column(keyword.value.id, anchor, split_stmt, t)
        self.anchor, self.t = anchor, t
        self.options = "".join(f", {k}={v}" for k, v in options.items())
        self.options += ", random_state=0" if self.seeding else ""
        self.func, self.imports = split_function(anchor, t)
        self.line = split_stmt.lineno

    def rows(self, names: list) -> tuple:
        """(Ops, names of the training rows of each of ``names``): a statement before the
        step drawing them, or the one an earlier fix wrote there."""
        t = self.t
        if not set(names) <= self.sources:
            raise NoFix  # a table the split's rows do not come from (a subset, another file) has other rows
        if any(not t.written(name, 0, self.anchor.lineno) for name in names):
            raise NoFix  # a table made after the statement (a helper reading a global bound later)
        draw = f"{self.func}({', '.join(names)}{self.options})"
        existing = self._existing(draw)
        if existing is not None:
            return [], existing
        picked = [t.fresh(f"{name}_train_rows") for name in names]
        targets = ", ".join(f"{p}, _" for p in picked)
        return [t.op("before", self.anchor, f"{targets} = {draw}"), *self.imports], picked

    def _existing(self, draw: str):
        items, index = self.t.block(self.anchor)
        for stmt in reversed(items[:index]):
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and self.t.source(stmt.value) == draw:
                target = stmt.targets[0]
                if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
                    return [e.id for e in target.elts[0::2]]
            if changes_rows(stmt, self.t):
                return None
        return None

    def fix(self, ops: list, what: str) -> Fix:
        seeded = "; the split gets random_state=0 so that both draws pick the same rows" if self.seeding else ""
        return Fix(UNSAFE, f"Fit {what} on the rows the split at line {self.line} trains on, drawn the same way here "
                   f"(assumes no row is dropped, added or reordered before that split{seeded})",
                   tuple(ops + self.seeding))


def _label_column(label: str, anchor, split_stmt, t: Tree) -> str:
    """``stratify=y`` where ``y = df["churn"]`` comes after the step: the same column of the
    same table, read where the step learns (``df["churn"]``), when nothing in between
    rebinds the table or writes that column; NoFix otherwise."""
    stores = [n for n in t.names.get(label, ()) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
              and anchor.lineno <= n.lineno < split_stmt.lineno]
    if len(stores) != 1:
        raise NoFix
    stmt = t.parent.get(stores[0])
    if not (isinstance(stmt, ast.Assign) and stmt.targets == [stores[0]]):
        raise NoFix
    value = stmt.value
    if isinstance(value, ast.Call) and call_name(value) == "pop" and isinstance(value.func, ast.Attribute) \
            and len(value.args) == 1 and not value.keywords:
        table, column = value.func.value, value.args[0]
    elif isinstance(value, ast.Subscript):
        table, column = value.value, value.slice
    else:
        raise NoFix
    if not (isinstance(table, ast.Name) and isinstance(column, ast.Constant) and isinstance(column.value, str)):
        raise NoFix
    if not t.written(table.id, 0, anchor.lineno):
        raise NoFix  # the table is made after the step
    for node in t.names.get(table.id, ()):
        if not anchor.lineno <= getattr(node, "lineno", 0) < stmt.lineno or node is table:
            continue
        if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
            raise NoFix  # rebound
        parent = t.parent.get(node)
        if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Store):
            if _may_write(parent.slice, column.value, t):
                raise NoFix  # the label column (or one not known) written again
        elif isinstance(parent, ast.Subscript) and parent.value is node and not _may_write(parent.slice, column.value, t):
            continue  # another column read, or changed in place (``df["Age"].fillna(..., inplace=True)``)
        elif t.mutated(node):
            raise NoFix
    return f"{table.id}[{column.value!r}]"


def _may_write(index, column: str, t: Tree) -> bool:
    """``df[index] = ...`` may write ``column``: unless ``index`` is a constant, or the
    variable of ``for col in cols`` over a list display of other strings that ``cols`` is
    bound to once, or over ``df.columns.drop(column)``."""
    if isinstance(index, ast.Constant):
        return index.value == column
    loop = t.parent.get(index)
    while loop is not None and not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
                                    and isinstance(index, ast.Name) and loop.target.id == index.id):
        loop = t.parent.get(loop)
    if loop is None:
        return True
    items = loop.iter
    if isinstance(items, ast.Name):
        store = t.binding(items.id, loop)
        stmt = t.parent.get(store) if store is not None else None
        if not (isinstance(stmt, ast.Assign) and stmt.targets == [store]) or t.written(items.id, stmt.end_lineno, loop.lineno):
            return True
        items = stmt.value
    if isinstance(items, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in items.elts):
        return column in {e.value for e in items.elts}
    return not (isinstance(items, ast.Call) and call_name(items) == "drop" and isinstance(items.func.value, ast.Attribute)
                and items.func.value.attr == "columns" and len(items.args) == 1
                and isinstance(items.args[0], ast.Constant) and items.args[0].value == column)


def lineage(split, between: list) -> tuple:
    """(the statements of ``between`` that the split's rows come from, the names of the
    tables the rows come from: the inputs of ``split``, a split call or a selection of
    one side, and what the statements binding them read). The statements are those
    changing in place a name the split reads, or a name such a statement reads, and so on
    back; and those binding such a table before it is read. A table read or filtered on
    the way elsewhere (``test = pd.read_csv(...)``), or bound again after the last read
    (``df = pd.concat(...)`` once ``X = df.drop(...)`` is taken), does not change the rows
    drawn."""
    last_read = dict.fromkeys((n.id for n in ast.walk(split) if isinstance(n, ast.Name)), len(between))
    sources = set(last_read)  # the names the rows come from (not values an in-place edit reads)
    chain: set = set()
    while True:  # in any order: a table changed in place after an alias of it was taken counts
        found = {}
        for index, stmt in enumerate(between):
            if index in chain:
                continue
            bound, edited = _written_names(stmt)
            binds = any(last_read.get(name, -1) > index and name in sources for name in bound)
            if binds or edited & last_read.keys():
                found[index] = binds
        if not found:
            return [between[i] for i in sorted(chain)], sources
        chain |= set(found)
        for index, binds in found.items():
            for node in ast.walk(between[index]):
                if isinstance(node, ast.Name):
                    last_read[node.id] = max(last_read.get(node.id, -1), index)
                    if binds:
                        sources.add(node.id)


def _written_names(stmt) -> tuple:
    """(names a statement binds, names it changes in place: ``df[c] = v``,
    ``df.dropna(inplace=True)``)."""
    bound, edited = set(), set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and not isinstance(node.ctx, ast.Load) or (
                isinstance(node, ast.Call) and any(k.arg == "inplace" for k in node.keywords)):
            root = node.func if isinstance(node, ast.Call) else node
            while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if isinstance(root, ast.Name):
                edited.add(root.id)
    return bound, edited


def changes_rows(stmt, t: Tree) -> bool:
    """The statement (or one inside it) rebinds or edits a table through a call or selection
    that drops, adds or reorders rows: only the chain the result comes from counts, not the
    arguments (``df["k"].map(rows.groupby("k").mean())`` keeps df's rows)."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Assign) and all(isinstance(target, ast.Subscript) for target in node.targets):
            continue  # cells written (``df.loc[mask, "c"] = ...``): the table keeps its rows
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            if _chain_changes_rows(node.value, t):
                return True
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            inplace = any(k.arg == "inplace" for k in node.value.keywords)
            if inplace and _chain_changes_rows(node.value, t):
                return True
    return False


def _chain_changes_rows(value, t: Tree) -> bool:
    node = value
    if _labels_of_columns(value):
        return False
    while True:
        if isinstance(node, ast.Call):
            name = call_name(node)
            if name in ROW_CHANGES and not _side_by_side(node, t) or (name == "drop" and not drops_columns(node)):
                return True
            if name == "groupby" and not _broadcast(value):
                return True
            node = node.func.value if isinstance(node.func, ast.Attribute) else None
        elif isinstance(node, ast.Subscript):
            if _filters(node.slice):
                return True
            node = node.value
        elif isinstance(node, ast.Attribute):
            node = node.value
        else:
            return False


# Statistics of each column over the rows: the index of what they give holds column labels.
COLUMN_STATISTICS = frozenset({
    "var", "std", "mean", "median", "sum", "count", "nunique", "min", "max", "corr", "corrwith", "skew", "kurt",
    "quantile",
})


def _labels_of_columns(value) -> bool:
    """The chain works on column labels, not on rows: ``df.columns.drop("id")``, or the index
    of a statistic per column (``X.var()[X.var() < 1e-6].index``)."""
    node, labels = value, False
    while isinstance(node, (ast.Call, ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and node.attr in ("columns", "dtypes"):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "index":
            labels = True
        if isinstance(node, ast.Call):
            if call_name(node) == "groupby":
                return False
            if labels and call_name(node) in COLUMN_STATISTICS and not any(k.arg == "axis" for k in node.keywords) \
                    and not node.args:
                return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def _side_by_side(call, t: Tree) -> bool:
    """Tables joined column by column on the same rows: ``pd.concat([...], axis=1)``, a
    merge or join on the index, scipy's sparse ``hstack``."""
    name = call_name(call)
    keywords = {k.arg: k.value for k in call.keywords}
    if name == "concat":
        axis = keywords.get("axis")
        return isinstance(axis, ast.Constant) and axis.value in (1, "columns")
    if name == "merge":
        return all(isinstance(keywords.get(k), ast.Constant) and keywords[k].value is True
                   for k in ("left_index", "right_index")) and set(keywords) <= {"left_index", "right_index"}
    if name == "join":
        return not keywords and len(call.args) == 1
    if name == "hstack":
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = func.value.id
            return t.module_of(owner) == "scipy.sparse" or (
                owner == "sparse" and t.imported_from(owner) == "scipy")
        return isinstance(func, ast.Name) and t.imported_from(func.id) == "scipy.sparse"
    return False


def _broadcast(value) -> bool:
    """A groupby whose statistic is broadcast back to every row (``.transform(...)``)."""
    return any(isinstance(n, ast.Call) and call_name(n) == "transform" for n in ast.walk(value))


def _filters(index) -> bool:
    """A row selection: a comparison or mask, a slice (``X[:100]``), ``.isin(...)``; not a
    selection of columns (``X[:, 1:]``, ``df.iloc[:, 0]``)."""
    if isinstance(index, ast.Tuple) and index.elts and isinstance(index.elts[0], ast.Slice):
        first = index.elts[0]
        if first.lower is None and first.upper is None and first.step is None:
            return False
    for node in ast.walk(index):
        if isinstance(node, (ast.Compare, ast.BoolOp, ast.Slice)):
            return True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.Not)):
            return True
        if isinstance(node, ast.Call) and call_name(node) in ("isin", "notna", "notnull", "isna", "isnull", "between"):
            return True
    return False
