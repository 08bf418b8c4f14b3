"""SARIF 2.1.0 for GitHub code scanning: rule descriptors from the rules' documentation.

What code scanning reads: ``$schema``, ``version``, one run whose ``tool.driver`` has
``name``, ``version``, ``informationUri`` and ``rules`` (``id``, ``name``,
``shortDescription``, ``fullDescription``, ``help`` text and markdown,
``defaultConfiguration.level``); results with ``ruleId``, ``ruleIndex``, ``level``,
``message.text``, ``locations`` (a repository-relative ``artifactLocation.uri`` and a
full ``region``) and ``relatedLocations`` for the later split. A notebook finding's
region is the source line in the notebook's JSON; the message names the cell.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..engine import PARSE_CODE, PARSE_DOC, PARSE_HELP, PARSE_NAME, PARSE_SUMMARY
from ..ruleset import all_rules
from .locate import physical_region, relative_path, repo_root

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/leaklint/leaklint"


def _descriptor(code, name, short, doc, help_text, level):
    return {
        "id": code,
        "name": name,
        "shortDescription": {"text": short},
        "fullDescription": {"text": doc},
        "help": {"text": f"{help_text}\n\n{doc}", "markdown": f"**Fix:** {help_text}\n\n{doc}"},
        "defaultConfiguration": {"level": level},
        "helpUri": f"{INFORMATION_URI}#{code.lower()}",
        "properties": {"tags": ["data-leakage", "machine-learning"], "precision": "high"},
    }


def _uri(path: str, base: str) -> str:
    relative = relative_path(path, base)
    if relative is not None:
        return quote(relative, safe="/")
    return Path(path).resolve().as_uri()


def _region(path: str, location) -> dict:
    region = physical_region(path, location)
    if region is None:  # a notebook that cannot be read back (stdin): the file itself
        return {"startLine": 1}
    line, column, end_line, end_column = region
    if (end_line, end_column) <= (line, column):
        return {"startLine": line, "startColumn": column}
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _where(location) -> str:
    return "" if location.cell is None else f"cell {location.cell}, line {location.line}: "


def _physical(path: str, base: str, location) -> dict:
    return {"artifactLocation": {"uri": _uri(path, base)}, "region": _region(path, location)}


def _fix(f, base) -> dict:
    """A SARIF fix: the edits as replacements in the file as stored (a notebook's JSON)."""
    replacements = []
    for e in f.fix.physical:
        region = {"startLine": e.row, "startColumn": e.column, "endLine": e.end_row, "endColumn": e.end_column}
        replacements.append({"deletedRegion": region, "insertedContent": {"text": e.content}})
    return {
        "description": {"text": f.fix.message},
        "artifactChanges": [{"artifactLocation": {"uri": _uri(f.path, base)}, "replacements": replacements}],
        "properties": {"applicability": f.fix.applicability},
    }


def render(findings, base) -> str:
    descriptors = [_descriptor(r.code, r.name, r.summary, r.doc, r.help, r.severity) for r in all_rules()]
    descriptors.append(_descriptor(PARSE_CODE, PARSE_NAME, PARSE_SUMMARY, PARSE_DOC, PARSE_HELP, "warning"))
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    results = []
    for f in findings:
        result = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": "error" if f.severity == "error" else "warning",
            "message": {"text": _where(f.location) + f.message},
            "locations": [{"physicalLocation": _physical(f.path, base, f.location)}],
        }
        if f.location.cell is not None:
            result["properties"] = {"notebookCell": f.location.cell, "cellLine": f.location.line,
                                    "cellColumn": f.location.column}
        if f.fix is not None and f.fix.physical:
            result["fixes"] = [_fix(f, base)]
        if f.related:
            result["relatedLocations"] = [
                {
                    "id": i,
                    "message": {"text": r.message},
                    "physicalLocation": _physical(r.path or f.path, base, r.location),
                }
                for i, r in enumerate(f.related, start=1)
            ]
        results.append(result)
    run = {
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
        "columnKind": "unicodeCodePoints",
    }
    root = repo_root(base)
    if root is not None:
        run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": root.as_uri() + "/"}}
        for result in results:
            for loc in [l["physicalLocation"] for l in result["locations"]] + [
                l["physicalLocation"] for l in result.get("relatedLocations", [])
            ] + [change for fix in result.get("fixes", []) for change in fix["artifactChanges"]]:
                if not loc["artifactLocation"]["uri"].startswith("file:"):
                    loc["artifactLocation"]["uriBaseId"] = "%SRCROOT%"
    log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2) + "\n"
