"""Calls: library functions and constructors by qualified name, methods of estimators
and of data, and the inlining of functions and classes defined in the analysed file.

A mixin of the Interpreter (interpreter.py), which it shares state with.
"""
from __future__ import annotations

import ast
import builtins
import math
import re
from contextlib import contextmanager
from functools import lru_cache
from dataclasses import replace
from typing import Optional

from . import libraries as lib
from .facts import Evaluation, Printed
from .scope import MAX_CALL_DEPTH, MAX_MODULE_DEPTH, BudgetExceeded, Scope
from .specs import CallSpec, Mapping, Opaque, literal_of, to_spec
from .project import PATH_ATTRIBUTE
from .syntax import (
    aggregated_columns,
    aggregates_values,
    along_columns,
    along_first,
    called_name,
    changed_copy,
    changed_in_place,
    const_str,
    drops_columns,
    entity_column,
    groupby_keys,
    groupby_root,
    inplace_call,
    keyword_fraction,
    keyword_node,
    keyword_true,
    lambda_is_aggregate,
    negative,
    one_candidate,
    repeated_rows,
    saved_part,
    span_of,
    step_names,
    string_constants,
    text_of,
    time_column,
    truthy_const,
)
from .values import (
    UNKNOWN,
    Data,
    Enumerated,
    Estimator,
    Factory,
    FoldIndex,
    Folds,
    Function,
    Instance,
    Items,
    LocalClass,
    ModuleRef,
    Ref,
    Rows,
    Seq,
    Side,
    TimeMark,
    Value,
    Zipped,
    as_data,
    indexed_sides,
    join,
    merge_data,
    select_columns,
    texts_of,
)


BUILTIN_NAMES = frozenset(dir(builtins))

# Methods that change a list or dict in place: a name bound to a literal display no
# longer holds that literal once one of them is called on it.
MUTATING_METHODS = frozenset(
    ("append", "extend", "insert", "update", "pop", "popitem", "setdefault", "clear", "remove", "sort", "reverse")
)
# A function whose name says it measures the training rows (``in_sample_residual_std``,
# ``train_accuracy``): what it returns is a training score by name.
TRAINING_SCORE_FUNCTION = re.compile(
    r"in_?sample|resubstitution|train(ing)?_(score|acc|accuracy|error|err|loss|r2|rmse|mae|mse|metric|fit)")
# Keyword arguments of a metric function that carry rows, not settings.
METRIC_DATA_KEYWORDS = frozenset(("y_true", "y_pred", "y_score", "y_prob", "y_proba", "sample_weight", "labels"))


