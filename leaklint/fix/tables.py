"""Whether a value is a pandas table or an array, read from how the code made it, so that
a fix can take its rows at given positions: ``df.iloc[idx]`` for a table, ``a[idx]`` for
an array (``df[idx]`` would select columns). A value made some other way is not guessed.
Also the table an expression or a statistic takes its rows from, whose rows a fix
replaces by the training rows."""
from __future__ import annotations

import ast
from typing import Optional

from .tree import NoFix, Tree, call_name

FRAME, ARRAY = "frame", "array"

# pandas functions that return a DataFrame or a Series
PANDAS_MAKERS = frozenset({
    "read_csv", "read_excel", "read_parquet", "read_json", "read_table", "read_feather", "read_pickle", "read_sql",
    "DataFrame", "Series", "get_dummies", "concat", "merge",
})
# methods that return a value of the kind they are called on (a table's, an array's)
KEEP_KIND = frozenset({
    "drop", "copy", "fillna", "dropna", "reset_index", "select_dtypes", "astype", "assign", "rename", "replace",
    "sort_values", "sort_index", "merge", "join", "query", "head", "tail", "sample", "interpolate", "clip", "abs",
    "round", "filter", "reindex", "to_frame", "set_index", "drop_duplicates", "ffill", "bfill", "reshape", "pop",
})
# methods that return an array (a scikit-learn transformer's output, or a row-indexable sparse matrix)
MAKE_ARRAY = frozenset({"fit_transform", "transform", "toarray", "todense", "to_numpy"})
# numpy functions that build an array whatever they are given (a ufunc keeps a table a table)
NUMPY_MAKERS = frozenset({
    "array", "asarray", "vstack", "hstack", "stack", "concatenate", "column_stack", "zeros", "ones", "empty",
    "arange", "load", "loadtxt", "genfromtxt",
})
# calls whose ``transform`` is pandas' (a group's statistic per row), not a step's
PANDAS_GROUPINGS = frozenset({"groupby", "rolling", "expanding", "ewm", "resample"})


def rows_at(node, index: str, t: Tree, text: Optional[str] = None) -> str:
    """The rows of ``node`` (written ``text``, when it has another name there) at the
    positions ``index`` holds, as code; NoFix when how the code made ``node`` does not show
    whether it is a table or an array."""
    kind = kind_of(node, t)
    text = text or t.source(node)
    if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
        text = f"({text})"
    if kind == FRAME:
        return f"{text}.iloc[{index}]"
    if kind == ARRAY:
        return f"{text}[{index}]"
    raise NoFix


def kind_of(node, t: Tree, depth: int = 0) -> Optional[str]:
    """FRAME, ARRAY, or None when the code does not show it."""
    if depth > 8:
        return None
    if isinstance(node, ast.Name):
        last = t.binding(node.id, node)
        owner = t.parent.get(last)
        if isinstance(last, ast.Name) and isinstance(owner, ast.Assign) and owner.targets == [last]:
            return kind_of(owner.value, t, depth + 1)
        if isinstance(owner, ast.Tuple) and isinstance(t.parent.get(owner), ast.Assign):
            return _unpacked_kind(last, owner, t.parent.get(owner).value, t, depth)
        return None
    if isinstance(node, ast.Attribute):
        inner = kind_of(node.value, t, depth + 1)
        if node.attr == "values" and inner == FRAME:
            return ARRAY
        return FRAME if inner == FRAME and node.attr not in ("shape", "columns", "index", "T", "dtypes") else None
    if isinstance(node, ast.Subscript):
        inner = node.value
        if isinstance(inner, ast.Attribute) and inner.attr in ("loc", "iloc"):
            inner = inner.value
        return kind_of(inner, t, depth + 1)
    if isinstance(node, ast.Call):
        return _call_kind(node, t, depth)
    return None


def _call_kind(call: ast.Call, t: Tree, depth: int) -> Optional[str]:
    name = call_name(call)
    func = call.func
    module = t.origin(func)
    if module == "pandas":
        return FRAME if name in PANDAS_MAKERS else None
    if module == "numpy":
        return ARRAY if name in NUMPY_MAKERS else None
    if module is not None or not isinstance(func, ast.Attribute):
        return None
    if name in MAKE_ARRAY:
        grouped = any(isinstance(n, ast.Call) and call_name(n) in PANDAS_GROUPINGS for n in ast.walk(func.value))
        return None if grouped else ARRAY
    return kind_of(func.value, t, depth + 1) if name in KEEP_KIND else None


def _unpacked_kind(name, target: ast.Tuple, value, t: Tree, depth: int) -> Optional[str]:
    """``X, y = make_moons(...)`` (arrays); ``a_train, a_test, ... = train_test_split(a, ...)``
    (each part the kind of what it was drawn from)."""
    if not isinstance(value, ast.Call) or not all(isinstance(e, ast.Name) for e in target.elts):
        return None
    position = next(i for i, e in enumerate(target.elts) if e is name)
    if t.origin(value.func) == "sklearn.datasets" and not any(k.arg == "as_frame" for k in value.keywords):
        return ARRAY
    if call_name(value) == "train_test_split" and len(target.elts) == 2 * len(value.args) and not any(
            isinstance(a, ast.Starred) for a in value.args):
        return kind_of(value.args[position // 2], t, depth + 1)
    return None


def stat_table(call, t: Tree) -> ast.Name:
    """The table a statistic is computed on: ``df.Age`` in ``df.Age.median()`` or in
    ``np.nanmedian(df.Age)``."""
    candidates = [call.func.value] if isinstance(call.func, ast.Attribute) else []
    candidates += call.args[:1]
    for node in candidates:
        try:
            return table_root(node, t)
        except NoFix:
            continue
    raise NoFix


def table_root(node, t: Tree) -> ast.Name:
    """The table an expression takes its rows from: ``df`` in ``df[cols].values`` or
    ``df.Age.dropna()``. Those rows, drawn, take its place; NoFix when the expression
    reads the table again (a mask) or starts from a module (``np.log(df.x)``)."""
    root = node
    while isinstance(root, (ast.Subscript, ast.Attribute, ast.Call)):
        if isinstance(root, ast.Call):
            if not isinstance(root.func, ast.Attribute):
                raise NoFix
            root = root.func
        root = root.value
    if not isinstance(root, ast.Name) or t.imported(root.id):
        raise NoFix
    if sum(1 for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == root.id) != 1:
        raise NoFix
    return root
