"""Reading a file into analysable Python text, with a map back to cells and lines.

A notebook becomes one module (its code cells in order, so a fit in cell 3 and a split
in cell 7 are seen together); IPython syntax is neutralised without shifting lines.
"""
from __future__ import annotations

import ast
import codecs
import io
import json
import re
import tokenize
import warnings
from dataclasses import dataclass, field
from typing import Optional

from . import recover
from .lines import split_lines


class SourceError(Exception):
    """The file cannot be read as Python or as a notebook (reported, not fatal)."""

    def __init__(self, reason: str, line: Optional[int] = None, cell: Optional[int] = None):
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.cell = cell


@dataclass
class Source:
    """Analysable text; ``cells[i]`` is (cell number, line within cell) of line i+1."""

    text: str
    cells: Optional[list] = None
    skipped: list = field(default_factory=list)  # SourceError per skipped cell
    # (line of ``text``, source as stored) of each line the analysis could not read; a
    # skipped cell's lines sit at the line after the code before it
    unread: list = field(default_factory=list)

    def locate(self, line: int) -> tuple:
        """(cell, line in cell) of a line of ``text``; cell is None for .py files."""
        if self.cells is None:
            return None, line
        if 1 <= line <= len(self.cells):
            return self.cells[line - 1]
        return self.cells[-1] if self.cells else (None, line)


