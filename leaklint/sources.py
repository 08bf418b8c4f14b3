"""Reading a file into analysable Python text, with a map back to cells and lines.

A notebook becomes one module (its code cells in order, so a fit in cell 3 and a split
in cell 7 are seen together); IPython syntax is neutralised without shifting lines.
"""
from __future__ import annotations

import codecs
import io
import json
import re
import tokenize
from dataclasses import dataclass, field
from typing import Optional


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
_PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun", "debug", "writefile_python"}
_LINE_MAGIC = re.compile(r"^(\s*)(?:%|!)")
_ASSIGNED_MAGIC = re.compile(r"^(\s*[\w.\[\]\"', ]+\s*=\s*)(?:%|!)")
_HELP = re.compile(r"^(\s*)(?:\?\??[\w.]+|[\w.]+\?\??)\s*$")


def neutralise(line: str) -> str:
    """IPython-only syntax becomes Python of the same line count and indentation."""
    match = _ASSIGNED_MAGIC.match(line)
    if match:
        return match.group(1) + "None"
    match = _LINE_MAGIC.match(line) or _HELP.match(line)
    if match:
        return match.group(1) + "pass"
    return line


def _cell_lines(cell) -> list:
    source = cell.get("source", "")
    if isinstance(source, list):
        source = "".join(s for s in source if isinstance(s, str))
    if not isinstance(source, str):
        raise SourceError("malformed notebook: a cell's source is not text")
    return source.splitlines()


def read_notebook(raw: bytes) -> Source:
    try:
        data = json.loads(decode(raw))
    except (ValueError, RecursionError):
        raise SourceError("not a notebook: the file is not valid JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        if isinstance(data, dict) and data.get("nbformat", 4) < 4:
            raise SourceError(f"unsupported notebook format {data.get('nbformat')} (nbformat 4 is read)")
        raise SourceError("not a notebook: no list of cells")
    language = _language(data)
    if language and language != "python":
        raise SourceError(f"not a Python notebook (kernel language {language!r}); skipped")
    lines, cells, skipped = [], [], []
    for number, cell in enumerate(data["cells"], start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        cell_lines = _cell_lines(cell)
        if cell_lines and cell_lines[0].lstrip().startswith("%%"):
            magic = cell_lines[0].strip()[2:].split()[0] if cell_lines[0].strip()[2:] else ""
            if magic not in _PYTHON_CELL_MAGICS:
                continue
            cell_lines = ["pass"] + cell_lines[1:]
        cell_lines = [neutralise(line) for line in cell_lines]
        for index, line in enumerate(cell_lines, start=1):
            lines.append(line)
            cells.append((number, index))
        lines.append("")
        cells.append((number, len(cell_lines) + 1))
    return Source("\n".join(lines) + "\n", cells, skipped)


def _language(data) -> Optional[str]:
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    info = metadata.get("language_info") if isinstance(metadata.get("language_info"), dict) else {}
    kernel = metadata.get("kernelspec") if isinstance(metadata.get("kernelspec"), dict) else {}
    name = info.get("name") or kernel.get("language")
    return name.lower() if isinstance(name, str) else None


def read_source(path: str, raw: bytes) -> Source:
    if path.endswith(".ipynb"):
        return read_notebook(raw)
    return read_python(raw)
