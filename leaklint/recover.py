"""Lines of a script the parser rejects, neutralised in place so the rest is analysed.

One pasted shell command or Python 2 ``print`` must not hide a whole file: ``print x``
statements become the calls ``print(x)``, indentation mixing tabs and spaces is read with
Python 2's tab stops, any other line ``pass`` at its indentation (a block header stays a
block header), then, if the parser still stops there, an empty line. Every line keeps
its number.
"""
from __future__ import annotations

import ast
import re
import tokenize
from typing import Optional

from .lines import split_lines, tokens
from .suppress import comment

# A script with more bad lines than this is unparsable as a whole; Python 2 ``print``
# statements read as calls do not count (an old notebook prints at every step).
MAX_SKIPPED_LINES = 20
# Parser passes a script may take: one per skipped line, one reading every print as a call.
MAX_PASSES = MAX_SKIPPED_LINES + 2
LINE_SKIPPED = "; line skipped"
READ_AS_CALL = "; read as a print() call"
READ_AS_CALLS = " read as print() calls"
READ_AS_PYTHON3 = "; read as Python 3"
READ_WITH_TAB_STOPS = "; tabs read as 8 columns, as Python 2 read them"


def recover_line(text: str, lineno: Optional[int], messages: list) -> Optional[tuple]:
    """(``text`` with the line the parser stopped at recovered, [(line, how), ...] for the
    lines that were): Python 2 prints all read as calls, or that one line skipped while
    ``messages`` (the LL000 reasons so far) name fewer than MAX_SKIPPED_LINES skipped
    lines; None when nothing is left to try."""
    lines = split_lines(text)
    line = lines[lineno - 1] if lineno and lineno <= len(lines) else ""
    if print_call(line.strip()) is not None:
        calls = list(lines)
        converted = _prints_as_calls(calls, _string_lines(text))
        if lineno in converted:  # one report for them all: an old script prints at every step
            how = READ_AS_CALL if len(converted) == 1 else (
                f"; this and {len(converted) - 1} more print statements (to line {converted[-1]}){READ_AS_CALLS}")
            return "\n".join(calls), [(lineno, how)]
    if _mixed_indentation(lines, lineno):
        expanded = _tab_stops(lines, _string_lines(text))
        if expanded != lines:
            return "\n".join(expanded), [(lineno, READ_WITH_TAB_STOPS)]
    modern = python3_line(line.strip())
    if modern is not None:  # 10L, 0755, `x`, <>: the line as Python 3 writes it
        lines[lineno - 1] = _reindented(line, modern)
        return "\n".join(lines), [(lineno, READ_AS_PYTHON3)]
    if sum(m.endswith(LINE_SKIPPED) for m in messages) >= MAX_SKIPPED_LINES:
        return None
    fixed = neutralise(text, lineno)
    return None if fixed is None else (fixed, [(lineno, LINE_SKIPPED)])


def _prints_as_calls(lines: list, inside: set) -> list:
    """Every Python 2 ``print`` statement whole on its line of ``lines`` read as the call it
    meant, in place, all at once as the parser would stop at each in turn (lines ``inside``
    a string literal left alone); the numbers of those lines."""
    converted = []
    for number, line in enumerate(lines, 1):
        if "print" in line and number not in inside:
            call = print_call(line.strip())
            if call is not None:
                lines[number - 1] = _reindented(line, call)
                converted.append(number)
    return converted


def _mixed_indentation(lines: list, lineno: Optional[int]) -> bool:
    """The file indents some lines with spaces and some with tabs, and the line the parser
    stopped at, or the line of code above it, is indented with a tab."""
    if not lineno or lineno > len(lines):
        return False
    indents = [_indentation(line) for line in lines if line.strip()]
    if not any(i.startswith(" ") for i in indents):
        return False  # tabs alone are consistent: the error is something else
    above = next((line for line in reversed(lines[: lineno - 1]) if line.strip()), "")
    return any("\t" in _indentation(line) for line in (lines[lineno - 1], above))


def _tab_stops(lines: list, inside: set) -> list:
    """``lines`` with each tab of an indentation expanded to the next multiple of 8 columns,
    as Python 2 read mixed tabs and spaces (lines ``inside`` a string literal left alone)."""
    expanded = []
    for number, line in enumerate(lines, 1):
        indent = _indentation(line)
        expanded.append(indent.expandtabs(8) + line[len(indent):] if "\t" in indent and number not in inside else line)
    return expanded


def _indentation(line: str) -> str:
    """The whitespace ``line`` starts with."""
    return line[: len(line) - len(line.lstrip())]


def _reindented(line: str, statement: str) -> str:
    """``statement`` at the indentation of ``line``."""
    return _indentation(line) + statement


