"""The JSON contract: an array of findings with 1-based positions and related locations."""
from __future__ import annotations

import json


def finding_to_dict(f) -> dict:
    loc = f.location
    return {
        "path": f.path,
        "line": loc.line,
        "column": loc.column,
        "end_line": loc.end_line,
        "end_column": loc.end_column,
        "cell": loc.cell,
        "code": f.code,
        "name": f.name,
        "severity": f.severity,
        "message": f.message,
        "help": f.help,
        "related": [
            {
                "line": r.location.line,
                "column": r.location.column,
                "cell": r.location.cell,
                "message": r.message,
                **({"path": r.path} if r.path is not None else {}),
            }
            for r in f.related
        ],
        "fix": fix_to_dict(f.fix),
    }


def fix_to_dict(fix):
    """ruff's shape: ``{applicability, message, edits: [{content, location, end_location}]}``
    with each edit's ``cell`` (None for a .py file)."""
    if fix is None:
        return None
    return {
        "applicability": fix.applicability,
        "message": fix.message,
        "edits": [
            {
                "content": e.content,
                "location": {"row": e.row, "column": e.column},
                "end_location": {"row": e.end_row, "column": e.end_column},
                "cell": e.cell,
            }
            for e in fix.edits
        ],
    }


def render(findings, base) -> str:
    return json.dumps([finding_to_dict(f) for f in findings], indent=2) + "\n"
