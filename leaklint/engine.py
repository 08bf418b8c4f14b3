"""One file through the pipeline: read -> screen -> parse -> facts -> rules -> suppress."""
from __future__ import annotations

import ast
import codecs
import os
import re
import sys
import threading
import warnings
from dataclasses import dataclass, field, replace

from .analysis import analyze
from .analysis.facts import Span
from .findings import Finding, Location, Related
from .fix.plan import PLANNERS, merged, plan
from .fix.tree import Tree
from .recover import (LINE_SKIPPED, MAX_PASSES, READ_AS_CALL, READ_AS_CALLS, READ_AS_PYTHON3, READ_WITH_TAB_STOPS,
                      recover_line, syntax_reason)
from .ruleset import Context, Rule
from .lines import split_lines
from .sources import Source, SourceError, decode, read_source
from .suppress import file_is_suppressed, suppressed

# Every rule needs a split, a cross-validation, a search or a score; a file that names
# none cannot leak, and is not parsed. A positional split (``X[:n]`` and ``X[n:]``)
# names nothing, so a file with a fit and a head slice is kept too, and so is a file
# with a fit and a score (held-out rows loaded from their own file), a fit that watches
# rows while it trains (early stopping), a study's best value, and a fit whose
# predictions judge a look-ahead feature.
SCREEN = re.compile(
    rb"train_test_split|random_split|cross_val|cross_validate|Fold\b|Fold\(|Split\b|Split\(|LeaveOne|LeaveP"
    rb"|SearchCV|_curve\b|permutation_test_score|\.split\(\s*[A-Za-z_]|\.cv\(|sample\(\s*frac|validation_split"
)
FIT_CALL = re.compile(rb"\.fit\w*\(")
HEAD_SLICE = re.compile(rb"\[\s*0?\s*:\s*[A-Za-z_(\"']")
# Any ``[:bound`` or ``[0:bound``: the analysis pairs such slices into positional splits.
ANY_HEAD_SLICE = re.compile(r"\[\s*0?\s*:\s*[^\s\],:]")
_SCORES = (b".score(", b"_score(", b"_error(", b".evaluate(")
_WATCHED = (b"eval_set", b"validation_data", b"valid_sets", b"evals=", b"eval_X")
_LOOK_AHEAD = (b"shift(-", b"center=True", b"bfill", b"backfill", b"interpolate(", b"merge_asof", b".transform(\"", b".transform('")
# One of these is in every SCREEN match (tests/test_properties.py checks it).
_NEEDLES = (b"split", b"Split", b"cross_val", b"Fold", b"LeaveOne", b"LeaveP", b"SearchCV", b"_curve",
            b"permutation_test_score", b".cv(", b"sample(")


def may_leak(text: bytes) -> bool:
    """The cheap textual screen run before parsing."""
    # Substring tests (memchr-fast) rule most files out before the regexes run; every
    # SCREEN match contains one of _NEEDLES and every FIT_CALL match contains ".fit".
    if any(needle in text for needle in _NEEDLES) and SCREEN.search(text) is not None:
        return True
    if b"best_value" in text:
        return True
    if b".backward()" in text and b"best" in text:
        return True  # a model trained by hand whose best epoch may be kept (LL305)
    fitted = b".fit" in text and FIT_CALL.search(text) is not None
    if (fitted or b".train(" in text) and any(watched in text for watched in _WATCHED):
        return True
    if not fitted:
        return False
    # a positional split, or a model scored on rows loaded on their own
    if HEAD_SLICE.search(text) is not None or any(score in text for score in _SCORES):
        return True
    return b".predict" in text and any(ahead in text for ahead in _LOOK_AHEAD)


PARSE_CODE = "LL000"
PARSE_NAME = "unparsable-file"
PARSE_SUMMARY = "a file could not be read or parsed"
PARSE_DOC = ("leaklint could not read or parse this file (or a notebook cell, or a script line, "
             "which is then skipped and the rest analysed), so it was not analysed there.")
PARSE_HELP = "fix the file or exclude it"
# An LL000 message ending so names a part skipped; the rest of the file was analysed.
SKIPPED_SUFFIXES = (LINE_SKIPPED, "; cell skipped", READ_AS_CALL, READ_AS_CALLS, READ_AS_PYTHON3, READ_WITH_TAB_STOPS)
_WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)

# Nesting deeper than the default recursion limit allows is retried on a thread with a
# large stack and a higher limit; deeper still, the file is reported as LL000.
DEEP_RECURSION_LIMIT = 12_000
DEEP_STACK_SIZE = 512 * 1024 * 1024


@dataclass
class FileResult:
    path: str
    findings: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # LL000 findings: could not read or parse
    internal: list = field(default_factory=list)  # one line per internal error
    # (path, content digest) of the project modules whose code the analysis followed:
    # a cached result is reused only while they are unchanged
    depends: tuple = ()


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