def with_literal(value, node):
    """``value`` marked with the literal ``node`` spells, when ``node`` is literal syntax."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, float, str, type(None))):
        return _constant(type(node.value), node.value)  # what ev() gives a constant, marked once
    found = literal_of(node) if node is not None else None
    if found is None or not isinstance(value, (Data, Seq)):
        return value
    return replace(value, literal=found)


@lru_cache(maxsize=4096)
def _constant(kind, value) -> Data:
    return Data(texts=frozenset({value}) if kind is str else frozenset(), literal=(value,))


# strftime directives that name a day (a date), as opposed to a time of day
_DATE_DIRECTIVES = re.compile(r"%-?[YyGmdbBhjUWVaAuwcxsDF]")


def _side_by_side(joined: Data, parts: list) -> Data:
    """``pd.concat([df, dummies], axis=1)``: each frame's columns keep what lived only in
    them (a fill of one column stays that column's), unless another frame holds it in all
    of its columns."""
    everywhere = frozenset().union(*(p.learned - frozenset().union(*(ids for _, ids in p.by_column)) for p in parts))
    by_column = tuple((c, ids - everywhere) for p in parts for c, ids in p.by_column if ids - everywhere)
    return replace(joined, by_column=by_column) if by_column else joined


def _time_of_day(node) -> bool:
    """``pd.to_datetime(s, format="%H:%M:%S")``: a format with no date in it parses clock
    times or durations (a roast time), which put no order on the rows."""
    fmt = next((k.value for k in node.keywords if k.arg == "format"), None)
    return isinstance(fmt, ast.Constant) and isinstance(fmt.value, str) and "%" in fmt.value \
        and not _DATE_DIRECTIVES.search(fmt.value)


def _path_of(node):
    return getattr(node, PATH_ATTRIBUTE, None)


def _fills_every_gap(method, node) -> bool:
    """``df.dropna()`` (of rows, or of columns, with any gap), ``df.fillna(0)``,
    ``df.replace(np.nan, 0)``: no value of the frame is missing afterwards."""
    keywords = {k.arg: k.value for k in node.keywords}
    if method == "dropna":
        return not {"subset", "thresh"} & set(keywords) and const_str(keywords.get("how")) != "all"
    if set(keywords) - {"value", "inplace"}:
        return False  # (a limit, a method such as ffill, an axis: some gaps may stay)
    values = list(node.args) + [keywords["value"]] if "value" in keywords else list(node.args)
    if method == "fillna":
        return len(values) == 1 and _filler(values[0])
    return method == "replace" and len(values) == 2 and _missing_marker(values[0]) and _filler(values[1])


def _puts_gaps(node) -> bool:
    """``df.replace(-999, np.nan)``: a value turned into a gap."""
    return any(_missing_marker(a) for a in [*node.args, *(k.value for k in node.keywords)])


def _filler(node) -> bool:
    """A constant put in the gaps: ``0``, ``-1``, ``"missing"``."""
    return isinstance((literal_of(node) or (None,))[0], (bool, int, float, str))


def _missing_marker(node) -> bool:
    """``np.nan``, ``numpy.NaN``, ``pd.NA``, ``float("nan")``."""
    if isinstance(node, ast.Attribute):
        return node.attr in ("nan", "NaN", "NA")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" and len(
        node.args) == 1 and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower() == "nan"


def _per_element(method, data: Data, node) -> bool:
    """``df.apply(f, axis=1)`` and ``series.map(f)`` / ``series.apply(f)`` call ``f`` on one
    row or one value at a time."""
    if method not in ("apply", "map", "applymap"):
        return False
    axis = keyword_node(node, "axis")
    return (isinstance(axis, ast.Constant) and axis.value in (1, "columns")) or data.column is not None


def _path_text(node, value) -> Optional[str]:
    """The path a value names, when the code shows it: the one string it can be (a literal,
    a name bound to one, a file opened on one), else the text of a path written with a
    literal part (``f"{d}/X.npy"``). A bare name (a helper's ``path`` parameter) may be any file."""
    texts = as_data(value).texts
    if len(texts) == 1:
        return repr(next(iter(texts)))
    literal = any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(node))
    return ast.unparse(node) if literal else None


def _reads_ahead(method, node) -> Optional[str]:
    """What a data method reads from the rows after each row, if it does: a negative
    shift, a centred window, a backward fill, an interpolation between neighbours."""
    if method in ("shift", "pct_change", "diff"):
        periods = node.args[0] if node.args else keyword_node(node, "periods")
        return f"{method}({text_of(periods)})" if periods is not None and negative(periods) else None
    if method == "rolling" and keyword_true(node, "center") and not _across_other_dimensions(node):
        return "rolling(..., center=True)"
    backward = method in lib.BACKWARD_FILLS or (
        method == "fillna" and const_str(keyword_node(node, "method")) in lib.BACKWARD_FILLS
    )
    if backward and _fill_method(node.func.value) in lib.FORWARD_FILL_METHODS:
        return None  # .ffill().bfill(): only the leading gap, before any value, is filled backwards
    if method in lib.BACKWARD_FILLS:
        return f"{method}()"
    if backward:
        return f'fillna(method="{const_str(keyword_node(node, "method"))}")'
    if method == "interpolate":
        how = const_str(keyword_node(node, "method")) or const_str(node.args[0] if node.args else None)
        return None if how in lib.FORWARD_FILL_METHODS else "interpolate()"
    return None


# pandas' and xarray's rolling options: any other keyword names a dimension and its window
ROLLING_OPTIONS = frozenset(("window", "min_periods", "center", "win_type", "on", "axis", "closed", "step",
                             "method", "dim"))


def _across_other_dimensions(node: ast.Call) -> bool:
    """xarray's window over named dimensions none of which is time
    (``da.rolling({"latitude": 3, "longitude": 3}, center=True)``, ``rolling(lat=3)``): a
    neighbourhood in space, not the rows after each row."""
    if node.args and isinstance(node.args[0], ast.Dict):  # a dimension held by a name: what the name says
        names = [const_str(k) or (k.id if isinstance(k, ast.Name) else None) for k in node.args[0].keys]
    else:
        names = [k.arg for k in node.keywords if k.arg not in ROLLING_OPTIONS]
    return bool(names) and all(n is not None and "time" not in n.lower() and "date" not in n.lower() for n in names)


def _lead(method, node) -> int:
    """How many rows ahead a literal shift reads: ``shift(-2)`` 2, ``shift(3)`` -3 (a lag);
    a centred window of w rows reads w // 2 ahead; 0 when unknown."""
    if method == "rolling":
        window = node.args[0] if node.args else keyword_node(node, "window")
        return window.value // 2 if isinstance(window, ast.Constant) and isinstance(window.value, int) else 0
    if method not in ("shift", "pct_change", "diff"):
        return 0
    periods = node.args[0] if node.args else keyword_node(node, "periods")
    if periods is None and method == "shift":
        return -1
    if isinstance(periods, ast.Constant) and isinstance(periods.value, int) and not isinstance(periods.value, bool):
        return -periods.value
    if isinstance(periods, ast.UnaryOp) and isinstance(periods.op, ast.USub) and isinstance(periods.operand, ast.Constant):
        value = periods.operand.value
        return value if isinstance(value, int) else 0
    return 0


def _popped_key(mapping: Seq, method: str, args) -> Optional[str]:
    """The key ``params.pop("k")`` takes out of a dict display, when it holds it."""
    texts = as_data(args[0]).texts if method == "pop" and args else frozenset()
    key = next(iter(texts)) if len(texts) == 1 else None
    return key if key in mapping.keys else None


def _popped(mapping: Seq, method: str, args) -> Optional[Value]:
    """``params.pop("k")`` of a dict display: the value under that key, with its literal."""
    key = _popped_key(mapping, method, args)
    if key is None:
        return None
    value = mapping.items[mapping.keys.index(key)]
    settings = dict(mapping.literal[0].items) if isinstance(mapping.literal, tuple) else {}
    literal = settings.get(key)
    if isinstance(value, Data) and literal is not None and not isinstance(literal, Opaque):
        return replace(value, literal=(literal,))
    return value


def _mutated(mapping: Seq, method: str, args, kwargs) -> Seq:
    """A dict display after ``params.update({...})`` or ``params.pop("k")``: the new keys win
    (the popped one goes), in its items and in the literal settings it spells; after any
    other change neither is known."""
    key = _popped_key(mapping, method, args)
    if key is not None:
        kept = [(k, v) for k, v in zip(mapping.keys, mapping.items) if k != key]
        literal = None
        if isinstance(mapping.literal, tuple):
            literal = (mapping.literal[0].without(key),)
        return Seq(tuple(v for _, v in kept), tuple(k for k, _ in kept), literal=literal)
    other = args[0] if method == "update" and len(args) == 1 and not kwargs else None
    if not (isinstance(other, Seq) and other.keys):
        return Seq(mapping.items, ())
    kept = [(k, v) for k, v in zip(mapping.keys, mapping.items) if k not in other.keys]
    kept += list(zip(other.keys, other.items))
    literal = None
    if isinstance(mapping.literal, tuple) and isinstance(other.literal, tuple):
        literal = (mapping.literal[0].updated(dict(other.literal[0].items)),)
    return Seq(tuple(v for _, v in kept), tuple(k for k, _ in kept), literal=literal)


def _grid_size(grid) -> Optional[int]:
    """The configurations a parameter grid displays (a dict, or a list of dicts, of
    candidate lists): the product of its lists' lengths, summed over the dicts; None when
    a part is not a display."""
    grids = grid.items if isinstance(grid, Seq) and not grid.keys else (grid,)
    if not grids or not all(isinstance(g, Seq) and g.keys and all(isinstance(v, Seq) for v in g.items) for g in grids):
        return None
    return sum(math.prod(len(v.items) for v in g.items) for g in grids)


def _look_ahead_procedure(method, node) -> dict:
    """What the runtime checker rebuilds of a look-ahead: its form and literal window or periods."""
    procedure = {"form": method}
    first = node.args[0] if node.args else keyword_node(node, "window" if method == "rolling" else "periods")
    literal = to_spec(first, lambda expr: None) if first is not None else None
    if isinstance(literal, int) and not isinstance(literal, bool):
        procedure["window" if method == "rolling" else "periods"] = literal
    return procedure


def _fill_method(node) -> Optional[str]:
    """``x.ffill()`` -> "ffill", ``x.fillna(method="pad")`` -> "pad"; None for anything else."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    if node.func.attr == "fillna":
        return const_str(keyword_node(node, "method"))
    return node.func.attr


def _whole_fraction(node) -> bool:
    """``df.sample(frac=1)``: every row, in random order."""
    value = keyword_node(node, "frac")
    return isinstance(value, ast.Constant) and value.value in (1, 1.0) and not isinstance(value.value, bool)


def _benchmark_part(node) -> Optional[str]:
    """"train", "test" or "val" for a data set loaded as one part of a benchmark
    (``datasets.CIFAR10(root, train=False)``, ``load_dataset("imdb", split="test")``)."""
    train = keyword_node(node, "train")
    if isinstance(train, ast.Constant) and isinstance(train.value, bool):
        return "train" if train.value else "test"
    split = const_str(keyword_node(node, "split"))
    return {"train": "train", "test": "test", "val": "val", "valid": "val", "validation": "val"}.get(split or "")


def _drawn_to_a_size(node, args, kwargs) -> bool:
    """``sample(n)`` with ``n`` the size of other rows (``len(fraud)``), not a literal
    and not a fraction: undersampling, when the rows sampled are one class."""
    size = args[0] if args else kwargs.get("n")
    size_node = node.args[0] if node.args else keyword_node(node, "n")
    return size is not None and not isinstance(size_node, ast.Constant) and keyword_node(node, "frac") is None


class CallsMixin:
    # ----------------------------------------------------------------- calls
    def ex_Call(self, node, scope):
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("exec", "eval"):
            self.facts.runs_strings = True  # code built as text: its reads are not seen
        imported = _imported_by_name(node, scope)
        if imported is not None:
            return imported
        if isinstance(func, ast.Attribute):
            receiver = self.ev(func.value, scope)
            if isinstance(receiver, Ref):
                return self.library_call(f"{receiver.qualname}.{func.attr}", node, scope)
            if isinstance(receiver, ModuleRef):
                return self._call_value(self.module_attribute(receiver, func.attr), node, scope)
            args, kwargs = self._arguments(node, scope, literals=isinstance(receiver, Instance))
            if func.attr in MUTATING_METHODS and isinstance(receiver, Seq) and receiver.keys:
                popped = _popped(receiver, func.attr, args)
                receiver = _mutated(receiver, func.attr, args, kwargs)
                self._rebind(func.value, receiver, scope)
                if popped is not None:  # num_rounds = params.pop("num_rounds"): that setting's value
                    return popped
            elif func.attr in MUTATING_METHODS and getattr(receiver, "literal", None) is not None:
                receiver = replace(receiver, literal=None)
                self._rebind(func.value, receiver, scope)
            if func.attr in lib.REPORT_METHODS:
                self._report(args + list(kwargs.values()), node, "stored" if func.attr in ("append", "extend") else "logged")
            if func.attr in lib.DATA_WRITERS or func.attr in ("plot", "bar", "barh", "scatter"):
                self.facts.shown_scores |= merge_data([receiver] + args + list(kwargs.values())).scores
            if func.attr == "backward" and not args:
                self.facts.trained_at.append(self.new_id())  # loss.backward(): a training step by hand
            if isinstance(receiver, Data) and func.attr in lib.FIT_METHODS and receiver.grouped is None:
                # mylib.RobustZ().fit(X) is an estimator of that class; filler.fit_transform(X)
                # on a parameter or an unknown call's result still learns from its rows
                if receiver.made_by is not None:
                    receiver = Estimator(receiver.made_by, None, tuned=receiver.tuned)
                else:
                    receiver = Estimator(text_of(func.value), None, unknown=True, tuned=receiver.tuned)
            if isinstance(receiver, Data) and (func.attr in lib.SCORE_METHODS or func.attr in lib.PREDICT_METHODS):
                # best["model"].score(X_te, y_te): a fitted model kept in a table or a dict
                models = frozenset(i for i in receiver.learned if self.facts.learns[i].kind == "fit" and self.facts.learns[i].has_labels)
                if models:
                    receiver = Estimator(text_of(func.value), None, fits=models)
            if isinstance(receiver, Instance):
                with self._site(node, args, kwargs, foreign=hasattr(receiver.cls.node, PATH_ATTRIBUTE)):
                    return self._call_method(receiver, func.attr, args, kwargs, node)
            if isinstance(receiver, Data) and receiver.made_by is not None:
                # KaggleMetrics().calculate_all_metrics(y_test, pred): an object of a class the
                # analysis cannot read, given predictions and their labels, may score them
                self._note_handed(args, kwargs, node, engineered=True)
            result = self.method_call(receiver, func.attr, args, kwargs, node, scope)
            if isinstance(receiver, Data) and func.attr in lib.PREDICT_METHODS and isinstance(result, Data) \
                    and args and as_data(args[0]).rows:
                # joblib.load(path).predict(X): a model the analysis cannot see predicts the rows of X
                result = replace(result, rows=as_data(args[0]).rows)
            if isinstance(receiver, Estimator) and (func.attr in lib.FIT_METHODS or func.attr == "optimize"):
                self._rebind(func.value, self._last_fitted, scope)
            elif isinstance(receiver, Estimator) and func.attr == "set_params" and result is not receiver:
                self._rebind(func.value, result, scope)
            elif isinstance(receiver, Data) and inplace_call(func.attr, node):
                if isinstance(func.value, ast.Subscript):
                    self._assign_into(func.value.value, result, scope, func.value)
                else:
                    self._rebind(func.value, result, scope)
            elif func.attr == "append" and _list_of_parts(receiver, args):
                # splits.append(train_test_split(X, y, random_state=i)) in a loop: one tuple of
                # parts stands for each, its training and held-out parts kept apart
                held = receiver.items[0] if receiver.items else None
                self._rebind(func.value, Seq((join(held, args[0]),)), scope)
            elif func.attr == "append" and _list_of_objects(receiver, args):
                # callbacks.append(early_stopping(50)), models.append(SVC()): the list keeps its items
                self._rebind(func.value, Seq(receiver.items + tuple(args)), scope)
            elif receiver.__class__ is Data and (func.attr == "update" or (func.attr == "add" and not receiver.rows)):
                # dropped.update(low_importance), df.update(other): in place, it now holds what
                # was put in, in its own rows (a frame's .add(other) returns a new frame)
                merged = merge_data([receiver] + args)
                self._rebind(func.value, replace(merged, rows=receiver.rows or merged.rows, element=False), scope)
            elif isinstance(receiver, (Seq, Data)) and func.attr in lib.COLLECTING_METHODS:
                if self._reading_loops:  # recordings collected for each subject
                    self._read_per_entity(merge_data(args).rows)
                for record in (a for a in args if isinstance(a, Seq)):  # rows.append({"subject": sid, ...})
                    for key in record.keys:
                        self._tagged_per_file(merge_data([record]).rows, key)
                collected = replace(merge_data([receiver] + args), element=False)
                if self._chosen_by and not collected.rows:  # names kept by a test of a selection's scores
                    collected = replace(collected, learned=collected.learned | self._chosen_by)
                self._rebind(func.value, collected, scope)
            return result
        return self._call_value(self.ev(func, scope), node, scope)

    def _call_value(self, callee, node, scope):
        func = node.func
        if isinstance(callee, Ref):
            return self.library_call(callee.qualname, node, scope)
        args, kwargs = self._arguments(node, scope, literals=isinstance(callee, (Function, LocalClass)))
        if isinstance(callee, Function):
            self._last_call_scope = None
            args, kwargs = list(callee.bound_args) + args, {**dict(callee.bound_kwargs), **kwargs}
            with self._site(node, args, kwargs, foreign=hasattr(callee.node, PATH_ATTRIBUTE)):
                result = self._call_function(callee, args, kwargs)
            self._write_back_arguments(callee, node, scope)
            return result
        if isinstance(callee, LocalClass):
            instance = Instance(callee, self.new_id())
            with self._site(node, args, kwargs, foreign=hasattr(callee.node, PATH_ATTRIBUTE)):
                self._call_method(instance, "__init__", args, kwargs)
            return instance
        if isinstance(func, ast.Name) and func.id in lib.REPORT_FUNCTIONS:
            self._report(args, node, "printed")
            read = frozenset(n.id for a in node.args for n in ast.walk(a) if isinstance(n, ast.Name))
            words = string_constants(node.args)
            # (the names an f-string shows hold their rows: its text holds none)
            shown = merge_data(args + [value for value in map(scope.lookup, sorted(read)) if isinstance(value, Data)])
            self.facts.printed.append(Printed(self.new_id(), span_of(node), read, shown.rows, words))
            self.facts.shown_scores |= shown.scores
        if isinstance(func, ast.Name) and func.id == "set" and args:
            return replace(as_data(args[0]), distinct=True)
        if isinstance(func, ast.Name) and func.id in ("sum", "max", "min"):
            self._mark_scored(merge_data(args).residuals)  # sum((y - pred) ** 2): a score by hand
        if isinstance(func, ast.Name) and func.id in lib.CHOOSING_BUILTINS:
            self._choice(args + list(kwargs.values()), node, keyed=keyword_node(node, "key") is not None)
            if args and isinstance(kwargs.get("key"), Function):
                # sorted(columns, key=lambda c: corr(df[c], y)): the order is what the key learned
                ranks = as_data(self._call_function(kwargs["key"], [self.iterate(args[0])], {}))
                chosen = self._builtin(func.id, args) if func.id == "sorted" else self.iterate(args[0])
                if ranks.learned and isinstance(chosen, Data):
                    return replace(chosen, learned=chosen.learned | ranks.learned)
        if isinstance(func, ast.Name) and func.id in ("dict", "list") and not node.args and not node.keywords:
            return Seq(())  # an empty container, as {} and [] are
        if isinstance(func, ast.Name) and func.id in ("enumerate", "zip", "iter", "list", "tuple", "next", "sorted", "reversed"):
            return self._builtin(func.id, args)
        if isinstance(func, ast.Name) and func.id == "map" and len(args) == 2 and isinstance(args[0], Ref) \
                and isinstance(args[1], Seq):
            # map(np.asarray, (X[:n], y[:n], X[n:], y[n:])): each item converted, its rows its own
            return Seq(tuple(as_data(item) for item in args[1].items))
        if isinstance(func, ast.Name) and func.id == "open" and args:
            return Data(texts=as_data(args[0]).texts)  # a file: it names its path (the mode is no part of it)
        if isinstance(func, ast.Name) and func.id == "len" and args:
            return Data(size_of=as_data(args[0]).rows)
        if isinstance(func, ast.Name) and func.id == "range":
            return Data(counter=True, positions=as_data(args[0]).size_of if len(args) == 1 else frozenset())
        if isinstance(func, ast.Name) and func.id == "getattr" and len(args) > 1 and isinstance(args[0], Ref):
            return self._attribute_by_name(args[0], args[1])
        self._note_score_label(args)
        merged = merge_data(args + list(kwargs.values()))
        if isinstance(func, ast.Name) and func.id not in BUILTIN_NAMES and not merged.rows:
            # get_data() from a star import, a loader of unknown origin: it returns rows
            return replace(merged, rows=self.fresh_rows())
        return merged

    @staticmethod
    def _attribute_by_name(module: Ref, name: Value) -> Value:
        """``getattr(category_encoders, name)`` with ``name`` one of some string constants:
        a class that is each of them in turn (``pkg.A|B``; a catalog holds it when it
        holds every alternative)."""
        texts = as_data(name).texts
        if not texts or not all(isinstance(t, str) and t.isidentifier() for t in texts):
            return UNKNOWN
        return Ref(f"{module.qualname}.{'|'.join(sorted(texts))}")

    @contextmanager
    def _site(self, node, args, kwargs, foreign=False):
        """A call of the project's own code: what it learns from rows it was handed is
        reported here, on the argument that carried them. A call into another module is
        a site even when it hands no rows (``load_and_scale()``): the finding must be in
        the file analysed."""
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("pipe", "apply", "transform", "agg", "aggregate"):
            handed = [(text_of(node.func.value), args[0].rows if args and isinstance(args[0], Data) else frozenset())]
        else:
            values = list(zip(node.args, args)) + [(k.value, kwargs.get(k.arg or "**")) for k in node.keywords]
            handed = [(text_of(expr), as_data(value).rows) for expr, value in values if as_data(value).rows]
        if not handed and foreign:
            handed = [(text_of(node), frozenset())]
        self._sites.append((span_of(node), tuple(handed)))
        try:
            yield
        finally:
            self._sites.pop()

    def _builtin(self, name, args):
        if not args:
            return UNKNOWN
        if name == "enumerate":
            return Enumerated(args[0])
        if name == "zip":
            return Zipped(tuple(args))
        if name == "sorted" and isinstance(args[0], Zipped):
            # sorted(zip(scores, names)): a list of pairs, each name's place what the scores learned
            order = frozenset().union(*(as_data(item).learned for item in args[0].items))
            pair = Seq(tuple(replace(as_data(item), learned=as_data(item).learned | order) for item in args[0].items))
            return Seq((pair,)) if order else as_data(args[0])
        if name == "next" and isinstance(args[0], Folds):
            return self.iterate(args[0])
        if isinstance(args[0], (Folds, Seq)) or (name in ("list", "tuple", "sorted") and isinstance(args[0], FoldIndex)):
            return args[0]
        return as_data(args[0])

    def _rebind(self, target, value, scope) -> None:
        if isinstance(target, (ast.Name, ast.Attribute)) and value is not None:
            if isinstance(target, ast.Name) or self._path(target):
                self.assign(target, value, scope)

    def _arguments(self, node, scope, literals=False):
        """The values of a call's arguments; with ``literals`` (a call of the file's own code),
        each marked with the literal it spells: it binds a parameter to that literal."""
        mark = with_literal if literals else (lambda value, _node: value)
        args = [mark(self.ev(a, scope), a) for a in node.args]
        kwargs = {}
        for kw in node.keywords:
            value = self.ev(kw.value, scope)
            if kw.arg in lib.RANGE_BOUNDS and isinstance(value, Data):
                value = self._drop_stats(value)  # statistics bounding a range are not applied to rows
            if kw.arg and isinstance(value, Data) and value.scores and "train" in kw.arg.lower():
                self._note_score_label([replace(value, texts=frozenset({kw.arg}))])  # Metrics(r2_train=...)
            kwargs[kw.arg or "**"] = mark(value, kw.value)
        return args, kwargs

    # -------------------------------------------------------- local functions
    def _call_method(self, instance: Instance, name: str, args, kwargs, node=None) -> Value:
        method = self._find_method(instance.cls, name, depth=0)
        if method is None and node is not None:
            # self._evaluate_dump(k, y_test, pred) inherited from a base class the analysis
            # cannot read: given predictions and their labels, it may score them
            self._note_handed(args, kwargs, node, engineered=True)
        if method is None and name in ("fit_transform", "fit_predict") and args:
            # TransformerMixin / ClusterMixin: fit, then transform or predict the same rows
            self._call_method(instance, "fit", args, kwargs)
            return self._call_method(instance, "transform" if name == "fit_transform" else "predict", args[:1], {})
        if method is None:
            return merge_data(args + list(kwargs.values()))
        decorators = {d.id for d in method.decorator_list if isinstance(d, ast.Name)}
        bound = [] if "staticmethod" in decorators else [instance.cls] if "classmethod" in decorators else [instance]
        return self._call_function(Function(method, instance.cls.scope, id(method)), bound + args, kwargs)

    def _find_method(self, cls: LocalClass, name: str, depth: int):
        for stmt in cls.node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
                return stmt
        if depth < 5:
            for base in cls.node.bases:
                parent = self.ev(base, cls.scope)
                if isinstance(parent, LocalClass):
                    found = self._find_method(parent, name, depth + 1)
                    if found is not None:
                        return found
        return None

    def _call_function(self, func: Function, args, kwargs, standalone=False) -> Value:
        node = func.node
        if not standalone:
            self._inlined.add(func.key)
        module = getattr(node, PATH_ATTRIBUTE, None)
        hop = module is not None and module != (self._modules_in[-1] if self._modules_in else None)
        if func.key in self._stack or len(self._stack) >= MAX_CALL_DEPTH or (hop and self._hops >= MAX_MODULE_DEPTH):
            return merge_data(args + list(kwargs.values()))
        if isinstance(node, ast.Lambda):
            return self._lambda(node, args[0] if args else UNKNOWN, func.scope, args[1:])
        scope = Scope(func.scope)
        params = node.args
        positional = list(params.posonlyargs) + list(params.args)
        defaults = [None] * (len(positional) - len(params.defaults)) + list(params.defaults)
        for index, (param, default) in enumerate(zip(positional, defaults)):
            if index < len(args):
                value = args[index]
            elif param.arg in kwargs:
                value = kwargs[param.arg]
            elif default is not None and not standalone:
                value = with_literal(self.ev(default, func.scope), default)
            else:
                value = Data(rows=self._parameter_rows())
            scope.env[param.arg] = value
        for param, default in zip(params.kwonlyargs, params.kw_defaults):
            if param.arg in kwargs:
                scope.env[param.arg] = kwargs[param.arg]
            elif default is not None and not standalone:
                scope.env[param.arg] = with_literal(self.ev(default, func.scope), default)
            else:
                scope.env[param.arg] = Data(rows=self._parameter_rows())
        if params.vararg is not None:
            scope.env[params.vararg.arg] = Seq(tuple(args[len(positional):]))
        if params.kwarg is not None:
            scope.env[params.kwarg.arg] = merge_data(list(kwargs.values()))
        self._stack.append(func.key)
        self._frame_starts.append(self._ids)
        self._modules_in.append(module)
        self._hops += hop
        try:
            self.exec_block(node.body, scope)
        except BudgetExceeded:
            if len(self._stack) > 1:
                raise
        finally:
            self._stack.pop()
            self._frame_starts.pop()
            self._modules_in.pop()
            self._hops -= hop
        self._last_call_scope = scope
        if isinstance(scope.returns, Data) and scope.returns.scores and TRAINING_SCORE_FUNCTION.search(node.name.lower()):
            self._note_score_label([replace(scope.returns, texts=frozenset({"training"}))])
        return scope.returns if scope.returns is not None else UNKNOWN

    def _parameter_rows(self) -> frozenset:
        """The rows of a parameter no caller gives (a function nothing calls): whatever a
        caller would hand it."""
        rows = self.fresh_rows()
        if self._standalone:
            self._parameter_roots.update(r.root for r in rows)
        return rows

    def _write_back_arguments(self, func: Function, node: ast.Call, scope) -> None:
        """``def train(model, X, y): model.fit(X, y)`` fits the caller's object;
        ``def fill(df, c): df[c] = df[c].fillna(df[c].mean())`` fills the caller's frame."""
        params = list(func.node.args.posonlyargs) + list(func.node.args.args)
        inner = self._last_call_scope
        changed = changed_in_place(func.node)
        for param, arg in zip(params, node.args):
            after = inner.env.get(param.arg) if inner is not None else None
            before = scope.lookup(arg.id) if isinstance(arg, ast.Name) else None
            if isinstance(before, Estimator) and isinstance(after, Estimator) and after.fits != before.fits:
                self.bind(arg.id, after, scope)
            elif param.arg in changed and before.__class__ is Data and after.__class__ is Data and after != before:
                self.bind(arg.id, after, scope)

    def _note_handed(self, args, kwargs, node: ast.Call, engineered=False) -> None:
        """A fitted model given with rows to a function the analysis does not follow
        (``evaluate_model(grid.best_estimator_, X_val, y_val)``), or its predictions of some
        rows given with other rows, their labels (``evaluate(y_te, best.predict(X_te))``):
        it may score them there. ``engineered``: labels may carry what was learned from the
        frame before (``y = df["target"]`` of a frame of engineered features), as a metrics
        object's method is given them; a library function (a plot) is given raw labels."""
        given = args + list(kwargs.values())
        fitted = frozenset(i for a in given for i in (a.fits if isinstance(a, Estimator) else as_data(a).learned)
                           if i in self.facts.learns and self.facts.learns[i].has_labels)
        rows = [(a, text_of(n)) for a, n in zip(args, node.args) if isinstance(a, Data) and a.rows and not a.learned & fitted]
        if fitted and len(rows) >= 2:
            self.facts.handed_models.append((self.new_id(), fitted, merge_data([a for a, _ in rows]).rows,
                                             frozenset(text for _, text in rows)))
        # a model a project function built with a search's chosen settings (``evaluate(get_model(
        # name, best_params), X, y)``): the searches stand for their tuned models
        chosen = frozenset().union(*(a.tuned for a in given if a.__class__ is Data and a.tuned))
        data = [(a, text) for a, text in rows if not a.tuned] if chosen else ()
        if len(data) >= 2:
            self.facts.handed_models.append((self.new_id(), chosen, merge_data([a for a, _ in data]).rows,
                                             frozenset(text for _, text in data)))
        predicted = [a for a in args if isinstance(a, Data) and a.rows and a.scores]
        if not predicted:
            return
        shown = set().union(*(a.scores for a in predicted))
        evaluations = [ev for ev in self.facts.evaluations if ev.id in shown]
        fits = frozenset(f for ev in evaluations for f in ev.fits)
        others = [(a, text_of(n)) for a, n in zip(args, node.args)
                  if isinstance(a, Data) and a.rows and not a.scores and not a.learned & (fits if engineered else a.learned)]
        if fits and others:
            texts = frozenset(text for _, text in others) | {ev.data for ev in evaluations}
            self.facts.handed_models.append((self.new_id(), fits, merge_data(predicted + [a for a, _ in others]).rows,
                                             texts))

    # ------------------------------------------------------- library calls
    def library_call(self, qualname: str, node: ast.Call, scope) -> Value:
        result = self._library_call(qualname, node, scope)
        if qualname.startswith("numpy.random.") and isinstance(result, Data) and qualname.rsplit(".", 1)[-1] in lib.RANDOM_DRAWS:
            return replace(result, noise=True)  # np.random.normal(...), np.random.default_rng(0).normal(...)
        return result

    def _library_call(self, qualname: str, node: ast.Call, scope) -> Value:
        key = lib.lib_key(qualname)
        args, kwargs = self._arguments(node, scope)
        self._note_handed(args, kwargs, node)
        root, name = key
        if root in ("numpy", "statistics", "math") and name in lib.SUMMARIES:
            self._mark_scored(merge_data(args).residuals)  # np.mean((y - pred) ** 2): a score by hand
        if key in lib.SPLIT_FUNCTIONS:
            return self._train_test_split(qualname, node, args, kwargs)
        if key == ("sklearn", "shuffle") and len(args) == 1 and as_data(args[0]).rows and qualname.startswith("sklearn.utils"):
            return replace(self.derive(args, node), shuffled=span_of(node))  # sklearn.utils.shuffle(df)
        if key in lib.PROGRESS_BARS and args:
            return args[0]
        if key in lib.PROGRESS_RANGES:
            return Data(counter=True)
        if key in lib.DATASET_SPLITS and args:
            return self._dataset_split(qualname, node, self._held_data(args[0]), node.args[1] if len(node.args) > 1 else None)
        if key in lib.CV_FUNCTIONS:
            return self._cross_validation(qualname, node, args, kwargs, scope)
        if key in lib.LEARNING_FUNCTIONS:
            return self._learning_function(qualname, lib.LEARNING_FUNCTIONS[key], node, args, kwargs)
        if key in lib.TIME_FUNCTIONS and _time_of_day(node):
            return self.derive(args, node)  # a clock time or a duration, no date: nothing orders the rows
        if key in lib.TIME_FUNCTIONS or key in self.time_functions:
            reason = lib.TIME_FUNCTIONS.get(key, f"time-ordered data from {name}()")
            data = merge_data(args + list(kwargs.values()))
            if key in lib.DATE_RANGES:
                data = self._drop_stats(data)  # (its positional arguments are the bounds too)
            if not data.rows:
                data = replace(data, rows=self.fresh_rows())
            return replace(data, time=TimeMark(node.lineno, reason, date=key in lib.TIME_FUNCTIONS, path=_path_of(node)))
        if root == "numpy" and name in lib.CHOOSING_FUNCTIONS:
            self._choice(args, node)
        if root == "numpy" and name in lib.NUMPY_STATS and args:
            return self._statistic(name, args[0], node, axis_position=1)
        if key in lib.STANDARDIZING_FUNCTIONS and args:
            stat = self._statistic(name, args[0], node, axis_position=lib.STANDARDIZING_FUNCTIONS[key])
            bins = node.args[1] if len(node.args) > 1 else keyword_node(node, "q")
            if name == "qcut" and bins is not None:  # the runtime checker bins by the code's quantiles
                for learn_id in stat.learned - as_data(args[0]).learned:
                    self.facts.learns[learn_id].procedure = {"bins": _setting_of(bins, args[1] if len(args) > 1 else kwargs.get("q"))}
            return self.derive([args[0], stat], node)
        if root == "pandas" and name.startswith(lib.READER_PREFIX):
            data = self._read(node, name)
            # pd.read_csv(f) for each file of a listing: one well's, one subject's own table
            return replace(data, element=True) if args and as_data(args[0]).element else data
        subset_of = args if key in lib.INTERSECTIONS else args[:1] if key in lib.DIFFERENCES else ()
        folds = [a for a in subset_of if isinstance(a, FoldIndex)]
        if len({f.side for f in folds}) == 1:
            return folds[0]  # np.intersect1d(trn_ind, labelled_ind): some of that fold's rows
        if key in lib.SAVERS:
            self._save(key, node, args, kwargs)
        loaded = _path_text(node.args[0], args[0]) if key in lib.LOADERS and node.args else None
        if loaded in self._saved:
            return self._saved[loaded]  # saved earlier by the same code, to the same path
        if key in lib.ARCHIVE_LOADERS:
            return Data(rows=self.fresh_rows(), archive=True)
        if key in lib.PIPELINES:
            return self._pipeline(qualname, node, args, kwargs)
        if key == lib.PARTIAL and args and isinstance(args[0], Function):
            return replace(args[0], bound_args=tuple(args[1:]), bound_kwargs=tuple(kwargs.items()))
        if key == lib.PARTIAL and args and isinstance(args[0], Ref) and len(args) == 1:
            return args[0]  # partial(recall_n, n=10): called, it is that function (its settings aside)
        train_set = None
        if key in lib.NATIVE_TRAIN and (args or "params" in kwargs):
            train_set = args[1] if len(args) > 1 else kwargs.get("train_set", kwargs.get("dtrain"))
        if train_set is not None:
            # lgb.train(params, train_set) / xgb.train(params, dtrain): a model fitted on the set
            # (described like any call, so the audit can name it; never on its allow-list)
            params = args[0] if args else kwargs["params"]
            booster = Estimator(qualname, node, spec=to_spec(node, self._resolve(scope), self._bound(scope)), tuned=as_data(params).tuned)
            native = _native_model(key, node, params, self._bound(scope))
            booster = replace(booster, predictor=native or booster.spec, predictor_span=span_of(node))
            watched = {k: v for k, v in kwargs.items() if k in lib.EVAL_KEYWORDS or k == "callbacks"}
            if len(args) > 3:  # xgb.train(params, dtrain, rounds, evals) / lgb.train(..., valid_sets)
                watched.setdefault("evals" if key[0] == "xgboost" else "valid_sets", args[3])
            set_node = node.args[1] if len(node.args) > 1 else keyword_node(node, "train_set") or keyword_node(node, "dtrain")
            event, _, _ = self.fit(booster, "train", [train_set, UNKNOWN], watched, node, x_node=set_node)
            return replace(booster, fits=frozenset({event.id}))
        if key in lib.STUDY_FACTORIES:
            return Estimator(lib.STUDY, node)
        if key in lib.EARLY_STOPPING_CALLBACKS:
            return Estimator(qualname, node)
        if key in lib.CHECKPOINT_LOADERS and self._checkpointed:
            # load_model("best.keras") after a fit saving its best epoch: that fit's model
            return Estimator(qualname, node, fits=self._reload_checkpoints(node))
        if root in ("logging", "mlflow", "wandb") and (name in lib.REPORT_METHODS or name.startswith("log")):
            self._report(args + list(kwargs.values()), node, "logged")
        if name in lib.DATA_WRITERS or root in ("matplotlib", "seaborn", "plotly"):
            self.facts.shown_scores |= merge_data(args + list(kwargs.values())).scores  # written out, or charted
        if key == ("pandas", "merge_asof") and args:
            return self._merge_asof(node, args, kwargs)
        if key in (("numpy", "arange"), ("numpy", "permutation")) and len(args) == 1 and as_data(args[0]).size_of:
            # np.arange(len(df)), np.random.permutation(len(df)): positions of df's rows
            return Data(counter=True, positions=as_data(args[0]).size_of)
        if key == ("pandas", "get_dummies") and args and as_data(args[0]).by_column:
            # indicator columns are named after the column they encode; the others keep theirs
            return replace(self.derive(args + list(kwargs.values()), node), by_column=as_data(args[0]).by_column)
        if key in lib.CONCATENATORS and node.args and not along_columns(node):
            repeated = repeated_rows(node.args[0])
            copied = as_data(self.ev(repeated, scope)) if repeated is not None else None
            if copied is not None and copied.rows:
                # pd.concat([minority, minority]): rows copied by hand, as an oversampler copies them
                return self._stacked_copies(node, args, kwargs, copied, repeated, "duplicate")
            original = changed_copy(node.args[0], self._single_bindings()) if key == ("pandas", "concat") else None
            if original is not None and isinstance(args[0], Seq):
                # pd.concat([df, df + noise]), [matches, mirrored]: each row stacked with a changed copy of itself
                copied = as_data(args[0].items[original])
                if copied.rows and all(r.side is None for r in copied.rows):
                    return self._stacked_copies(node, args, kwargs, copied, node.args[0].elts[original], "augment")
        if key == ("pandas", "merge") and len(args) > 1:
            return self._merge(as_data(args[0]), as_data(args[1]), args + list(kwargs.values()), node)
        if root == "numpy" and name == "unique" and args:
            return replace(as_data(args[0]), distinct=True, column=None)
        if root == "mlflow" and name in ("log_metric", "log_metrics"):
            self._logged = self._logged | merge_data(args + list(kwargs.values())).scores
        if root == "mlflow" and name == "search_runs" and keyword_node(node, "order_by") is not None:
            # runs logged with a score, fetched best first: a choice by that score
            self._choice([Data(scores=self._logged)], node)
            return Data(scores=self._logged)
        if key in lib.DATA_CLASSES and "label" in kwargs:
            self._note_labels(kwargs["label"])  # xgb.DMatrix(X, label=y): y is the label
        if _metric_function(qualname, root, name):
            scores = merge_data(args + list(kwargs.values())).scores
            self._note_metric(qualname, node, scores, scope)
            self.facts.metric_rows.append((self.new_id(), merge_data(args + list(kwargs.values())).rows, span_of(node)))
            self._mark_scored(scores)
            if self._loops:
                self.facts.looped_scores |= scores
            return Data(scores=scores)
        if key == ("hyperopt", "fmin") and (args or "fn" in kwargs):
            self._run_objective(kwargs.get("fn", args[0] if args else None), node)
            return Data()  # the best settings found: a dict of values, no rows
        if key in lib.DEVICES:
            return Data()  # torch.device("cuda"): moving a tensor there keeps its rows, adds none
        if key in lib.SERIALIZERS:
            return Data()  # json.dumps(report): a text of the values, no row takes what they hold
        if key in lib.RESIDUAL_TESTS:
            return Data()  # stats.shapiro(residuals): a check of the fit's assumptions, no score
        if key in lib.RANDOM_GENERATORS or key in lib.CONNECTIONS:
            return Ref(qualname)  # rng.normal(...) draws new rows, conn.query(...) reads a table; neither holds any
        if key == ("collections", "defaultdict") and args and isinstance(args[0], Ref) and _constructs(args[0].qualname):
            return Factory(args[0].qualname)
        if _constructs(qualname):
            return self._construct(qualname, node, args, kwargs, scope)
        if key in lib.DATA_CLASSES:
            # lgb.Dataset(X, y, feature_name=bunch.feature_names, reference=dtrain): only the data
            # and its labels are its rows; names, a reference set's bins, weights are not
            kwargs = {k: v for k, v in kwargs.items() if k in ("data", "label")}
            args = args[:2]
        # pd.DataFrame(X_train_s, columns=bunch.feature_names): names are no rows
        rows_given = {k: v for k, v in kwargs.items() if not (k == "columns" and key in lib.FRAME_CONSTRUCTORS)}
        data = merge_data(args + list(rows_given.values()))
        made_by = qualname if name[:1].isupper() and root not in lib.DATA_ROOTS else None
        part = _benchmark_part(node)
        if part is not None:  # datasets.MNIST(root, train=False): the benchmark's own test rows
            rows = self.fresh_rows()
            self.facts.part_files.update((r.root, part) for r in rows)
            return Data(rows=rows, made_by=made_by)
        if key in lib.ARRAY_CONSTRUCTORS and len(node.args) == 1 and _numbers(node.args[0]):
            return Data()  # np.array([1.0, 0.95, 1.0]): weights typed in, no rows of data
        if name == "from_pretrained":
            return Data()  # BertTokenizer.from_pretrained("bert-base-uncased"): weights, no rows of this data
        if key in lib.NUMBER_GRIDS and not data.rows and not data.size_of and not data.positions:
            return Data()
        if not data.rows and not data.learned and not data.time and not data.scores:
            # (a model a project function builds with a search's chosen settings stays tuned)
            rows = self.fresh_rows()
            if key in lib.ARRAY_CONSTRUCTORS and node.args and _table_of_numbers(node.args[0]):
                self.facts.typed_roots.update(r.root for r in rows)
            # stft(signal) of one item of a list of signals: that item's own table (a spectrogram)
            element = any(isinstance(a, Data) and a.element for a in args[:1])
            return Data(rows=rows, made_by=made_by, tuned=data.tuned, element=element)
        derived = replace(self.derive([data], node), made_by=made_by)
        named = kwargs.get("columns") if key == lib.lib_key("pandas.DataFrame") else None
        if isinstance(named, Seq) and named.items and all(as_data(item).texts for item in named.items):
            derived = select_columns(derived, texts_of(named))  # pd.DataFrame(rows, columns=["a", "b"]): those columns
        first_axis = key in lib.ARRAY_CONSTRUCTORS or along_first(node, 1) or (keyword_node(node, "axis") is None and len(node.args) < 2)
        listed = args and ((args[0].__class__ is Seq and args[0].items) or as_data(args[0]).listed)
        if key in lib.STACKING and listed and first_axis:
            derived = replace(derived, stacked=True)  # np.stack([p1, p2]): one array per item
        if key in lib.SIDE_BY_SIDE and args and isinstance(args[0], Seq) and args[0].items and along_columns(node):
            derived = _side_by_side(derived, [as_data(part) for part in args[0].items])
            first = as_data(args[0].items[0]).rows
            if first:  # concat([X, new_columns], axis=1): X's rows with more columns
                return replace(derived, rows=first)
        return derived

    def _save(self, key, node, args, kwargs) -> None:
        """``joblib.dump(model, path)``, ``np.save(path, X)``, ``np.savez(path, X_train=X_train)``:
        a later load of the same path (written the same way) gives that value back."""
        path_at, value_at = lib.SAVERS[key]
        path = _path_text(node.args[path_at], args[path_at]) if len(node.args) > path_at else None
        if path is None or any(isinstance(a, ast.Starred) for a in node.args):
            return
        if value_at is None:
            named = [(k, v) for k, v in kwargs.items() if k != "allow_pickle"]
            self._saved[path] = Seq(tuple(v for _, v in named), tuple(k for k, _ in named))
        elif len(args) > value_at:
            self._saved[path] = args[value_at]

    def _note_metric(self, qualname, node, scores, scope) -> None:
        """The first metric function applied to each evaluation's output, with its literal
        settings (``average="macro"``); the rows it is given are not settings."""
        pending = [e for e in self.facts.evaluations if e.id in scores and e.metric is None]
        if not pending:
            return
        settings = tuple(
            (k.arg, to_spec(k.value, self._resolve(scope), self._bound(scope)))
            for k in node.keywords if k.arg is not None and k.arg not in METRIC_DATA_KEYWORDS
        )
        metric = CallSpec(qualname, (), settings)
        for evaluation in pending:
            evaluation.metric, evaluation.metric_span = metric, span_of(node)

    def _merge_asof(self, node, args, kwargs) -> Data:
        """``pd.merge_asof(left, right, direction="forward")``: each row takes the next
        right row's values (``"nearest"`` may take the next one too)."""
        merged = self.derive(args + list(kwargs.values()), node)
        direction = const_str(keyword_node(node, "direction"))
        if direction not in ("forward", "nearest") or not merged.rows:
            return merged
        right = text_of(node.args[1]) if len(node.args) > 1 else "the right frame"
        ahead = self._look_ahead(
            as_data(args[0]), f'pd.merge_asof(direction="{direction}")', node, column=f"<columns of {right}>",
            data_node=node.args[0],
        )
        return replace(merged, learned=merged.learned | {ahead})

    def _merge(self, left: Data, right: Data, inputs, node) -> Data:
        """``left.merge(right, ...)`` / ``pd.merge(left, right, ...)``. A many-to-one merge onto
        an entity's table shows the many side has several rows per entity. A lookup table of
        one row per key brings no rows: the result is the left frame's rows."""
        on = keyword_node(node, "on") or keyword_node(node, "left_on")
        names = [const_str(on)] if const_str(on) else [const_str(e) for e in getattr(on, "elts", [])]
        entities = [n for n in names if entity_column(n)]
        # which side repeats is only known when the merge says so
        validate = const_str(keyword_node(node, "validate"))
        if entities and validate in ("m:1", "many_to_one"):
            self._entity_repeats(left.rows, entities[0], node, f"a many-to-one merge on {entities[0]!r}")
        elif entities and validate in ("1:m", "one_to_many"):
            self._entity_repeats(right.rows, entities[0], node, f"a one-to-many merge on {entities[0]!r}")
        merged = self.derive(inputs, node)
        # each side's columns keep what lived only in them (a binned column, a scaled one)
        merged = replace(merged, by_column=left.by_column + right.by_column)
        # a left merge keeps the left frame's rows: the right one only lends them columns
        looked_up = right.distinct or (const_str(keyword_node(node, "how")) == "left" and left.rows)
        return replace(merged, rows=left.rows) if looked_up else merged

    def _stacked_copies(self, node, args, kwargs, copied: Data, copied_node, how: str) -> Data:
        """The rows a concatenation stacks, ``copied`` among them twice (``how``: "duplicate"
        as they are, "augment" changed): a resampling learned from ``copied``'s rows."""
        data = merge_data(args + list(kwargs.values()))
        event = self._learn("resample", "concat", node, copied, copied_node, method=how)
        return replace(self.derive([data], node), learned=data.learned | {event.id})

    def _held_data(self, value) -> Data:
        """The rows an object holds: a Dataset subclass of the file keeps them in attributes."""
        if isinstance(value, Instance):
            return merge_data([v for (key, _), v in self._heap.items() if key == value.key])
        return as_data(value)

    def _read(self, node, name) -> Data:
        """A table read from a file; one named as a part of a split saved elsewhere
        (``X_train.csv``) is noted as that part."""
        data = self._read_rows(node, name)
        self.facts.file_roots.update(r.root for r in data.rows)
        part = saved_part(node)
        if part is not None:
            self.facts.part_files.update((r.root, part) for r in data.rows)
        return data

    def _read_rows(self, node, name) -> Data:
        """``parse_dates`` on the index (``index_col`` or ``True``) orders the rows; parsed
        date columns alone do not, until the rows are sorted or indexed by them."""
        parsed = keyword_node(node, "parse_dates")
        if parsed is None or (isinstance(parsed, ast.Constant) and not parsed.value):
            return Data(rows=self.fresh_rows())
        mark = TimeMark(node.lineno, f"dates parsed by pd.{name}(parse_dates=...)", date=True, path=_path_of(node))
        # columns by name; by position (``parse_dates=[3]``) a column too, whose name is not known
        def named(e):
            return const_str(e) or f"<column {ast.unparse(e)}>"
        columns = [named(e) for e in getattr(parsed, "elts", [])]
        index = keyword_node(node, "index_col")
        index_names = {named(e) for e in getattr(index, "elts", [index] if index is not None else [])}
        if index is not None and (isinstance(parsed, ast.Constant) or not columns or index_names & set(columns)):
            index_mark = TimeMark(node.lineno, f"a datetime index parsed by pd.{name}(parse_dates=..., index_col=...)", path=_path_of(node))
            return Data(rows=self.fresh_rows(), time=index_mark)
        if columns:
            return Data(rows=self.fresh_rows(), dated=tuple((c, mark) for c in columns))
        return Data(rows=self.fresh_rows(), time=mark)

    def _resolve(self, scope):
        def resolve(expr) -> Optional[str]:
            value = self.ev(expr, scope) if isinstance(expr, (ast.Name, ast.Attribute)) else None
            return value.qualname if isinstance(value, Ref) else None

        return resolve

    def _bound(self, scope):
        """The literal (or the allow-listable constructor call) a name or attribute was
        bound to, for ``to_spec``: read from the values bound, never evaluated."""
        def bound(expr) -> Optional[tuple]:
            value = None
            if isinstance(expr, ast.Name):
                value = self.ev(expr, scope)
            elif isinstance(expr, ast.Attribute):
                path = self._path(expr) if self._dotted else None
                value = scope.lookup(path) if path else None
                if value is None:
                    base = self.ev(expr.value, scope)
                    if isinstance(base, Instance):
                        value = self._heap.get((base.key, expr.attr))
                    elif isinstance(base, ModuleRef):
                        value = self.module_attribute(base, expr.attr)
            literal = getattr(value, "literal", None)
            if literal is not None:
                return literal
            if isinstance(value, Estimator) and isinstance(value.spec, CallSpec):
                return (value.spec,)
            return None

        return bound

    def _construct(self, qualname, node, args, kwargs, scope) -> Estimator:
        key = lib.lib_key(qualname)
        self.facts.built.add(qualname)
        spec = to_spec(node, self._resolve(scope), self._bound(scope)) if node is not None else None
        shuffled = None
        if key in lib.ALWAYS_SHUFFLED_SPLITTERS:
            shuffled = True
        elif key in lib.OPTIONALLY_SHUFFLED_SPLITTERS:  # KFold(n_splits, shuffle); before 0.18 KFold(n, n_folds, shuffle)
            position = 2 if qualname.startswith(lib.OLD_SPLITTER_MODULE) else 1
            shuffled = self._shuffle_flag(node, position=position, default=False)
        elif key in lib.ORDERED_SPLITTERS:
            shuffled = False
        inner = args[0] if args else kwargs.get("estimator")
        cv = kwargs.get("cv")
        steps = ()
        if isinstance(inner, Estimator):
            steps = (inner.qualname,) + inner.steps
        grid = args[1] if len(args) > 1 else kwargs.get("param_grid", kwargs.get("param_distributions"))
        size = _grid_size(grid) if key in lib.SEARCH_CLASSES else None
        predictor, predictor_span = spec, span_of(node) if node is not None else None
        if key in lib.SEARCH_CLASSES and key[1] != "RFECV":
            predictor = inner.predictor if isinstance(inner, Estimator) else None
            predictor_span = inner.predictor_span if isinstance(inner, Estimator) else None
        return Estimator(
            qualname, node, steps=steps, spec=spec, shuffled=shuffled, inner=inner, cv=cv, one_setting=size == 1,
            predictor=predictor, predictor_span=predictor_span, grid_size=size,
            tuned=merge_data(list(args) + list(kwargs.values())).tuned,
        )

    @staticmethod
    def _shuffle_flag(node, position, default) -> Optional[bool]:
        """The literal ``shuffle=`` setting; None when it is not a literal (unknown)."""
        for kw in node.keywords:
            if kw.arg == "shuffle":
                return truthy_const(kw.value)
        if len(node.args) > position:
            return truthy_const(node.args[position])
        return default

    def _pipeline(self, qualname, node, args, kwargs) -> Estimator:
        steps = []
        for value in list(args) + [kwargs.get("steps"), kwargs.get("transformers")]:
            steps.extend(step_names(value))
        last = _last_step(qualname, node, args, kwargs)
        return Estimator(
            qualname, node, steps=tuple(steps), spec=None,
            predictor=last.predictor if last is not None else None,
            predictor_span=last.predictor_span if last is not None else None,
        )

    # ----------------------------------------------------------- methods
    def method_call(self, receiver, method, args, kwargs, node, scope) -> Value:
        self._last_fitted = None
        if isinstance(receiver, Estimator):
            return self._estimator_method(receiver, method, args, kwargs, node, scope)
        if isinstance(receiver, Data):
            return self._data_method(receiver, method, args, kwargs, node, scope)
        if isinstance(receiver, Function):
            return UNKNOWN
        if isinstance(receiver, Seq) and method == "items":
            return Items(receiver)
        if isinstance(receiver, Seq) and method in ("values", "copy"):
            return receiver
        return merge_data([receiver] + args + list(kwargs.values()))

    def _own_predictions(self, est: Estimator, args) -> bool:
        """``model.score(X_test, model.predict(X_test))``: the labels it is scored against are
        its own predictions, so the score measures nothing (always perfect)."""
        labels = as_data(args[1]) if len(args) > 1 else None
        if labels is None or not labels.scores or not est.fits:
            return False
        made = self._made_by(labels)
        return bool(made) and all(e.fits == est.fits and not e.scored for e in made)

    def _estimator_method(self, est: Estimator, method, args, kwargs, node, scope) -> Value:
        if method == "add" and est.qualname.endswith(".Sequential") and len(node.args) == 1 and isinstance(node.func, ast.Attribute):
            # model.add(Dense(64, activation="relu")): the layer joins the model's description
            layers = list(est.spec.args[0]) if isinstance(est.spec, CallSpec) and est.spec.args and isinstance(est.spec.args[0], list) else []
            layer = to_spec(node.args[0], self._resolve(scope), self._bound(scope))
            spec = CallSpec(est.qualname, (layers + [layer],), est.spec.kwargs if isinstance(est.spec, CallSpec) else ())
            self._rebind(node.func.value, replace(est, spec=spec, predictor=spec), scope)
            return UNKNOWN
        if method == "split" and est.shuffled is not None:
            return self._folds(est, args, kwargs, node)
        if method == "optimize" and est.qualname == lib.STUDY and args:
            return self._optimize(est, args[0], node)
        if method in lib.FIT_METHODS:
            event, data, y_data = self.fit(est, method, args, kwargs, node)
            fitted = replace(est, fits=frozenset({event.id}), undoes=self._undone_by(est, data))
            self._last_fitted = fitted
            if lib.lib_key(est.qualname) in lib.SEARCH_CLASSES:
                if not (est.one_setting or one_candidate(est.node)):  # a grid of one setting chooses nothing
                    self._searches[event.id] = span_of(est.node) if est.node is not None else None
                self._search(est, data, y_data, node, scope, event.id)
            if method == "fit":
                return fitted
            if method in lib.RESAMPLE_METHODS:
                outs = [Data(rows=a.rows, learned=a.learned | {event.id}, time=a.time) for a in map(as_data, args[:2])]
                return Seq(tuple(outs))
            return Data(rows=data.rows, learned=(data.learned - fitted.undoes) | {event.id}, time=data.time)
        if method in lib.PREDICT_METHODS or method in lib.APPLY_METHODS or method in lib.SCORE_METHODS:
            data = as_data(args[0]) if args else as_data(kwargs.get("X", kwargs.get("x")))
            scores = frozenset()
            if method in lib.PREDICT_METHODS or method in lib.SCORE_METHODS:
                evaluation = Evaluation(
                    self.new_id(), span_of(node), est.fits, data.rows,
                    text_of(node.args[0] if node.args else None), in_loop=self._loops > 0,
                    learned=data.learned, scored=method in lib.SCORE_METHODS and not self._own_predictions(est, args),
                )
                self.facts.evaluations.append(evaluation)
                self._sink([data])
                scores = frozenset({evaluation.id})
            if method in lib.SCORE_METHODS:
                return Data(scores=scores)
            learned = (data.learned - est.undoes if method == "transform" else data.learned) | est.fits
            if method in lib.PREDICT_METHODS and any(r.side is not None for r in data.rows):
                # Predictions on a side of a split are scored there (an Evaluation,
                # which LL302 judges); they are not a fitted step applied to that side.
                learned = data.learned
            self._check_applied(learned, data.rows)
            return Data(rows=data.rows, learned=learned, time=data.time, scores=scores)
        if method in ("set_params", "set_output"):
            # est.set_params(**search.best_params_): it now has the search's chosen settings
            chosen = frozenset().union(*(as_data(v).tuned for v in args + list(kwargs.values())))
            return replace(est, tuned=est.tuned | chosen) if chosen else est
        if method == "load_weights":
            self._reload_checkpoints(node, est.fits)
            return est
        if method in lib.SCORE_ATTRIBUTES:
            self._inspected.extend(est.fits)
        data = merge_data(args)
        if method in lib.IMPORTANCE_ATTRIBUTES:  # CatBoost's get_feature_importance(), a Booster's feature_importance()
            return replace(data, learned=data.learned | est.fits | self._importances(est, method, node))
        return replace(data, learned=data.learned | est.fits)

    def _undone_by(self, est: Estimator, data: Data) -> frozenset:
        """The shift-and-scale steps in ``data`` that ``est``, a standardizer fitted on it,
        undoes: (x*a + b) standardized by its own mean and deviation is x standardized."""
        keeping = lib.STANDARDIZERS.get(lib.lib_key(est.qualname))
        if keeping is None or est.steps or not isinstance(est.spec, CallSpec):
            return frozenset()
        if any(est.spec.kwarg(option, True) is not True for option in keeping):
            return frozenset()
        return frozenset(
            i for i in data.learned
            if self.facts.learns[i].kind in ("fit", "call") and not self.facts.learns[i].steps
            and lib.lib_key(self.facts.learns[i].qualname) in lib.SHIFT_AND_SCALE
        ) | (data.rescaled & data.learned)  # a z-score or a min-max by hand

    def _run_objective(self, objective, node) -> Data:
        """One trial of a tuning objective, run with an unknown trial: the rows its models
        were fitted and scored on."""
        before = len(self.facts.sinks)
        self._objective += 1
        try:
            if isinstance(objective, Function):
                with self._site(node, [], {}):
                    self._call_function(objective, [UNKNOWN], {})
        finally:
            self._objective -= 1
        return merge_data([Data(rows=sink.rows) for sink in self.facts.sinks[before:]])

    def _optimize(self, study: Estimator, objective, node) -> Estimator:
        """``study.optimize(objective, n_trials=50)``: the objective runs once here with an
        unknown trial; the rows it fits and scores on are the rows the study tuned on (none
        known when the objective lives in an installed package)."""
        first = max(self.facts.splits, default=-1)
        rows = self._run_objective(objective, node)
        event = self._learn("search", lib.STUDY, node, rows, node.func.value)
        for split in self.facts.splits.values():
            if split.id > first and split.kind in ("cv", "folds") and split.search is None:
                split.search = event.id  # the objective's folds score trials: the study reads them
        self._searches[event.id] = span_of(study.node) if study.node is not None else None
        tuned = replace(study, fits=frozenset({event.id}))
        self._last_fitted = tuned
        return tuned

    def _data_method(self, data: Data, method, args, kwargs, node, scope) -> Value:
        if method in ("fillna", "interpolate") and data.complete and data.rows:
            return data  # no gap to fill: what would fill one reaches no row
        if method == "fillna":
            for learn_id in merge_data(args + list(kwargs.values())).learned:
                if self.facts.learns[learn_id].kind == "group-stat":
                    self.facts.learns[learn_id].fills = True
        result = self._data_method_inner(data, method, args, kwargs, node, scope)
        if isinstance(result, Data) and result.rows == data.rows and not any(as_data(v).learned for v in args):
            if data.by_column and not result.by_column and result.learned == data.learned:
                # df.shift(1) / df.dropna(): what lived in one column still lives only there
                result = replace(result, by_column=data.by_column)
            if data.cleared and not result.cleared and result.learned <= data.learned:
                # df.drop(columns=[...]) / df.dropna(): a column free of an id stays free of it
                result = replace(result, cleared=data.cleared)
        reason = _reads_ahead(method, node) if data.rows and data.grouped is None else None
        if reason is not None and isinstance(result, Data):
            ahead = self._look_ahead(data, reason, node, lead=_lead(method, node))
            self.facts.learns[ahead].procedure = _look_ahead_procedure(method, node)
            return replace(result, learned=result.learned | {ahead})
        if method == "shift" and isinstance(result, Data) and _lead(method, node) < 0:
            result = self._lagged(result, -_lead(method, node))
        if data.shuffled is not None and method in lib.ORDER_KEEPING and isinstance(result, Data):
            result = replace(result, shuffled=data.shuffled)  # df.sample(frac=1).reset_index(drop=True)
        if isinstance(result, Data) and result.rows and (_fills_every_gap(method, node) or (
                data.complete and method in lib.GAP_KEEPING and not _puts_gaps(node))):
            result = replace(result, complete=True)
        return result

    def _lagged(self, data: Data, lag: int) -> Data:
        """``df.shift(1)`` of a column that read one row ahead: row t now holds what was
        known at t (the previous row's next value), so the look-ahead is undone; so is a
        window that held the row's own value."""
        undone = frozenset(
            i for i in data.learned
            if (self.facts.learns[i].kind == "ahead" and 0 < self.facts.learns[i].lead <= lag)
            or (self.facts.learns[i].kind == "own" and lag > 0)
        )
        self.facts.lagged_ahead |= {i for i in data.learned if self.facts.learns[i].kind == "ahead"} - undone
        if not undone:
            return data
        by_column = tuple((c, ids - undone) for c, ids in data.by_column if ids - undone)
        return replace(data, learned=data.learned - undone, by_column=by_column)

    def _data_method_inner(self, data: Data, method, args, kwargs, node, scope) -> Value:
        if method in lib.SUMMARIES:
            self._mark_scored(data.residuals)  # ((y - pred) ** 2).mean(): a score by hand
        if method == "format" and data.texts:
            self._note_score_label([data] + args + list(kwargs.values()))
        if method == "split" and data.made_by is not None and args and as_data(args[0]).rows:
            # TemporalSplit(...).split(df): a splitter class of the project or another
            # package; how it orders or shuffles is not known
            return self._folds(Estimator(data.made_by, None), args, kwargs, node)
        if method in lib.CHOOSING_METHODS:
            self._choice([data], node)
        if data.grouped is not None:
            return self._group_method(data, method, args, node, scope)
        if method in ("items", "iteritems") and data.rows and not args and not kwargs:
            return Items(Seq((data,)))  # (name, column) pairs: each column holds every row
        if method in ("value_counts", "nunique", "duplicated") and data.rows:
            names = [data.column] + sorted(texts_of(args[0] if args else kwargs.get("subset", UNKNOWN)))
            entity = next((n for n in names if entity_column(n, strict=True)), None)
            if entity is not None:
                self._entity_repeats(data.rows, entity, node, f"{method}() of {entity!r}")
            if method == "value_counts":
                return replace(self.derive([data], node), distinct=True, column=None)
        if method == "drop_duplicates" and not args and "subset" not in kwargs and all(r.side is None for r in data.rows):
            copies = frozenset(i for i in data.learned if self.facts.learns[i].kind == "resample"
                               and self.facts.learns[i].method == "duplicate")
            # pd.concat([df, df.iloc[:30]]).drop_duplicates() before a split: the copies go again
            # (from one side of a split, copies of its rows stay on the other)
            data = replace(data, learned=data.learned - copies)
        if method in ("unique", "drop_duplicates") and (method == "unique" or args or "subset" in kwargs):
            return replace(self.derive([data] + args, node), distinct=True)
        sides = indexed_sides(data, as_data(args[0])) if method == "isin" and len(args) == 1 else ()
        if sides:
            # df.user_id.isin(train_users) with train_users one side of a split of df's own ids:
            # the rows of those entities, that side (a split by entity made by hand)
            return Data(rows=frozenset(Rows(r.root, side) for r in data.rows for side in sides))
        if method == "merge" and args:
            return self._merge(data, as_data(args[0]), [data] + args + list(kwargs.values()), node)
        if method == "assign":  # pd.read_csv(path).assign(subject=sid) in a loop over files
            for key in kwargs:
                self._tagged_per_file(data.rows, key)
        if method == "groupby" and _time_grouper(node):
            # df.groupby(pd.Grouper(freq="h")): a resample, one row per period, in time order
            time = data.time or TimeMark(node.lineno, "a time resample with pd.Grouper(freq=...)", path=_path_of(node))
            return replace(self.derive([data], node), time=time, window=True)
        if method == "groupby":
            return replace(data, grouped=(None,) + tuple(groupby_keys(node)), column=None)
        if data.window and data.own is not None and method in OWN_WINDOW_AGGREGATES:
            event = self._learn("own", f"{method}() of a trailing window", node, data, node.func.value, column=data.own)
            return replace(data, window=False, own=None, learned=data.learned | {event.id})
        if data.window:
            return replace(data, window=False, own=None)
        if method == "rank" and keyword_true(node, "pct") and data.rows:
            # each row's percentile among all rows: the empirical distribution of all rows, applied
            return self.derive([data, self._statistic("percentile rank", data, node, data_node=node.func.value)], node)
        if method in lib.FRAME_STATS and data.rows:
            return self._statistic(method, data, node, axis_position=0, data_node=node.func.value)
        if method in lib.TIME_METHODS:
            derived = self.derive([data] + args, node)
            time = derived.time
            ahead = _reads_ahead(method, node)
            if ahead is None:  # a look-ahead does not show the rows' order
                # (time-zone-aware timestamps are dates, like pd.to_datetime's: they order no rows)
                time = time or TimeMark(node.lineno, lib.TIME_METHODS[method], path=_path_of(node),
                                        derived=method in lib.FEATURE_TIME_METHODS, date=method == "tz_localize")
            if method in ("diff", "pct_change") and data.column is not None and _from_earlier_rows(method, node):
                # y_t - y_(t-1): the current row's value is in it
                event = self._learn("own", f"{method}()", node, data, node.func.value, column=data.column)
                derived = replace(derived, learned=derived.learned | {event.id})
            own = data.column if method in OWN_WINDOWS and ahead is None \
                and const_str(keyword_node(node, "closed")) not in ("left", "neither") else None
            return replace(derived, time=time, window=method in lib.WINDOW_METHODS, own=own)
        if method in ("pipe", "apply", "transform", "agg", "aggregate") and args and isinstance(args[0], Function) and data.rows:
            # df.pipe(helper, cols) / df.apply(zscore): the function runs on the frame
            if not isinstance(args[0].node, ast.Lambda):
                each = replace(data, indexer=False, element=data.element or _per_element(method, data, node))
                with self._site(node, [data], {}):
                    result = self._call_function(args[0], [each] + args[1:], kwargs)
                return self.derive([data, result], node)
        if method in ("apply", "transform") and args and isinstance(args[0], Ref) and data.rows \
                and lib.lib_key(args[0].qualname) in lib.STANDARDIZING_FUNCTIONS and not _per_element(method, data, node):
            # df.apply(zscore): each column standardized by its own statistics over all rows
            name = lib.lib_key(args[0].qualname)[1]
            return self.derive([data, self._statistic(name, data, node, data_node=node.func.value)], node)
        if method == "pivot_table" and data.rows:
            return self._pivot_table(data, node)
        lambdas = [a for a in list(node.args) + [k.value for k in node.keywords] if isinstance(a, ast.Lambda)]
        if lambdas and data.rows:
            each = replace(data, indexer=False, element=data.element or _per_element(method, data, node))
            results = [self._lambda(func, each, scope) for func in lambdas]
            return self.derive([data] + results + args, node)
        if method in ("corr", "corrwith") and data.rows:
            return self._correlation(data, method, args, node)
        if method == "sample" and _whole_fraction(node) and data.rows and not keyword_true(node, "replace"):
            return replace(self.derive([data], node), shuffled=span_of(node))  # df.sample(frac=1): a shuffle
        if method == "sample" and keyword_fraction(node) and data.rows and not keyword_true(node, "replace"):
            split = self._new_split("split", "sample", node, data, node.func.value, True, span_of(node), _sampled_split(node))
            self._split_inputs(split, [data])
            return replace(data, rows=frozenset(Rows(r.root, Side("train", split.id)) for r in data.rows), indexer=False)
        if method == "drop" and data.rows:
            complement = self._complement(data, args)
            if complement is not None:
                return complement
        if method == "sample" and keyword_true(node, "replace") and data.rows:
            event = self._learn("resample", "sample", node, data, node.func.value, method="sample")
            return Data(rows=data.rows, learned=data.learned | {event.id}, time=data.time)
        if method == "sample" and data.subset and data.rows and _drawn_to_a_size(node, args, kwargs):
            # claims[claims.fraud == 0].sample(len(fraud)): one class cut down to another's size
            event = self._learn("resample", "sample", node, data, node.func.value, method="undersample")
            return Data(rows=data.rows, learned=data.learned | {event.id}, time=data.time)
        if method == "rename" and data.dated:
            renamed = _renamed_columns(node)
            if renamed:  # df.rename(columns={"Date/Time": "ts"}): the parsed dates keep their meaning
                dated = tuple((renamed.get(c, c), mark) for c, mark in data.dated)
                return replace(self.derive([data] + args, node), dated=dated)
        if method in ("set_index", "sort_values") and data.dated:
            ordered = self._ordered_by_dates(data, method, args, kwargs, node)
            if ordered is not None:
                return ordered
        if method == "drop" and data.rows and drops_columns(node):
            # columns typed in by hand: perhaps those a selection read before rejected
            if len(texts_of(kwargs.get("columns", args[0] if args else UNKNOWN))) > 1:
                data = replace(data, learned=data.learned | self._typed_after_reading(node, data))
        if method == "drop" and data.rows and (data.by_column or data.dated):
            dropped = texts_of(kwargs.get("columns", UNKNOWN))
            if not dropped and args and drops_columns(node):  # df.drop(["a", "b"], axis=1)
                dropped = texts_of(args[0])
            if dropped:
                keep = [c for c, _ in data.by_column + data.dated if c not in dropped]
                return self.derive([select_columns(data, keep)] + args, node)
        if method == "align" and args:
            # a.align(b): each frame gets the other's columns; no rows move between them
            other = as_data(args[0])
            return Seq((replace(data, indexer=False), replace(other, indexer=False)))
        if method == "pop" and args:
            return replace(data, column=const_str(node.args[0]) if node.args else None, indexer=False)
        if method in lib.VIEW_METHODS:
            return replace(data, indexer=False)
        # sizes and seeds (df.sample(n=n_min)) choose rows; they are not values of the rows
        values = [v for k, v in kwargs.items() if k not in lib.SETTING_KEYWORDS]
        return self.derive([data] + args + values, node)

    def _ordered_by_dates(self, data: Data, method, args, kwargs, node) -> Optional[Data]:
        """``df.sort_values("date")`` / ``df.set_index("date")``: the parsed dates now order the rows
        (not when the rows are one entity's, met in a loop over the entities)."""
        if data.element or data.counter:
            return None
        names = texts_of(args[0] if args else kwargs.get("by", kwargs.get("keys", UNKNOWN)))
        for column, mark in data.dated:
            if column in names:
                verb = "indexed" if method == "set_index" else "sorted"
                time = TimeMark(node.lineno, f"rows {verb} by the parsed dates in {column!r}", path=_path_of(node))
                return replace(self.derive([data] + args, node), time=time)
        return None

    def _pivot_table(self, data: Data, node) -> Data:
        """``df.pivot_table(index=c, values=label, aggfunc="mean")``: per-category means."""
        values = keyword_node(node, "values")
        columns = [const_str(values)] if const_str(values) else [const_str(e) for e in getattr(values, "elts", [])]
        aggfunc = keyword_node(node, "aggfunc")
        if aggfunc is not None and not aggregates_values(ast.Call(func=ast.Name("agg"), args=[aggfunc], keywords=[])):
            return replace(data, column=None, indexer=False, rows=frozenset())
        learned = data.learned
        for column in filter(None, columns):
            learned = learned | {self._learn("group-stat", "pivot_table", node, data, node.func.value, column=column).id}
        return Data(learned=learned, time=data.time)

    def _complement(self, data: Data, args) -> Optional[Data]:
        """``df.drop(train.index)`` after ``train = df.sample(frac=0.8)`` (or a split of df's
        index or positions): the held-out side."""
        whole = {r.root for r in data.rows if r.side is None}
        for arg in args:
            for row in as_data(arg).rows:
                split = self.facts.splits.get(row.side.split) if row.side is not None else None
                if split is not None and split.kind == "split" and row.side.kind == "train" and row.root in whole:
                    split.complemented = True
                    side = Side("test", split.id)
                    return replace(data, rows=frozenset(Rows(r.root, side) for r in data.rows), indexer=False, column=None)
        return None

    def _correlation(self, data: Data, method, args, node) -> Data:
        """Correlations with the label choose features; which column is the label is
        learned when the matrix is indexed (``df.corr()["price"]``)."""
        other = as_data(args[0]) if args else None
        event = self._learn(
            "selection", method, node, data, node.func.value, method=method,
            column=other.column if other is not None else None, has_labels=other is not None,
        )
        learned = data.learned | (other.learned if other is not None else frozenset())
        return Data(learned=learned | {event.id})

    def _group_method(self, data: Data, method, args, node, scope) -> Value:
        """Per-group aggregates: a mean of the label mapped back is a target encoding;
        a lambda is followed like any other code (a fill with each group's median is a
        statistic, a shifted rolling mean is a lag feature)."""
        base = replace(data, grouped=None, column=None)
        # a per-row result (transform, a lag) is feature engineering per entity; a bare
        # count or mean per ambiguous name (a news item's "subject") may be a category's
        keys = [k for k in data.grouped[1:] if entity_column(k, strict=method not in lib.PER_ROW_GROUP_METHODS)]
        if keys and data.rows:
            self._entity_repeats(data.rows, keys[0], node, f"per-{keys[0]} groupby(...).{method}()")
        reason = _reads_ahead(method, node)
        if reason is not None and data.rows:
            ahead = self._look_ahead(data, f"per-group {reason}", node)
            return replace(base, rows=data.rows, learned=data.learned | {ahead}, window=method in lib.WINDOW_METHODS)
        rows = data.rows if method == "transform" else frozenset()
        func = node.args[0] if node.args else None
        if isinstance(func, ast.Lambda) and data.rows and not lambda_is_aggregate(func):
            result = as_data(self._lambda(func, replace(base, column=data.grouped[0]), scope))
            return replace(result, rows=rows, time=data.time or result.time)
        columns = [data.grouped[0]] if data.grouped[0] is not None else aggregated_columns(node)
        if method not in lib.GROUP_AGGREGATES or not columns or not data.rows or not aggregates_values(node):
            return replace(base, rows=rows)
        learned = select_columns(data, columns).learned  # (what lives only in other columns stays behind)
        for column in columns:
            event = self._learn("group-stat", method, node, data, groupby_root(node), column=column, keys=data.grouped[1:])
            learned = learned | {event.id}
        # one row per user (or per symbol, per category) is a table of them, not a series; one
        # row per day still is
        timed = method == "transform" or any(time_column(k) or k in dict(data.dated) for k in data.grouped[1:])
        return Data(rows=rows, learned=learned, time=data.time if timed else None)

    def _lambda(self, func: ast.Lambda, argument: Value, scope, rest=()) -> Value:
        inner = Scope(scope)
        inner.globals = scope.globals
        params = list(func.args.posonlyargs) + list(func.args.args)
        for index, param in enumerate(params):
            inner.env[param.arg] = argument if index == 0 else (rest[index - 1] if index - 1 < len(rest) else UNKNOWN)
        self._stack.append(id(func))
        try:
            return self.ev(func.body, inner)
        finally:
            self._stack.pop()


