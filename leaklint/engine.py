"""One file through the pipeline: read -> screen -> parse -> facts -> rules -> suppress."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .analysis import analyze
from .analysis.facts import Span
from .findings import Finding, Location, Related
from .ruleset import Context, Rule
from .sources import Source, SourceError, read_source
from .suppress import file_is_suppressed, suppressed

# Every rule needs a split, a cross-validation or a search; a file that names none
# cannot leak, and is not parsed. A positional split (``X[:n]`` and ``X[n:]``) names
# nothing, so a file with a fit and a head slice is kept too.
SCREEN = re.compile(
    rb"train_test_split|cross_val|cross_validate|Fold\b|Fold\(|Split\b|Split\(|LeaveOne|LeaveP"
    rb"|SearchCV|_curve\b|permutation_test_score|\.split\(\s*[A-Za-z_]"
)
FIT_CALL = re.compile(rb"\.fit\w*\(")
HEAD_SLICE = re.compile(rb"\[\s*0?\s*:\s*[A-Za-z_(]")


def may_leak(text: bytes) -> bool:
    """The cheap textual screen run before parsing."""
    if SCREEN.search(text) is not None:
        return True
    return FIT_CALL.search(text) is not None and HEAD_SLICE.search(text) is not None


PARSE_CODE = "LL000"
PARSE_NAME = "unparsable-file"


@dataclass
class FileResult:
    path: str
    findings: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # LL000 findings: could not read or parse
    internal: list = field(default_factory=list)  # one line per internal error


def diagnostic(path: str, reason: str, line=None, cell=None) -> Finding:
    line = line or 1
    return Finding(
        path=path,
        code=PARSE_CODE,
        name=PARSE_NAME,
        severity="warning",
        message=reason,
        help="fix the file or exclude it; leaklint analysed the other files",
        location=Location(line, 1, line, 1, cell),
    )


def parse(source: Source, path: str) -> tuple:
    """Parse the source; a notebook cell that does not parse is reported and blanked."""
    text = source.text
    errors = list(source.skipped)
    for _ in range(len(source.cells or ()) + 1):
        try:
            return ast.parse(text, filename=path), errors, text
        except SyntaxError as err:
            cell, line = source.locate(err.lineno or 1)
            reason = f"syntax error: {err.msg}"
            if source.cells is None:
                raise SourceError(reason, err.lineno) from None
            errors.append(SourceError(reason + "; cell skipped", line, cell))
            lines = text.split("\n")
            for index, (number, _line) in enumerate(source.cells):
                if number == cell and index < len(lines):
                    lines[index] = ""
            text = "\n".join(lines)
        except (ValueError, MemoryError, RecursionError) as err:
            raise SourceError(f"cannot parse: {type(err).__name__}") from None
    raise SourceError("cannot parse")


def lint_bytes(path: str, raw: bytes, rules: list, catalogs: dict, time_functions=frozenset()) -> FileResult:
    result = FileResult(path)
    if not path.endswith(".ipynb") and not may_leak(raw):
        return result
    try:
        source = read_source(path, raw)
        if path.endswith(".ipynb") and not may_leak(source.text.encode("utf-8", "replace")):
            return result
        tree, cell_errors, text = parse(source, path)
    except SourceError as err:
        result.errors.append(diagnostic(path, err.reason, err.line, err.cell))
        return result
    for err in cell_errors:
        result.errors.append(diagnostic(path, err.reason, err.line, err.cell))
    if file_is_suppressed(text):
        return result
    try:
        facts = analyze(tree, time_functions)
    except RecursionError:
        result.errors.append(diagnostic(path, "too deeply nested to analyse"))
        return result
    result.findings = _run_rules(path, source, tree, text, facts, rules, catalogs)
    return result


def _run_rules(path, source, tree, text, facts, rules, catalogs) -> list:
    def location(span: Span) -> Location:
        cell, line = source.locate(span.line)
        end_cell, end_line = source.locate(span.end_line)
        if end_cell != cell:
            end_line = line
        return Location(line, span.column + 1, end_line, span.end_column + 1, cell)

    def where(span: Span) -> str:
        cell, line = source.locate(span.line)
        return f"line {line}" if cell is None else f"cell {cell}, line {line}"

    lines = text.split("\n")
    starts = None
    findings = {}
    for rule in rules:
        ctx = Context(facts, catalogs[rule.code], where)
        for hit in rule.check(ctx):
            if starts is None:
                starts = _statement_starts(tree)
            candidates = (hit.span.line, starts.get(hit.span.line, hit.span.line))
            if suppressed(rule.code, lines, candidates):
                continue
            loc = location(hit.span)
            key = (rule.code, loc.cell, loc.line)
            if key in findings:
                continue
            findings[key] = Finding(
                path=path,
                code=rule.code,
                name=rule.name,
                severity="error",
                message=hit.message,
                help=rule.help,
                location=loc,
                related=tuple(Related(location(span), message) for span, message in hit.related),
                procedure=hit.procedure,
            )
    return sorted(findings.values(), key=Finding.sort_key)


def _statement_starts(tree) -> dict:
    """Map each line to the first line of the outermost simple statement holding it."""
    starts = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                starts.setdefault(line, node.lineno)
    return starts


__all__ = ["FileResult", "Rule", "lint_bytes", "diagnostic", "PARSE_CODE"]
