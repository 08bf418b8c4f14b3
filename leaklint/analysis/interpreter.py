"""The shared dataflow pass: an abstract interpreter over the stdlib ``ast``.

It walks statements in order, binding names to abstract values (values.py), resolving
library names through the file's imports, merging branches, and inlining calls of
functions defined in the same file. Every fit, statistic, split, cross-validation and
evaluation it meets is recorded as a fact (facts.py), and every time learned
information reaches rows that are later split or held out, a Contamination.
"""
from __future__ import annotations

import ast
import functools
import operator
import os
import re
from dataclasses import replace
from typing import Optional

from . import known_names, project
from . import libraries as lib
from .calls import BUILTIN_NAMES, CallsMixin, with_literal
from .facts import Facts, KeptBest
from .reach import settle
from .recording import RecordingMixin
from .scope import STATEMENT_BUDGET, BudgetExceeded, Scope
from .masks import pair_masks
from .slices import named_side, pair_slices, row_slice, side_part
from .specs import Mapping, Opaque, literal_of, opaque_text
from .syntax import (bound_names, const_str, counts_codes, entity_column, reads_files, running_best, single_bindings,
                     span_of, statements, tuning_objective)
from .values import (
    UNKNOWN,
    Data,
    Enumerated,
    Estimator,
    Factory,
    FoldIndex,
    Folds,
    Function,
    Imported,
    Instance,
    Items,
    LocalClass,
    ModuleRef,
    Ref,
    Rows,
    Seq,
    Side,
    Value,
    Zipped,
    as_data,
    indexed_sides,
    join,
    merge_data,
    select_columns,
    set_column,
    texts_of,
)

ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.Mod)