NAMES_CODE = re.compile(r"[A-Za-z_]")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def parse(source: Source, path: str) -> tuple:
    """Parse the source; a notebook cell that does not parse is reported and blanked."""
    text = source.text
    errors = list(source.skipped)
    last = SourceError("cannot parse")
    for _ in range(len(source.cells) + 1 if source.cells is not None else MAX_PASSES):
        try:
            with warnings.catch_warnings():  # e.g. "invalid escape sequence": not ours to report
                warnings.simplefilter("ignore")
                return ast.parse(text, filename=path), errors, text
        except SyntaxError as err:
            cell, line = source.locate(err.lineno or 1)
            reason = syntax_reason(err, text)
            last = SourceError(f"{reason}, and more lines than leaklint recovers", line, cell)
            if source.cells is None:
                text = _skip_line(text, err.lineno, reason, errors)
                continue
            errors.append(SourceError(reason + SKIPPED_SUFFIXES[1], line, cell))
            lines = split_lines(text)
            for index, (number, _line) in enumerate(source.cells):
                if number == cell and index < len(lines):
                    lines[index] = ""
            text = "\n".join(lines)
        except MemoryError:  # the parser's own limit on nesting ("too complex")
            raise SourceError("cannot parse: too deeply nested or too complex for the Python parser") from None
        except ValueError as err:
            raise SourceError(f"cannot parse: {err}") from None
    raise last


def _skip_line(text: str, lineno, reason: str, errors: list) -> str:
    """Recover the line of a syntax error in a script (recover.py); a line that still
    fails, or too many bad lines, make the whole file unparsable."""
    recovered = recover_line(text, lineno, [e.reason for e in errors])
    if recovered is None:
        raise SourceError(reason, lineno) from None
    fixed, lines = recovered
    seen = {e.line for e in errors}
    errors.extend(SourceError(reason + how, number, None) for number, how in lines if number not in seen)
    return fixed


def prescreen(path: str, raw: bytes):
    """A FileResult when the file needs no parsing (None when it must be analysed).

    A file that names no split, cross-validation or search cannot leak and is not
    parsed; it is still decoded (cheap), so a binary or mis-encoded file is reported.
    """
    if path.endswith(".ipynb"):
        return None
    if raw.startswith(_WIDE_BOMS):
        try:
            screened = decode(raw).encode("utf-8")
        except SourceError:
            return None  # lint_bytes reports the decoding error
    else:
        screened = raw
    if may_leak(screened):
        return None
    result = FileResult(path)
    if screened is raw and raw.isascii() and b"\x00" not in raw:
        return result
    try:
        decode(raw)
    except SourceError as err:
        result.errors.append(diagnostic(path, err.reason, err.line, err.cell))
    return result


def lint_bytes(path: str, raw: bytes, rules: list, catalogs: dict, time_functions=frozenset()) -> FileResult:
    screened = prescreen(path, raw)
    if screened is not None:
        return screened
    try:
        return _lint(path, raw, rules, catalogs, time_functions)
    except RecursionError:
        pass
    try:
        return _deeply(_lint, path, raw, rules, catalogs, time_functions)
    except RecursionError:
        result = FileResult(path)
        result.errors.append(diagnostic(path, "too deeply nested to analyse (nesting deeper than the analysis supports)"))
        return result


