"""SARIF 2.1.0 for GitHub code scanning: rule descriptors from the rules' documentation."""
from __future__ import annotations

import json
import os
from pathlib import Path

from .. import __version__
from ..ruleset import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/leaklint/leaklint"
_LL000 = {
    "id": "LL000",
    "name": "unparsable-file",
    "short": "a file could not be read or parsed",
    "doc": "leaklint could not read or parse this file, so it was not analysed.",
    "help": "fix the file or exclude it",
}


def _descriptor(code, name, short, doc, help_text, level):
    return {
        "id": code,
        "name": name,
        "shortDescription": {"text": short},
        "fullDescription": {"text": doc},
        "help": {"text": help_text, "markdown": doc},
        "defaultConfiguration": {"level": level},
        "helpUri": f"{INFORMATION_URI}#{code.lower()}",
        "properties": {"tags": ["data-leakage", "machine-learning"]},
    }


def _uri(path: str, base: str) -> str:
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path(os.path.abspath(base))).as_posix()
    except ValueError:
        return absolute.as_uri()


def _region(location) -> dict:
    return {
        "startLine": location.line,
        "startColumn": location.column,
        "endLine": location.end_line,
        "endColumn": max(location.end_column, location.column),
    }


def render(findings, base) -> str:
    descriptors = [_descriptor(r.code, r.name, r.summary, r.doc, r.help, "error") for r in all_rules()]
    descriptors.append(_descriptor(_LL000["id"], _LL000["name"], _LL000["short"], _LL000["doc"], _LL000["help"], "warning"))
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    results = []
    for f in findings:
        artifact = {"uri": _uri(f.path, base)}
        message = f.message if f.location.cell is None else f"cell {f.location.cell}, line {f.location.line}: {f.message}"
        result = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": "error" if f.severity == "error" else "warning",
            "message": {"text": message},
            "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": _region(f.location)}}],
        }
        if f.related:
            result["relatedLocations"] = [
                {
                    "id": i,
                    "message": {"text": r.message},
                    "physicalLocation": {"artifactLocation": dict(artifact), "region": _region(r.location)},
                }
                for i, r in enumerate(f.related)
            ]
        results.append(result)
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "leaklint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": descriptors,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"