class Interpreter(CallsMixin, RecordingMixin):
    def __init__(self, time_functions=frozenset(), path: Optional[str] = None):
        self.facts = Facts()
        self._file = os.path.abspath(path) if path else None  # for the project's own imports
        self._modules: dict = {}  # project module path -> its Scope (None: loading, or unreadable)
        self._modules_in: list = []  # the module of each function call under way (None: this file)
        self._hops = 0  # changes of module along those calls
        self.time_functions = frozenset(lib.lib_key(q) for q in time_functions)
        self._ids = 0
        self._unknown_roots: dict = {}
        self._tree: Optional[ast.Module] = None
        self._binds: Optional[frozenset] = None  # names the module binds somewhere
        self._bound_once: Optional[dict] = None  # names the module binds once, to their values
        self._stack: list = []
        self._frame_starts: list = []  # the last id given when each function on the stack was entered
        self._inlined: set = set()
        self._budget = STATEMENT_BUDGET
        self._last_fitted = None
        self._module = None
        self._slices: dict = {}
        self._slice_splits: dict = {}
        self._masks: dict = {}
        self._heap: dict = {}
        self._loops = 0
        self._origins: dict = {}  # id(Seq) -> names a list display was built from
        self._last_call_scope = None
        self._dotted = False  # an attribute path ("self.model") was bound as a name
        self._defined: list = []  # (FunctionDef, defining scope) in the order met
        self._logged: frozenset = frozenset()  # scores logged to an experiment tracker
        self._inspected: list = []  # ids of supervised selections whose scores were read
        self._chosen_by: frozenset = frozenset()  # selections the enclosing ``if`` tests
        self._sites: list = []  # (Span, text of the rows handed or None) of calls of the file's own code under way
        self._searches: dict = {}  # LearnEvent id of a search's fit -> Span where the search was built
        self._reads: dict = {}  # id(For) -> its body lists or reads files
        self._reading_loops: list = []  # the loops under way whose body lists or reads files
        self._loop_nodes: list = []  # the loops under way, innermost last
        self._loop_starts: list = []  # the last id given before each of them began
        self._called = None  # names the file calls (set on first need)
        self._saved: dict = {}  # the text of a path -> what the code saved there (joblib.dump, np.savez)
        self._checkpointed: list = []  # EarlyStops of fits that saved their best epoch to a file not yet reloaded
        self._standalone = False  # analysing a function no code of the file calls
        self._standalone_from = 0  # the last id given before that analysis began
        self._parameter_roots = set()  # roots of such a function's parameters
        self._objective = 0  # inside a tuning objective (one trial of a study)
        self._free_roots = {}  # name -> the rows a name read before any binding of it was given

    # ------------------------------------------------------------------ entry
    def run_module(self, tree: ast.Module, head_slices: bool = True, complete: bool = True,
                   unread_names: frozenset = frozenset()) -> Facts:
        """``head_slices``: the source may hold ``X[:n]``; only then are slices paired
        into positional splits (the pre-scan walks the whole tree). ``complete``: no line
        of the source was left out of ``tree``; ``unread_names``: the identifiers on the
        lines that were."""
        self.facts.unread_names = unread_names
        self._tree, self._binds, self._bound_once = tree, None, None  # (read when first needed)
        module = Scope()
        self._module = module
        if head_slices:
            self._slices = pair_slices(tree)
        self._masks = pair_masks(tree)
        self.exec_block(tree.body, module)
        # names read before the module binds them (a cell run before the one binding them)
        self.facts.early_roots = {root for name, roots in self._free_roots.items() if name in module.env
                                  for root in roots}
        for value in module.env.values():  # (another module may import these names)
            self.facts.kept_sides |= _split_sides(value)
            if isinstance(value, Data) and value.split_labels:
                self.facts.kept_label_sides |= _split_sides(value)
        # Functions never called from analysed code are analysed with unknown arguments;
        # analysing one may define more (nested functions), so the list grows as it goes.
        # callers first: a helper the others call is analysed within them (its finding is
        # reported once, at the outermost call), alone only when no analysed call reached it
        # (only the functions no analysed call reached are walked: the others' callees were
        # reached through them)
        unreached = [func for func, _ in self._defined if id(func) not in self._inlined]
        if len(unreached) > 1:
            callees = {n.func.id for func in unreached for n in ast.walk(func)
                       if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id != func.name}
            self._defined.sort(key=lambda entry: entry[0].name in callees)
        done = set()
        index = 0
        referenced = None
        while index < len(self._defined):
            func, scope = self._defined[index]
            index += 1
            if id(func) not in self._inlined and id(func) not in done:
                done.add(id(func))
                if referenced is None:
                    referenced = _referenced_names(tree) if self._runs_as_script(tree) else False
                if referenced is not False and func.name not in referenced:
                    continue  # a script's or notebook's function that nothing names: dead code
                # analysed alone, a function's result is its caller's business (nothing in
                # this file reports it); an optuna-style objective scores one trial
                self._standalone, self._standalone_from = True, self._ids
                self._objective += tuning_objective(func)
                try:
                    self._call_function(Function(func, scope, id(func)), [], {}, standalone=True)
                finally:
                    self._standalone = False
                    self._objective -= tuning_objective(func)
        if unread_names & ({func.name for func, _ in self._defined} | READS_ANY):
            self.facts.side_names = None  # a skipped line calls the file's own code: it may read anything
        alone = bool(self.facts.splits) and self._runs_as_script(tree) and not _trains_by_hand(tree)
        settle(self.facts, complete, alone=alone, modelless=bool(self.facts.splits) and _modelless(self.facts, tree))
        return self.facts

    def _single_bindings(self) -> dict:
        if self._bound_once is None:
            self._bound_once = single_bindings([n for n in statements(self._tree) if isinstance(n, ast.Assign)])
        return self._bound_once

    def new_id(self) -> int:
        self._ids += 1
        return self._ids

    def fresh_rows(self) -> frozenset:
        rows = frozenset({Rows(self.new_id())})
        if self._reading_loops:
            self._read_per_entity(rows)
        return rows

    def _read_per_entity(self, rows) -> None:
        """Rows read or collected inside ``for subject in subjects`` (a loop whose body
        reads files): each entity brings its own rows."""
        for loop in reversed(self._reading_loops):
            if isinstance(loop.target, ast.Name) and entity_column(loop.target.id):
                name = loop.target.id
                self._entity_repeats(rows, name, loop, f"rows read for each {name!r} in a loop")
                return

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
        if isinstance(value, Data) and value.learned:
            self._note_overwrites(stmt, value)
        if all(isinstance(t, (ast.Name, ast.Attribute)) for t in stmt.targets):
            value = self._literal_binding(value, stmt.value, scope)
        for target in stmt.targets:
            self.assign(target, value, scope, stmt.value)

    def _literal_binding(self, value, node, scope):
        """``n = 200`` / ``params = {"max_depth": 5}`` / ``params = dict(max_depth=5)``: the
        name holds that literal (read from its syntax) until it is bound again or changed."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
                and scope.lookup("dict") is not None:
            return value  # the file's own dict()
        return with_literal(value, node)

    def _note_overwrites(self, stmt, value: Data) -> None:
        """``X_test = scaler.fit_transform(X_test)``: the rows themselves now carry it."""
        names = {t.id for t in stmt.targets if isinstance(t, ast.Name)}
        for learn_id in value.learned:
            event = self.facts.learns[learn_id]
            if event.span.line >= stmt.lineno and re.split(r"[\[.(]", event.data, 1)[0] in names:
                event.overwrites = True

    def stmt_AnnAssign(self, stmt, scope):
        if stmt.value is not None:
            value = self._literal_binding(self.ev(stmt.value, scope), stmt.value, scope)
            self.assign(stmt.target, value, scope, stmt.value)

    def stmt_AugAssign(self, stmt, scope):
        value = self.ev(stmt.value, scope)
        current = self.ev(stmt.target, scope)
        learned_from = value
        if not isinstance(stmt.op, ARITHMETIC):
            learned_from = self._drop_stats(as_data(value))
        self.assign(stmt.target, self.derive([current, learned_from], stmt), scope, stmt)

    def stmt_Import(self, stmt, scope):
        importer = getattr(stmt, project.PATH_ATTRIBUTE, None) or self._file
        for alias in stmt.names:
            name = alias.asname or alias.name.split(".")[0]
            target = alias.name if alias.asname else name
            found = project.resolve(target, 0, importer)
            self.bind(name, ModuleRef(found, target) if found else Ref(target), scope)

    def stmt_ImportFrom(self, stmt, scope):
        module = ("." * stmt.level) + (stmt.module or "")
        importer = getattr(stmt, project.PATH_ATTRIBUTE, None) or self._file
        home = project.resolve(stmt.module or "", stmt.level, importer)
        for alias in stmt.names:
            if alias.name == "*":
                if home is not None:  # from features import *: its names, looked up when used
                    scope.stars.append(home)
                continue
            dotted = f"{stmt.module}.{alias.name}" if stmt.module else alias.name
            submodule = project.resolve(dotted, stmt.level, importer)
            if submodule is not None:
                value = ModuleRef(submodule, module + ("." if stmt.module else "") + alias.name)
            elif home is not None:
                value = Imported(home, alias.name, module)
            else:
                value = self._imported_part(module, alias.name) or Ref(f"{module}.{alias.name}")
            self.bind(alias.asname or alias.name, value, scope)

    def imported(self, value: Imported, depth: int = 0) -> Value:
        """What a project module binds to the name (a function, a class, a constant);
        an unknown call's name when the module or the name cannot be followed."""
        env = self._module_env(value.path)
        found = env.env.get(value.name) if env is not None else None
        if found is None and env is not None and depth < 5:
            found = self._from_star(env, value.name, depth + 1)
        if isinstance(found, Imported) and depth < 5:
            return self.imported(found, depth + 1)
        if found is None or isinstance(found, Imported):
            return self._imported_part(value.module, value.name) or Ref(f"{value.module}.{value.name}")
        return found

    def _imported_part(self, module: str, name: str) -> Optional[Data]:
        """``from data.read_data import train_df`` of a module the analysis cannot read (or a
        name it binds by running code): rows a name says are a part of a split made elsewhere
        (a tuning script searching the training part); None for any other name."""
        part = named_side(name)
        if part is None or module.split(".")[0].lstrip(".") in lib.ML_PACKAGES | lib.DATA_ROOTS:
            return None
        if self._called is None:
            self._called = {n.func.id for n in ast.walk(self._tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        if name in self._called:
            return None  # evaluate_holdout(model, X, y): a function
        key = ("import", module, name)
        if key not in self._unknown_roots:
            self._unknown_roots[key] = Data(rows=self.fresh_rows())
            self.facts.free_parts.update((r.root, part) for r in self._unknown_roots[key].rows)
        return self._unknown_roots[key]

    def _from_star(self, scope: Scope, name: str, depth: int = 0) -> Optional[Value]:
        """``name`` from a project module star-imported in ``scope`` (or an enclosing one)."""
        while scope is not None:
            for path in scope.stars:
                env = self._module_env(path)
                if env is not None and name in env.env and not name.startswith("_"):
                    found = env.env[name]
                    return self.imported(found, depth + 1) if isinstance(found, Imported) and depth < 5 else found
            scope = scope.parent
        return None

    def _module_env(self, path: str) -> Optional[Scope]:
        """The definitions of a project module, interpreted once per file analysed
        (a module being loaded, as in an import cycle, is not followed)."""
        if path in self._modules:
            return self._modules[path]
        self._modules[path] = None
        loaded = project.load(path)
        if loaded is None:
            return None
        tree, digest = loaded
        env = Scope()
        self.exec_block([stmt for stmt in tree.body if _definition(stmt)], env)
        self._modules[path] = env
        self.facts.depends[path] = digest
        return env

    def stmt_FunctionDef(self, stmt, scope):
        for deco in stmt.decorator_list:
            self.ev(deco, scope)
        self.bind(stmt.name, Function(stmt, scope, id(stmt)), scope)
        if not hasattr(stmt, project.PATH_ATTRIBUTE):  # another module's code runs only when called
            self._defined.append((stmt, scope))

    stmt_AsyncFunctionDef = stmt_FunctionDef

    def stmt_ClassDef(self, stmt, scope):
        self.bind(stmt.name, LocalClass(stmt, scope, id(stmt)), scope)
        pending = list(stmt.body) if not hasattr(stmt, project.PATH_ATTRIBUTE) else []
        while pending:
            member = pending.pop(0)
            if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._defined.append((member, scope))
            elif isinstance(member, ast.ClassDef):
                pending.extend(member.body)

    def stmt_Return(self, stmt, scope):
        none = stmt.value is None or (isinstance(stmt.value, ast.Constant) and stmt.value.value is None)
        # (``return None`` beside ``return X_tr, X_te``: the caller unpacks the parts, kept apart)
        handed = not self._standalone and _names_only(stmt.value)
        if handed:  # return X_train, X_test to a caller in this file: what the caller does with them counts
            read = self.facts.read_sides, self.facts.read_label_sides
            self.facts.read_sides, self.facts.read_label_sides = set(read[0]), set(read[1])
        value = self.ev(stmt.value, scope) if not none else None
        if handed:
            self.facts.read_sides, self.facts.read_label_sides = read
        if value is not None:
            # (a search's score handed in and returned, repackaged, is its caller's to report)
            self._report([value], stmt, "returned", since=self._frame_starts[-1] if self._frame_starts else 0)
            if not handed:
                self._note_read(value)  # the caller (in another module, maybe) reads what is returned
        scope.returns = join(scope.returns, value) if value is not None else scope.returns

    def stmt_Global(self, stmt, scope):
        scope.globals.update(stmt.names)

    stmt_Nonlocal = stmt_Global

    def stmt_Delete(self, stmt, scope):
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                scope.env.pop(target.id, None)
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                current = scope.lookup(target.value.id)
                if getattr(current, "literal", None) is not None:  # del params["k"]: no longer that literal
                    self.bind(target.value.id, replace(current, literal=None), scope)
                column = const_str(target.slice)
                if current.__class__ is Data and column is not None and (current.by_column or current.dated):
                    # del df["date"]: what lived only in that column is gone with it
                    keep = [c for c, _ in current.by_column + current.dated if c != column]
                    self.bind(target.value.id, select_columns(current, keep), scope)

    def stmt_If(self, stmt, scope):
        test = as_data(self.ev(stmt.test, scope))
        kept = running_best(stmt, self._loop_nodes[-1]) if self._loop_nodes else None
        if kept is not None:
            # a score by hand (a library model's scores are choices, LL303), on the rows it
            # reads or, for a mean of them taken in the loop (``(pred == y).mean()``), the rows
            # averaged (statistics learned before the loop, a scaling of the rows, are not the score)
            best, compared = kept
            score = as_data(self.ev(compared, scope))
            rows = score.rows | frozenset().union(*(self.facts.learns[i].rows for i in score.learned
                                                    if self.facts.learns[i].kind == "stat" and i > self._loop_starts[-1]))
            if rows and not score.scores:
                parts = frozenset(r for r in rows if r.side is not None)  # (the others: a device, a loss)
                handed = self._standalone and self._split_here(Data(rows=parts)) and {r.root for r in parts} <= self._parameter_roots
                self.facts.kept_bests.append(KeptBest(self.new_id(), span_of(stmt), rows, best, ast.unparse(compared), handed))
        known = self._known_truth(stmt.test, scope)
        outer = self._chosen_by
        # if pearsonr(df[c], y)[1] < 0.01: kept.append(c): what the branches collect was chosen by it
        self._chosen_by = outer | self._selections(test)
        try:
            if known is None:
                self._branches(scope, [stmt.body, stmt.orelse])
            else:  # if imbal == True: with imbal bound to the literal 0: only one branch runs
                self.exec_block(stmt.body if known else stmt.orelse, scope)
        finally:
            self._chosen_by = outer

    def _selections(self, data: Data) -> frozenset:
        """The supervised selections a condition tests (``pearsonr(df[c], y)[1] < 0.01``)."""
        return frozenset(i for i in data.learned if self.facts.learns[i].kind == "selection")

    _COMPARISONS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_, ast.IsNot: operator.is_not}

    def _known_truth(self, test, scope) -> Optional[bool]:
        """The truth of a condition on names bound to literals (``flag``, ``not flag``,
        ``mode == "fast"``) or to an object (``scaler is None``); None when any part is not
        known from literal syntax."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self._known_truth(test.operand, scope)
            return None if inner is None else not inner
        if isinstance(test, ast.Name):
            literal = getattr(scope.lookup(test.id), "literal", None)
            return bool(literal[0]) if literal is not None and not isinstance(literal[0], Mapping) else None
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in (ast.Is, ast.IsNot) \
                and isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Constant) \
                and test.comparators[0].value is None \
                and isinstance(scope.lookup(test.left.id), (Estimator, Instance)):
            return isinstance(test.ops[0], ast.IsNot)  # featurize(X_test, scaler): an object is never None
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in self._COMPARISONS:
            sides = []
            for part in (test.left, test.comparators[0]):
                if isinstance(part, ast.Constant):
                    sides.append(part.value)
                elif isinstance(part, ast.Name):
                    literal = getattr(scope.lookup(part.id), "literal", None)
                    if literal is None or not isinstance(literal[0], (bool, int, float, str, type(None))):
                        return None
                    sides.append(literal[0])
                else:
                    return None
            return bool(self._COMPARISONS[type(test.ops[0])](*sides))
        return None

    def stmt_While(self, stmt, scope):
        self.ev(stmt.test, scope)
        self._loops += 1
        self._loop_nodes.append(stmt)
        self._loop_starts.append(self._ids)
        try:
            self._branches(scope, [stmt.body + stmt.orelse, []])
        finally:
            self._loops -= 1
            self._loop_nodes.pop()
            self._loop_starts.pop()

    def stmt_For(self, stmt, scope):
        iterable = self.ev(stmt.iter, scope)
        if isinstance(iterable, Estimator) and iterable.shuffled is not None and iterable.qualname.startswith(
                lib.OLD_SPLITTER_MODULE) and isinstance(iterable.node, ast.Call):
            # for tr, te in KFold(len(y), n_folds=5): scikit-learn before 0.18 iterated the
            # splitter itself, built on the rows' count (KFold) or labels (StratifiedKFold)
            rows = [iterable.inner] if iterable.inner is not None and as_data(iterable.inner).rows else []
            iterable = self._folds(iterable, rows, {}, iterable.node)
        before = dict(scope.env)
        self.assign(stmt.target, self.iterate(iterable), scope, stmt.iter)
        self._loops += 1
        reading = self._reads.get(id(stmt))
        if reading is None:  # a loop body is walked once, however often the loop is met
            reading = self._reads[id(stmt)] = reads_files(stmt.body)
        if reading:
            self._reading_loops.append(stmt)
        self._loop_nodes.append(stmt)
        self._loop_starts.append(self._ids)
        try:
            self.exec_block(stmt.body, scope)
        finally:
            self._loops -= 1
            self._loop_nodes.pop()
            self._loop_starts.pop()
            if reading:
                self._reading_loops.pop()
        self.exec_block(stmt.orelse, scope)
        self._write_back(stmt.target, self._origins.get(id(iterable), ()), scope)
        self._fitted_in_container(stmt, scope)
        self._join_into(scope, before)

    def _fitted_in_container(self, stmt, scope) -> None:
        """``for name, model in models.items(): model.fit(X, y)`` fits the dict's models
        (and ``for model in models:`` the list's): a later loop over them uses fitted ones."""
        loop, target = stmt.iter, stmt.target
        if isinstance(loop, ast.Call) and isinstance(loop.func, ast.Attribute) and loop.func.attr in ("items", "values"):
            if loop.func.attr == "items":
                target = target.elts[-1] if isinstance(target, ast.Tuple) and len(target.elts) == 2 else None
            loop = loop.func.value
        if not isinstance(loop, ast.Name) or not isinstance(target, ast.Name):
            return
        final, container = scope.env.get(target.id), scope.lookup(loop.id)
        if not (isinstance(final, Estimator) and final.fits and isinstance(container, Seq)):
            return
        items = tuple(replace(i, fits=i.fits | final.fits) if isinstance(i, Estimator) else i for i in container.items)
        self.bind(loop.id, replace(container, items=items), scope)

    def _tagged_per_file(self, rows, column) -> None:
        """``df["subject"] = name`` for each file a loop reads: each entity brings the rows
        of its own files."""
        loop = self._reading_loops[-1] if self._reading_loops else None
        if loop is not None and column is not None and entity_column(column):
            self._entity_repeats(rows, column, loop, f"rows read from files in a loop, each tagged with its {column!r}")

    def _name_ahead(self, learned, column) -> None:
        """``df["next_close"] = df["close"].shift(-1)``: the look-ahead now has a column's name
        (the label, when the model is fitted on that column as ``y``)."""
        for learn_id in learned:
            event = self.facts.learns[learn_id]
            if event.kind == "ahead" and event.column is None and column is not None:
                event.column = column

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
        start, heap = dict(scope.env), self._heap  # (objects' attributes set in a branch join too)
        merged = merged_heap = None
        for body in bodies:
            scope.env = dict(start)
            self._heap = dict(heap) if heap else {}
            self.exec_block(body, scope)
            merged = scope.env if merged is None else self._joined(merged, scope.env)
            merged_heap = self._heap if merged_heap is None else self._joined(merged_heap, self._heap)
        scope.env = merged if merged is not None else start
        self._heap = merged_heap if merged_heap is not None else heap

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
            scope = self._module
        scope.env[name] = value
        if self.facts.unread_names:
            self._note_holder(name, value)
        if self._dotted:  # a new object: what was set on the old one's attributes is gone
            prefix = name + "."
            for path in [p for p in scope.env if p.startswith(prefix)]:
                del scope.env[path]

    def assign(self, target, value: Value, scope: Scope, source=None) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, Data) and value.scores and "train" in target.id.lower():
                self._note_score_label([replace(value, texts=frozenset({target.id}))])  # training_accuracy = ...
            self.bind(target.id, value, scope)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self._unpack(target.elts, value, scope, source)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, as_data(value), scope, source)
        elif isinstance(target, ast.Subscript):
            self._assign_into(target.value, value, scope, target, source=source)
        elif isinstance(target, ast.Attribute):
            owner = self.ev(target.value, scope)
            path = self._path(target)
            if self.facts.unread_names:
                self._note_holder(target.attr, value)  # self.X_test = ...: a skipped line names X_test
            if isinstance(owner, Instance):
                self._heap[(owner.key, target.attr)] = value
            elif isinstance(owner, Data) and target.attr == "columns":
                pass  # df.columns = df.columns.str.lower(): new names, the same values in each column
            elif isinstance(owner, Data) and owner.rows and isinstance(target.value, (ast.Name, ast.Attribute)):
                # df.index = pd.to_datetime(df.index): the frame now holds what was set; df.dob = ...
                # sets the column "dob", as df["dob"] = ... does (parsed dates there order nothing)
                column = None if target.attr == "index" else target.attr
                self._assign_into(target.value, value, scope, None, column)
            elif path:
                scope.env[path] = value
                self._dotted = True

    def _note_holder(self, name: str, value: Value) -> None:
        """``name`` held the rows of ``value``'s split sides: a skipped line naming it may read
        them (called only in files with lines the analysis skipped; binding is a hot path)."""
        if self.facts.side_names is not None and value.__class__ is Data:
            for side in _split_sides(value):
                self.facts.side_names.setdefault(side, set()).add(name)

    def _unpack(self, targets, value, scope, source) -> None:
        if isinstance(value, Folds) and len(targets) == 2:
            value = self.iterate(value)  # train_idx, val_idx = splitter.split(df): one pair
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
        nested = [t for t in targets if isinstance(t, (ast.Tuple, ast.List))]
        if isinstance(value, Data) and value.rows and len(nested) == len(targets) > 1:
            # (X_train, y_train), (X_test, y_test) = mnist.load_data(): two datasets
            for target in targets:
                self.assign(target, replace(value, rows=self.fresh_rows()), scope, source)
            return
        unsplit = isinstance(source, ast.Call) and isinstance(value, Data) and value.rows and all(
            r.side is None for r in value.rows)
        sides = _named_sides(targets) if unsplit else None
        if sides:
            # X_train, X_test, y_train, y_test = split_data(X, y) of code the analysis cannot
            # read: the names are all it knows, so each side is a dataset of its own (rows
            # already split are left as they are: scale(X_train, X_test) keeps its sides)
            roots = {side: self.fresh_rows() for side in set(sides.values())}
            whole = frozenset(r.root for r in value.rows)
            for (part, _), rows in roots.items():
                self.facts.named_parts.update((r.root, (part, whole)) for r in rows)
            held = [name for name, side in sides.items() if side[0] != "train"]
            if all(name.startswith("_") for name in held):  # X_train, _X_test = ...: kept for other code
                self.facts.set_aside.update(r.root for side, rows in roots.items() if side[0] != "train" for r in rows)
            for target in targets:
                side = sides.get(target.id) if isinstance(target, ast.Name) else None
                self.assign(target, value if side is None else replace(value, rows=roots[side]), scope, source)
            return
        parts = _handed_parts(targets, value, source, scope)
        if parts:
            # X_train, X_test = prepare(X_train, X_test) of code the analysis cannot read: each
            # part comes back in its place
            for target, part in zip(targets, parts):
                self.assign(target, replace(value, rows=part.rows), scope, source)
            return
        for target in targets:
            self.assign(target, value if isinstance(value, Data) else as_data(value), scope, source)

    def _assign_into(self, container, value, scope, target, column=None, source=None) -> None:
        """``df[c] = v`` / ``df.loc[m, c] = v`` (``df.c = v``: ``column``): the frame now holds what v holds."""
        if isinstance(container, ast.Subscript) and _row_mask(container.slice):
            return  # df[df.x == 0]["x"] = v writes into a copy of the selected rows: df is unchanged
        while isinstance(container, ast.Subscript):
            container = container.value
        base_node = container
        located = isinstance(base_node, ast.Attribute) and base_node.attr in ("loc", "at")
        if isinstance(base_node, ast.Attribute) and base_node.attr in ("loc", "iloc", "at", "iat"):
            base_node = base_node.value
        slot = None
        if target is not None:
            slot = self.ev(target.slice, scope)
            self._report([value], target, "stored")
        if isinstance(base_node, (ast.Name, ast.Attribute)):
            current = self.ev(base_node, scope)
            key = column
            if target is not None:  # df["date"] = ..., or df[date_column] with date_column handed "date"
                key = const_str(target.slice) or (
                    _single_text(slot) if isinstance(target.slice, (ast.Name, ast.BinOp, ast.JoinedStr)) else None)
                if located and isinstance(target.slice, ast.Tuple) and len(target.slice.elts) == 2:
                    key = const_str(target.slice.elts[1])  # df.loc[mask, "chol"] = v: one column
                    if isinstance(current, Data) and key is not None:
                        # of some rows: the others keep what the column held
                        value = replace(as_data(value), learned=as_data(value).learned | dict(current.by_column).get(key, frozenset()))
            mapping = isinstance(current, Seq) and isinstance(current.literal, tuple) and isinstance(current.literal[0], Mapping)
            names = sorted(as_data(slot).texts) if target is not None and key is None and not located else []
            if isinstance(current, Seq) and (current.keys or mapping) and len(names) > 1 and all(isinstance(n, str) for n in names):
                # results[name] = {...} in a loop over names: each name's entry may hold this value
                keys, items = current.keys, current.items
                for each in names:
                    held = items[keys.index(each)] if each in keys else None
                    keys, items = _with_entry(keys, items, each, join(held, value))
                self.assign(base_node, Seq(items, keys), scope)
            elif isinstance(current, Seq) and (current.keys or mapping) and key is not None:
                keys, items = _with_entry(current.keys, current.items, key, value)
                literal = None
                if mapping:  # params["max_depth"] = 7: the literal settings it spells gain that key
                    known = (literal_of(source) if source is not None else None) or getattr(value, "literal", None)
                    plain = known is not None and not isinstance(known[0], Mapping)
                    setting = known[0] if plain else Opaque(opaque_text(source) if source is not None else "?")
                    literal = (current.literal[0].updated({key: setting}),)
                self.assign(base_node, Seq(items, keys, literal=literal), scope)
            elif isinstance(current, Seq) and key is None and (
                    (current.keys and _new_key(target, current.keys)) or _entry_by_unknown_key(target, current)):
                # models[f"q{q}"] = model beside models["main"]; splits[name] = (X_tr, X_te) in a
                # loop: an entry of its own (a tuple stays a tuple, its parts apart)
                placeholder = f"<{ast.unparse(target.slice)}>"
                held = current.items[current.keys.index(placeholder)] if placeholder in current.keys else None
                keys, items = _with_entry(current.keys, current.items, placeholder, join(held, value))
                self.assign(base_node, Seq(items, keys), scope)
            elif isinstance(current, Seq) and current.keys:
                # datasets[name] = frame in a loop over the dict: each frame keeps its rows
                incoming = as_data(value)
                items = tuple(
                    replace(item, learned=item.learned | incoming.learned, time=item.time or incoming.time)
                    if isinstance(item, Data)
                    else item
                    for item in current.items
                )
                self.assign(base_node, Seq(items, current.keys), scope)
            elif isinstance(current, Seq) and isinstance(value, Instance) and key is None:
                # models[n] = Model() in a loop: the container holds objects of the file's class
                self.assign(base_node, Seq(current.items + (value,)), scope)
            elif isinstance(current, Seq):
                self.assign(base_node, merge_data([current, value]), scope)
            elif isinstance(current, Data):
                self._tagged_per_file(current.rows, key)
                # df[f"smooth_{w}"] in a loop: a family of feature columns, none of them the label
                named = key or (f"<{ast.unparse(target.slice)}>" if target is not None and isinstance(target.slice, ast.JoinedStr) else None)
                self._name_ahead(as_data(value).learned - current.learned, named)
                merged = current
                possible = tuple(_selected_columns(slot, False, any_of=True) or ()) if target is not None else None
                for each in (_listed_columns(slot, target) if named is None else None) or [named]:
                    written = as_data(value)
                    if each is None and possible and _rewrites_own_column(target, source):
                        # df[c] = f(df[c]) in a loop over names: each column keeps its own, plus what is new
                        written = replace(written, learned=written.learned - current.learned)
                    merged = set_column(merged, each, written, possible)  # df[["a", "b"]] = v: each of them
                merged = replace(merged, tags=_tags_after(current, key, slot, value))
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
            split = self.facts.splits.get(value.split)
            if split is not None:
                split.handed_out = True  # the code holds each fold's indices
            return Seq((FoldIndex(Side("train", value.split)), FoldIndex(Side("test", value.split))))
        if isinstance(value, Seq):
            out = None
            for item in value.items:
                out = join(out, item)
            if out is None or isinstance(out, Data) and not out.rows:
                return _one_item(as_data(out))
            return out
        if isinstance(value, Enumerated):
            return Seq((Data(counter=True), self.iterate(value.inner)))
        if isinstance(value, Items):
            return Seq((UNKNOWN, self.iterate(value.inner)))
        if isinstance(value, Zipped):
            return Seq(tuple(self.iterate(v) for v in value.items))
        if isinstance(value, FoldIndex):
            return value  # for i in train_idx: each an index of that fold's rows
        data = as_data(value)
        if data.rows and data.grouped is None:
            return replace(data, element=True)  # for image in images: one sample at a time
        return _one_item(data) if isinstance(value, Data) else data

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
        return Data(texts=frozenset({node.value})) if isinstance(node.value, str) else UNKNOWN

    def ex_Slice(self, node, scope):
        """``[:n]`` with ``n = len(df)``: the slice bound counts ``df``'s rows."""
        bounds = [self.ev(part, scope) for part in (node.lower, node.upper, node.step)]
        counted = [b.size_of for b in bounds if isinstance(b, Data) and b.size_of]
        return replace(merge_data(bounds), size_of=counted[0]) if len(counted) == 1 else merge_data(bounds)

    def _runs_as_script(self, tree: ast.Module) -> bool:
        """A notebook (or one Colab saved as a script), or a script with a ``__main__``
        guard: run, not imported, so a function nothing in it names is never called."""
        if self._file and self._file.endswith(".ipynb"):
            return True
        docstring = ast.get_docstring(tree, clean=False) or ""
        if re.search(r"\.ipynb\b", docstring.split("\n\n")[0]) and "generated" in docstring.lower():
            return True  # """analysis.ipynb\n\nAutomatically generated by Colab.""": a notebook saved as .py
        return any(isinstance(stmt, ast.If) and "__main__" in ast.unparse(stmt.test) for stmt in tree.body)

    def _note_read(self, value: Value) -> Value:
        """Code reads ``value`` (or a tuple of parts: ``parts[1]``): the sides of splits its
        rows come from are in use."""
        self.facts.read_sides |= _split_sides(value)
        if isinstance(value, Data) and value.split_labels:
            self.facts.read_label_sides |= _split_sides(value)
        return value

    def ex_Name(self, node, scope):
        value = scope.lookup(node.id)
        if isinstance(value, Imported):
            return self.imported(value)
        if value is not None:
            return self._note_read(value)
        starred = self._from_star(scope, node.id)
        if starred is not None:
            return starred
        qualname = known_names.qualified(node.id)
        if qualname is not None:
            return Ref(qualname)
        if node.id in BUILTIN_NAMES:
            return UNKNOWN  # ``dtype=float``, ``key=len``: Python's own, not data read from somewhere
        key = (id(self._module), node.id)
        if key not in self._unknown_roots:
            self._unknown_roots[key] = Data(rows=self.fresh_rows())
            roots = [r.root for r in self._unknown_roots[key].rows]
            part = named_side(node.id) if not self._modules_in else None
            if part is not None and self._binds is None:
                self._binds = bound_names(self._tree)
            if part is not None and node.id not in self._binds:
                self.facts.free_parts.update((root, part) for root in roots)
            if not self._modules_in:
                self._free_roots[node.id] = roots
        return self._unknown_roots[key]

    def ex_Attribute(self, node, scope):
        if self._dotted:
            path = self._path(node)
            bound = scope.lookup(path) if path else None
            if bound is not None:
                self._note_read(bound)
                return bound
        base = self.ev(node.value, scope)
        attr = node.attr
        if isinstance(base, Ref):
            return Ref(f"{base.qualname}.{attr}")
        if isinstance(base, ModuleRef):
            return self.module_attribute(base, attr)
        if isinstance(base, Instance):
            found = self._heap.get((base.key, attr))
            return self._note_read(found) if found is not None else self._class_literal(base.cls, attr, scope)
        if isinstance(base, LocalClass):
            return self._class_literal(base, attr, scope)
        if isinstance(base, Estimator):
            if attr in lib.SEARCH_SCORES or (base.qualname == lib.STUDY and attr in lib.STUDY_SCORES):
                self.facts.search_scores |= base.fits
            tuned = self._tuned_attribute(base, attr)
            if tuned is not None:
                return tuned
            if attr in lib.SCORE_ATTRIBUTES:
                self._inspected.extend(base.fits)
            if attr in lib.IMPORTANCE_ATTRIBUTES:
                return Data(learned=base.fits | self._importances(base, attr, node))
            return Data(learned=base.fits)
        if isinstance(base, Data):
            if base.grouped is not None:
                return replace(base, grouped=(attr,) + base.grouped[1:])
            if attr in lib.METADATA_ATTRIBUTES:
                return Data(learned=base.learned, size_of=base.rows if attr == "shape" else frozenset())
            if attr == "T" and _per_row_fit(node.value):
                return self._forget_fit(base, node.value)
            if attr in lib.VIEW_ATTRIBUTES:
                return replace(base, indexer=attr in ("iloc", "loc", "at", "iat"))
            if isinstance(node.value, ast.Attribute) and node.value.attr == "dt" and attr not in lib.DATE_KEEPING:
                return replace(base, time=None, column=None, indexer=False)  # .dt.hour: a calendar field, not a date
            if base.time is not None and base.time.date and attr in lib.CALENDAR_FIELDS:
                # pd.DatetimeIndex(d).month, or a frame of parsed dates' column "day": numbers, not dates
                return replace(select_columns(base, [attr]), time=None, column=None, indexer=False)
            if base.rows:
                return replace(select_columns(base, [attr]), column=attr, indexer=False)
            self._name_correlated_column(base, attr)  # corr.price, as corr["price"]
            return base
        return UNKNOWN

    def _class_literal(self, cls: LocalClass, attr: str, scope) -> Value:
        """A literal the class body binds (``class CFG: target = "y"``, a dataclass field's
        default): the column a config names."""
        value = None
        for stmt in cls.node.body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in stmt.targets):
                value = stmt.value
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == attr:
                value = stmt.value
        if value is None or literal_of(value) is None:
            try:
                ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                return UNKNOWN
        return with_literal(self.ev(value, scope), value)  # (``fit_params = dict(...)``: unpacked later)

    def _importances(self, model: Estimator, attr: str, node) -> frozenset:
        """``model.feature_importances_`` of a model fitted with labels: features chosen by
        them are chosen with the labels of the rows it learned from (a selection event each)."""
        found = set()
        for fit_id in sorted(model.fits):
            fit = self.facts.learns[fit_id]
            if fit.kind == "fit" and fit.has_labels and fit.rows:
                event = self._learn("selection", attr, node, Data(rows=fit.rows), None,
                                    method=f"{lib.short(model.qualname)}.{attr}", has_labels=True)
                event.data = fit.data
                found.add(event.id)
        return frozenset(found)

    @staticmethod
    def _tuned_attribute(search: Estimator, attr: str) -> Optional[Value]:
        """``grid.best_score_``, ``study.best_value``, ``study.best_trial.value``: the best
        cross-validated score of many candidates."""
        searched = lib.lib_key(search.qualname) in lib.SEARCH_CLASSES and search.qualname.rsplit(".", 1)[-1] != "RFECV"
        if (searched and attr == "best_score_") or (search.qualname == lib.STUDY and attr == "best_value"):
            return Data(learned=search.fits, tuning=search.fits)
        if search.qualname == lib.STUDY and attr == "best_trial":
            return replace(search, qualname=lib.TRIAL)
        if search.qualname == lib.TRIAL and attr in ("value", "values"):
            return Data(learned=search.fits, tuning=search.fits)
        if (searched and attr == "best_params_") or (search.qualname in (lib.STUDY, lib.TRIAL) and attr in ("best_params", "params")):
            return Data(tuned=search.fits)  # the chosen settings: a model built with them is the tuned one
        if searched and attr == "best_estimator_":  # the tuned model, refitted as is or not
            return Data(learned=search.fits, tuned=search.fits)
        return None

    def ex_Subscript(self, node, scope):
        base = self.ev(node.value, scope)
        key = self.ev(node.slice, scope)
        result = self._subscript(node, base, key, scope)
        if isinstance(base, Data) and isinstance(result, Data) and (base.rescaled or base.cleared) \
                and not (result.rescaled or result.cleared) and result.learned <= base.learned \
                and {r.root for r in result.rows} <= {r.root for r in base.rows}:
            # X.iloc[:-1], X[tr]: some of the rows or columns, each value as it was
            rescaled = base.rescaled & result.learned
            cleared = tuple((c, ids & result.learned) for c, ids in base.cleared if ids & result.learned)
            result = replace(result, rescaled=rescaled, cleared=cleared)
        return result

    def _subscript(self, node, base, key, scope):
        if isinstance(base, Seq):
            index = node.slice
            if base.keys and const_str(index) in base.keys:
                return base.items[base.keys.index(const_str(index))]
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
        if isinstance(base, Factory):
            return self._construct(base.qualname, None, [], {}, scope)
        if isinstance(base, Folds):
            return self.iterate(base)
        if isinstance(base, FoldIndex):
            return base  # tr[~outlier[tr]]: some of that fold's indices
        if not isinstance(base, Data):
            return UNKNOWN
        if base.grouped is not None:
            # df.groupby(k)["a"]: what lives only in the other columns is left behind
            picked = _selected_columns(key, False)
            kept = select_columns(base, picked) if picked else base
            return replace(kept, grouped=(_single_text(key),) + base.grouped[1:])
        if base.archive and const_str(node.slice) is not None:
            # archive["X_train"], archive["X_test"]: stored arrays, each its own rows
            stored = (tuple(sorted(r.root for r in base.rows)), const_str(node.slice))
            if stored not in self._unknown_roots:
                self._unknown_roots[stored] = Data(rows=self.fresh_rows())
            return self._unknown_roots[stored]
        if base.positions and not base.rows and id(node) in self._slices:
            base = Data(rows=base.positions)  # idx[:n] of idx = np.random.permutation(len(X)): a part of X's rows
        if base.size_of and not base.rows:
            return base  # df.shape[0]
        tagged = _tagged_rows(node, base)
        if tagged is not None:
            return Data(rows=tagged, learned=base.learned, time=base.time, by_column=base.by_column, dated=base.dated)
        fold = self._fold_key(key)
        if fold is None:
            part = _reseparated(node, base, key)
            if part is not None:
                return part
        if fold is None and id(node) in self._slices and not self._cuts_at_zero(node, scope):
            fold = self._positional_side(node, base)
        if fold is None and id(node) in self._masks and base.rows:
            fold = self._positional_side(node, base, self._masks, "mask")
        sides = (fold,) if fold is not None else indexed_sides(base, as_data(key)) if not _row_mask(node.slice) else ()
        if sides:
            # df.loc[train_mask, features]: the columns chosen leave the others' statistics behind
            picked = _selected_columns(key, True) if base.indexer else None
            chosen = select_columns(base, picked) if picked else base
            return Data(
                rows=frozenset(Rows(r.root, side) for r in base.rows for side in sides),
                learned=chosen.learned,
                time=base.time,
                column=base.column,
                by_column=chosen.by_column,
                dated=chosen.dated,
                element=base.element,
            )
        column = const_str(node.slice) or _single_text(key)
        if column is not None and not base.rows:
            self._name_correlated_column(base, column)
        key_data = as_data(key)
        # a mask of rows (users chosen by a per-user count) says which rows, not their values
        key_data = self._drop_stats(key_data, ("stat", "ahead", "group-stat") if key_data.rows else ("stat",))
        selected = _selected_columns(key, base.indexer)
        possible = selected if selected is not None else _selected_columns(key, base.indexer, any_of=True)
        kept = select_columns(base, possible) if possible is not None else base
        typed = self._typed_after_reading(node, base) if selected is not None and len(selected) > 1 else frozenset()
        # X[i] for i in range(...); images[image_id] for image_id in a column of ids
        one = key_data.counter or (key_data.element and key_data.column is not None)
        one = one or (isinstance(key, Seq) and any(as_data(i).counter for i in key.items))
        unsure = possible is None and not key_data.rows and not isinstance(node.slice, (ast.Slice, ast.Constant)) and bool(base.by_column)
        return Data(
            unsure=unsure,
            element=base.element or (one and bool(base.rows)),  # X[i] in a loop over i; df[df.id == one_id]
            subset=isinstance(node.slice, (ast.Compare, ast.BoolOp)) or (base.subset and selected is not None),
            rows=base.rows,
            distinct=base.distinct,
            learned=kept.learned | key_data.learned | typed,
            time=base.time,
            column=column if column is not None else (base.column if base.indexer else None),
            scores=base.scores,
            by_column=kept.by_column,
            dated=kept.dated,
            tuned=base.tuned,  # best_params_["max_depth"]: one of the chosen settings
            complete=base.complete,
        )


    def _cuts_at_zero(self, node, scope) -> bool:
        """``X[:TEST_SIZE]`` / ``X[TEST_SIZE:]`` with ``TEST_SIZE = 0``: the head is empty and
        the tail is every row; nothing is held out."""
        cut = row_slice(node)
        if cut is None or (cut.lower is None) == (cut.upper is None):
            return False  # (X[u:v] is a window, not a cut at one bound)
        bound = cut.upper if cut.lower is None else cut.lower
        # (only a name or a literal: evaluating a call again could record its events twice)
        return isinstance(bound, (ast.Name, ast.Constant)) and as_data(self.ev(bound, scope)).literal == (0,)

    def _typed_after_reading(self, node, base: Data) -> frozenset:
        """Columns typed in by hand after a supervised selection on the same rows was read."""
        roots = {r.root for r in base.rows}
        found = set()
        for learn_id in self._inspected:
            event = self.facts.learns[learn_id]
            # (a correlation of two named columns counts when the rule finds one is the label)
            if event.method in lib.GROUP_TESTS:
                continue
            if (event.has_labels or event.column) and event.rows and all(r.side is None for r in event.rows) and {r.root for r in event.rows} == roots:
                event.typed = event.typed or span_of(node)
                found.add(learn_id)
        return frozenset(found)

    def module_attribute(self, module: ModuleRef, attr: str) -> Value:
        """``features.scale`` or ``churn.features`` of an imported project module."""
        if os.path.basename(module.path) == "__init__.py":
            sub = project.resolve(attr, 1, module.path)
            if sub is not None:
                return ModuleRef(sub, f"{module.name}.{attr}")
        return self.imported(Imported(module.path, attr, module.name))

    def _forget_fit(self, data: Data, call) -> Data:
        """``fit_transform(X.T).T``: each statistic is of one row's own values."""
        span = span_of(call)
        mine = {i for i in data.learned if self.facts.learns[i].span == span}
        for learn_id in mine:
            self.facts.learns[learn_id].rows = frozenset()
        return replace(data, learned=data.learned - mine, indexer=False)

    @staticmethod
    def _fold_key(key) -> Optional[Side]:
        if isinstance(key, FoldIndex):
            return key.side
        if isinstance(key, Seq) and key.items and isinstance(key.items[0], FoldIndex):
            return key.items[0].side
        return None

    def _drop_stats(self, data: Data, kinds=("stat",)) -> Data:
        """Statistics used to filter or compare are not applied to the values (``kinds``:
        the learn events so used)."""
        kept = frozenset(i for i in data.learned if self.facts.learns[i].kind not in kinds)
        return replace(data, learned=kept) if kept != data.learned else data

    def ex_BinOp(self, node, scope):
        left = self.ev(node.left, scope)
        right = self.ev(node.right, scope)
        if isinstance(node.op, ast.Mod) and isinstance(left, Data) and left.texts:
            self._note_score_label([left] + (list(right.items) if isinstance(right, Seq) else [right]))
        if not isinstance(node.op, ARITHMETIC) or counts_codes(node):
            left, right = self._drop_stats(as_data(left)), self._drop_stats(as_data(right))
        self._compare_scores(as_data(left).scores, as_data(right).scores)
        if isinstance(node.op, (ast.Mult, ast.Div)) and (as_data(left).noise or as_data(right).noise):
            # noise * X_test.std(axis=0): random draws scaled by a statistic of other rows
            # still describe no row (a statistic of the draws themselves is their own)
            drawn = frozenset().union(*(as_data(v).rows for v in (left, right) if as_data(v).noise))
            return replace(self.derive([self._scaling_noise(as_data(v), drawn) for v in (left, right)], node), noise=True)
        if isinstance(node.op, ast.Sub):  # y_test - pred: errors by hand, a score once summed up
            errors = _set_against_labels([left, right])
            if errors:
                return replace(self.derive([left, right], node), residuals=errors)
        if isinstance(node.op, ast.Add):
            words = _added_strings(node)
            if words:  # "Ridge R^2 (no CV): " + str(model.score(X, y)): what the score is called
                self._note_score_label([left, right, Data(texts=words)])
            if left.__class__ is Seq and right.__class__ is Seq and not left.keys and not right.keys:
                return Seq(left.items + right.items)  # audio_cols + ["genre"]: the columns of both lists
            # list(train_idx) + extra_indices: one fold's indices and rows of no split
            for fold, other in ((left, right), (right, left)):
                if isinstance(fold, FoldIndex) and not isinstance(other, FoldIndex) and not as_data(other).rows:
                    return fold
            joined = _joined_text([left, right])
            if joined is not None:  # column_name + "__zscore": a column name built from constants
                return replace(self.derive([left, right], node), texts=frozenset({joined}))
        if isinstance(node.op, ast.BitAnd):
            narrowed = _narrowed_side(as_data(left), as_data(right))
            if narrowed is not None:
                return replace(self.derive([left, right], node), rows=narrowed)
        result = self.derive([left, right], node)
        rescaled = self._rescaled(node.op, as_data(left), as_data(right))
        return replace(result, rescaled=rescaled) if rescaled else result

    def _rescaled(self, op, left: Data, right: Data) -> frozenset:
        """The statistics by hand that ``left op right`` only shifts or scales rows by
        (``X - X.mean()``, ``X / X.std()``, ``(X - lo) / (hi - lo)``), with what the rows'
        side had only shifted and scaled already; empty for anything else."""
        if not isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            return frozenset()
        pairs = ((left, right),) if isinstance(op, ast.Div) else ((left, right), (right, left))
        for rows, stat in pairs:
            stats = frozenset(i for i in stat.learned if self.facts.learns[i].kind == "stat"
                              and self.facts.learns[i].qualname in lib.SHIFT_STATISTICS)
            if rows.rows and not stat.rows and not stat.scores and stats:
                return (rows.rescaled & rows.learned) | stats
        return frozenset()

    def _scaling_noise(self, data: Data, drawn: frozenset) -> Data:
        """``data`` without the statistics of rows other than the random ``drawn`` ones."""
        roots = {r.root for r in drawn}
        foreign = frozenset(i for i in data.learned if self.facts.learns[i].kind == "stat"
                            and not any(r.root in roots for r in self.facts.learns[i].rows))
        return replace(data, learned=data.learned - foreign,
                       by_column=tuple((c, ids - foreign) for c, ids in data.by_column if ids - foreign))

    def _against_labels(self, values) -> None:
        """Predictions set against labels (``pred == y_test``): the model that made them was
        scored."""
        self._mark_scored(_set_against_labels(values))

    def _compare_scores(self, left: frozenset, right: frozenset) -> None:
        """``base - accuracy_score(...)``: two scores set against each other."""
        if left and right and left != right:
            for evaluation in self.facts.evaluations:
                if evaluation.id in left:
                    evaluation.compared_with |= right
                elif evaluation.id in right:
                    evaluation.compared_with |= left

    def ex_Compare(self, node, scope):
        values = [self.ev(node.left, scope)] + [self.ev(c, scope) for c in node.comparators]
        operands = [node.left] + list(node.comparators)
        if not any(isinstance(o, ast.Constant) for o in operands) and isinstance(node.ops[0], lib.ORDERING):
            self._choice(values, node)
        result = self.derive([self._drop_stats(as_data(v)) for v in values], node)
        if all(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
            self._against_labels(values)  # (pred == y_test).mean(); a membership test scores nothing
        if any(isinstance(v, Data) and (v.element or v.counter) for v in values) and isinstance(node.ops[0], ast.Eq):
            return replace(result, counter=True)  # df["well"] == well: the rows of one entity
        return result

    def ex_BoolOp(self, node, scope):
        """``a or b``: one of the operands, as a branch would give (``load_npz() or load_csv()``
        returning the same four parts keeps them apart); the one Python picks when the operands
        before it are literals (``features or []`` with ``features`` None is ``[]``)."""
        values = [with_literal(self.ev(v, scope), v) for v in node.values]
        for value in values[:-1]:
            literal = getattr(value, "literal", None)
            if literal is None or isinstance(literal[0], Mapping):
                return functools.reduce(join, values)
            if bool(literal[0]) == isinstance(node.op, ast.Or):  # `or` stops at a true one, `and` at a false one
                return value
        return values[-1]

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
        """A display with string keys holds the literal settings it spells (a value bound to
        a literal counts; any other value is Opaque): ``Model(**params)`` reads them."""
        keys = tuple(None if k is None else const_str(k) for k in node.keys)
        values = tuple(with_literal(self.ev(v, scope), v) if isinstance(v, _LITERAL_NODES) else self.ev(v, scope)
                       for v in node.values)
        settings: dict = {}
        items: dict = {}
        for key, value_node, value in zip(keys, node.values, values):
            literal = getattr(value, "literal", None)
            if key is None:  # ``{**base, "seed": 1}``: the unpacked display's settings, then these
                if not (isinstance(value, Seq) and value.keys and literal is not None and isinstance(literal[0], Mapping)):
                    return Seq(values, ())
                items.update(zip(value.keys, value.items))
                settings.update(literal[0].items)
                continue
            if not key:
                return Seq(values, ())
            known = literal is not None and not isinstance(literal[0], Mapping)
            items[key] = value
            settings[key] = literal[0] if known else Opaque(opaque_text(value_node))
        if not items:
            return Seq(values, ())
        return Seq(tuple(items.values()), tuple(items), literal=(Mapping(tuple(settings.items())),))

    def ex_Lambda(self, node, scope):
        return Function(node, scope, id(node))

    def _comprehension(self, node, scope, elts):
        inner = Scope(scope)
        inner.globals = scope.globals
        listed = False
        chosen = frozenset()
        within_sample = True  # every loop runs over parts of one sample (a row's characters)
        for gen in node.generators:
            iterated = self.ev(gen.iter, inner)
            within_sample = within_sample and as_data(iterated).element
            listed = len(node.generators) == 1 and iterated.__class__ is Seq and bool(iterated.items)
            self.assign(gen.target, self.iterate(iterated), inner)
            for cond in gen.ifs:
                chosen |= self._selections(as_data(self.ev(cond, inner)))
                if self._before_current(cond, gen.target, inner):
                    # [m for m in history[pid] if m["date"] < date] in a loop over matches: the
                    # records before the current row, whose statistics are trailing features of it
                    within_sample = True
        if not within_sample and _reads_outer_sample(elts, node.generators, scope):
            # [counter.get(p, 0) for p in patterns] with counter one sample met in a loop:
            # that sample's values, looked up by names
            within_sample = True
        self._loops += 1
        try:
            # the comprehension collects its samples back into one collection (the parts of
            # one sample stay that sample); over a display (models, file names), one item per
            # entry of it
            result = replace(merge_data([self.ev(elt, inner) for elt in elts]), element=within_sample, listed=listed)
        finally:
            self._loops -= 1
        if chosen and not result.rows:  # [c for c in cols if c not in low_importance]: names chosen by a selection
            result = replace(result, learned=result.learned | chosen)
        if _names_present(node):
            # [c for c in ["id", "date"] if c in df.columns]: those of the names the frame has
            # (its one generator's names, evaluated above)
            result = replace(result, texts=texts_of(iterated))
        return result

    def _before_current(self, cond, target, scope) -> bool:
        """``m["date"] < date`` (or ``<=``, or the other way round): a field of the item
        compared with a value of the one row being handled (a sample met in a loop)."""
        if not (isinstance(cond, ast.Compare) and len(cond.ops) == 1
                and isinstance(cond.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))):
            return False
        names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        sides = [cond.left, cond.comparators[0]]
        if isinstance(cond.ops[0], (ast.Gt, ast.GtE)):
            sides.reverse()  # date > m["date"]: the item's field is still the earlier one
        item, current = sides
        reads = {n.id for n in ast.walk(current) if isinstance(n, ast.Name)}
        if not (isinstance(item, (ast.Subscript, ast.Attribute)) and isinstance(current, (ast.Name, ast.Attribute))
                and {n.id for n in ast.walk(item) if isinstance(n, ast.Name)} & names and not reads & names):
            return False
        return as_data(self.ev(current, scope)).element

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
        parts = [self.ev(part.value, scope) if isinstance(part, ast.FormattedValue) else Data(texts=frozenset({part.value}))
                 for part in node.values]
        values = [value for part, value in zip(node.values, parts) if isinstance(part, ast.FormattedValue)]
        self._note_score_label(values + [value for part, value in zip(node.values, parts) if isinstance(part, ast.Constant)])
        # f"{col}_z" is one known string; f"{x!r}" and f"{x:.2f}" are formatted, not joined
        plain = all(getattr(part, "conversion", -1) == -1 and getattr(part, "format_spec", None) is None for part in node.values)
        joined = _joined_text(parts) if plain else None
        return Data(tuning=merge_data(values).tuning, texts=frozenset({joined}) if joined is not None else frozenset())


