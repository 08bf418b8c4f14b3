"""Compiler-style text: ``path:line:col: LL101 message`` (``path:cell 4:2:1:`` in notebooks)."""
from __future__ import annotations


def position(path: str, location) -> str:
    cell = f"cell {location.cell}:" if location.cell is not None else ""
    return f"{path}:{cell}{location.line}:{location.column}"


def concise(findings, base) -> str:
    return "".join(f"{position(f.path, f.location)}: {f.code} {f.message}\n" for f in findings)


def full(findings, base) -> str:
    out = []
    for f in findings:
        out.append(f"{position(f.path, f.location)}: {f.code} [{f.name}] {f.message}")
        for related in f.related:
            out.append(f"  --> {position(related.path or f.path, related.location)}: {related.message}")
        out.append(f"  help: {f.help}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def summary(leaks: int, leak_files: int, unreadable: int, partly: int = 0) -> str:
    """The closing line; ``unreadable`` files were not analysed, ``partly`` files had lines or cells skipped."""
    if leaks:
        noun = "leak" if leaks == 1 else "leaks"
        files = "file" if leak_files == 1 else "files"
        line = f"Found {leaks:,} {noun} in {leak_files:,} {files}."
    else:
        line = "No leaks found."
    if unreadable:
        line += f" {unreadable:,} {'file' if unreadable == 1 else 'files'} could not be analysed (LL000)."
    if partly:
        line += f" {partly:,} {'file' if partly == 1 else 'files'} had lines or cells skipped (LL000)."
    return line
