"""Small readings of syntax nodes shared by the interpreter's parts."""
from __future__ import annotations

import ast
import re
from typing import Optional

from . import libraries as lib
from .facts import Span
from .project import PATH_ATTRIBUTE
from .slices import side_part
from .values import Estimator, Seq

_VALUE_AGGREGATES = {"mean", "median", "sum", "std", "var", "min", "max"}


def span_of(node: ast.AST) -> Span:
    line = getattr(node, "lineno", 1)
    col = getattr(node, "col_offset", 0)
    end_line, end_col = getattr(node, "end_lineno", None) or line, getattr(node, "end_col_offset", None) or col
    return Span(line, col, end_line, end_col, getattr(node, PATH_ATTRIBUTE, None))


def statements(tree: ast.AST):
    """Every statement in ``tree``, without descending into expressions (a pre-scan that
    looks only at statements then costs nothing per element of a large literal table)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                for child in children:
                    if isinstance(child, ast.stmt):
                        yield child
                    stack.append(child)


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


def along_first(node, axis_position) -> bool:
    """``np.mean(a, axis=0)``: the statistic runs along the first axis, written out."""
    axis = keyword_node(node, "axis")
    if axis is None and axis_position is not None and len(node.args) > axis_position:
        axis = node.args[axis_position]
    return isinstance(axis, ast.Constant) and axis.value in (0, "index") and axis.value is not False


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


def negative(node) -> bool:
    """``-1``: a literal negative period (shift(-1) reads the next row). ``-i`` over a
    ``range(0, n_out)`` may be ``-0``: a variable period is not known to look ahead."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
        return isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool) and node.value > 0
    return isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool) and node.value < 0


# Words that name an entity whose rows are its observations over time or repeated measures.
ENTITY_WORDS = frozenset(
    (
        "patient", "subject", "subj", "participant", "user", "customer", "cust", "client", "device",
        "session", "person", "individual", "account", "member", "driver", "player", "speaker", "donor",
        "household", "visitor", "student", "employee", "animal", "mouse", "volunteer", "respondent",
        "uid", "pid", "sid", "meter", "machine", "holder", "policyholder", "well",
    )
)


