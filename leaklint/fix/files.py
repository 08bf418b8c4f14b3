"""``--fix`` / ``--diff`` over files: apply one fix, lint again, repeat until nothing
fixable is left. One at a time, because two fixes planned on the same code can each be
right alone and wrong together (a search given a pipeline, and a score of that search
planned on the rows it used to see): each fix is planned on the code as it now is, and
the fixes stop where linting shows no rule with more findings than before them."""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Optional

from ..runner import job_for, read_file, run_job
from . import applicable, fixed_bytes
from .tree import FixError

MAX_PASSES = 100


@dataclass
class FixOutcome:
    changed: dict = field(default_factory=dict)  # path -> (old bytes, new bytes)
    fixed: int = 0
    errors: list = field(default_factory=list)  # one line per file a fix could not be written to
    withheld: int = 0  # fixes not applied: with them the code had a finding it did not have before


class Fixed(NamedTuple):
    data: bytes  # the file as the fixes left it
    count: int  # fixes applied
    error: Optional[str]  # a fix that could not be written, when no other could
    withheld: int  # fixes not applied: with them the code had a finding it did not have before


def fix_file(job, raw: bytes, unsafe: bool) -> Fixed:
    """One file's fixes, one at a time. The file is left as it was after the last fix at
    which no rule had more findings than in the original: a fix that brings a new finding
    to light (a validation part drawn from rows that a step fitted on all rows has seen)
    is kept only if a later fix removes that finding, else it is withheld and left to the
    user."""
    path = job[0]
    current, count = raw, 0
    result = run_job(job, current)
    original = Counter(f.code for f in result.findings)
    kept = (raw, 0)
    applied = set()  # fixes already made: the same one offered again where it was made no progress
    for _ in range(MAX_PASSES):
        new, error = current, None
        for finding in [f for f in result.findings if applicable(f.fix, unsafe)]:  # the first that can be written
            key = (finding.code, finding.location.cell, finding.location.line, finding.location.column, finding.fix.ops)
            if key in applied:
                continue
            try:
                new = fixed_bytes(path, current, finding.fix.ops)
                applied.add(key)
                break
            except FixError as err:
                error = f"{path}: a fix could not be written ({err})"
        else:
            break
        if new == current:
            error = None
            break
        current, count = new, count + 1
        result = run_job(job, current)
        if all(n <= original[code] for code, n in Counter(f.code for f in result.findings).items()):
            kept = (current, count)
    return Fixed(kept[0], kept[1], error, count - kept[1])


def fix_run(findings, resolver, unsafe: bool, raws: dict) -> FixOutcome:
    """Fix every file with an applicable fix among ``findings``; ``raws`` holds sources
    not on disk (stdin)."""
    outcome = FixOutcome()
    for path in sorted({f.path for f in findings if applicable(f.fix, unsafe)}):
        raw = raws.get(path)
        if raw is None:
            raw, failure = read_file(path)
            if failure is not None:
                continue
        job = job_for(path, resolver(Path(os.path.abspath(path))))
        new, count, error, withheld = fix_file(job, raw, unsafe)
        outcome.withheld += withheld
        if error is not None:
            outcome.errors.append(error)
        if new != raw:
            outcome.changed[path] = (raw, new)
            outcome.fixed += count
    return outcome


def write(outcome: FixOutcome) -> list:
    """Write the fixed files; one line per file that could not be written."""
    failures = []
    for path, (_old, new) in sorted(outcome.changed.items()):
        try:
            Path(path).write_bytes(new)
        except OSError as err:
            failures.append(f"{path}: cannot write the fix: {err.strerror}")
    return failures
