"""The shared dataflow pass: an abstract interpreter over the stdlib ``ast``.

It walks statements in order, binding names to abstract values (values.py), resolving
library names through the file's imports, merging branches, and inlining calls of
functions defined in the same file. Every fit, statistic, split, cross-validation and
evaluation it meets is recorded as a fact (facts.py), and every time learned
information reaches rows that are later split or held out, a Contamination.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from . import libraries as lib
from .facts import Choice, Contamination, Evaluation, Facts, LearnEvent, Span, SplitEvent, saw_held_out
from .slices import positional_sides
from .specs import to_spec
from .values import (
    UNKNOWN,
    Data,
    Estimator,
    FoldIndex,
    Folds,
    Function,
    Instance,
    LocalClass,
    Ref,
    Rows,
    Seq,
    Side,
    TimeMark,
    Value,
    as_data,
    join,
    merge_data,
)

MAX_CALL_DEPTH = 4
STATEMENT_BUDGET = 200_000
ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.Mod)


class BudgetExceeded(Exception):
    """The file is too large to interpret with call inlining; stop inlining."""


class Scope:
    """Bindings of one module or function activation."""

    def __init__(self, parent: Optional["Scope"] = None):
        self.env: dict = {}
        self.parent = parent
        self.globals: set = set()
        self.returns: Optional[Value] = None

    def lookup(self, name: str) -> Optional[Value]:
        scope = self
        while scope is not None:
            if name in scope.env:
                return scope.env[name]
            scope = scope.parent
        return None


def span_of(node: ast.AST) -> Span:
    line = getattr(node, "lineno", 1)
    col = getattr(node, "col_offset", 0)
    return Span(line, col, getattr(node, "end_lineno", None) or line, getattr(node, "end_col_offset", None) or col)


def text_of(node: Optional[ast.AST]) -> str:
    if node is None:
        return "the data"
    try:
        text = ast.unparse(node)
    except Exception:  # malformed synthetic trees
        return "the data"
    return text if len(text) <= 40 else text[:37] + "..."


def _const_str(node) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _truthy_const(node) -> Optional[bool]:
    if isinstance(node, ast.Constant):
        return bool(node.value)
    return None


class Interpreter:
    def __init__(self, time_functions=frozenset()):
        self.facts = Facts()
        self.time_functions = frozenset(lib.lib_key(q) for q in time_functions)
        self._ids = 0
        self._unknown_roots: dict = {}
        self._stack: list = []
        self._inlined: set = set()
        self._budget = STATEMENT_BUDGET
        self._last_fitted = None
        self._module = None
        self._slices: dict = {}
        self._slice_splits: dict = {}
        self._heap: dict = {}
        self._loops = 0
        self._origins: dict = {}  # id(Seq) -> names a list display was built from
        self._last_call_scope = None
        self._dotted = False  # an attribute path ("self.model") was bound as a name

    # ------------------------------------------------------------------ entry
    def run_module(self, tree: ast.Module) -> Facts:
        module = Scope()
        self._module = module
        functions, slices = [], []
        for node in ast.walk(tree):  # one walk for both pre-scans
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.append(node)
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, (ast.Slice, ast.Tuple)):
                slices.append(node)
        self._slices = positional_sides(slices)
        self.exec_block(tree.body, module)
        # Functions never called from analysed code are analysed with unknown arguments.
        for func in functions:
            if id(func) not in self._inlined:
                self._call_function(Function(func, module, id(func)), [], {}, standalone=True)
        return self.facts

    def new_id(self) -> int:
        self._ids += 1
        return self._ids

    def fresh_rows(self) -> frozenset:
        return frozenset({Rows(self.new_id())})

    # ------------------------------------------------------------- statements
    def exec_block(self, body, scope: Scope) -> None:
        for stmt in body:
            self._budget -= 1
            if self._budget < 0 and self._stack:
                raise BudgetExceeded
            self.exec_stmt(stmt, scope)

    def exec_stmt(self, stmt, scope: Scope) -> None:
        method = getattr(self, "stmt_" + type(stmt).__name__, None)
        if method is not None:
            method(stmt, scope)
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self.ev(child, scope)

    def stmt_Expr(self, stmt, scope):
        self.ev(stmt.value, scope)

    def stmt_Assign(self, stmt, scope):
        value = self.ev(stmt.value, scope)
        for target in stmt.targets:
            self.assign(target, value, scope, stmt.value)

    def stmt_AnnAssign(self, stmt, scope):
        if stmt.value is not None:
            self.assign(stmt.target, self.ev(stmt.value, scope), scope, stmt.value)

    def stmt_AugAssign(self, stmt, scope):
        value = self.ev(stmt.value, scope)
        current = self.ev(stmt.target, scope)
        learned_from = value
        if not isinstance(stmt.op, ARITHMETIC):
            learned_from = self._drop_stats(as_data(value))
        self.assign(stmt.target, self.derive([current, learned_from], stmt), scope, stmt)

    def stmt_Import(self, stmt, scope):
        for alias in stmt.names:
            if alias.asname:
                self.bind(alias.asname, Ref(alias.name), scope)
            else:
                top = alias.name.split(".")[0]
                self.bind(top, Ref(top), scope)

    def stmt_ImportFrom(self, stmt, scope):
        module = ("." * stmt.level) + (stmt.module or "")
        for alias in stmt.names:
            if alias.name == "*":
                continue
            self.bind(alias.asname or alias.name, Ref(f"{module}.{alias.name}"), scope)

    def stmt_FunctionDef(self, stmt, scope):
        for deco in stmt.decorator_list:
            self.ev(deco, scope)
        self.bind(stmt.name, Function(stmt, scope, id(stmt)), scope)

    stmt_AsyncFunctionDef = stmt_FunctionDef

    def stmt_ClassDef(self, stmt, scope):
        self.bind(stmt.name, LocalClass(stmt, scope, id(stmt)), scope)

    def stmt_Return(self, stmt, scope):
        value = self.ev(stmt.value, scope) if stmt.value is not None else None
        scope.returns = join(scope.returns, value) if value is not None else scope.returns

    def stmt_Global(self, stmt, scope):
        scope.globals.update(stmt.names)

    stmt_Nonlocal = stmt_Global

    def stmt_Delete(self, stmt, scope):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                scope.env.pop(target.id, None)

    def stmt_If(self, stmt, scope):
        self.ev(stmt.test, scope)
        self._branches(scope, [stmt.body, stmt.orelse])

    def stmt_While(self, stmt, scope):
        self.ev(stmt.test, scope)
        self._loops += 1
        try:
            self._branches(scope, [stmt.body + stmt.orelse, []])
        finally:
            self._loops -= 1

    def stmt_For(self, stmt, scope):
        iterable = self.ev(stmt.iter, scope)
        before = dict(scope.env)
        self.assign(stmt.target, self.iterate(iterable), scope, stmt.iter)
        self._loops += 1
        try:
            self.exec_block(stmt.body, scope)
        finally:
            self._loops -= 1
        self.exec_block(stmt.orelse, scope)
        self._write_back(stmt.target, self._origins.get(id(iterable), ()), scope)
        self._join_into(scope, before)

    def _write_back(self, target, origins, scope) -> None:
        """``for df in [train, test]: df["Age"] = ...`` mutates both frames in place."""
        if not isinstance(target, ast.Name) or not origins:
            return
        final = scope.env.get(target.id)
        if not isinstance(final, Data):
            return
        for name in origins:
            current = scope.lookup(name)
            if isinstance(current, Data):
                merged = replace(current, learned=current.learned | final.learned, time=current.time or final.time)
                self.bind(name, merged, scope)

    stmt_AsyncFor = stmt_For

    def stmt_With(self, stmt, scope):
        for item in stmt.items:
            value = self.ev(item.context_expr, scope)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, value, scope, item.context_expr)
        self.exec_block(stmt.body, scope)

    stmt_AsyncWith = stmt_With

    def stmt_Try(self, stmt, scope):
        self.exec_block(stmt.body, scope)
        self._branches(scope, [h.body for h in stmt.handlers] + [stmt.orelse])
        self.exec_block(stmt.finalbody, scope)

    stmt_TryStar = stmt_Try

    def stmt_Match(self, stmt, scope):
        self.ev(stmt.subject, scope)
        self._branches(scope, [case.body for case in stmt.cases] + [[]])

    def _branches(self, scope, bodies) -> None:
        start = dict(scope.env)
        merged = None
        for body in bodies:
            scope.env = dict(start)
            self.exec_block(body, scope)
            merged = scope.env if merged is None else self._joined(merged, scope.env)
        scope.env = merged if merged is not None else start

    @staticmethod
    def _joined(a: dict, b: dict) -> dict:
        out = dict(a)
        for name, value in b.items():
            out[name] = join(out.get(name), value) if name in out else value
        return out

    def _join_into(self, scope, before) -> None:
        scope.env = self._joined(before, scope.env)

    # ------------------------------------------------------------ assignment
    def bind(self, name: str, value: Value, scope: Scope) -> None:
        if name in scope.globals and self._module is not scope:
            self._module.env[name] = value
        else:
            scope.env[name] = value

    def assign(self, target, value: Value, scope: Scope, source=None) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, value, scope)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self._unpack(target.elts, value, scope, source)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, as_data(value), scope, source)
        elif isinstance(target, ast.Subscript):
            self._assign_into(target.value, value, scope, target)
        elif isinstance(target, ast.Attribute):
            owner = self.ev(target.value, scope)
            path = self._path(target)
            if isinstance(owner, Instance):
                self._heap[(owner.key, target.attr)] = value
            elif isinstance(owner, Data) and owner.rows and isinstance(target.value, (ast.Name, ast.Attribute)):
                # df.index = pd.to_datetime(df.index): the frame now holds what was set
                self._assign_into(target.value, value, scope, None)
            elif path:
                scope.env[path] = value
                self._dotted = True

    def _unpack(self, targets, value, scope, source) -> None:
        if isinstance(value, Seq) and not any(isinstance(t, ast.Starred) for t in targets):
            items = list(value.items)
            if len(items) == len(targets):
                for target, item in zip(targets, items):
                    self.assign(target, item, scope, source)
                return
        if isinstance(value, Seq):
            whole = as_data(value)
            for target in targets:
                self.assign(target, whole, scope, source)
            return
        for target in targets:
            self.assign(target, value if isinstance(value, Data) else as_data(value), scope, source)

    def _assign_into(self, container, value, scope, target) -> None:
        """``df[c] = v`` / ``df.loc[m, c] = v``: the frame now holds what v holds."""
        while isinstance(container, ast.Subscript):
            container = container.value
        base_node = container
        if isinstance(base_node, ast.Attribute) and base_node.attr in ("loc", "iloc", "at", "iat"):
            base_node = base_node.value
        if target is not None:
            self.ev(target.slice, scope)
        if isinstance(base_node, (ast.Name, ast.Attribute)):
            current = self.ev(base_node, scope)
            if isinstance(current, Seq):
                self.assign(base_node, merge_data([current, value]), scope)
            elif isinstance(current, Data):
                incoming = as_data(value)
                merged = Data(
                    rows=current.rows,
                    learned=current.learned | incoming.learned,
                    time=current.time or incoming.time,
                    scores=current.scores | incoming.scores,
                )
                self._check_applied(merged.learned, current.rows)
                self.assign(base_node, merged, scope)

    def _path(self, node) -> Optional[str]:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            parts.append(node.id)
            return ".".join(reversed(parts))
        return None

    def iterate(self, value: Value) -> Value:
        """The value of a loop variable over ``value``."""
        if isinstance(value, Folds):
            return Seq((FoldIndex(Side("train", value.split)), FoldIndex(Side("test", value.split))))
        if isinstance(value, Seq):
            out = None
            for item in value.items:
                out = join(out, item)
            return out if out is not None else UNKNOWN
        if isinstance(value, _Enumerated):
            return Seq((UNKNOWN, self.iterate(value.inner)))
        if isinstance(value, _Items):
            return Seq((UNKNOWN, self.iterate(value.inner)))
        if isinstance(value, _Zipped):
            return Seq(tuple(self.iterate(v) for v in value.items))
        return as_data(value)

    # ------------------------------------------------------------ expressions
    def ev(self, node, scope: Scope) -> Value:
        if node is None:
            return UNKNOWN
        method = getattr(self, "ex_" + type(node).__name__, None)
        if method is not None:
            return method(node, scope)
        values = [self.ev(child, scope) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
        return merge_data(values)

    def ex_Constant(self, node, scope):
        return UNKNOWN

    def ex_Name(self, node, scope):
        value = scope.lookup(node.id)
        if value is not None:
            return value
        key = (id(self._module), node.id)
        if key not in self._unknown_roots:
            self._unknown_roots[key] = Data(rows=self.fresh_rows())
        return self._unknown_roots[key]

    def ex_Attribute(self, node, scope):
        if self._dotted:
            path = self._path(node)
            bound = scope.lookup(path) if path else None
            if bound is not None:
                return bound
        base = self.ev(node.value, scope)
        attr = node.attr
        if isinstance(base, Ref):
            return Ref(f"{base.qualname}.{attr}")
        if isinstance(base, Instance):
            return self._heap.get((base.key, attr), UNKNOWN)
        if isinstance(base, Estimator):
            return Data(learned=base.fits)
        if isinstance(base, Data):
            if base.grouped is not None:
                return replace(base, grouped=(attr,))
            if attr in lib.METADATA_ATTRIBUTES:
                return Data(learned=base.learned)
            if attr in lib.VIEW_ATTRIBUTES:
                return replace(base, indexer=attr in ("iloc", "loc", "at", "iat"))
            if base.rows:
                return replace(base, column=attr, indexer=False)
            return base
        return UNKNOWN

    def ex_Subscript(self, node, scope):
        base = self.ev(node.value, scope)
        key = self.ev(node.slice, scope)
        if isinstance(base, Seq):
            index = node.slice
            if isinstance(index, ast.Constant) and isinstance(index.value, int):
                try:
                    return base.items[index.value]
                except IndexError:
                    return UNKNOWN
            return self.iterate(base)
        if isinstance(base, Ref):
            return merge_data([key])
        if isinstance(base, Estimator):
            return Data(learned=base.fits)
        if isinstance(base, Folds):
            return self.iterate(base)
        if not isinstance(base, Data):
            return UNKNOWN
        if base.grouped is not None:
            return replace(base, grouped=(_const_str(node.slice),))
        fold = self._fold_key(key)
        if fold is None and id(node) in self._slices:
            fold = self._positional_side(node, base)
        if fold is not None:
            return Data(
                rows=frozenset(Rows(r.root, fold) for r in base.rows),
                learned=base.learned,
                time=base.time,
                column=base.column,
            )
        column = _const_str(node.slice)
        if column is not None and not base.rows:
            self._name_correlated_column(base, column)
        key_data = self._drop_stats(as_data(key))
        return Data(
            rows=base.rows,
            learned=base.learned | key_data.learned,
            time=base.time,
            column=column if column is not None else (base.column if base.indexer else None),
            scores=base.scores,
        )

    def _name_correlated_column(self, matrix: Data, column: str) -> None:
        for learn_id in matrix.learned:
            event = self.facts.learns[learn_id]
            if event.kind == "selection" and event.qualname == "corr" and event.column is None:
                event.column = column

    def _positional_side(self, node, base: Data) -> Side:
        """The side of a positional split (``X[:n]`` / ``X[n:]``) this slice selects."""
        bound, kind = self._slices[id(node)]
        split = self._slice_splits.get(bound)
        if split is None:
            split = self._new_split(
                "slice", f"[:{bound}] / [{bound}:]", node, base, node.value, False, None, {}
            )
            self._slice_splits[bound] = split
        elif not base.rows <= split.rows:
            split.rows = split.rows | base.rows
        self._split_inputs(split, [base])
        return Side(kind, split.id)

    @staticmethod
    def _fold_key(key) -> Optional[Side]:
        if isinstance(key, FoldIndex):
            return key.side
        if isinstance(key, Seq) and key.items and isinstance(key.items[0], FoldIndex):
            return key.items[0].side
        return None

    def _drop_stats(self, data: Data) -> Data:
        """Statistics used to filter or compare are not applied to the values."""
        kept = frozenset(i for i in data.learned if self.facts.learns[i].kind not in ("stat",))
        return replace(data, learned=kept) if kept != data.learned else data

    def ex_BinOp(self, node, scope):
        left = self.ev(node.left, scope)
        right = self.ev(node.right, scope)
        if not isinstance(node.op, ARITHMETIC):
            left, right = self._drop_stats(as_data(left)), self._drop_stats(as_data(right))
        return self.derive([left, right], node)

    def ex_Compare(self, node, scope):
        values = [self.ev(node.left, scope)] + [self.ev(c, scope) for c in node.comparators]
        operands = [node.left] + list(node.comparators)
        if not any(isinstance(o, ast.Constant) for o in operands) and isinstance(node.ops[0], lib.ORDERING):
            self._choice(values, node)
        return self.derive([self._drop_stats(as_data(v)) for v in values], node)

    def _choice(self, values, node) -> None:
        """Scores (not per-row predictions) ordered to pick a winner."""
        merged = merge_data(values)
        if merged.scores and not merged.rows:
            self.facts.choices.append(Choice(span_of(node), merged.scores))

    def ex_BoolOp(self, node, scope):
        return merge_data([self.ev(v, scope) for v in node.values])

    def ex_UnaryOp(self, node, scope):
        return self.ev(node.operand, scope)

    def ex_IfExp(self, node, scope):
        self.ev(node.test, scope)
        return join(self.ev(node.body, scope), self.ev(node.orelse, scope))

    def ex_NamedExpr(self, node, scope):
        value = self.ev(node.value, scope)
        self.assign(node.target, value, scope)
        return value

    def ex_Tuple(self, node, scope):
        seq = Seq(tuple(self.ev(elt, scope) for elt in node.elts))
        if node.elts and all(isinstance(elt, ast.Name) for elt in node.elts):
            self._origins[id(seq)] = tuple(elt.id for elt in node.elts)
        return seq

    ex_List = ex_Tuple
    ex_Set = ex_Tuple

    def ex_Starred(self, node, scope):
        return self.ev(node.value, scope)

    def ex_Dict(self, node, scope):
        return Seq(tuple(self.ev(v, scope) for v in node.values))

    def ex_Lambda(self, node, scope):
        return UNKNOWN

    def _comprehension(self, node, scope, elts):
        inner = Scope(scope)
        inner.globals = scope.globals
        for gen in node.generators:
            self.assign(gen.target, self.iterate(self.ev(gen.iter, inner)), inner)
            for cond in gen.ifs:
                self.ev(cond, inner)
        self._loops += 1
        try:
            return merge_data([self.ev(elt, inner) for elt in elts])
        finally:
            self._loops -= 1

    def ex_ListComp(self, node, scope):
        return self._comprehension(node, scope, [node.elt])

    ex_SetComp = ex_ListComp
    ex_GeneratorExp = ex_ListComp

    def ex_DictComp(self, node, scope):
        return self._comprehension(node, scope, [node.key, node.value])

    def ex_Await(self, node, scope):
        return self.ev(node.value, scope)

    ex_Yield = ex_Await
    ex_YieldFrom = ex_Await

    def ex_JoinedStr(self, node, scope):
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                self.ev(part.value, scope)
        return UNKNOWN

    # ----------------------------------------------------------------- calls
    def ex_Call(self, node, scope):
        func = node.func
        if isinstance(func, ast.Attribute):
            receiver = self.ev(func.value, scope)
            if isinstance(receiver, Ref):
                return self.library_call(f"{receiver.qualname}.{func.attr}", node, scope)
            args, kwargs = self._arguments(node, scope)
            if isinstance(receiver, Instance):
                return self._call_method(receiver, func.attr, args, kwargs)
            result = self.method_call(receiver, func.attr, args, kwargs, node, scope)
            if isinstance(receiver, Estimator) and func.attr in lib.FIT_METHODS:
                self._rebind(func.value, self._last_fitted, scope)
            elif isinstance(receiver, Data) and self._is_inplace(func.attr, node):
                if isinstance(func.value, ast.Subscript):
                    self._assign_into(func.value.value, result, scope, func.value)
                else:
                    self._rebind(func.value, result, scope)
            elif isinstance(receiver, (Seq, Data)) and func.attr in lib.COLLECTING_METHODS:
                self._rebind(func.value, merge_data([receiver] + args), scope)
            return result
        callee = self.ev(func, scope)
        if isinstance(callee, Ref):
            return self.library_call(callee.qualname, node, scope)
        args, kwargs = self._arguments(node, scope)
        if isinstance(callee, Function):
            self._last_call_scope = None
            result = self._call_function(callee, args, kwargs)
            self._write_back_estimators(callee, node, scope)
            return result
        if isinstance(callee, LocalClass):
            instance = Instance(callee, self.new_id())
            self._call_method(instance, "__init__", args, kwargs)
            return instance
        if isinstance(func, ast.Name) and func.id in lib.CHOOSING_BUILTINS:
            self._choice(args + list(kwargs.values()), node)
        if isinstance(func, ast.Name) and func.id in ("enumerate", "zip", "iter", "list", "tuple", "next", "sorted", "reversed"):
            return self._builtin(func.id, args)
        return merge_data(args + list(kwargs.values()))

    def _builtin(self, name, args):
        if not args:
            return UNKNOWN
        if name == "enumerate":
            return _Enumerated(args[0])
        if name == "zip":
            return _Zipped(tuple(args))
        if name == "next" and isinstance(args[0], Folds):
            return self.iterate(args[0])
        if isinstance(args[0], (Folds, Seq)):
            return args[0]
        return as_data(args[0])

    @staticmethod
    def _is_inplace(method, node) -> bool:
        if method not in lib.INPLACE_METHODS:
            return False
        return any(k.arg == "inplace" and _truthy_const(k.value) for k in node.keywords)

    def _rebind(self, target, value, scope) -> None:
        if isinstance(target, (ast.Name, ast.Attribute)) and value is not None:
            if isinstance(target, ast.Name) or self._path(target):
                self.assign(target, value, scope)

    def _arguments(self, node, scope):
        args = [self.ev(a, scope) for a in node.args]
        kwargs = {}
        for kw in node.keywords:
            value = self.ev(kw.value, scope)
            kwargs[kw.arg or "**"] = value
        return args, kwargs

    # -------------------------------------------------------- local functions
    def _call_method(self, instance: Instance, name: str, args, kwargs) -> Value:
        method = self._find_method(instance.cls, name, depth=0)
        if method is None:
            return merge_data(args + list(kwargs.values()))
        return self._call_function(Function(method, instance.cls.scope, id(method)), [instance] + args, kwargs)

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
        if func.key in self._stack or len(self._stack) >= MAX_CALL_DEPTH:
            return merge_data(args + list(kwargs.values()))
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
                value = self.ev(default, func.scope)
            else:
                value = Data(rows=self.fresh_rows())
            scope.env[param.arg] = value
        for param, default in zip(params.kwonlyargs, params.kw_defaults):
            if param.arg in kwargs:
                scope.env[param.arg] = kwargs[param.arg]
            elif default is not None and not standalone:
                scope.env[param.arg] = self.ev(default, func.scope)
            else:
                scope.env[param.arg] = Data(rows=self.fresh_rows())
        if params.vararg is not None:
            scope.env[params.vararg.arg] = Seq(tuple(args[len(positional):]))
        if params.kwarg is not None:
            scope.env[params.kwarg.arg] = merge_data(list(kwargs.values()))
        self._stack.append(func.key)
        try:
            self.exec_block(node.body, scope)
        except BudgetExceeded:
            if len(self._stack) > 1:
                raise
        finally:
            self._stack.pop()
        self._last_call_scope = scope
        return scope.returns if scope.returns is not None else UNKNOWN

    def _write_back_estimators(self, func: Function, node: ast.Call, scope) -> None:
        """``def train(model, X, y): model.fit(X, y)`` fits the caller's object."""
        params = list(func.node.args.posonlyargs) + list(func.node.args.args)
        inner = self._last_call_scope
        for param, arg in zip(params, node.args):
            after = inner.env.get(param.arg) if inner is not None else None
            before = scope.lookup(arg.id) if isinstance(arg, ast.Name) else None
            if isinstance(before, Estimator) and isinstance(after, Estimator) and after.fits != before.fits:
                self.bind(arg.id, after, scope)

    # ------------------------------------------------------- library calls
    def library_call(self, qualname: str, node: ast.Call, scope) -> Value:
        key = lib.lib_key(qualname)
        args, kwargs = self._arguments(node, scope)
        root, name = key
        if key in lib.SPLIT_FUNCTIONS:
            return self._train_test_split(qualname, node, args, kwargs)
        if key in lib.CV_FUNCTIONS:
            return self._cross_validation(qualname, node, args, kwargs, scope)
        if key in lib.LEARNING_FUNCTIONS:
            return self._learning_function(qualname, lib.LEARNING_FUNCTIONS[key], node, args, kwargs)
        if key in lib.TIME_FUNCTIONS or key in self.time_functions:
            reason = lib.TIME_FUNCTIONS.get(key, f"time-ordered data from {name}()")
            data = merge_data(args + list(kwargs.values()))
            if not data.rows:
                data = replace(data, rows=self.fresh_rows())
            return replace(data, time=TimeMark(node.lineno, reason))
        if root == "numpy" and name in lib.CHOOSING_FUNCTIONS:
            self._choice(args, node)
        if root == "numpy" and name in lib.NUMPY_STATS and args:
            return self._statistic(name, args[0], node, axis_position=1)
        if key in lib.STANDARDIZING_FUNCTIONS and args:
            stat = self._statistic(name, args[0], node, axis_position=1)
            return self.derive([args[0], stat], node)
        if root == "pandas" and name.startswith(lib.READER_PREFIX):
            return self._read(node, name)
        if key in lib.PIPELINES:
            return self._pipeline(qualname, node, args, kwargs)
        if key in lib.DATA_CLASSES and "label" in kwargs:
            self._note_labels(kwargs["label"])  # xgb.DMatrix(X, label=y): y is the label
        if root == "sklearn" and ".metrics" in qualname:
            scores = merge_data(args + list(kwargs.values())).scores
            if self._loops:
                self.facts.looped_scores |= scores
            return Data(scores=scores)
        if name[:1].isupper() and root not in lib.DATA_PACKAGES and key not in lib.DATA_CLASSES:
            return self._construct(qualname, node, args, kwargs, scope)
        data = merge_data(args + list(kwargs.values()))
        if not data.rows and not data.learned and not data.time:
            return Data(rows=self.fresh_rows())
        return self.derive([data], node)

    def _read(self, node, name) -> Data:
        time = None
        for kw in node.keywords:
            if kw.arg == "parse_dates" and not (isinstance(kw.value, ast.Constant) and not kw.value.value):
                time = TimeMark(node.lineno, f"dates parsed by pd.{name}(parse_dates=...)")
        return Data(rows=self.fresh_rows(), time=time)

    def _resolve(self, scope):
        def resolve(expr) -> Optional[str]:
            value = self.ev(expr, scope) if isinstance(expr, (ast.Name, ast.Attribute)) else None
            return value.qualname if isinstance(value, Ref) else None

        return resolve

    def _construct(self, qualname, node, args, kwargs, scope) -> Estimator:
        key = lib.lib_key(qualname)
        spec = to_spec(node, self._resolve(scope)) if node is not None else None
        shuffled = None
        if key in lib.ALWAYS_SHUFFLED_SPLITTERS:
            shuffled = True
        elif key in lib.OPTIONALLY_SHUFFLED_SPLITTERS:
            shuffled = self._shuffle_flag(node, position=1, default=False)
        elif key in lib.ORDERED_SPLITTERS:
            shuffled = False
        inner = args[0] if args else kwargs.get("estimator")
        cv = kwargs.get("cv")
        steps = ()
        if isinstance(inner, Estimator):
            steps = (inner.qualname,) + inner.steps
        return Estimator(qualname, node, steps=steps, spec=spec, shuffled=shuffled, inner=inner, cv=cv)

    @staticmethod
    def _shuffle_flag(node, position, default) -> Optional[bool]:
        for kw in node.keywords:
            if kw.arg == "shuffle":
                flag = _truthy_const(kw.value)
                return True if flag is None else flag
        if len(node.args) > position:
            flag = _truthy_const(node.args[position])
            return True if flag is None else flag
        return default

    def _pipeline(self, qualname, node, args, kwargs) -> Estimator:
        steps = []
        for value in list(args) + [kwargs.get("steps"), kwargs.get("transformers")]:
            steps.extend(_step_names(value))
        return Estimator(qualname, node, steps=tuple(steps), spec=None)

    # ------------------------------------------------------ learned things
    def _learn(self, kind, qualname, node, data: Data, data_node, **extra) -> LearnEvent:
        event = LearnEvent(
            id=self.new_id(),
            kind=kind,
            qualname=qualname,
            span=span_of(node),
            rows=data.rows,
            data=text_of(data_node),
            **extra,
        )
        self.facts.learns[event.id] = event
        return event

    def _statistic(self, name, value, node, axis_position=None) -> Data:
        data = as_data(value)
        if not data.rows or data.grouped is not None or _row_wise(node, axis_position):
            return replace(data, column=None, indexer=False)
        data_node = node.args[0] if node.args else getattr(node.func, "value", None)
        event = self._learn("stat", name, node, data, data_node, column=data.column)
        return Data(learned=data.learned | {event.id})

    def _learning_function(self, qualname, kind, node, args, kwargs) -> Value:
        data = as_data(args[0]) if args else UNKNOWN
        if kind == "resample" and not _keyword_true(node, "replace"):
            return self.derive(args, node)
        if not data.rows:
            return self.derive(args, node)
        labels = as_data(args[1]).column if len(args) > 1 else None
        event = self._learn(
            kind, qualname, node, data, node.args[0] if node.args else None,
            method=lib.lib_key(qualname)[1], has_labels=len(args) > 1, column=labels,
        )
        if kind == "selection":
            # per-feature scores: they choose columns, they are not rows
            return Data(learned=merge_data(args).learned | {event.id})
        out = [replace(as_data(a), learned=as_data(a).learned | {event.id}) for a in args]
        return out[0] if len(out) == 1 else Seq(tuple(out))

    def fit(self, est: Estimator, method, args, kwargs, node) -> tuple:
        x_val = args[0] if args else kwargs.get("X", kwargs.get("raw_documents", UNKNOWN))
        y_val = args[1] if len(args) > 1 else kwargs.get("y")
        x_node = node.args[0] if node.args else _keyword_node(node, "X")
        data = as_data(x_val)
        procedure = {"step": est.spec, "fit_method": method}
        event = self._learn(
            "fit",
            est.qualname,
            node,
            data,
            x_node,
            method=method,
            steps=est.steps,
            has_labels=y_val is not None,
            procedure=procedure,
        )
        if y_val is not None:
            self._note_labels(y_val)
        self._check_applied(data.learned, data.rows)
        if "validation_split" in kwargs and data.rows:
            # Keras holds out the last fraction of the rows it is given for validation
            split = self._new_split("split", "validation_split", node, data, x_node, False, None, {})
            self._split_inputs(split, [x_val, y_val])
        return event, data, as_data(y_val) if y_val is not None else None

    def _note_labels(self, y_val) -> None:
        column = as_data(y_val).column
        if column:
            self.facts.label_columns.add(column)

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
            return _Items(receiver)
        if isinstance(receiver, Seq) and method in ("values", "copy"):
            return receiver
        return merge_data([receiver] + args + list(kwargs.values()))

    def _estimator_method(self, est: Estimator, method, args, kwargs, node, scope) -> Value:
        if method == "split" and est.shuffled is not None:
            return self._folds(est, args, kwargs, node)
        if method in lib.FIT_METHODS:
            event, data, y_data = self.fit(est, method, args, kwargs, node)
            fitted = replace(est, fits=frozenset({event.id}))
            self._last_fitted = fitted
            if lib.lib_key(est.qualname) in lib.SEARCH_CLASSES:
                self._search(est, data, y_data, node, scope)
            if method == "fit":
                return fitted
            if method in lib.RESAMPLE_METHODS:
                outs = [Data(rows=a.rows, learned=a.learned | {event.id}, time=a.time) for a in map(as_data, args[:2])]
                return Seq(tuple(outs))
            return Data(rows=data.rows, learned=data.learned | {event.id}, time=data.time)
        if method in lib.PREDICT_METHODS or method in lib.APPLY_METHODS or method in lib.SCORE_METHODS:
            data = as_data(args[0]) if args else as_data(kwargs.get("X"))
            scores = frozenset()
            if method in lib.PREDICT_METHODS or method in lib.SCORE_METHODS:
                evaluation = Evaluation(
                    self.new_id(), span_of(node), est.fits, data.rows,
                    text_of(node.args[0] if node.args else None), in_loop=self._loops > 0,
                )
                self.facts.evaluations.append(evaluation)
                scores = frozenset({evaluation.id})
            if method in lib.SCORE_METHODS:
                return Data(scores=scores)
            learned = data.learned | est.fits
            if method in lib.PREDICT_METHODS and any(r.side is not None for r in data.rows):
                # Predictions on a side of a split are scored there (an Evaluation,
                # which LL302 judges); they are not a fitted step applied to that side.
                learned = data.learned
            self._check_applied(learned, data.rows)
            return Data(rows=data.rows, learned=learned, time=data.time, scores=scores)
        if method in ("set_params", "set_output"):
            return est
        data = merge_data(args)
        return replace(data, learned=data.learned | est.fits)

    def _data_method(self, data: Data, method, args, kwargs, node, scope) -> Value:
        if method in lib.CHOOSING_METHODS:
            self._choice([data], node)
        if data.grouped is not None:
            return self._group_method(data, method, args, node, scope)
        if method == "groupby":
            return replace(data, grouped=(None,), column=None)
        if data.window:
            return replace(data, window=False)
        if method in lib.FRAME_STATS and data.rows:
            return self._statistic(method, data, node, axis_position=0)
        if method in lib.TIME_METHODS:
            derived = self.derive([data] + args, node)
            time = derived.time or TimeMark(node.lineno, lib.TIME_METHODS[method])
            return replace(derived, time=time, window=method in lib.WINDOW_METHODS)
        lambdas = [a for a in list(node.args) + [k.value for k in node.keywords] if isinstance(a, ast.Lambda)]
        if lambdas and data.rows:
            results = [self._lambda(func, replace(data, indexer=False), scope) for func in lambdas]
            return self.derive([data] + results + args, node)
        if method in ("corr", "corrwith") and data.rows:
            return self._correlation(data, method, args, node)
        if method == "sample" and _keyword_fraction(node) and data.rows and not _keyword_true(node, "replace"):
            split = self._new_split("split", "sample", node, data, node.func.value, True, span_of(node), {})
            self._split_inputs(split, [data])
            return replace(data, rows=frozenset(Rows(r.root, Side("train", split.id)) for r in data.rows), indexer=False)
        if method == "drop" and data.rows:
            complement = self._complement(data, args)
            if complement is not None:
                return complement
        if method == "sample" and _keyword_true(node, "replace") and data.rows:
            event = self._learn("resample", "sample", node, data, node.func.value, method="sample")
            return Data(rows=data.rows, learned=data.learned | {event.id}, time=data.time)
        if method == "pop" and args:
            return replace(data, column=_const_str(node.args[0]) if node.args else None, indexer=False)
        if method in lib.VIEW_METHODS:
            return replace(data, indexer=False)
        return self.derive([data] + args + list(kwargs.values()), node)

    def _complement(self, data: Data, args) -> Optional[Data]:
        """``df.drop(train.index)`` after ``train = df.sample(frac=0.8)``: the held-out side."""
        for arg in args:
            for row in as_data(arg).rows:
                split = self.facts.splits.get(row.side.split) if row.side is not None else None
                if split is not None and split.qualname == "sample" and row.side.kind == "train":
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
        rows = data.rows if method == "transform" else frozenset()
        func = node.args[0] if node.args else None
        if isinstance(func, ast.Lambda) and data.rows and not _lambda_is_aggregate(func):
            result = as_data(self._lambda(func, replace(base, column=data.grouped[0]), scope))
            return replace(result, rows=rows, time=data.time or result.time)
        columns = [data.grouped[0]] if data.grouped[0] is not None else _aggregated_columns(node)
        if method not in lib.GROUP_AGGREGATES or not columns or not data.rows or not _aggregates_values(node):
            return replace(base, rows=rows)
        learned = data.learned
        for column in columns:
            event = self._learn("group-stat", method, node, data, _groupby_root(node), column=column)
            learned = learned | {event.id}
        return Data(rows=rows, learned=learned, time=data.time)

    def _lambda(self, func: ast.Lambda, argument: Value, scope) -> Value:
        inner = Scope(scope)
        inner.globals = scope.globals
        params = list(func.args.posonlyargs) + list(func.args.args)
        for index, param in enumerate(params):
            inner.env[param.arg] = argument if index == 0 else UNKNOWN
        return self.ev(func.body, inner)

    # ------------------------------------------------------- derived data
    def derive(self, inputs, node) -> Data:
        data = merge_data(inputs)
        self._check_applied(data.learned, data.rows)
        return data

    def _check_applied(self, learned, rows) -> None:
        """Learned information applied to a side of a split it had already seen."""
        if not learned:
            return
        if rows:
            for learn_id in learned:
                self.facts.learns[learn_id].applied = True
        sides = {r.side.split for r in rows if r.side is not None}
        for split_id in sides:
            split = self.facts.splits.get(split_id)
            if split is None:
                continue
            for learn_id in learned:
                if saw_held_out(self.facts.learns[learn_id].rows, split):
                    self._contaminate(learn_id, split_id, "applied")

    def _contaminate(self, learn_id, split_id, via) -> None:
        fact = Contamination(learn_id, split_id, via)
        seen = self.__dict__.setdefault("_contaminated", set())  # the list test was quadratic
        if fact not in seen:
            seen.add(fact)
            self.facts.contaminations.append(fact)

    # ------------------------------------------------------------ splits
    def _new_split(self, kind, qualname, node, data: Data, data_node, shuffled, shuffle_span, procedure, labels=None):
        split = SplitEvent(
            id=self.new_id(),
            kind=kind,
            qualname=qualname,
            span=span_of(node),
            rows=data.rows,
            data=text_of(data_node),
            shuffled=shuffled,
            shuffle_span=shuffle_span,
            time=data.time,
            labels=labels,
            procedure=procedure,
        )
        self.facts.splits[split.id] = split
        return split

    def _split_inputs(self, split, values) -> None:
        for value in values:
            data = as_data(value)
            for learn_id in data.learned:
                learned_rows = self.facts.learns[learn_id].rows
                if saw_held_out(learned_rows, split):
                    self._contaminate(learn_id, split.id, "output")
                elif data.rows and learned_rows and data.rows <= learned_rows and _training_side(learned_rows):
                    # learned from the training side, which is now split again (a CV of X_train)
                    self._contaminate(learn_id, split.id, "resplit")

    def _train_test_split(self, qualname, node, args, kwargs) -> Value:
        arrays = [a for a, n in zip(args, node.args) if not isinstance(n, ast.Starred)]
        data = merge_data(arrays)
        shuffled = self._shuffle_flag(node, position=10**6, default=True)
        labels = as_data(arrays[1]).column if len(arrays) > 1 else None
        if labels:
            self.facts.label_columns.add(labels)
        spec = to_spec(node, lambda expr: None)
        procedure = {"split": _strip_args(spec)}
        split = self._new_split(
            "split", qualname, node, data, node.args[0] if node.args else None, shuffled, span_of(node), procedure, labels
        )
        self._split_inputs(split, arrays)
        outs = []
        for array in arrays:
            part = as_data(array)
            for side in ("train", "test"):
                outs.append(
                    Data(
                        rows=frozenset(Rows(r.root, Side(side, split.id)) for r in part.rows),
                        learned=part.learned,
                        time=part.time,
                        column=part.column,
                    )
                )
        return Seq(tuple(outs))

    def _cv_setting(self, cv_value, cv_node):
        if isinstance(cv_value, Estimator) and cv_value.shuffled is not None:
            return cv_value.shuffled, span_of(cv_value.node), cv_value.spec
        if cv_node is not None and isinstance(cv_node, ast.Constant):
            return False, None, cv_node.value
        return False, None, None

    def _cross_validation(self, qualname, node, args, kwargs, scope) -> Value:
        est_at, x_at, y_at = lib.CV_FUNCTIONS[lib.lib_key(qualname)]
        x_name = "X" if est_at is not None else ("dtrain" if lib.lib_key(qualname)[0] == "xgboost" else "train_set")
        est = args[est_at] if est_at is not None and len(args) > est_at else kwargs.get("estimator")
        x_val = args[x_at] if len(args) > x_at else kwargs.get(x_name)
        y_val = args[y_at] if y_at is not None and len(args) > y_at else kwargs.get("y")
        x_node = node.args[x_at] if len(node.args) > x_at else _keyword_node(node, x_name)
        cv_node = _keyword_node(node, "cv")
        shuffled, shuffle_span, cv_spec = self._cv_setting(kwargs.get("cv"), cv_node)
        procedure = {
            "model": est.spec if isinstance(est, Estimator) and not est.steps else None,
            "cv": cv_spec,
            "scoring": to_spec(_keyword_node(node, "scoring"), self._resolve(scope)) if _keyword_node(node, "scoring") else None,
        }
        labels = as_data(y_val).column if y_val is not None else None
        if labels:
            self.facts.label_columns.add(labels)
        data = merge_data([x_val, y_val])
        split = self._new_split("cv", qualname, node, data, x_node, shuffled, shuffle_span, procedure, labels)
        self._split_inputs(split, [x_val, y_val])
        return Data(learned=as_data(x_val).learned)

    def _search(self, est: Estimator, data: Data, y_data, node, scope) -> None:
        shuffled, shuffle_span, cv_spec = self._cv_setting(est.cv, _keyword_node(est.node, "cv"))
        inner = est.inner
        procedure = {
            "model": inner.spec if isinstance(inner, Estimator) and not inner.steps else None,
            "cv": cv_spec,
            "scoring": est.spec.kwarg("scoring") if est.spec is not None and hasattr(est.spec, "kwarg") else None,
        }
        labels = y_data.column if y_data is not None else None
        whole = merge_data([data, y_data])
        x_node = node.args[0] if node.args else None
        split = self._new_split("cv", est.qualname, node, whole, x_node, shuffled, shuffle_span, procedure, labels)
        self._split_inputs(split, [data, y_data])

    def _folds(self, splitter: Estimator, args, kwargs, node) -> Folds:
        x_val = args[0] if args else kwargs.get("X", UNKNOWN)
        data = merge_data(args[:2])
        split = self._new_split(
            "folds",
            splitter.qualname,
            node,
            data,
            node.args[0] if node.args else None,
            splitter.shuffled,
            span_of(splitter.node) if splitter.node is not None else None,
            {"cv": splitter.spec},
        )
        self._split_inputs(split, [x_val] + list(args[1:2]))
        if len(args) > 1:
            self._note_labels(args[1])
        return Folds(split.id)