_VALUE_AGGREGATES = {"mean", "median", "sum", "std", "var", "min", "max"}


def _added_strings(node) -> frozenset:
    """The string constants of a chain of ``+`` (``"a" + str(x) + "b"``)."""
    found, stack = set(), [node]
    while stack:
        part = stack.pop()
        if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Add):
            stack += (part.left, part.right)
        elif isinstance(part, ast.Constant) and isinstance(part.value, str):
            found.add(part.value)
    return frozenset(found)


def _joined_text(parts) -> Optional[str]:
    """The one string that parts, each one known string, make put together."""
    texts = [_single_text(part) for part in parts]
    if any(text is None for text in texts) or any(as_data(part).rows for part in parts):
        return None
    return "".join(texts)


def _row_mask(index) -> bool:
    """``df[df.x == 0]``, ``df[~m & n]``: a boolean condition selects rows (a copy)."""
    return isinstance(index, (ast.Compare, ast.BoolOp)) or (
        isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.Invert))


def _single_text(value) -> Optional[str]:
    """The one string a value is (``"price"``, or a parameter handed ``"price"``)."""
    texts = value.texts if isinstance(value, Data) else ()
    return next(iter(texts)) if len(texts) == 1 else None


def _definition(stmt) -> bool:
    """What importing a module binds without running its script: functions, classes,
    imports and constants."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        return True
    value = getattr(stmt, "value", None) if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
    return value is not None and all(
        isinstance(n, (ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Load)) for n in ast.walk(value)
    )


def _set_against_labels(values) -> frozenset:
    """The Evaluations whose predictions ``values`` set against labels (rows that are not
    predictions)."""
    data = [as_data(v) for v in values]
    if any(d.scores for d in data) and any(d.rows and not d.scores for d in data):
        return frozenset().union(*(d.scores for d in data))
    return frozenset()


def _rewrites_own_column(target, source) -> bool:
    """``df[c] = pd.to_numeric(df[c])``: the value reads the very column it is written to."""
    if target is None or source is None or not isinstance(target.slice, ast.Name):
        return False
    frame, key = ast.dump(target.value), target.slice.id
    return any(isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Name) and n.slice.id == key
               and ast.dump(n.value) == frame for n in ast.walk(source))


def _listed_columns(slot, target) -> Optional[list]:
    """``df[["a", "b"]] = v`` / ``df[cols] = v`` with ``cols`` a list of names: those columns."""
    if target is None or isinstance(target.value, ast.Attribute) and target.value.attr in ("loc", "iloc", "at", "iat"):
        return None
    columns = _selected_columns(slot, False)
    return columns if columns and len(columns) > 1 and isinstance(slot, Seq) else None


def _selected_columns(key, indexer: bool, any_of: bool = False) -> Optional[list]:
    """The column names a subscript selects (``df["a"]``, ``df[cols]``, ``df.loc[:, ["a"]]``),
    or None when they are not constants. ``any_of``: every column it may select
    (``df[[feature]]`` in a loop over a list of names)."""
    if indexer:
        if not (isinstance(key, Seq) and len(key.items) == 2):
            return None
        key = key.items[1]
    known = (lambda i: len(i.texts) >= 1) if any_of else (lambda i: len(i.texts) == 1)
    if isinstance(key, Data) and known(key):
        return sorted(key.texts)
    if isinstance(key, Seq) and key.items and all(isinstance(i, Data) and known(i) for i in key.items):
        return [t for i in key.items for t in sorted(i.texts)]
    return None


_LITERAL_NODES = (ast.Constant, ast.List, ast.Tuple, ast.UnaryOp)


READS_ANY = frozenset({"exec", "eval", "globals", "locals", "vars"})  # a skipped line naming one may read any name

HAND_TRAINED = frozenset({"torch", "jax", "flax", "paddle", "mxnet", "chainer"})  # models trained in loops the analysis does not follow


def _reads_outer_sample(elts, generators, scope) -> bool:
    """Each item reads a sample bound outside the comprehension (one met in a loop), and
    the comprehension loops over no rows of that sample's table (names, keys, numbers,
    patterns learned elsewhere): ``[norm(x - o) for o in X]`` reads every row of X."""
    targets = {n.id for gen in generators for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
    outer = [scope.lookup(n.id) for elt in elts for n in ast.walk(elt)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in targets]
    samples = [v for v in outer if isinstance(v, Data) and v.element and v.rows]
    roots = {r.root for v in samples for r in v.rows}
    looped = {r.root for gen in generators for n in ast.walk(gen.iter)
              if isinstance(n, ast.Name) and n.id not in targets for r in as_data(scope.lookup(n.id)).rows}
    return bool(samples) and not roots & looped


def _one_item(data: Data) -> Data:
    """An item of a list of rowless values (``for signal in signals``, the signals cut out of
    an array column by column): one sample, whose own statistics are features of that
    sample. Names and counters stay what they are."""
    if data.rows or data.texts or data.counter or data.grouped is not None:
        return data
    return replace(data, element=True)


def _names_only(node) -> bool:
    """``x`` or ``a, b, c``: names handed on as they are, nothing computed from them."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return bool(node.elts) and all(isinstance(e, ast.Name) for e in node.elts)
    return isinstance(node, ast.Name)


