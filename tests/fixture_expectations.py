"""Inline expectations in fixtures: ``# error: [LL101, LL105]`` on the flagged line."""
from __future__ import annotations

import json
import re
from pathlib import Path

MARKER = re.compile(r"#\s*error:\s*\[([A-Z0-9,\s]+)\]")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def fixture_files() -> list:
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".py", ".ipynb") and "__pycache__" not in p.parts)


def _marks(lines, cell=None) -> set:
    found = set()
    for number, line in enumerate(lines, start=1):
        match = MARKER.search(line)
        if match:
            for code in match.group(1).split(","):
                if code.strip():
                    found.add((cell, number, code.strip()))
    return found


def expected(path: Path) -> set:
    """(cell, line, code) triples a fixture expects; cell is None for scripts."""
    if path.suffix == ".py":
        return _marks(path.read_text(encoding="utf-8").splitlines())
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = set()
    for number, cell in enumerate(notebook["cells"], start=1):
        source = cell["source"]
        text = "".join(source) if isinstance(source, list) else source
        if cell["cell_type"] == "code":
            found |= _marks(text.splitlines(), number)
    return found
