"""``# noqa`` comments: on the flagged line or the first line of its statement."""
from __future__ import annotations

import re

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*))?", re.I)
_FILE_NOQA = re.compile(r"^\s*#\s*leaklint:\s*noqa\s*$", re.I | re.M)


def file_is_suppressed(text: str) -> bool:
    return _FILE_NOQA.search(text) is not None


def line_codes(line: str):
    """None when the line has no noqa; an empty set for a bare ``# noqa``."""
    match = _NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    return {c.upper() for c in re.split(r"[\s,]+", codes) if c} if codes else set()


def suppressed(code: str, lines: list, candidates) -> bool:
    """True when any of the candidate 1-based lines carries a noqa covering ``code``."""
    for number in candidates:
        if 1 <= number <= len(lines):
            codes = line_codes(lines[number - 1])
            if codes is not None and (not codes or code in codes):
                return True
    return False
