"""GitHub Actions workflow annotations, one ``::error`` or ``::warning`` line per finding
(its rule's severity; LL000 is a warning).

``::error file=…,line=…,col=…,endLine=…,endColumn=…,title=leaklint (LL101)::message``
with ``%``, CR and LF escaped in the message and, in properties, also ``:`` and ``,``.
GitHub cannot point into a notebook cell: for a notebook the title names the cell and
the line within it, and the position is the source line in the notebook's JSON (where
GitHub's diff of the file shows it), or the file alone when that cannot be found.
"""
from __future__ import annotations

from .locate import physical_region, relative_path


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def title(f) -> str:
    loc = f.location
    if loc.cell is None:
        return f"leaklint ({f.code})"
    return f"leaklint ({f.code}) in cell {loc.cell}, line {loc.line}"


def render(findings, base) -> str:
    lines = []
    for f in findings:
        level = "error" if f.severity == "error" else "warning"
        path = relative_path(f.path, base) or f.path
        props = [f"file={_property(path)}"]
        region = physical_region(f.path, f.location)
        if region is not None:
            line, column, end_line, end_column = region
            props += [f"line={line}", f"col={column}", f"endLine={end_line}", f"endColumn={end_column}"]
        props.append(f"title={_property(title(f))}")
        lines.append(f"::{level} {','.join(props)}::{_data(f.message)}")
    return "".join(line + "\n" for line in lines)