class _Enumerated(Value):
    def __init__(self, inner):
        self.inner = inner


class _Items(Value):
    def __init__(self, inner):
        self.inner = inner


class _Zipped(Value):
    def __init__(self, items):
        self.items = items


def _keyword_node(node, name):
    if node is None:
        return None
    for kw in node.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _keyword_fraction(node) -> bool:
    """``sample(frac=0.8)``: a fraction of the rows, not all of them (a shuffle)."""
    value = _keyword_node(node, "frac")
    return isinstance(value, ast.Constant) and isinstance(value.value, float) and 0 < value.value < 1


def _keyword_true(node, name) -> bool:
    value = _keyword_node(node, name)
    return value is not None and _truthy_const(value) is True


def _training_side(rows) -> bool:
    return all(r.side is not None and not r.side.held_out for r in rows)


def _row_wise(node, axis_position) -> bool:
    """``X.mean(axis=1)``: one statistic per row, from that row's own values."""
    axis = _keyword_node(node, "axis")
    if axis is None and axis_position is not None and len(node.args) > axis_position:
        axis = node.args[axis_position]
    return isinstance(axis, ast.Constant) and axis.value in (1, "columns", -1)


def _lambda_is_aggregate(func: ast.Lambda) -> bool:
    """``lambda x: x.mean()``: the lambda is the aggregate itself."""
    body = func.body
    return (
        isinstance(body, ast.Call)
        and isinstance(body.func, ast.Attribute)
        and body.func.attr in lib.FRAME_STATS
        and isinstance(body.func.value, ast.Name)
    )


