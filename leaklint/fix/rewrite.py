"""Ops written into the code with libcst, which keeps every comment and every bit of
formatting it is not asked to change. Imported only when a fix is computed: the lint
path never pays for libcst."""
from __future__ import annotations

import ast
import warnings
from functools import lru_cache

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.metadata import MetadataWrapper, PositionProvider

from .tree import FixError


@lru_cache(maxsize=8)
def _parsed(text: str) -> cst.Module:
    """libcst's tree of a file, parsed once for all the fixes written into it (trees are immutable).
    A file libcst does not write back byte for byte gets no fix: a fix changes only what it
    is about (lone-CR line ends, which libcst drops at the end, are handled by rewrite)."""
    try:
        module = cst.parse_module(text)
    except (cst.ParserSyntaxError, RecursionError) as err:
        raise FixError(f"libcst cannot parse the file: {str(err).splitlines()[0]}") from None
    if module.code != text:
        raise FixError("libcst cannot write the file back unchanged")
    return module


def rewrite(text: str, ops) -> str:
    """``text`` with ``ops`` applied; FixError when one cannot be, or the result does not parse."""
    if "\r" in text and "\n" not in text:
        # every line ends in a lone CR (old Mac files), which libcst does not write back:
        # written with LF and turned back, the same lines and columns, byte for byte elsewhere
        return rewrite(text.replace("\r", "\n"), ops).replace("\n", "\r")
    module = _parsed(text)
    edits = [op for op in ops if "import" not in op.kind]
    applier = _Apply(edits)
    module = MetadataWrapper(module, unsafe_skip_copy=True).visit(applier)
    missing = [op for op in edits if id(op) not in applier.done]
    if missing:
        raise FixError(f"the code at line {missing[0].line} is not what the fix expects")
    context = CodemodContext()
    for op in ops:
        parts = op.code.split(":")
        if op.kind == "import":  # module:name[:asname], or a module alone
            AddImportsVisitor.add_needed_import(context, parts[0], parts[1] if len(parts) > 1 else None,
                                                parts[2] if len(parts) > 2 else None)
    if any(op.kind == "import" for op in ops):
        module = AddImportsVisitor(context).transform_module(module)
    removals = [op.code.split(":") for op in ops if op.kind == "unimport"]
    if removals:
        context = CodemodContext()
        for module_name, name in removals:
            RemoveImportsVisitor.remove_unused_import(context, module_name, name)
        module = RemoveImportsVisitor(context).transform_module(module)
    code = module.code
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(code)
    except (SyntaxError, ValueError) as err:
        raise FixError(f"the fixed code does not parse: {err}") from None
    return code


def _key(op) -> tuple:
    return (op.line, op.column, op.end_line, op.end_column)


class _Apply(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, ops):
        super().__init__()
        self.by_span: dict = {}
        for op in ops:
            self.by_span.setdefault(_key(op), []).append(op)
        self.done: set = set()
        self.pending: list = []  # leading lines of a deleted statement, for the next one
        self.receivers: dict = {}

    def _span(self, node) -> tuple:
        where = self.get_metadata(PositionProvider, node)
        return (where.start.line, where.start.column, where.end.line, where.end.column)

    def _take(self, node, kinds) -> list:
        found = [op for op in self.by_span.get(self._span(node), ()) if op.kind in kinds and id(op) not in self.done]
        for op in found:
            self.done.add(id(op))
        return found

    def on_visit(self, node) -> bool:
        if self.pending and isinstance(node, cst.BaseStatement):
            self.receivers[id(node)] = self.pending  # the lines above a deleted statement stay here
            self.pending = []
        return super().on_visit(node)

    def on_leave(self, original, updated):
        if isinstance(original, cst.BaseExpression) and not isinstance(original, cst.BaseSuite):
            for op in self._take(original, ("replace", "keyword")):
                if op.kind == "replace":
                    replacement = cst.parse_expression(op.code)
                    updated = replacement.with_changes(lpar=updated.lpar, rpar=updated.rpar) if updated.lpar else replacement
                else:
                    updated = _keyword(updated, op.code)
        if isinstance(original, cst.Param):
            for op in self._take(original, ("params",)):  # one parameter becomes several
                params = list(cst.parse_module(f"def _({op.code}): pass\n").body[0].params.params)
                params[-1] = params[-1].with_changes(comma=updated.comma)
                return cst.FlattenSentinel(params)
        result = super().on_leave(original, updated)
        if isinstance(original, cst.BaseCompoundStatement):
            result = self._statement_ops(self._take(original, ("delete", "insert", "before")), result)
        lines = self.receivers.pop(id(original), None)
        if lines:
            result = self._lead(result, lines)
        return result

    def _lead(self, result, lines):
        if isinstance(result, cst.FlattenSentinel):
            first, *rest = result.nodes
            return cst.FlattenSentinel([first.with_changes(leading_lines=[*lines, *first.leading_lines]), *rest])
        if isinstance(result, cst.RemovalSentinel):
            self.pending = [*lines, *self.pending]
            return result
        return result.with_changes(leading_lines=[*lines, *result.leading_lines])

    def leave_SimpleStatementLine(self, original, updated):
        if len(original.body) != 1:
            return updated
        return self._statement_ops(self._take(original.body[0], ("delete", "insert", "before")), updated)

    def _statement_ops(self, ops, updated):
        """A statement deleted, or statements inserted before or after it."""
        if not ops:
            return updated
        if any(op.kind == "delete" for op in ops):
            # comments above it (and a notebook's cell markers) outlive the statement
            self.pending = [*self.pending, *updated.leading_lines]
            return cst.RemoveFromParent()
        before = [s for op in ops if op.kind == "before" for s in cst.parse_module(op.code + "\n").body]
        after = [s for op in ops if op.kind == "insert" for s in cst.parse_module(op.code + "\n").body]
        if before:
            before[0] = before[0].with_changes(leading_lines=updated.leading_lines)
            updated = updated.with_changes(leading_lines=())
        return cst.FlattenSentinel([*before, updated, *after])

    def leave_IndentedBlock(self, original, updated):
        if self.pending:
            updated = updated.with_changes(footer=[*self.pending, *updated.footer])
            self.pending = []
        if not updated.body:
            return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return updated

    def leave_Module(self, original, updated):
        if self.pending:
            updated = updated.with_changes(footer=[*self.pending, *updated.footer])
            self.pending = []
        return updated


def _keyword(call, code: str):
    """``name=value`` set on a call (replacing any such keyword); ``name=`` removes it."""
    if not isinstance(call, cst.Call):
        raise FixError("a keyword can only be set on a call")
    name, _, value = code.partition("=")
    args = [a for a in call.args if not (a.keyword is not None and a.keyword.value == name)]
    if args and len(args) < len(call.args) and not value:
        last = args[-1]
        if len(call.args) and call.args[-1].comma == cst.MaybeSentinel.DEFAULT:
            args[-1] = last.with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if value:
        new = cst.Arg(value=cst.parse_expression(value), keyword=cst.Name(name),
                      equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                            whitespace_after=cst.SimpleWhitespace("")))
        if args and args[-1].comma == cst.MaybeSentinel.DEFAULT:
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        elif args:
            new = new.with_changes(comma=args[-1].comma)
        args.append(new)
    return call.with_changes(args=args)