def _words(name: str) -> list:
    """``PatientID`` / ``SUBJECT_ID`` / ``user-id`` -> their lower-case words."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return re.sub(r"[^0-9a-zA-Z]+", " ", spaced).lower().split()


def entity_column(name, strict=False) -> bool:
    """A column or variable that names an entity (``patient_id``, ``UserID``, ``subject``,
    ``subjects``), not an attribute of one (``device_model``, ``user_age``). ``strict``:
    words that also name other things (a news item's ``subject``, a web ``session``) count
    only with an id (``subject_id``)."""
    if not isinstance(name, str):
        return False
    tokens = _words(name)
    with_id = False
    while len(tokens) > 1 and tokens[-1] in ID_SUFFIXES:
        tokens, with_id = tokens[:-1], True
    if not tokens:
        return False
    last = tokens[-1]
    if last.endswith("id") and last[:-2] in ENTITY_WORDS:
        last, with_id = last[:-2], True
    elif last not in ENTITY_WORDS and last.endswith("s") and last[:-1] in ENTITY_WORDS:
        last = last[:-1]
    if last not in ENTITY_WORDS:
        return False
    return with_id or not strict or last not in AMBIGUOUS_ENTITY_WORDS


def identifier_column(name) -> bool:
    """A column named as an identifier of whatever it names (``breath_id``,
    ``Item_Identifier``, ``order_key``)."""
    tokens = _words(name) if isinstance(name, str) else []
    return bool(tokens) and tokens[-1] in ("id", "ids", "identifier", "uuid", "key", "idx") and (
        len(tokens) > 1 or tokens[0] != "key")


AMBIGUOUS_ENTITY_WORDS = frozenset(
    ("subject", "subj", "session", "device", "account", "member", "client", "machine", "meter", "well", "holder")
)
ID_SUFFIXES = frozenset(("id", "ids", "i", "d", "no", "num", "number", "key", "code", "uuid", "name", "idx", "index"))


def groupby_keys(node) -> list:
    """The column names a ``df.groupby(...)`` chain groups by (``"patient_id"``, ``["a", "b"]``,
    ``df["user"]``)."""
    current = node
    while isinstance(current, (ast.Call, ast.Attribute, ast.Subscript)):
        if isinstance(current, ast.Call) and isinstance(current.func, ast.Attribute) and current.func.attr == "groupby":
            key = current.args[0] if current.args else keyword_node(current, "by")
            items = key.elts if isinstance(key, (ast.List, ast.Tuple)) else [key]
            names = []
            for item in items:
                if isinstance(item, ast.Subscript):
                    item = item.slice
                elif isinstance(item, ast.Attribute):
                    names.append(item.attr)
                    continue
                if const_str(item):
                    names.append(const_str(item))
            return names
        current = current.func if isinstance(current, ast.Call) else current.value
    return []


_FILE_LISTINGS = frozenset(("listdir", "glob", "iglob", "rglob", "iterdir", "scandir", "walk", "load", "loadmat", "loadtxt", "genfromtxt"))


def reads_files(body) -> bool:
    """A loop body that lists or reads files (``glob(os.path.join(root, subject, "*"))``,
    ``pd.read_csv(f"{subject}.csv")``): each entity brings its own recordings."""
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                name = called_name(node) or ""
                if name in _FILE_LISTINGS or name.startswith(lib.READER_PREFIX):
                    return True
    return False


def inplace_call(method, node) -> bool:
    """``df.fillna(v, inplace=True)``: the method changes its receiver."""
    return method in lib.INPLACE_METHODS and any(k.arg == "inplace" and truthy_const(k.value) for k in node.keywords)


def changed_in_place(func) -> frozenset:
    """Parameters a function changes and never rebinds: ``df[c] = ...``, ``df.loc[m, c] = ...``,
    ``df[c].fillna(v, inplace=True)``. The caller's object is changed with them."""
    params = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
    changed, rebound = set(), set()
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            rebound.add(node.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            changed.add(_base_name(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and inplace_call(node.func.attr, node):
            changed.add(_base_name(node.func.value))
    return frozenset(changed & params - rebound)


def _base_name(node):
    """``df`` of ``df``, ``df["a"]``, ``df.loc[m, "a"]``; None for anything else."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def tuning_objective(func) -> bool:
    """``def objective(trial): ...``: one trial of a hyperparameter study, scored to rank trials."""
    params = func.args.posonlyargs + func.args.args
    return "objective" in func.name.lower() or bool(params and params[0].arg == "trial")


TIME_WORDS = frozenset(("date", "time", "timestamp", "datetime", "ts", "day", "hour", "minute", "week", "month", "year", "period", "dt", "epoch", "step"))


def time_column(name) -> bool:
    """A column that names a moment (``timestamp``, ``date``, ``time_id``): grouping by it
    aggregates across entities at one time, not over an entity's history."""
    if not isinstance(name, str):
        return False
    return any(t in TIME_WORDS for t in _words(name))


def one_candidate(node) -> bool:
    """``GridSearchCV(model, {"C": [10]})`` / ``RandomizedSearchCV(..., n_iter=1)``: a search
    over a single setting, whose best score is a plain cross-validated score."""
    if not isinstance(node, ast.Call):
        return False
    iterations = keyword_node(node, "n_iter")
    if isinstance(iterations, ast.Constant) and iterations.value == 1:
        return True
    grid = node.args[1] if len(node.args) > 1 else keyword_node(node, "param_grid") or keyword_node(node, "param_distributions")
    grids = grid.elts if isinstance(grid, ast.List) else [grid]
    return bool(grids) and all(
        isinstance(g, ast.Dict) and g.values and all(isinstance(v, (ast.List, ast.Tuple)) and len(v.elts) == 1 for v in g.values)
        for g in grids
    )


def counts_codes(node: ast.BinOp) -> bool:
    """``codes.max() + 1`` (or ``max(a.max(), b.max()) + 1``): the number of integer codes,
    a size like a vocabulary's (an embedding's input size, a base to combine two codes),
    not a statistic applied to the values."""
    if not (isinstance(node.op, ast.Add) and isinstance(node.right, ast.Constant) and node.right.value == 1):
        return False
    call = node.left
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "max" and call.args:
        return all(counts_codes(ast.BinOp(a, ast.Add(), node.right)) for a in call.args)
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "max"


def along_columns(node: ast.Call) -> bool:
    """``axis=1`` / ``axis="columns"``, by keyword or as the second argument: ``pd.concat(frames,
    axis=1)`` puts the frames' columns side by side on the same rows."""
    axis = keyword_node(node, "axis")
    if axis is None and len(node.args) > 1:
        axis = node.args[1]
    return isinstance(axis, ast.Constant) and axis.value in (1, "columns")


def drops_columns(node: ast.Call) -> bool:
    """``drop(columns=...)``, ``drop(labels, axis=1)`` / ``axis="columns"``: columns go, no
    row does."""
    return any(k.arg == "columns" for k in node.keywords) or along_columns(node)


def repeated_rows(items) -> Optional[ast.AST]:
    """The frame a list of frames to stack holds twice: ``[df, df]``, or ``[df, df[df.y == 1]]``
    (its own rows again, selected by a condition); None otherwise."""
    elements = _stacked(items)
    if elements is None:
        return None
    names = [e.id for e in elements if isinstance(e, ast.Name)]
    for element in elements:
        root = element
        while isinstance(root, ast.Subscript) or (isinstance(root, ast.Attribute) and root.attr in ("loc", "iloc")):
            root = root.value
        if isinstance(root, ast.Name) and (root is not element or names.count(root.id) > 1) and root.id in names:
            return next(e for e in elements if isinstance(e, ast.Name) and e.id == root.id)
    return None


def _stacked(items) -> Optional[list]:
    """The frames a list to stack holds, each as often as it is stacked (twice standing for
    more): ``[df, m]``, ``[df] + [m] * 4``; None for anything else."""
    if isinstance(items, (ast.List, ast.Tuple)):
        return list(items.elts)
    if isinstance(items, ast.BinOp) and isinstance(items.op, ast.Add):
        left, right = _stacked(items.left), _stacked(items.right)
        return None if left is None or right is None else left + right
    if isinstance(items, ast.BinOp) and isinstance(items.op, ast.Mult):
        for listed, times in ((items.left, items.right), (items.right, items.left)):
            if isinstance(times, ast.Constant) and isinstance(times.value, int) and not isinstance(times.value, bool):
                once = _stacked(listed)
                return None if once is None else once * min(times.value, 2)
    return None


def saved_part(read) -> Optional[str]:
    """"train", "test", "val" or "holdout" when a reading call's path names a file of
    features or labels saved as one part of a split (``X_train.csv``, ``y_test.parquet``);
    a competition's ``train.csv`` names no such part."""
    for node in ast.walk(read.args[0]) if read.args else ():
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            stem = re.split(r"[\\/]", node.value)[-1].split(".")[0]
            if re.fullmatch(r"[xy]_?(train|tr|trn|test|te|val|valid|validation|holdout)(_\w*)?", stem.lower()):
                return side_part(stem)
    return None


def bound_names(tree: ast.AST) -> frozenset:
    """Every name the code binds somewhere: assigned, deleted, imported, a function's,
    a class's or a parameter's (``global``/``nonlocal`` names included)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
    return frozenset(names)


# calls that keep a copy of a model as it is now (its weights, the object, a file of it)
SNAPSHOTS = frozenset(("state_dict", "deepcopy", "save", "save_weights", "save_model", "get_weights", "save_checkpoint"))


def takes_training_steps(loop) -> bool:
    """The loop's body takes training steps itself (``loss.backward()``): a loop of epochs."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
               for n in ast.walk(loop))


def running_best(stmt: ast.If, loop) -> Optional[tuple]:
    """``if score < best: best = score`` whose body also keeps a snapshot of a model
    (``torch.save(model.state_dict(), path)``, ``copy.deepcopy(model)``), or in a ``loop``
    of epochs that needs none (the best epoch's score itself is kept): (the running best
    as written, the score's node); None for anything else."""
    test = stmt.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Lt, ast.Gt, ast.LtE, ast.GtE))):
        return None
    sides = [test.left, test.comparators[0]]
    if not all(isinstance(side, (ast.Name, ast.Attribute, ast.Subscript)) for side in sides):
        return None
    written = [ast.unparse(side) for side in sides]
    pairs = []
    for node in (n for part in stmt.body for n in ast.walk(part)):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
                pairs += zip(target.elts, value.elts)
            else:
                pairs.append((target, value))
    best = next((ast.unparse(t) for t, v in pairs
                 if {ast.unparse(t), ast.unparse(v)} == set(written) and len(set(written)) == 2), None)
    if best is None:
        return None
    snapshot = any(isinstance(n, ast.Call) and called_name(n) in SNAPSHOTS for part in stmt.body for n in ast.walk(part))
    if not (snapshot or takes_training_steps(loop)):
        return None
    return best, next(side for side, text in zip(sides, written) if text != best)