def decode(raw: bytes) -> str:
    """Decode as Python does: BOM, coding cookie, else UTF-8 (PEP 263)."""
    for bom, name in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                      (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if raw.startswith(bom):
            try:
                return raw.decode(name)
            except UnicodeDecodeError as err:
                raise SourceError(f"not valid {name.upper()}: {err.reason}") from None
    if b"\x00" in raw[:8192]:
        raise SourceError("binary file, not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as err:
        raise SourceError(str(err)) from None
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise SourceError(f"not valid {encoding.upper()} (byte {err.start})", line=line) from None
    except LookupError:
        raise SourceError(f"unknown encoding {encoding!r}") from None


def read_python(raw: bytes) -> Source:
    text = decode(raw)
    if text.startswith("\ufeff"):
        text = text[1:]
    return Source(text)


# ------------------------------------------------------------------ notebooks
# Cell magics whose body is Python run in the kernel's namespace: the magic line is
# neutralised and the body analysed. Any other cell magic (%%bash, %%sql, %%html,
# %%writefile, %%python in a subprocess, ...) makes the cell skipped, as ruff does.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
PYTHON_LANGUAGES = frozenset({"python", "python2", "python3", "ipython", "ipython2", "ipython3", "pypy", "pypy3"})

# ``x = !ls``, ``files = %sx ls``: the assigned value becomes None.
_TARGET = re.compile(r"[\w.\[\]\"', ()*]+")
# ``%time stmt`` / ``%timeit -n 10 stmt``: the statement runs in the kernel, analysed in
# place after this prefix (fix/notebook.py puts the magic back on a rewritten line).
TIMED_PREFIX = "if 1:"
_TIMED = re.compile(r"^%(?:time|timeit)(?:\s+-[a-z](?:\s*\d+)?)*\s+(?=\S)")
# ``?obj``, ``obj?``, ``obj??``, ``np.*load*?``
_HELP = re.compile(r"^(?:\?\??[\w.*\[\]]+|[\w.*\[\]]+\?\??)\s*$")
_SPECIAL = re.compile(r"[\]\[(){}\"'#\\]")
# IPython's automagic: ``pip install x`` or ``matplotlib inline`` without the ``%`` runs the
# line magic; such a line is never Python (two names side by side), so it is one.
_AUTOMAGIC = re.compile(r"^(?:pip|conda|mamba|matplotlib|load_ext|reload_ext|autoreload|config)\s+[-\w]")


def neutralise(line: str) -> str:
    """IPython-only syntax at the start of a statement becomes Python of the same length.

    Line numbers never move; the columns of the rest of the line stay where they were.
    """
    body = line.lstrip(" \t")
    indent = line[: len(line) - len(body)]
    if not body:
        return line
    if body[0] in "%!":
        timed = _TIMED.match(body)
        if timed is not None and _is_simple_statement(body[timed.end():]):
            # ``if 1:`` keeps the statement (a fit timed with %time is still a fit) in place.
            return indent + TIMED_PREFIX.ljust(timed.end()) + body[timed.end():]
        return indent + "pass"
    assigned = _assigned_magic(body)
    if assigned is not None:
        return indent + body[:assigned] + "None"
    if "?" in body and _HELP.match(body):
        return indent + "pass"
    if _AUTOMAGIC.match(body) and _parses(body) is not None:
        return indent + "pass"
    return line


def _assigned_magic(body: str):
    """Where the magic starts in ``target = %magic`` / ``target = !cmd``, else None."""
    eq = body.find("=")
    if eq <= 0 or body[eq - 1] in "=!<>:" or body[eq + 1:eq + 2] == "=":
        return None
    start = len(body) - len(body[eq + 1:].lstrip())
    if body[start:start + 1] not in ("%", "!") or not _TARGET.fullmatch(body[:eq].rstrip()):
        return None
    return start


def _parses(text: str):
    """The SyntaxError (or ValueError) of ``text``, None when it parses."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as err:
        return err
    return None


def _is_simple_statement(text: str) -> bool:
    if _parses(text) is not None:
        return False
    tree = ast.parse(text)
    return len(tree.body) == 1 and not hasattr(tree.body[0], "body")


class _Scanner:
    """Just enough of Python's tokenizer to know where a logical line starts.

    IPython rewrites ``%magic`` and ``!cmd`` only at the start of a logical line; a
    line starting with ``%`` inside brackets (``(a\\n % b)``) or a string is Python.
    """

    def __init__(self):
        self.depth = 0
        self.quote = None  # the open string's delimiter
        self.continued = False  # backslash continuation

    def at_statement_start(self) -> bool:
        return self.depth == 0 and self.quote is None and not self.continued

    def feed(self, line: str) -> None:
        self.continued = False
        i, n = 0, len(line)
        while i < n:
            if self.quote is not None:
                i = self._close_string(line, i)
                continue
            match = _SPECIAL.search(line, i)
            if match is None:
                break
            i = match.start()
            char = line[i]
            if char == "#":
                break
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            elif char in "\"'":
                self.quote = char * 3 if line.startswith(char * 3, i) else char
                i += len(self.quote)
                continue
            elif char == "\\" and i == n - 1:
                self.continued = True
            i += 1
        if self.quote is not None and len(self.quote) == 1 and not line.endswith("\\"):
            self.quote = None  # an unterminated one-line string ends with its line

    def _close_string(self, line: str, i: int) -> int:
        """Index after the closing delimiter, or len(line) when the string goes on."""
        quote = self.quote
        n = len(line)
        while i < n:
            escape = line.find("\\", i)
            close = line.find(quote, i)
            if close < 0 and escape < 0:
                return n
            if escape >= 0 and (close < 0 or escape < close):
                i = escape + 2
                continue
            self.quote = None
            return close + len(quote)
        return n


def _cell_text(cell) -> str:
    source = cell.get("source", "")
    if isinstance(source, list):
        source = "".join(s for s in source if isinstance(s, str))
    if not isinstance(source, str):
        raise SourceError("malformed notebook: a cell's source is not text")
    return source


def cell_magic(lines: list):
    """The name of the cell magic on the cell's first non-blank line, or None."""
    for line in lines:
        if line.strip():
            if line.startswith("%%"):
                parts = line[2:].split()
                return parts[0] if parts else ""
            return None
    return None


def python_cell(lines: list):
    """The cell's lines made Python (same count), or None when the cell is not Python."""
    magic = cell_magic(lines)
    out = []
    scanner = _Scanner()
    seen_magic = False
    for line in lines:
        if magic is not None and not seen_magic and line.strip():
            if magic not in PYTHON_CELL_MAGICS:
                return None
            seen_magic = True
            out.append("pass")
            continue
        if scanner.at_statement_start():
            line = neutralise(line)
        scanner.feed(line)
        out.append(line)
    return out


def _decode_json(raw: bytes) -> str:
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return decode(raw)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SourceError(f"not a notebook: not valid UTF-8 (byte {err.start})") from None


def load_notebook(raw: bytes) -> dict:
    """The notebook's JSON, checked to be nbformat 4 (SourceError otherwise)."""
    try:
        data = json.loads(_decode_json(raw))
    except (ValueError, RecursionError):
        raise SourceError("not a notebook: the file is not valid JSON") from None
    if not isinstance(data, dict):
        raise SourceError("not a notebook: the JSON is not an object")
    version = data.get("nbformat")
    if isinstance(version, int) and version < 4:
        raise SourceError(f"unsupported notebook format {version} (nbformat 4 is read); skipped")
    if not isinstance(data.get("cells"), list):
        raise SourceError("not a notebook: no list of cells")
    return data


def read_notebook(raw: bytes) -> Source:
    """The code cells in order as one module; a cell that does not parse has its bad
    lines neutralised (as a script's, recover.py), or is skipped when that fails.

    ``skipped`` holds one SourceError per skipped line or cell (file, cell, line, reason);
    cells with a non-Python cell magic are left out silently, as ruff does.
    """
    if not raw.strip():
        return Source("\n", [], [], [])  # an empty file opens as an empty notebook (Jupyter, VS Code)
    data = load_notebook(raw)
    language = notebook_language(data)
    if language is not None and language not in PYTHON_LANGUAGES:
        raise SourceError(f"not a Python notebook (kernel language {language!r}); skipped")
    lines, cells, skipped, unread = [], [], [], []
    for number, cell in enumerate(data["cells"], start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        cell_lines = python_cell(split_lines(_cell_text(cell)))
        if cell_lines is None:
            continue
        error = _parses("\n".join(cell_lines))
        if error is not None:
            recovered, errors = _recovered(cell_lines, error, number)
            skipped += errors
            if recovered is None:
                unread += [(len(lines) + 1, line) for line in cell_lines]
                continue
            unread += [(len(lines) + e.line, cell_lines[e.line - 1]) for e in errors]
            cell_lines = recovered
        for index, line in enumerate(cell_lines, start=1):
            lines.append(line)
            cells.append((number, index))
        lines.append("")
        cells.append((number, len(cell_lines) + 1))
    return Source("\n".join(lines) + "\n", cells, skipped, unread)


def _recovered(cell_lines: list, error, number: int) -> tuple:
    """The cell's lines with each line the parser stops at neutralised (a Python 2
    ``print x`` read as a call), and one error per line; (None, [the cell's error]) when that fails."""
    text = "\n".join(cell_lines)
    errors = []
    for _ in range(recover.MAX_PASSES):
        if not isinstance(error, SyntaxError):
            break
        recovered = recover.recover_line(text, error.lineno, [e.reason for e in errors])
        if recovered is None:
            break
        fixed, lines = recovered
        reason, seen = recover.syntax_reason(error, text), {e.line for e in errors}
        errors.extend(SourceError(reason + how, line, number) for line, how in lines if line not in seen)
        text, error = fixed, _parses(fixed)
        if error is None:
            return text.split("\n"), errors
    first = _parses("\n".join(cell_lines))
    return None, [_cell_error(first, number, len(cell_lines), "\n".join(cell_lines))]


def _cell_error(error, number: int, count: int, text: str) -> SourceError:
    if isinstance(error, SyntaxError):
        line = min(max(error.lineno or 1, 1), max(count, 1))
        return SourceError(f"{recover.syntax_reason(error, text)}; cell skipped", line, number)
    return SourceError(f"cannot parse: {type(error).__name__}; cell skipped", 1, number)


def notebook_language(data: dict) -> Optional[str]:
    """The kernel's language, lower case, or None when the notebook does not say."""
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    info = metadata.get("language_info") if isinstance(metadata.get("language_info"), dict) else {}
    kernel = metadata.get("kernelspec") if isinstance(metadata.get("kernelspec"), dict) else {}
    name = info.get("name") or kernel.get("language")
    return name.strip().lower() if isinstance(name, str) and name.strip() else None


def read_source(path: str, raw: bytes) -> Source:
    if path.endswith(".ipynb"):
        return read_notebook(raw)
    return read_python(raw)