def _names_present(node) -> bool:
    """``[c for c in names if c in df.columns]``: the comprehension keeps those of the names
    a frame has (each ``if`` tests the name's membership in a frame's columns)."""
    if not isinstance(node, ast.ListComp) or len(node.generators) != 1:
        return False
    gen = node.generators[0]
    return (isinstance(gen.target, ast.Name) and isinstance(node.elt, ast.Name) and node.elt.id == gen.target.id
            and bool(gen.ifs) and all(
                isinstance(c, ast.Compare) and len(c.ops) == 1 and isinstance(c.ops[0], ast.In)
                and isinstance(c.left, ast.Name) and c.left.id == gen.target.id
                and isinstance(c.comparators[0], ast.Attribute) and c.comparators[0].attr == "columns"
                for c in gen.ifs))


def _handed_parts(targets, value, source, scope) -> Optional[list]:
    """The values of the names handed to an unread call, ``prepare(X_train, X_test)``, when as
    many names take its result and each handed value holds other rows, split parts among
    them (``prepare(X_train, X_val, submission)``: the rows to predict are a third set);
    None otherwise."""
    if not (isinstance(source, ast.Call) and value.__class__ is Data and len(targets) == len(source.args) > 1
            and all(isinstance(a, ast.Name) for a in source.args)):
        return None
    parts = [scope.lookup(a.id) for a in source.args]
    if not all(p.__class__ is Data and p.rows for p in parts) or len({p.rows for p in parts}) < len(parts) \
            or not any(all(r.side is not None for r in p.rows) for p in parts):
        return None
    return parts


