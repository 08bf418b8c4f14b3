"""``--fix`` / ``--diff`` over files: apply one fix, lint again, repeat until nothing
fixable is left. One at a time, because two fixes planned on the same code can each be
right alone and wrong together (a search given a pipeline, and a score of that search
planned on the rows it used to see): each fix is planned on the code as it now is, and
kept only if linting what it wrote shows its finding gone and none added."""
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
    withheld: int = 0  # fixes not applied because the code they wrote had a new finding


class Fixed(NamedTuple):
    data: bytes  # the file as the fixes left it
    count: int  # fixes applied
    error: Optional[str]  # a fix that could not be written, when no other could
    withheld: int  # fixes not applied: the code they wrote had a new finding


def fix_file(job, raw: bytes, unsafe: bool) -> Fixed:
    """One file's fixes, one at a time. A fix is kept only when the code it writes has
    fewer findings of its own code and no more of any other: a fix that brings a new
    finding to light (a validation part drawn from rows that a step fitted on all rows has
    seen) is withheld and left to the user."""
    path = job[0]
    current, count = raw, 0
    result = run_job(job, current)
    for _ in range(MAX_PASSES):
        before = Counter(f.code for f in result.findings)
        error, withheld = None, 0
        for finding in [f for f in result.findings if applicable(f.fix, unsafe)]:
            try:
                new = fixed_bytes(path, current, finding.fix.ops)
            except FixError as err:
                error = f"{path}: a fix could not be written ({err})"
                continue
            if new == current:
                continue
            after = run_job(job, new)
            counts = Counter(f.code for f in after.findings)
            if counts[finding.code] < before[finding.code] and all(counts[c] <= before[c] for c in counts):
                current, result, count = new, after, count + 1
                break
            withheld += 1
        else:
            return Fixed(current, count, error, withheld)
    return Fixed(current, count, None, 0)


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
