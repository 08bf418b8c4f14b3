"""Lines of a script the parser rejects, neutralised in place so the rest is analysed.

One pasted shell command or Python 2 ``print`` must not hide a whole file: the line
becomes ``pass`` at its indentation (a block header stays a block header), then, if the
parser still stops there, an empty line. Every line keeps its number.
"""
from __future__ import annotations

from typing import Optional

# A script with more bad lines than this is unparsable as a whole.
MAX_SKIPPED_LINES = 20


def neutralise(text: str, lineno: Optional[int]) -> Optional[str]:
    """``text`` with line ``lineno`` neutralised; None when there is nothing left to try."""
    lines = text.split("\n")
    if not lineno or lineno > len(lines):
        return None
    bad = lines[lineno - 1]
    indent = bad[: len(bad) - len(bad.lstrip())]
    neutral = _neutral(bad.strip())
    if bad.strip() and bad.strip() != neutral:
        lines[lineno - 1] = indent + neutral
    elif bad:
        lines[lineno - 1] = ""
    else:
        return None
    return "\n".join(lines)


def _neutral(statement: str) -> str:
    """A statement of the same shape that parses: block headers stay block headers."""
    if not statement.endswith(":") or statement.startswith("#"):
        return "pass"
    keyword = statement.split(None, 1)[0].rstrip(":")
    return {"except": "except:", "elif": "elif True:", "else": "else:", "finally": "finally:"}.get(keyword, "if True:")
