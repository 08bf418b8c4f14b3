"""Lines as Python numbers them: ``\\n``, ``\\r\\n`` and a lone ``\\r`` (old Mac files) each
end a line, and nothing else does (``str.splitlines`` also breaks at form feeds and
``\\u2028``, which would shift every line number after them)."""
from __future__ import annotations

import io
import re
import tokenize

LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list:
    """The lines of ``text`` without their line breaks (no empty last line after a final break)."""
    lines = LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def line_ends(text: str) -> list:
    """The lines of ``text`` with their line breaks kept, as ``difflib`` wants them."""
    ends = [m.end() for m in LINE_BREAK.finditer(text)]
    starts = [0] + ends
    return [text[a:b] for a, b in zip(starts, ends + [len(text)]) if a < b]


def tokens(text: str) -> tuple:
    """(the tokens of ``text`` as far as it tokenizes, whether it tokenized whole)."""
    found = []
    try:
        found.extend(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return found, False
    return found, True