def _modelless(facts, tree: ast.Module) -> bool:
    """No model is fitted or scored in the file, by a library or by hand (matrix algebra:
    ``np.linalg.solve(X_train.T @ X_train, ...)``), and it writes no data out: a split made
    at its top level serves a chart or a look at the parts, not an evaluation (one whose
    parts are saved may feed a model elsewhere)."""
    if facts.trainings or facts.evaluations or _trains_by_hand(tree):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return False
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in lib.DATA_WRITERS or name in lib.MATRIX_SOLVERS:
                return False
    return True


def _trains_by_hand(tree: ast.Module) -> bool:
    """The file imports a framework whose models are trained in hand-written loops: a split
    with no model the analysis sees may still feed one."""
    for node in statements(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in HAND_TRAINED for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in HAND_TRAINED:
            return True
    return False


def _split_sides(value) -> set:
    """The sides of splits whose rows ``value`` holds (or, for a tuple of parts, its items)."""
    items = value.items if value.__class__ is Seq else (value,)
    return {r.side for item in items if item.__class__ is Data for r in item.rows if r.side is not None} | {
        item.side for item in items if item.__class__ is FoldIndex}


def _referenced_names(tree: ast.Module) -> set:
    """Every name the code loads or reads as an attribute: what could call a function."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names


def _named_sides(targets) -> Optional[dict]:
    """{name: (side, numbers)} for unpacked names that say which side of a split they hold
    (``X_tr, X_val, y_tr, y_val``: "train", "test", "val" or "holdout"), when both sides are
    named. Numbers in a name tell parts of one side apart (``X_val_s1``, ``X_val_s2``)."""
    sides = {t.id: side_part(t.id) for t in targets if isinstance(t, ast.Name)}
    sides = {name: (part, tuple(re.findall(r"\d+", name))) for name, part in sides.items() if part is not None}
    kinds = {part for part, _ in sides.values()}
    return sides if "train" in kinds and len(kinds) > 1 else None


def _reseparated(node, base: Data, key) -> Optional[Data]:
    """``stacked.iloc[:len(train)]`` / ``[len(train):]`` of ``concat([train, test])``:
    the original frames again, not a split. A bound that counts other rows than the
    sliced ones (``codes[:n_train]`` of codes computed over train, test and an external
    table stacked) cuts the stack where one dataset ends, whatever the analysis knows of
    the stack's rows; a third part (``[n_train:n_train + n_test]``) is the next dataset."""
    cut = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
    bound = key.items[0] if isinstance(key, Seq) and key.items else key
    counted = bound.size_of if isinstance(bound, Data) else frozenset()
    if not isinstance(cut, ast.Slice) or not counted or counted >= base.rows:
        return None
    rest = base.rows - counted if counted < base.rows else base.rows
    if cut.lower is None and cut.upper is not None:
        rows = counted
    elif cut.lower is not None:
        rows = rest
    else:
        return None
    return Data(rows=rows, learned=base.learned, time=base.time)


def _new_key(target, keys: tuple) -> bool:
    """``d[f"q{q}"]`` whose literal parts no key of ``d`` has around them: a key not yet in it."""
    if target is None or not isinstance(target.slice, ast.JoinedStr):
        return False
    pattern = "".join(re.escape(part.value) if isinstance(part, ast.Constant) else ".*" for part in target.slice.values)
    return not any(isinstance(key, str) and re.fullmatch(pattern, key, re.S) for key in keys)


def _narrowed_side(left: Data, right: Data):
    """``df.day.isin(train_days) & (df.label_end <= cutoff)``: one mask selects a side of a
    split of the frame's rows, the other (a condition on all of them, maybe against a value
    taken from a part) narrows it; the rows both select are of that side."""
    for sided, other in ((left, right), (right, left)):
        if sided.rows and all(r.side is not None for r in sided.rows) and any(r.side is None for r in other.rows) \
                and {r.root for r in other.rows} <= {r.root for r in sided.rows}:
            return sided.rows
    return None


def _entry_by_unknown_key(target, current) -> bool:
    """``d[name] = value`` into an empty dict, or one filled only this way: one entry stands
    for them all."""
    return target is not None and not isinstance(target.slice, (ast.Constant, ast.Slice, ast.Tuple)) and (
        not current.items or (len(current.keys) == len(current.items) and all(str(k).startswith("<") for k in current.keys)))


def _with_entry(keys: tuple, items: tuple, key: str, value) -> tuple:
    """(keys, items) of a dict with ``key``'s entry set to ``value`` (added when new)."""
    if key in keys:
        at = keys.index(key)
        return keys, items[:at] + (value,) + items[at + 1:]
    return keys + (key,), items + (value,)


def _tags_after(frame: Data, column, slot, value) -> tuple:
    """The frame's tags once ``value`` is written into ``column``: ``df.loc[rows, "part"] =
    "train"`` with ``rows`` one side of a split of the frame's rows tags them; any other
    write into the column leaves what its tags said unknown."""
    kept = tuple(tag for tag in frame.tags if tag[0] != column)
    texts = as_data(value).texts
    where = as_data(slot.items[0]).rows if isinstance(slot, Seq) and len(slot.items) == 2 else frozenset()
    if column is None or len(texts) != 1 or not where or any(r.side is None for r in where) \
            or not {r.root for r in where} <= {r.root for r in frame.rows}:
        return kept
    (text,) = texts
    others = tuple(tag for tag in frame.tags if tag[0] == column and tag[1] != text and not tag[2] & where)
    return kept + others + ((column, text, where),)


def _tagged_rows(node: ast.Subscript, base: Data) -> Optional[frozenset]:
    """``df[df["part"] == "train"]`` / ``df.loc[df.part == "train"]``: the rows a tag wrote."""
    if not base.tags or not isinstance(node.slice, ast.Compare) or len(node.slice.ops) != 1 \
            or not isinstance(node.slice.ops[0], ast.Eq):
        return None
    left, text = node.slice.left, const_str(node.slice.comparators[0])
    column = const_str(left.slice) if isinstance(left, ast.Subscript) else left.attr if isinstance(left, ast.Attribute) else None
    return next((rows for col, tag, rows in base.tags if (col, tag) == (column, text)), None)


def _per_row_fit(node) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "fit_transform"
        and bool(node.args)
        and isinstance(node.args[0], ast.Attribute)
        and node.args[0].attr == "T"
    )


def analyze(tree: ast.Module, time_functions=frozenset(), head_slices: bool = True, path: Optional[str] = None,
            complete: bool = True, unread_names: frozenset = frozenset()) -> Facts:
    """``path``: the analysed file, from which imports of the project's own modules are
    found; ``complete``: no line of it was neutralised and no cell skipped;
    ``unread_names``: the identifiers on the lines that were."""
    return Interpreter(time_functions, path).run_module(tree, head_slices, complete, unread_names)