def called_name(call: ast.Call) -> Optional[str]:
    """``read_csv`` of ``pd.read_csv(...)`` and of ``read_csv(...)``; None for a call of anything else."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def string_constants(nodes) -> str:
    """The string literals written in ``nodes``, joined by spaces (the words of a print)."""
    return " ".join(n.value for node in nodes for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


def names_validation_metric(tree: ast.Module) -> bool:
    """A string literal names a Keras validation metric (``history.history["val_loss"]``):
    the code reads the scores of a ``validation_split``. An early-stopping callback's
    ``monitor="val_loss"`` only picks the epoch."""
    monitored = {id(k.value) for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "monitor"}
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.startswith("val_")
               and id(n) not in monitored for n in ast.walk(tree))


def single_bindings(assigns) -> dict:
    """{name: value} for names one assignment binds (the masks a subscript may name)."""
    bound: dict = {}
    for node in assigns:
        for target in node.targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):  # (not df.loc[idx, "c"]'s idx)
                    bound[name.id] = node.value if name.id not in bound and target is name else None
    return {name: value for name, value in bound.items() if value is not None}


# methods that give every row of a frame back, changed or not (a copy, new columns, values)
_ROW_KEEPING = frozenset((
    "copy", "rename", "assign", "astype", "fillna", "replace", "add", "sub", "mul", "div", "abs", "round",
    "clip", "map", "set_axis", "reset_index", "where", "mask",
))


def changed_copy(items, bindings: dict, depth: int = 4) -> Optional[int]:
    """The position, in a list of frames to stack, of a frame another item was made from
    with its every row kept (``[df, df + noise]``, ``[matches, mirrored]`` with
    ``mirrored = matches.rename(columns=swapped)``); None when no item is. A selection of
    rows on the way (a condition, a slice, ``head``, ``sample``) makes other rows, no copy."""
    if not isinstance(items, (ast.List, ast.Tuple)):
        return None
    names = [e.id if isinstance(e, ast.Name) else None for e in items.elts]
    for element in items.elts:
        made_from = _made_from(element, bindings, depth)
        for index, name in enumerate(names):
            if name is not None and items.elts[index] is not element and name in made_from:
                return index
    return None


def _made_from(node, bindings: dict, depth: int) -> frozenset:
    """The names ``node`` is made from by operations that keep every row."""
    if isinstance(node, ast.Name):
        bound = bindings.get(node.id)
        inner = _made_from(bound, bindings, depth - 1) if bound is not None and depth > 0 else frozenset()
        return frozenset({node.id}) | inner
    if isinstance(node, ast.BinOp):
        return _made_from(node.left, bindings, depth) | _made_from(node.right, bindings, depth)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
            node.func.attr in _ROW_KEEPING or (node.func.attr == "drop" and drops_columns(node))):
        return _made_from(node.func.value, bindings, depth)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "concat" \
            and along_columns(node) and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
        # pd.concat([second_half, first_half], axis=1): the columns of one table side by side
        return frozenset().union(*(_made_from(e, bindings, depth) for e in node.args[0].elts))
    if isinstance(node, ast.Subscript) and _columns_only(node):
        return _made_from(node.value.value if isinstance(node.value, ast.Attribute) else node.value, bindings, depth)
    return frozenset()


def _columns_only(node: ast.Subscript) -> bool:
    """``df["a"]``, ``df[["a", "b"]]``, ``df.iloc[:, 2:5]``, ``df.loc[:, cols]``: columns, every row."""
    if isinstance(node.value, ast.Attribute) and node.value.attr in ("iloc", "loc"):
        key = node.slice
        return (isinstance(key, ast.Tuple) and len(key.elts) == 2 and isinstance(key.elts[0], ast.Slice)
                and key.elts[0].lower is None and key.elts[0].upper is None and key.elts[0].step is None)
    key = node.slice
    return (isinstance(key, ast.Constant) and isinstance(key.value, str)) or (
        isinstance(key, ast.List) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in key.elts))


def one_column(node, bindings: dict) -> Optional[str]:
    """The code of values made one column (``x.reshape(-1, 1)``, ``x[:, None]``), also
    through a name bound once to them; None for anything else."""
    if isinstance(node, ast.Name) and node.id in bindings:
        node = bindings[node.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "reshape":
        shape = node.args[0] if len(node.args) == 1 and isinstance(node.args[0], ast.Tuple) else node
        dims = shape.elts if isinstance(shape, ast.Tuple) else shape.args
        if [ast.unparse(d) for d in dims] == ["-1", "1"] and not node.keywords:
            return ast.unparse(node.func.value)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2:
        rows, new_axis = node.slice.elts
        if isinstance(rows, ast.Slice) and rows.lower is None and rows.upper is None and ast.unparse(new_axis) in (
                "None", "np.newaxis", "numpy.newaxis"):
            return ast.unparse(node.value)
    return None
