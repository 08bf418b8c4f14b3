"""Where a finding sits in the file on disk, for the formats read by GitHub.

Findings in a notebook are reported by cell and line within the cell. GitHub (workflow
annotations, code scanning) only knows lines of the file itself, the notebook's JSON,
in which every source line of a cell is, as nbformat writes it, one JSON string on a
line of its own. ``NotebookMap`` finds that physical line (and column) without
rebuilding the notebook's outputs more than once.
"""
from __future__ import annotations

import bisect
import json
import os
import re
from functools import lru_cache
from json.decoder import scanstring
from pathlib import Path
from typing import Optional

from ..lines import LINE_BREAK

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


@lru_cache(maxsize=16)
def repo_root(base: str) -> Optional[Path]:
    """The nearest folder at or above ``base`` holding ``.git``, or None."""
    folder = Path(os.path.abspath(base))
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def relative_path(path: str, base: str) -> Optional[str]:
    """``path`` relative to the repository holding ``base`` (else to ``base``), POSIX style;
    None when it lies outside."""
    absolute = Path(os.path.abspath(path))
    for folder in filter(None, (repo_root(base), Path(os.path.abspath(base)))):
        for candidate, root in ((absolute, folder), (_resolved(absolute), _resolved(folder))):
            try:
                return candidate.relative_to(root).as_posix()
            except ValueError:
                continue
    return None


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path


class _Piece:
    """One JSON string of a cell's source: where its raw text starts in the file."""

    __slots__ = ("raw_start", "raw_end", "text", "line", "column", "offset")

    def __init__(self, raw_start, raw_end, text, line, column, offset):
        self.raw_start, self.raw_end, self.text = raw_start, raw_end, text
        self.line, self.column = line, column  # physical position of raw_start (1-based)
        self.offset = offset  # where the piece starts in the cell's source


class NotebookMap:
    """(cell, line, column) of a notebook finding -> (line, column) in the JSON file."""

    def __init__(self, text: str):
        self.text = text
        self.cells: dict = {}  # cell number -> (pieces, line starts in the cell's source)
        self._line = 1
        self._line_start = 0
        self._pos = 0
        self._scan()

    # ---------------------------------------------------------- the JSON walk
    def _physical(self, pos: int) -> tuple:
        """Line and column of ``pos``; positions are asked for in increasing order."""
        newline = self.text.rfind("\n", self._pos, pos)
        if newline >= 0:
            self._line += self.text.count("\n", self._pos, pos)
            self._line_start = newline + 1
        self._pos = pos
        return self._line, pos - self._line_start + 1

    def _ws(self, i: int) -> int:
        return _WS.match(self.text, i).end()

    def _expect(self, i: int, char: str) -> int:
        i = self._ws(i)
        if self.text[i:i + 1] != char:
            raise ValueError(f"expected {char!r} at {i}")
        return i + 1

    def _object(self, i: int, member) -> int:
        """Walk the object opening at ``i``; ``member(key, index)`` returns the value's end."""
        i = self._ws(self._expect(i, "{"))
        if self.text[i:i + 1] == "}":
            return i + 1
        while True:
            i = self._expect(i, '"')
            key, i = scanstring(self.text, i)
            i = self._ws(self._expect(i, ":"))
            i = self._ws(member(key, i))
            if self.text[i:i + 1] == ",":
                i += 1
                continue
            return self._expect(i, "}")

    def _skip(self, i: int) -> int:
        return _DECODER.raw_decode(self.text, i)[1]

    def _scan(self) -> None:
        self._object(0, lambda key, i: self._cells(i) if key == "cells" else self._skip(i))

    def _cells(self, i: int) -> int:
        i = self._ws(self._expect(i, "["))
        if self.text[i:i + 1] == "]":
            return i + 1
        number = 0
        while True:
            number += 1
            i = self._ws(i)
            i = self._cell(i, number) if self.text[i:i + 1] == "{" else self._skip(i)
            i = self._ws(i)
            if self.text[i:i + 1] == ",":
                i += 1
                continue
            return self._expect(i, "]")

    def _cell(self, i: int, number: int) -> int:
        def member(key, at):
            if key != "source":
                return self._skip(at)
            end, pieces = self._source(at)
            text = "".join(p.text for p in pieces)
            starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]
            self.cells[number] = (pieces, starts)
            return end

        return self._object(i, member)

    def _source(self, i: int) -> tuple:
        pieces = []
        offset = 0
        if self.text[i:i + 1] == '"':
            piece, end = self._string(i, offset)
            return end, [piece]
        i = self._expect(i, "[")
        i = self._ws(i)
        if self.text[i:i + 1] == "]":
            return i + 1, pieces
        while True:
            i = self._ws(i)
            piece, i = self._string(i, offset)
            pieces.append(piece)
            offset += len(piece.text)
            i = self._ws(i)
            if self.text[i:i + 1] == ",":
                i += 1
                continue
            return self._expect(i, "]"), pieces

    def _string(self, i: int, offset: int) -> tuple:
        i = self._expect(i, '"')
        text, end = scanstring(self.text, i)
        line, column = self._physical(i)
        return _Piece(i, end - 1, text, line, column, offset), end

    # ---------------------------------------------------------- the lookup
    def locate(self, cell: int, line: int, column: int) -> Optional[tuple]:
        """(line, column) in the file of a 1-based position within a cell's source."""
        if cell not in self.cells:
            return None
        pieces, starts = self.cells[cell]
        if not pieces or not 1 <= line <= len(starts):
            return None
        offset = starts[line - 1] + max(column - 1, 0)
        index = bisect.bisect_right([p.offset for p in pieces], offset) - 1
        piece = pieces[max(index, 0)]
        within = min(offset - piece.offset, len(piece.text))
        # a JSON string holds no raw line break: the position is on the piece's line
        return piece.line, piece.column + _raw_offset(self.text, piece.raw_start, piece.raw_end, within)


def _raw_offset(text: str, start: int, end: int, chars: int) -> int:
    """How many raw JSON characters from ``start`` decode to ``chars`` characters."""
    raw = 0
    i = start
    while chars > 0 and i < end:
        if text[i] == "\\":
            if text[i + 1:i + 2] == "u":
                step = 6
                code = int(text[i + 2:i + 6], 16) if re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2:i + 6]) else 0
                if 0xD800 <= code < 0xDC00 and text[i + 6:i + 8] == "\\u":
                    step = 12
            else:
                step = 2
        else:
            step = 1
        i += step
        raw += step
        chars -= 1
    return raw


@lru_cache(maxsize=8)
def _load_map(path: str, stamp) -> Optional[NotebookMap]:
    try:
        raw = Path(path).read_bytes()
        if raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        return NotebookMap(raw.decode("utf-8"))
    except (OSError, ValueError, IndexError, RecursionError, UnicodeDecodeError):
        return None


def notebook_map(path: str) -> Optional[NotebookMap]:
    """The map of a notebook on disk (None when it cannot be read or walked)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _load_map(os.path.abspath(path), (stat.st_mtime_ns, stat.st_size))


def physical_region(path: str, location) -> Optional[tuple]:
    """(line, column, end_line, end_column) in the file for a location; the location itself
    for scripts; None for a notebook that cannot be mapped."""
    if location.cell is None:
        return location.line, location.column, location.end_line, location.end_column
    mapped = notebook_map(path)
    if mapped is None:
        return None
    start = mapped.locate(location.cell, location.line, location.column)
    if start is None:
        return None
    end = mapped.locate(location.cell, location.end_line, location.end_column) or start
    if end < start:
        end = start
    return start[0], start[1], end[0], end[1]
