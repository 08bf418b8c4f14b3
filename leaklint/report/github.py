"""GitHub Actions workflow annotations, one ``::error`` line per finding."""
from __future__ import annotations


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(findings, base) -> str:
    lines = []
    for f in findings:
        loc = f.location
        level = "error" if f.severity == "error" else "warning"
        title = f"leaklint ({f.code})"
        if loc.cell is not None:
            # GitHub cannot point into a notebook cell: name the cell in the title.
            title = f"leaklint ({f.code}) cell {loc.cell}, line {loc.line}"
            props = f"file={_property(f.path)},title={_property(title)}"
        else:
            props = (
                f"file={_property(f.path)},line={loc.line},col={loc.column},"
                f"endLine={loc.end_line},endColumn={loc.end_column},title={_property(title)}"
            )
        lines.append(f"::{level} {props}::{_data(f.message)}")
    return "".join(line + "\n" for line in lines)
