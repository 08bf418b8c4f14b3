"""Findings shown in an IPython session, under the cell that ran: plain text and HTML.

Cells are named by their execution count (``[3]`` in the notebook's margin), as the
rule messages already name them ("split ... at cell 4, line 1"), so one finding reads
the same in a terminal, in Jupyter's HTML and in ``%leaklint``.
"""
from __future__ import annotations

import html
import re

from ..ruleset import rule_by_code

_CODE_SPAN = re.compile(r"`([^`]+)`")
_CODE_TAG = r"<code>\1</code>"
_BOX = "border-left:4px solid #d9822b;padding:2px 10px;margin:4px 0"


def where(location, path=None) -> str:
    """``cell 3, line 2``; a location in another file (a helper module) names the file."""
    if location.cell is not None:
        return f"cell {location.cell}, line {location.line}"
    return f"{path}, line {location.line}" if path else f"line {location.line}"


def plain(findings) -> str:
    lines = []
    for f in findings:
        lines.append(f"leaklint: {where(f.location)}: {f.code} [{f.name}] {f.message}")
        lines.extend(f"  --> {where(r.location, r.path)}: {r.message}" for r in f.related)
        lines.append(f"  help: {f.help}")
    return "\n".join(lines)


def rich(findings) -> str:
    """One box per finding: what, where, the related sites, the help, and why (folded)."""
    return "".join(_box(f) for f in findings)


def mimebundle(findings) -> dict:
    """For ``IPython.display.display(..., raw=True)``: Jupyter shows the HTML, a terminal the text."""
    return {"text/plain": plain(findings), "text/html": rich(findings)}


def _box(finding) -> str:
    e = html.escape
    parts = [
        f'<div class="leaklint-finding" style="{_BOX}">',
        f"<b>leaklint {e(finding.code)}</b> <code>{e(finding.name)}</code> · {e(where(finding.location))}",
        f"<div>{e(finding.message)}</div>",
    ]
    if finding.related:
        items = "".join(f"<li>{e(where(r.location, r.path))}: {e(r.message)}</li>" for r in finding.related)
        parts.append(f'<ul style="margin:2px 0">{items}</ul>')
    parts.append(f"<div><b>help:</b> {e(finding.help)}</div>")
    rule = rule_by_code(finding.code)
    why = rule.section("Why is this bad?") if rule is not None else None
    if why:
        parts.append(f"<details><summary>Why is this bad?</summary>{_paragraphs(why)}</details>")
    parts.append("</div>")
    return "".join(parts)


def _paragraphs(text: str) -> str:
    """The rule's Markdown, hard-wrapped in its docstring, as HTML paragraphs."""
    paragraphs = (" ".join(block.split()) for block in text.split("\n\n") if block.strip())
    return "".join(f"<p>{_CODE_SPAN.sub(_CODE_TAG, html.escape(p))}</p>" for p in paragraphs)