def _string_lines(text: str) -> set:
    """Lines after the first of a multi-line string literal (as far as the text tokenizes)."""
    return {line for token in tokens(text)[0] if token.type == tokenize.STRING and token.end[0] > token.start[0]
            for line in range(token.start[0] + 1, token.end[0] + 1)}


def neutralise(text: str, lineno: Optional[int]) -> Optional[str]:
    """``text`` with line ``lineno`` neutralised; None when there is nothing left to try."""
    lines = split_lines(text)
    if not lineno or lineno > len(lines):
        return None
    bad = lines[lineno - 1]
    indent = _indentation(bad)
    neutral = _neutral(bad.strip())
    if neutral.endswith(":") and not _indented_after(lines, lineno, indent):
        neutral = "pass"  # a broken header with no block under it (``def (:`` above top-level code)
    if bad.strip() and bad.strip() != neutral:
        lines[lineno - 1] = indent + neutral
    elif bad:
        lines[lineno - 1] = ""
    else:
        return None
    return "\n".join(lines)


def python3_line(statement: str) -> Optional[str]:
    """A line of Python 2 (``k=10L``, ``0755``, a backquoted ``repr``, ``<>``, a ``print``
    with any of them) as Python 3 writes it, when that parses; None otherwise."""
    modern = statement
    for pattern, replacement in _PYTHON2_FORMS:
        modern = pattern.sub(replacement, modern)
    call = print_call(modern)
    if call is not None:
        return call
    if modern == statement:
        return None
    for trial in (modern, modern + "\n pass", "if 1:\n pass\n" + modern + "\n pass", "try:\n pass\n" + modern + "\n pass"):
        try:
            ast.parse(trial)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            continue
        return modern
    return None


_PYTHON2_FORMS = (
    (re.compile(r"\b(\d+)[lL]\b"), r"\1"),
    (re.compile(r"\b0([0-7]+)\b"), r"0o\1"),
    (re.compile(r"`([^`]+)`"), r"repr(\1)"),
    (re.compile(r"<>"), "!="),
    (re.compile(r"^(except\s+[\w.]+)\s*,\s*(\w+)\s*:"), r"\1 as \2:"),
)


def print_call(statement: str) -> Optional[str]:
    """A Python 2 ``print x, y`` (``print >>f, x``) whole on its line as the call it meant,
    ``print(x, y)``, so that a score it prints still counts as reported; None otherwise."""
    remark = comment(statement)
    match = _PRINT_STATEMENT.match(statement[: len(statement) - len(remark)].rstrip() if remark else statement)
    if match is None:
        return None
    rest = match.group(1) or ""
    redirect = re.match(r">>\s*([^,]+?)\s*,\s*(.*)$", rest)
    call = f"print({redirect.group(2)}, file={redirect.group(1)})" if redirect else f"print({rest})"
    try:
        ast.parse(call)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    return call


_PRINT_STATEMENT = re.compile(r"^print(?:\s+(?![\s=(])(.*?))?\s*;?\s*$")


def _indented_after(lines: list, lineno: int, indent: str) -> bool:
    """The next line with code after ``lineno`` is indented deeper than ``indent``."""
    following = next((line for line in lines[lineno:] if line.strip() and not line.lstrip().startswith("#")), "")
    return len(_indentation(following)) > len(indent)


def _neutral(statement: str) -> str:
    """A statement of the same shape that parses: block headers stay block headers."""
    if not statement.endswith(":") or statement.startswith("#"):
        return "pass"
    keyword = statement.split(None, 1)[0].rstrip(":")
    return {"except": "except:", "elif": "elif True:", "else": "else:", "finally": "finally:"}.get(keyword, "if True:")


# A syntax error on a line like these means the file is Python 2, not a typo.
_PY2_MESSAGES = (
    "Missing parentheses in call to 'print'",
    "Missing parentheses in call to 'exec'",
    "leading zeros in decimal integer literals",
    "multiple exception types must be parenthesized",
)
_PY2_LINE = re.compile(
    r"^\s*(?:print\s+[^\s(=.,)\[]|print\s*$|exec\s+[\"'\w]|raise\s+[\w.]+\s*,"
    r"|except\s+[\w.]+\s*,\s*\w+\s*:)|`|<>|\bur[\"']|\b\d+[lL]\b|\b0[0-7]+\b"
)


def syntax_reason(err: SyntaxError, text: str) -> str:
    """The parser's message, said as Python 2 where the line shows it is."""
    kind = "indentation error" if isinstance(err, IndentationError) else "syntax error"
    message = err.msg or "invalid syntax"
    line = err.text
    if line is None and err.lineno:
        lines = text.split("\n", err.lineno)
        line = lines[err.lineno - 1] if len(lines) >= err.lineno else ""
    if message.startswith(_PY2_MESSAGES) or _PY2_LINE.search(line or ""):
        return f"not Python 3 (this looks like Python 2): {kind}: {message}"
    return f"{kind}: {message}"