def _last_step(qualname, node, args, kwargs) -> Optional[Estimator]:
    """The last step of ``make_pipeline(a, b, model)`` / ``Pipeline([..., ("m", model)])``:
    its last step's, when that step is an estimator value (a call or a variable)."""
    name = lib.lib_key(qualname)[1]
    if name == "make_pipeline":
        if not args or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        last = args[-1]
    elif name == "Pipeline":
        steps = args[0] if args else kwargs.get("steps")
        if not isinstance(steps, Seq) or not steps.items:
            return None
        pair = steps.items[-1]
        last = pair.items[-1] if isinstance(pair, Seq) and len(pair.items) == 2 else None
    else:
        return None
    return last if isinstance(last, Estimator) else None


def _sampled_split(node) -> dict:
    """``train = df.sample(frac=0.8, random_state=0)`` and the rest held out: for the
    runtime checker, ``train_test_split(test_size=0.2, random_state=0)``."""
    frac = keyword_node(node, "frac").value
    settings = [("test_size", round(1 - frac, 10))]
    state = keyword_node(node, "random_state")
    if isinstance(state, ast.Constant) and isinstance(state.value, int) and not isinstance(state.value, bool):
        settings.append(("random_state", state.value))
    split = CallSpec("sklearn.model_selection.train_test_split", (), tuple(settings))
    return {"split": split, "origins": {"split": span_of(node)}}


