"""``# noqa`` comments, flake8's spellings.

* ``# noqa`` (any case, ``#noqa``) on the flagged line, or on the first line of the
  statement holding it, silences every finding there;
* ``# noqa: LL101``, ``# noqa:LL101,LL102``, ``# noqa: LL101 LL102`` silence those codes
  only (codes of other tools, ``# noqa: E501``, silence nothing of leaklint's);
* ``# leaklint: noqa`` on a line of its own silences the whole file (notebook: any
  cell), ``# leaklint: noqa: LL101`` only those codes in the whole file.

A ``noqa`` counts only in a comment, not inside a string literal.
"""
from __future__ import annotations

import re
import tokenize

from .lines import tokens

_CODE = r"[A-Za-z]+[0-9]+"
_NOQA = re.compile(rf"#\s*noqa(?::\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*))?", re.I)
_FILE_NOQA = re.compile(r"^\s*#\s*leaklint\s*:\s*noqa\s*$", re.I | re.M)
_FILE_CODES = re.compile(rf"^\s*#\s*leaklint\s*:\s*noqa\s*:\s*(?P<codes>{_CODE}(?:[\s,]+{_CODE})*)\s*,?\s*$", re.I)

_last_file = (None, frozenset())  # (lines list, codes) of the last file asked about


def file_is_suppressed(text: str) -> bool:
    """A bare ``# leaklint: noqa`` line: nothing in the file is reported."""
    lines = [text.count("\n", 0, match.start() + match.group(0).index("#")) + 1 for match in _FILE_NOQA.finditer(text)]
    return bool(lines) and bool(set(lines) & _comment_lines(text))


def _comment_lines(text: str) -> set:
    """The lines holding a comment token (not a line of a string literal that starts with
    ``#``); every line when the file does not tokenize, as the lines read as written."""
    found, whole = tokens(text)
    if not whole:
        return set(range(1, text.count("\n") + 2))
    return {token.start[0] for token in found if token.type == tokenize.COMMENT}


def file_codes(lines: list) -> frozenset:
    """Codes silenced for the whole file by ``# leaklint: noqa: LL101, LL102`` lines."""
    global _last_file
    if _last_file[0] is lines:
        return _last_file[1]
    codes, comments = set(), None
    for number, line in enumerate(lines, 1):
        if "leaklint" in line:
            match = _FILE_CODES.match(line)
            if match:
                comments = _comment_lines("\n".join(lines)) if comments is None else comments
                if number in comments:
                    codes |= _split(match.group("codes"))
    _last_file = (lines, frozenset(codes))
    return _last_file[1]


def _split(codes: str) -> set:
    return {c.upper() for c in re.split(r"[\s,]+", codes) if c}


def comment(line: str):
    """The comment of a line (from its ``#``), or None; ``#`` inside a string is not one."""
    if "#" not in line:
        return None
    quote = None
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        if quote is not None:
            if char == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
        elif char == "#":
            return line[i:]
        elif char in "\"'":
            quote = char * 3 if line.startswith(char * 3, i) else char
            i += len(quote)
            continue
        i += 1
    return None


def line_codes(line: str):
    """None when the line has no noqa; an empty set for a bare ``# noqa``."""
    text = comment(line)
    if text is None:
        return None
    match = _NOQA.search(text)
    if match is None:
        return None
    codes = match.group("codes")
    return _split(codes) if codes else set()


def suppressed(code: str, lines: list, candidates) -> bool:
    """True when any of the candidate 1-based lines carries a noqa covering ``code``."""
    if code in file_codes(lines):
        return True
    for number in candidates:
        if 1 <= number <= len(lines):
            codes = line_codes(lines[number - 1])
            if codes is not None and (not codes or code in codes):
                return True
    return False