def _deeply(function, *args):
    """Run ``function(*args)`` on a thread with a large stack and a higher recursion limit."""
    outcome: dict = {}

    def target():
        try:
            outcome["value"] = function(*args)
        except BaseException as err:  # re-raised on the calling thread
            outcome["error"] = err

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size()
    # The limit is process-wide: raised only while the caller waits for this thread.
    sys.setrecursionlimit(max(old_limit, DEEP_RECURSION_LIMIT))
    try:
        try:
            threading.stack_size(DEEP_STACK_SIZE)
            thread = threading.Thread(target=target, name="leaklint-deep", daemon=True)
            thread.start()
        except (ValueError, RuntimeError):  # the platform refuses a large stack
            raise RecursionError("no large stack available") from None
        finally:
            threading.stack_size(old_stack)
        thread.join()
    finally:
        sys.setrecursionlimit(old_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _lint(path, raw, rules, catalogs, time_functions) -> FileResult:
    result = FileResult(path)
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
    complete = text == source.text and not source.skipped and not cell_errors
    # a fix rewrites the file as stored: a notebook's cells keep their skipped lines (fix/notebook.py),
    # a script with a neutralised line or a notebook with a blanked cell gets none
    fixable = text == source.text
    unread = _unread_code(source, text)
    names = frozenset(IDENTIFIER.findall(" ".join(line.split("#")[0] for _, line in unread)))
    facts = analyze(tree, time_functions, ANY_HEAD_SLICE.search(text) is not None, path, complete, names)
    facts.unread_lines = frozenset(number for number, _ in unread)
    result.findings = _run_rules(path, source, tree, text, facts, rules, catalogs, fixable, complete)
    result.depends = tuple(sorted(facts.depends.items()))
    return result


def _run_rules(path, source, tree, text, facts, rules, catalogs, fixable, complete) -> list:
    def column(line: int, offset: int) -> int:
        """ast gives UTF-8 byte offsets; reports count characters (1-based)."""
        text_line = lines[line - 1] if 1 <= line <= len(lines) else ""
        if text_line.isascii():
            return offset + 1
        return len(text_line.encode("utf-8")[:offset].decode("utf-8", "ignore")) + 1

    def location(span: Span) -> Location:
        if span.path is not None:  # in another module of the project (a .py file)
            return Location(span.line, span.column + 1, span.end_line, span.end_column + 1, None)
        cell, line = source.locate(span.line)
        end_cell, end_line = source.locate(span.end_line)
        start, end = column(span.line, span.column), column(span.end_line, span.end_column)
        if end_cell != cell:
            end_line, end = line, start
        return Location(line, start, end_line, end, cell)

    def where(span: Span) -> str:
        if span.path is not None:
            return f"{display_path(span.path)}:{span.line}"
        cell, line = source.locate(span.line)
        return f"line {line}" if cell is None else f"cell {cell}, line {line}"

    def related(span: Span, message: str) -> Related:
        return Related(location(span), message, display_path(span.path) if span.path is not None else None)

    lines = split_lines(text)
    starts = None
    syntax = None
    findings = {}
    for rule in rules:
        ctx = Context(facts, catalogs[rule.code], where)
        for hit in rule.check(ctx):
            if starts is None:
                starts = _statement_starts(tree)
            candidates = (hit.span.line, starts.get(hit.span.line, hit.span.line))
            if hit.span.path is not None or suppressed(rule.code, lines, candidates):
                continue  # (a leak inside another module with no call in this file to report it at)
            loc = location(hit.span)
            key = (rule.code, loc.cell, loc.line)
            if key in findings:
                # one finding per line: a helper that fits two steps adds its second fit
                known = findings[key]
                extra = tuple(r for r in (related(span, message) for span, message in hit.related)
                              if r not in known.related)
                fix = known.fix
                if fix is not None:  # the line's fix must correct every leak on it, or there is none
                    syntax = syntax or Tree(tree, text, source.unread)
                    fix = merged(fix, plan(rule.code, hit, facts, syntax) if fixable else None)
                findings[key] = replace(known, related=known.related + extra, fix=fix)
                continue
            findings[key] = Finding(
                path=path,
                code=rule.code,
                name=rule.name,
                severity=rule.severity,
                message=hit.message,
                help=rule.help,
                location=loc,
                related=tuple(related(span, message) for span, message in hit.related),
                procedure=_located(hit.procedure, location),
            )
            if fixable and rule.code in PLANNERS:
                syntax = syntax or Tree(tree, text, source.unread)
                findings[key] = replace(findings[key], fix=plan(rule.code, hit, facts, syntax))
    if not complete:
        return sorted((_unread_lines(f) for f in findings.values()), key=Finding.sort_key)
    return sorted(findings.values(), key=Finding.sort_key)


def _unread_code(source: Source, text: str) -> list:
    """(number, text) of the lines of the analysed text that hold code the analysis did not
    read (a neutralised line of a script, a blanked cell, a skipped line of a notebook) and
    that name something: a stray ``;`` reads nothing."""
    lines = list(source.unread)
    if text != source.text:  # only a file with a neutralised line or a blanked cell needs the comparison
        lines += [(number, theirs) for number, (ours, theirs)
                  in enumerate(zip(split_lines(text), split_lines(source.text)), start=1) if ours != theirs]
    return [(number, line) for number, line in lines if NAMES_CODE.search(line.split("#")[0])]


def _unread_lines(finding: Finding) -> Finding:
    """A fix in a file with lines the analysis skipped is unsafe: those lines may read the
    names it changes."""
    fix = finding.fix
    if fix is None or fix.applicability != "safe":
        return finding
    note = " (unsafe: lines leaklint could not read may use the names it changes)"
    return replace(finding, fix=replace(fix, applicability="unsafe", message=fix.message + note))


def _located(procedure: dict, location) -> dict:
    """The procedure with each piece's origin (a Span of the analysis) as a Location;
    pieces read from another module of the project keep no origin line here."""
    origins = procedure.get("origins")
    if not origins:
        return procedure
    located = {piece: location(span) for piece, span in origins.items() if span is not None and span.path is None}
    return {**procedure, "origins": located}


def display_path(path: str) -> str:
    """Another module's path as a user reads it: relative to the working folder when inside it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _statement_starts(tree) -> dict:
    """Map each line to the first line of the outermost simple statement holding it."""
    starts = {}
    # Statements only live in statement lists, so expressions are never visited: much
    # cheaper than ast.walk on a large file. Source order gives the same first match.
    stack = [iter(getattr(tree, "body", ()))]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        if not isinstance(node, ast.stmt):
            continue
        if hasattr(node, "body"):
            for name in ("finalbody", "orelse", "handlers", "cases", "body"):
                block = getattr(node, name, None)
                if isinstance(block, list):
                    stack.append(iter([part for item in block for part in _statements_of(item)]))
            continue
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            starts.setdefault(line, node.lineno)
    return starts


def _statements_of(item) -> list:
    """A statement, or the body of an except handler / match case, as statements."""
    if isinstance(item, ast.stmt):
        return [item]
    return list(getattr(item, "body", ()))


__all__ = ["FileResult", "Rule", "lint_bytes", "prescreen", "diagnostic", "PARSE_CODE"]