def _setting_of(node, value):
    """A literal setting: literal syntax, or the literal a name was bound to; else Opaque."""
    literal = getattr(value, "literal", None)
    if literal is not None and isinstance(literal[0], (bool, int, float, str)):
        return literal[0]
    return to_spec(node, lambda expr: None)


# lgb.train / xgb.train with literal params, as the library's scikit-learn interface
# (the estimator classes the audit's allow-list holds); the objective decides which.
NATIVE_CLASSIFICATION = {
    "lightgbm": ("binary", "multiclass", "multiclassova", "softmax", "ova", "ovr"),
    "xgboost": ("binary:", "multi:"),
}
NATIVE_REGRESSION = {
    "lightgbm": ("regression", "regression_l1", "regression_l2", "l1", "l2", "mse", "mae", "rmse", "huber", "fair",
                 "poisson", "quantile", "mape", "gamma", "tweedie"),
    "xgboost": ("reg:",),
}
NATIVE_ROUNDS = {"lightgbm": 100, "xgboost": 10}  # num_boost_round's defaults


def _numbers(node) -> bool:
    """A flat list or tuple display of number literals."""
    return isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance((literal_of(e) or (None,))[0], (int, float)) for e in node.elts
    )


# trailing windows whose aggregate at a row includes that row's own value, and those aggregates
OWN_WINDOWS = frozenset(("rolling", "expanding", "ewm"))
OWN_WINDOW_AGGREGATES = frozenset(("mean", "sum", "median", "max", "min", "std", "var"))


