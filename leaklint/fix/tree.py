"""The syntax a fix is planned on: nodes by position, their statements and blocks, and
where a name is read or written. Built with ``ast`` only for files that have findings."""
from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize
from collections import defaultdict
from typing import Optional

from ..findings import Op
from ..lines import split_lines

_SNAKE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


class NoFix(Exception):
    """The code is not in a shape the fix can rewrite without changing its meaning."""


class FixError(Exception):
    """Planned ops could not be written (the code is not where the plan said it was)."""


class Tree:
    def __init__(self, tree: ast.Module, text: str, unread=()):
        """``unread``: (line, source) of lines the analysis skipped (a Python 2 ``print x``):
        every name on them counts as read there, so no fix deletes what they use."""
        self.tree = tree
        self.text = text
        self.lines = split_lines(text)
        self.parent: dict = {}
        self.calls: dict = {}
        self.names = defaultdict(list)
        stack = [tree]
        while stack:
            node = stack.pop()
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
                stack.append(child)
            if isinstance(node, ast.Call):
                self.calls[(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)] = node
            elif isinstance(node, ast.Name):
                self.names[node.id].append(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.names[node.name].append(node)
            elif isinstance(node, ast.alias):
                self.names[(node.asname or node.name).split(".")[0]].append(node)
        for line, source in unread:
            for name in _names_in_text(source):
                self.names[name].append(ast.Name(name, ast.Load(), lineno=line, col_offset=0, end_lineno=line,
                                                 end_col_offset=0))

    # ------------------------------------------------------------ nodes and text
    def call(self, span) -> ast.Call:
        node = self.calls.get((span.line, span.column, span.end_line, span.end_column))
        if node is None or getattr(span, "path", None) is not None:
            raise NoFix
        return node

    def source(self, node) -> str:
        """The node's source text (``ast.get_source_segment`` without re-splitting the file)."""
        if getattr(node, "end_lineno", None) is None:
            raise NoFix
        first, last = node.lineno - 1, node.end_lineno - 1
        start, end = node.col_offset, node.end_col_offset
        if first == last:
            return self.lines[first].encode("utf-8")[start:end].decode("utf-8")
        head = self.lines[first].encode("utf-8")[start:].decode("utf-8")
        tail = self.lines[last].encode("utf-8")[:end].decode("utf-8")
        return "\n".join([head, *self.lines[first + 1:last], tail])

    def spliced(self, node, swaps: dict) -> str:
        """The node's source with some of the nodes inside it replaced by new text."""
        text = self.source(node)
        lines = text.split("\n")
        offsets = [0]
        for line in lines[:-1]:
            offsets.append(offsets[-1] + len(line) + 1)

        def at(line, column):
            row = line - node.lineno
            col = self._char(line, column) - (self._char(node.lineno, node.col_offset) if row == 0 else 0)
            return offsets[row] + col

        for inner, new in sorted(swaps.items(), key=lambda item: (item[0].lineno, item[0].col_offset), reverse=True):
            text = text[: at(inner.lineno, inner.col_offset)] + new + text[at(inner.end_lineno, inner.end_col_offset):]
        return text

    def _char(self, line: int, offset: int) -> int:
        text = self.lines[line - 1] if 1 <= line <= len(self.lines) else ""
        return offset if text.isascii() else len(text.encode("utf-8")[:offset].decode("utf-8", "ignore"))

    def op(self, kind: str, node, code: str = "") -> Op:
        return Op(kind, node.lineno, self._char(node.lineno, node.col_offset),
                  node.end_lineno, self._char(node.end_lineno, node.end_col_offset), code)

    def replace(self, node, code: str) -> Op:
        return self.op("replace", node, code)

    def statement(self, node) -> ast.stmt:
        while not isinstance(node, ast.stmt):
            node = self.parent.get(node)
            if node is None:
                raise NoFix
        return node

    def scope_of(self, node):
        """The function (or module) whose names ``node`` reads."""
        node = self.parent.get(node)
        while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            node = self.parent.get(node)
        return node

    def block(self, stmt) -> tuple:
        """The statement list holding ``stmt`` and its index there."""
        owner = self.parent.get(stmt)
        for name in ("body", "orelse", "finalbody"):
            items = getattr(owner, name, None)
            if isinstance(items, list) and any(item is stmt for item in items):
                return items, next(i for i, item in enumerate(items) if item is stmt)
        raise NoFix

    def assigned(self, node) -> ast.Assign:
        """The statement ``target = node`` (one target), else NoFix."""
        stmt = self.parent.get(node)
        if not isinstance(stmt, ast.Assign) or stmt.value is not node or len(stmt.targets) != 1:
            raise NoFix
        if not self.alone(stmt):
            raise NoFix
        return stmt

    def alone(self, stmt) -> bool:
        """The statement has its lines to itself (no ``a = 1; b = 2``)."""
        items, index = self.block(stmt)
        owner = self.parent.get(stmt)
        if not isinstance(owner, ast.Module) and getattr(owner, "lineno", 0) == stmt.lineno:
            return False  # ``if 1: x = f()`` (IPython's %time, neutralised) or a one-line suite
        before = items[index - 1] if index else None
        after = items[index + 1] if index + 1 < len(items) else None
        return (before is None or before.end_lineno < stmt.lineno) and (after is None or after.lineno > stmt.end_lineno)

    # ------------------------------------------------------------ names
    def loads(self, name: str, after: int = 0, before: Optional[int] = None, skip=()) -> list:
        """Reads of ``name`` on lines in (after, before), outside the nodes in ``skip``."""
        skipped = {id(node) for node in skip}
        out = []
        for node in self.names.get(name, ()):
            if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load) or id(node) in skipped:
                continue
            if node.lineno > after and (before is None or node.lineno < before):
                out.append(node)
        return out

    def binding(self, name: str, use) -> Optional[ast.AST]:
        """The last node that binds ``name`` before the node ``use``, in ``use``'s scope (an
        assignment target, an import, a ``def``); None when there is none."""
        scope = self.scope_of(use)
        stores = [n for n in self.names.get(name, ()) if not (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
                  and getattr(n, "lineno", 0) < use.lineno and self.scope_of(n) is scope]
        return max(stores, key=lambda n: (n.lineno, n.col_offset), default=None)

    def written(self, name: str, after: int, before: Optional[int] = None) -> bool:
        """``name`` is bound, deleted or changed in place on lines in (after, before)."""
        for node in self.names.get(name, ()):
            line = getattr(node, "lineno", 0)
            if line <= after or (before is not None and line >= before):
                continue
            if not isinstance(node, ast.Name) or not isinstance(node.ctx, ast.Load):
                return True
            if self.mutated(node):
                return True
        return False

    def mutated(self, name: ast.Name) -> bool:
        """The read ``name`` is changed in place there (``df[c] = v``, ``df.x += 1``, ``inplace=True``)."""
        node, parent = name, self.parent.get(name)
        while isinstance(parent, (ast.Subscript, ast.Attribute)) and parent.value is node:
            if isinstance(parent.ctx, (ast.Store, ast.Del)):
                return True
            node, parent = parent, self.parent.get(parent)
        if isinstance(parent, ast.AugAssign) and parent.target is node:
            return True
        if isinstance(parent, ast.Call) and node is parent.func and isinstance(node, ast.Attribute):
            return any(k.arg == "inplace" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                       for k in parent.keywords)
        return False

    def names_in(self, node) -> set:
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}

    def steady(self, node, after: int, before: int) -> None:
        """NoFix unless every name ``node`` reads keeps its value on lines in (after, before)."""
        if any(self.written(name, after, before) for name in self.names_in(node)):
            raise NoFix

    def fresh(self, wanted: str) -> str:
        name, n = wanted, 2
        while name in self.names:
            name, n = f"{wanted}_{n}", n + 1
        return name

    def imported_from(self, name: str) -> Optional[str]:
        """The module ``from module import name`` binds ``name`` from (None: not bound so)."""
        for node in self.names.get(name, ()):
            if isinstance(node, ast.alias):
                owner = self.parent.get(node)
                if isinstance(owner, ast.ImportFrom) and owner.module and not owner.level:
                    return owner.module
        return None

    def module_of(self, name: str) -> Optional[str]:
        """The module ``import module as name`` binds ``name`` to, when nothing else binds it."""
        nodes = self.names.get(name, ())
        if not nodes or not all(isinstance(n, ast.alias) and isinstance(self.parent.get(n), ast.Import) for n in nodes
                                if not (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))):
            return None
        return next((n.name for n in nodes if isinstance(n, ast.alias)), None)

    def origin(self, func) -> Optional[str]:
        """The module a called function comes from: ``read_csv`` imported from pandas, or
        ``pd.read_csv``; None for anything else (a method of a value)."""
        if isinstance(func, ast.Name):
            return self.imported_from(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            return self.module_of(func.value.id)
        return None

    def generator(self, node) -> bool:
        """``node`` is a name bound to a call of a generator function this file defines: its
        items can be read once, in order, and not drawn by index (as folds are)."""
        if not isinstance(node, ast.Name):
            return False
        store = self.binding(node.id, node)
        value = self.parent.get(store).value if isinstance(self.parent.get(store), ast.Assign) else None
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
            return False
        return any(isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and d.name == value.func.id
                   and any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(d))
                   for d in self.names.get(value.func.id, ()))

    def bound(self, name: str) -> bool:
        return name in self.names

    def imported(self, name: str) -> bool:
        """Some import binds ``name`` (a module or a function, not a table of the code)."""
        return any(isinstance(n, ast.alias) for n in self.names.get(name, ()))


def snake(class_name: str) -> str:
    """``StandardScaler`` -> ``standard_scaler``, ``SMOTE`` -> ``smote``."""
    return _SNAKE.sub("_", class_name).lower()


def _names_in_text(source: str) -> set:
    """The identifiers of a line that does not parse (its strings and comments left out)."""
    names = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME and not keyword.iskeyword(token.string):
                names.add(token.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        names.update(re.findall(r"[A-Za-z_]\w*", source))
    return names


def call_name(call: ast.Call) -> str:
    """The last component of what is called: ``train_test_split``, ``fit``."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def argument(call: ast.Call, index: int, keyword: str):
    """The argument at ``index`` or named ``keyword`` (None when absent)."""
    if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        raise NoFix
    if index < len(call.args):
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)
