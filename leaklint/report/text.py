"""Compiler-style text: ``path:line:col: LL101 message`` (``path:cell 4:2:1:`` in notebooks);
``[*]`` marks a finding that ``--fix`` would fix."""
from __future__ import annotations

from ..fix import applicable


def position(path: str, location) -> str:
    cell = f"cell {location.cell}:" if location.cell is not None else ""
    return f"{path}:{cell}{location.line}:{location.column}"


def _marker(f, unsafe: bool) -> str:
    return "[*] " if applicable(f.fix, unsafe) else ""


def concise(findings, base, unsafe: bool = False) -> str:
    return "".join(f"{position(f.path, f.location)}: {f.code} {_marker(f, unsafe)}{f.message}\n" for f in findings)


def full(findings, base, unsafe: bool = False) -> str:
    out = []
    for f in findings:
        out.append(f"{position(f.path, f.location)}: {f.code} {_marker(f, unsafe)}[{f.name}] {f.message}")
        for related in f.related:
            out.append(f"  --> {position(related.path or f.path, related.location)}: {related.message}")
        out.append(f"  help: {f.help}")
        if f.fix is not None:
            out.append(f"  fix ({f.fix.applicability}): {f.fix.message}")
            out.extend(_edit_lines(f.fix.edits))
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def _edit_lines(edits) -> list:
    """Each edit as the lines it replaces (by row) and the lines it writes."""
    lines = []
    for edit in edits:
        cell = f"cell {edit.cell}, " if edit.cell is not None else ""
        rows = (f"line {edit.row}" if edit.end_row <= edit.row + 1 else f"lines {edit.row}-{edit.end_row - 1}")
        verb = "insert before" if edit.end_row == edit.row else "replace"
        lines.append(f"    @ {verb} {cell}{rows}:")
        lines.extend(f"    + {line}" for line in edit.content.splitlines())
    return lines


def summary(leaks: int, leak_files: int, unreadable: int, partly: int = 0, fixed=None) -> str:
    """The closing line; ``unreadable`` files were not analysed, ``partly`` files had lines or
    cells skipped; ``fixed`` (after ``--fix``) is how many leaks the fixes removed."""
    if fixed:
        total = leaks + fixed
        line = f"Found {total:,} {'leak' if total == 1 else 'leaks'} ({fixed:,} fixed, {leaks:,} remaining)."
    elif leaks:
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


def fix_summary(findings, unsafe: bool) -> str:
    """How many findings a fix option would fix, as ruff says it ('' when none has a fix)."""
    fixable = sum(1 for f in findings if applicable(f.fix, unsafe))
    hidden = 0 if unsafe else sum(1 for f in findings if f.fix is not None and f.fix.applicability == "unsafe")
    option = "`--fix --unsafe-fixes` options" if unsafe else "`--fix` option"
    more = (f" ({hidden:,} hidden {'fix' if hidden == 1 else 'fixes'} can be enabled with the "
            "`--unsafe-fixes` option)") if hidden else ""
    if fixable:
        return f"[*] {fixable:,} fixable with the {option}{more}.\n"
    if hidden:
        return f"No fixes available{more}.\n"
    return ""