def _from_earlier_rows(method, node) -> bool:
    """``diff()`` / ``pct_change(3)``: each row against an earlier one (the default is 1)."""
    return _lead(method, node) < 0 or not (node.args or keyword_node(node, "periods") is not None)


def _time_grouper(node) -> bool:
    """``groupby(pd.Grouper(freq=...))`` (alone or in a list): rows grouped by period."""
    keys = node.args[:1] + [k.value for k in node.keywords if k.arg == "by"]
    keys = [e for k in keys for e in (k.elts if isinstance(k, (ast.List, ast.Tuple)) else [k])]
    if len(keys) != 1 or not isinstance(keys[0], ast.Call):
        return False
    return called_name(keys[0]) == "Grouper" and any(k.arg == "freq" for k in keys[0].keywords)


def _table_of_numbers(node) -> bool:
    """A list or tuple display of rows of number literals (``[[0, 0], [0, 1], [1, 0]]``)."""
    return isinstance(node, (ast.List, ast.Tuple)) and bool(node.elts) and all(_numbers(e) for e in node.elts)


def _native_model(key, node, params, bound) -> Optional[CallSpec]:
    """``lgb.train(params, data, num_boost_round=n)`` as ``LGBMClassifier(**params,
    n_estimators=n)`` (Regressor for a regression objective; xgboost alike), when the params
    are a dict display; None otherwise."""
    root = key[0]
    if root not in NATIVE_ROUNDS:
        return None
    found = getattr(params, "literal", None)
    if found is None or not isinstance(found[0], Mapping):
        return None
    settings = dict(found[0].items)
    objective = settings.get("objective", "regression" if root == "lightgbm" else "reg:squarederror")
    if not isinstance(objective, str):
        return None
    family = "LGBM" if root == "lightgbm" else "XGB"
    if _objective_in(root, objective, NATIVE_CLASSIFICATION):
        name = family + "Classifier"
    elif _objective_in(root, objective, NATIVE_REGRESSION):
        name = family + "Regressor"
    else:
        return None
    rounds_node = node.args[2] if len(node.args) > 2 else keyword_node(node, "num_boost_round")
    rounds = literal_of(rounds_node) if rounds_node is not None else (NATIVE_ROUNDS[root],)
    if rounds_node is not None and rounds is None and isinstance(rounds_node, (ast.Name, ast.Attribute)):
        rounds = bound(rounds_node)
    if rounds is None or not isinstance(rounds[0], int) or isinstance(rounds[0], bool):
        return None
    kwargs = tuple((k, v) for k, v in settings.items() if k not in ("num_boost_round", "n_estimators", "num_iterations"))
    return CallSpec(f"{root}.{name}", (), kwargs + (("n_estimators", rounds[0]),))


