"""What several planners read: the library's names, a fix's applicability, the
``train_test_split`` statement and a search's constructor as the code wrote them."""
from __future__ import annotations

import ast
from typing import Optional

from ..findings import Op
from .tree import NoFix, Tree, call_name

SAFE, UNSAFE, DISPLAY = "safe", "unsafe", "display-only"
CV_FUNCTIONS = {"cross_val_score", "cross_validate", "cross_val_predict", "learning_curve", "validation_curve",
                "permutation_test_score"}
SPLITTERS = frozenset({"KFold", "StratifiedKFold", "ShuffleSplit", "StratifiedShuffleSplit", "RepeatedKFold",
                       "RepeatedStratifiedKFold"})
SKLEARN_PIPELINE = "sklearn.pipeline"
IMBLEARN_PIPELINE = "imblearn.pipeline"
SELECTION = "sklearn.model_selection"



def fact(hit, key: str):
    """The fact the rule named; a finding of another kind (none named) gets no fix."""
    if key not in hit.basis:
        raise NoFix
    return hit.basis[key]


def inside(node, container) -> bool:
    """``node`` lies within ``container``'s source."""
    return container.lineno <= node.lineno <= container.end_lineno and (
        node.lineno != container.lineno or node.col_offset >= container.col_offset)


def split_call(split, t: Tree):
    """The ``a_train, a_test, ... = train_test_split(a, ...)`` statement, its call and targets."""
    return split_statement(t.call(split.span), t)


def split_statement(call: ast.Call, t: Tree):
    if call_name(call) != "train_test_split":
        raise NoFix
    stmt = t.assigned(call)
    target = stmt.targets[0]
    if not isinstance(target, (ast.Tuple, ast.List)) or not all(isinstance(e, ast.Name) for e in target.elts):
        raise NoFix
    if any(isinstance(a, ast.Starred) for a in call.args) or len(target.elts) != 2 * len(call.args):
        raise NoFix
    return stmt, call, [e.id for e in target.elts]


def constructor(name: str, use, t: Tree) -> Optional[ast.Call]:
    """The call in ``name = Step(...)``, when that plain assignment is the last binding of
    ``name`` before the node ``use`` (in its scope)."""
    last = t.binding(name, use)
    stmt = t.parent.get(last)
    if isinstance(last, ast.Name) and isinstance(stmt, ast.Assign) and stmt.targets == [last] \
            and isinstance(stmt.value, ast.Call):
        return stmt.value
    return None


def search_constructor(name: str, use, t: Tree) -> Optional[ast.Call]:
    """``name = GridSearchCV(...)``: the constructor of ``name`` before the node ``use``,
    when it surely reaches it (a statement of a block that holds ``use`` further down)."""
    built = constructor(name, use, t)
    if built is None or not is_search(built, t):
        return None
    stmt = t.parent.get(built)
    items, index = t.block(stmt)
    node = use
    while node is not None and not any(item is node for item in items[index + 1:]):
        node = t.parent.get(node)
    return built if node is not None else None


def is_search(call: ast.Call, t: Tree) -> bool:
    """``GridSearchCV(...)``, also under the name an import gave it (``GridSearchCV as GS``)."""
    name = call_name(call)
    if isinstance(call.func, ast.Name):
        name = next((n.name for n in t.names.get(name, ()) if isinstance(n, ast.alias) and n.asname == name), name)
    return name.endswith("SearchCV")


def split_function(anchor, t: Tree) -> tuple:
    """How to call train_test_split at ``anchor`` (a statement), and the Ops importing it:
    as the file names it when that name is imported before there, else through its module."""
    for name, text in (("train_test_split", "train_test_split"), ("model_selection", "model_selection.train_test_split")):
        nodes = t.names.get(name, ())
        aliases = [n for n in nodes if isinstance(n, ast.alias)]
        stores = [n for n in nodes if not isinstance(n, ast.alias) and not
                  (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))]
        if aliases and not stores and min(n.lineno for n in aliases) < anchor.lineno \
                and all(_imports_from(t.parent.get(n), name) for n in aliases):
            return text, []
    return f"{SELECTION}.train_test_split", [Op("import", code=SELECTION)]


def _imports_from(statement, name: str) -> bool:
    return isinstance(statement, ast.ImportFrom) and statement.module == (
        SELECTION if name == "train_test_split" else "sklearn")
