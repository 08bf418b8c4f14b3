"""Fixes: planned as data on findings during the lint (plan.py, ``ast`` only), written
with libcst only when edits are asked for (``--fix``, ``--diff``, JSON, SARIF, the
editor). This module turns a file's raw bytes and some fixes into new bytes, edits and
diffs; nothing here is imported on the plain lint path."""
from __future__ import annotations

import difflib
import io
import tokenize
from dataclasses import replace
from pathlib import Path

from ..findings import Edit, Fix
from ..lines import line_ends, split_lines
from ..sources import _cell_text, load_notebook
from .tree import FixError

APPLICABILITY = ("safe", "unsafe", "display-only")


def applicable(fix, unsafe: bool) -> bool:
    """Applied by ``--fix``: a safe fix, or an unsafe one with ``--unsafe-fixes``."""
    return fix is not None and (fix.applicability == "safe" or (unsafe and fix.applicability == "unsafe"))


def fixed_bytes(path: str, raw: bytes, ops) -> bytes:
    """The file with the ops written in (FixError when they cannot be)."""
    if path.endswith(".ipynb"):
        from .notebook import fixed_notebook

        return fixed_notebook(raw, ops)
    from .rewrite import rewrite

    encoding, bom = _encoding(raw)
    text = raw[len(bom):].decode(encoding)
    return bom + rewrite(text, ops).encode(encoding)


def _encoding(raw: bytes) -> tuple:
    if raw.startswith(b"\xef\xbb\xbf"):
        return "utf-8", b"\xef\xbb\xbf"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as err:
        raise FixError(str(err)) from None
    return ("utf-8" if encoding == "utf-8-sig" else encoding), b""


def sources_of(findings, raws: dict) -> dict:
    """The bytes of each file with a fix: from ``raws`` (stdin) or read from disk."""
    out = {}
    for path in {f.path for f in findings if f.fix is not None}:
        if path in raws:
            out[path] = raws[path]
            continue
        try:
            out[path] = Path(path).read_bytes()
        except OSError:
            continue
    return out


def with_edits(findings, raws: dict) -> list:
    """The findings with each fix's edits computed against its file's bytes (``raws``);
    a fix that cannot be written is dropped (``fix`` becomes None)."""
    out = []
    for finding in findings:
        raw = raws.get(finding.path)
        if finding.fix is None or finding.fix.edits or raw is None:
            out.append(finding)
            continue
        try:
            new = fixed_bytes(finding.path, raw, finding.fix.ops)
        except FixError:
            out.append(replace(finding, fix=None))
            continue
        fix = replace(finding.fix, edits=tuple(user_edits(finding.path, raw, new)),
                      physical=tuple(text_edits(_text(raw), _text(new))))
        out.append(replace(finding, fix=fix))
    return out


def _text(raw: bytes) -> str:
    try:
        encoding, bom = _encoding(raw)
        return raw[len(bom):].decode(encoding)
    except (FixError, UnicodeDecodeError, LookupError):
        return raw.decode("utf-8", "replace")


def text_edits(old: str, new: str, cell=None) -> list:
    """Line-granular Edits turning ``old`` into ``new``."""
    a, b = line_ends(old), line_ends(new)
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            edits.append(Edit("".join(b[j1:j2]), i1 + 1, 1, i2 + 1, 1, cell))
    return edits


def user_edits(path: str, old: bytes, new: bytes) -> list:
    """Edits as the user reads the file: per cell for a notebook (ruff's JSON convention)."""
    if not path.endswith(".ipynb"):
        return text_edits(_text(old), _text(new))
    before, after = load_notebook(old)["cells"], load_notebook(new)["cells"]
    edits = []
    for number, (a, b) in enumerate(zip(before, after), start=1):
        if a.get("source") != b.get("source"):
            old_text = "\n".join(split_lines(_cell_text(a))) + "\n"
            new_text = "\n".join(split_lines(_cell_text(b))) + "\n"
            edits.extend(text_edits(old_text, new_text, number))
    return edits


def unified_diff(path: str, old: bytes, new: bytes) -> str:
    """A diff that ``patch -p0`` and ``git apply -p0`` apply from the working folder: its
    lines are the file's ``\\n``-ended lines, as those tools read them."""
    a, b = list(io.StringIO(_text(old), newline="\n")), list(io.StringIO(_text(new), newline="\n"))
    lines = []
    # a name with a space ends at a tab, as diff writes it, or patch reads only its first word
    named = path + "\t" if any(ch.isspace() for ch in path) else path
    for line in difflib.unified_diff(a, b, fromfile=named, tofile=named):
        lines.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(lines)


__all__ = ["APPLICABILITY", "Fix", "FixError", "applicable", "fixed_bytes", "sources_of", "text_edits", "unified_diff",
           "with_edits"]