def _objective_in(root: str, objective: str, table: dict) -> bool:
    """xgboost's objectives are prefixed by their kind ("binary:logistic"); lightgbm's are names."""
    return objective.startswith(table[root]) if root == "xgboost" else objective in table[root]


def _renamed_columns(node: ast.Call) -> dict:
    """{old: new} of ``df.rename(columns={"a": "b"})`` with string keys and values."""
    mapping = keyword_node(node, "columns")
    if not isinstance(mapping, ast.Dict):
        return {}
    pairs = {const_str(k): const_str(v) for k, v in zip(mapping.keys, mapping.values) if k is not None}
    return {k: v for k, v in pairs.items() if k is not None and v is not None}


def _constructs(qualname: str) -> bool:
    """Calling ``qualname`` builds an object of a library class (an estimator, a splitter)."""
    root, name = lib.lib_key(qualname)
    return name[:1].isupper() and root in lib.ML_PACKAGES and (root, name) not in lib.DATA_CLASSES


def _metric_function(qualname: str, root: str, name: str) -> bool:
    """scikit-learn's metrics, and a function of another package's ``metrics`` module
    (``sklearn_crfsuite.metrics.flat_f1_score``, ``keras.metrics.mean_squared_error``)."""
    if root == "sklearn":
        return ".metrics" in qualname
    return name[:1].islower() and qualname.rsplit(".", 2)[-2:-1] == ["metrics"]