_VALUE_AGGREGATES = {"mean", "median", "sum", "std", "var", "min", "max"}


def _aggregates_values(node) -> bool:
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


def _aggregated_columns(node) -> list:
    """Columns named in ``.agg({"target": "mean"})`` or ``.agg(m=("target", "mean"))``."""
    columns = []
    for arg in node.args:
        if isinstance(arg, ast.Dict):
            columns.extend(k.value for k in arg.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
    for kw in node.keywords:
        if isinstance(kw.value, ast.Tuple) and kw.value.elts and isinstance(kw.value.elts[0], ast.Constant):
            columns.append(kw.value.elts[0].value)
    return [c for c in columns if isinstance(c, str)]


def _groupby_root(node):
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


def _step_names(value) -> list:
    if isinstance(value, Estimator):
        return [value.qualname, *value.steps]
    if isinstance(value, Seq):
        names = []
        for item in value.items:
            names.extend(_step_names(item))
        return names
    return []


def _strip_args(spec):
    """Keep a split's settings (test_size, shuffle, ...) but not the data it split."""
    if hasattr(spec, "kwargs"):
        return type(spec)(spec.qualname, (), tuple((k, v) for k, v in spec.kwargs if k != "stratify"))
    return None


def analyze(tree: ast.Module, time_functions=frozenset()) -> Facts:
    return Interpreter(time_functions).run_module(tree)
