"""A fixed notebook: the rewritten module mapped back onto its cells, and only the edited
cells' ``source`` values replaced in the file's JSON text. Outputs, metadata, cell ids,
key order and indentation are never re-serialised, so they stay byte-for-byte."""
from __future__ import annotations

import difflib
import json
import re
from json.decoder import scanstring

from ..lines import split_lines
from ..sources import PYTHON_CELL_MAGICS, TIMED_PREFIX, _cell_text, cell_magic, load_notebook, read_notebook
from .rewrite import rewrite
from .tree import FixError

_WHITESPACE = " \t\r\n"
_MARKER = "# <leaklint: end of cell {}>"
_MARKER_LINE = re.compile(r"\s*# <leaklint: end of cell (\d+)>")
_DECODER = json.JSONDecoder()


def fixed_cells(raw: bytes, ops) -> dict:
    """{cell number (1-based, all cells): its new source} for the cells the ops change.

    The module handed to libcst has a marker comment where each cell ends (the blank line
    the analysis puts there, so no line moves); the rewritten module is cut at the
    markers, and within a cell the lines the fix did not touch are taken from the cell as
    stored (IPython syntax included).
    """
    source = read_notebook(raw)
    cells = load_notebook(raw)["cells"]
    lines = source.text.split("\n")
    stored: dict = {}
    analysed: dict = {}
    for index, (number, line) in enumerate(source.cells):
        if number not in stored:
            stored[number] = split_lines(_cell_text(cells[number - 1]))
        if line > len(stored[number]):
            lines[index] = _MARKER.format(number)
        else:
            analysed.setdefault(number, []).append(lines[index])
    new_text = rewrite("\n".join(lines), ops)
    rewritten: dict = {}
    current: list = []
    for line in new_text.split("\n"):
        marker = _MARKER_LINE.fullmatch(line)
        if marker is None:
            current.append(line)
            continue
        rewritten[int(marker.group(1))] = current
        current = []
    if set(rewritten) != set(stored) or any(line.strip() for line in current):
        raise FixError("the fix would move code across cells")
    result = {}
    for number, new_lines in rewritten.items():
        old_lines = analysed.get(number, [])
        if new_lines == old_lines:
            continue
        text = _cell_text(cells[number - 1])
        merged = _below_cell_magic(stored[number], _merge(stored[number], old_lines, new_lines))
        result[number] = "\n".join(merged) + ("\n" if merged and text.endswith(("\n", "\r")) else "")
    return result


def _merge(stored: list, old: list, new: list) -> list:
    """The cell's new lines: untouched lines as stored, changed ones as rewritten."""
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            out.extend(stored[i1:i2])
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            out.extend(_timed(stored[k], old[k], new[j1 + k - i1]) for k in range(i1, i2))
            continue
        if tag == "replace" and i2 - i1 == 1 and stored[i1] != old[i1]:
            # lines put before a ``%time stmt`` line whose statement is rewritten in place
            kept = [j for j in range(j1, j2) if new[j].startswith(old[i1][:len(old[i1]) - len(old[i1].lstrip(" \t"))]
                                                                  + TIMED_PREFIX)]
            if len(kept) == 1:
                out.extend(new[j1:kept[0]])
                out.append(_timed(stored[i1], old[i1], new[kept[0]]))
                out.extend(new[kept[0] + 1:j2])
                continue
        if any(stored[k] != old[k] for k in range(i1, i2)):
            raise FixError("the fix would change a line IPython rewrites (a magic)")
        out.extend(new[j1:j2])
    return out


def _below_cell_magic(stored: list, merged: list) -> list:
    """A cell magic (``%%time``) must stay its cell's first line: code a fix put above it
    (an import at the top of the first cell) goes right below it."""
    magic = cell_magic(stored)
    if magic is None:
        return merged
    line = next(text for text in stored if text.strip())
    at = merged.index(line) if line in merged else -1
    if at < 0 or magic not in PYTHON_CELL_MAGICS:
        raise FixError("the fix would change a cell that a cell magic runs")
    if any(text.strip() for text in merged[:at]):
        return [line, *merged[:at], *merged[at + 1:]]
    return merged


def _timed(stored: str, old: str, new: str) -> str:
    """A changed line as stored: ``%timeit stmt`` (analysed as ``if 1:   stmt``, the
    statement in place) keeps its magic before the rewritten statement."""
    if stored == old:
        return new
    body = old.lstrip(" \t")
    start = len(old) - len(body) + len(TIMED_PREFIX)
    while start < len(old) and old[start] == " ":
        start += 1
    if not body.startswith(TIMED_PREFIX) or stored[start:] != old[start:] or new[:start] != old[:start]:
        raise FixError("the fix would change a line IPython rewrites (a magic)")
    return stored[:start] + new[start:]


def fixed_notebook(raw: bytes, ops) -> bytes:
    """The notebook file with the ops applied, every byte outside the edited sources kept."""
    changes = fixed_cells(raw, ops)
    if not changes:
        return raw
    bom = b"\xef\xbb\xbf" if raw.startswith(b"\xef\xbb\xbf") else b""
    text = raw[len(bom):].decode("utf-8")
    ascii_only = text.isascii() and "\\u" in text
    spans = _source_spans(text)
    for number in sorted(changes, reverse=True):
        if number not in spans:
            raise FixError(f"cell {number} has no source to replace")
        start, end, indent = spans[number]
        value = _encode(changes[number], text[start:end], indent, ascii_only)
        text = text[:start] + value + text[end:]
    return bom + text.encode("utf-8")


def _encode(source: str, old: str, indent: str, ascii_only: bool) -> str:
    """The new source written as the old one was: a string, or nbformat's list of lines."""
    if not old.startswith("["):
        return json.dumps(source, ensure_ascii=ascii_only)
    lines = source.splitlines(keepends=True)
    if not lines:
        return "[]"
    inner = old[1:len(old) - len(old[1:].lstrip(_WHITESPACE))] if len(old) > 2 else "\n" + indent + " "
    closing = old[len(old[:-1].rstrip(_WHITESPACE)):-1] if len(old) > 2 else "\n" + indent
    items = ("," + inner).join(json.dumps(line, ensure_ascii=ascii_only) for line in lines)
    return "[" + inner + items + closing + "]"


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WHITESPACE:
        i += 1
    return i


def _members(text: str, i: int):
    """(key, value start, value end) of the JSON object starting at ``text[i]``."""
    i = _skip(text, i + 1)
    if text[i] == "}":
        return
    while True:
        key, i = scanstring(text, i + 1)
        i = _skip(text, _skip(text, i) + 1)
        _, end = _DECODER.raw_decode(text, i)
        yield key, i, end
        i = _skip(text, end)
        if text[i] != ",":
            return
        i = _skip(text, i + 1)


def _source_spans(text: str) -> dict:
    """{cell number: (start, end, indentation of its "source" key)} in the notebook's JSON text."""
    root = _skip(text, 0)
    cells = next(((start, end) for key, start, end in _members(text, root) if key == "cells"), None)
    if cells is None:
        raise FixError("no cells in the notebook")
    spans = {}
    i = _skip(text, cells[0] + 1)
    number = 0
    while i < cells[1] and text[i] != "]":
        number += 1
        _, end = _DECODER.raw_decode(text, i)
        if text[i] == "{":
            for key, start, value_end in _members(text, i):
                if key == "source":
                    line = text[text.rfind("\n", 0, start) + 1:start]
                    spans[number] = (start, value_end, line[: len(line) - len(line.lstrip(" \t"))])
        i = _skip(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
    return spans