def _imported_by_name(node: ast.Call, scope) -> Optional[Ref]:
    """``__import__("lightgbm")`` and ``importlib.import_module("lightgbm")``: the library
    they return, as an import statement would bind it (``__import__`` returns the package
    at the top of a dotted name)."""
    module = const_str(node.args[0]) if len(node.args) == 1 and not node.keywords else None
    if not module:
        return None
    func = node.func
    if isinstance(func, ast.Name) and func.id == "__import__" and scope.lookup("__import__") is None:
        return Ref(module.split(".")[0])
    if (isinstance(func, ast.Attribute) and func.attr == "import_module" and isinstance(func.value, ast.Name)
            and scope.lookup(func.value.id) == Ref("importlib")):
        return Ref(module)
    return None


def _list_of_parts(receiver, args) -> bool:
    """A list (empty, or holding one tuple) given a tuple of two or more parts of rows."""
    new = args[0] if len(args) == 1 else None
    return isinstance(receiver, Seq) and not receiver.keys and len(receiver.items) <= 1 \
        and all(isinstance(i, Seq) for i in receiver.items) and isinstance(new, Seq) and not new.keys \
        and len(new.items) >= 2 and all(isinstance(i, Data) and i.rows for i in new.items)


def _list_of_objects(receiver, args) -> bool:
    """A list display of estimators or callbacks given one more item: it collects no rows,
    so it stays a list of its items (what a library call returned, unknown here, included)."""
    return (isinstance(receiver, Seq) and not receiver.keys and len(args) == 1
            and any(isinstance(item, Estimator) for item in receiver.items)
            and all(isinstance(item, (Estimator, Ref)) for item in receiver.items))
