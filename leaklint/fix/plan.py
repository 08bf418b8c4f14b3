"""Fixes planned from the facts: which call leaked, where the rows were split, and what
the corrected procedure is. Each planner reads the syntax only to check that the code
has the shape its rewrite assumes, and returns the changes as Ops (written later by
libcst, see rewrite.py). A planner that cannot show that a name keeps its meaning for
the code after it marks the fix unsafe; one that cannot rewrite gives no fix.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..findings import Fix
from .evaluation import fit_after_split_fix, nested_cv_fix, refit_fix, validation_split_fix
from .steps import step_fix
from .timing import group_fix, look_ahead_fix, time_split_fix
from .tree import NoFix, Tree


def merged(first: Fix, second: Optional[Fix]) -> Optional[Fix]:
    """One fix for two leaks reported on one line (a mean and a std): both sets of ops, or
    none when either leak has no fix."""
    if second is None:
        return None
    ops = first.ops + tuple(op for op in second.ops if op not in first.ops)
    unsafe = "unsafe" in (first.applicability, second.applicability)
    return replace(first, applicability="unsafe" if unsafe else first.applicability, ops=ops)


def plan(code: str, hit, facts, tree: Tree) -> Optional[Fix]:
    planner = PLANNERS.get(code)
    if planner is None:
        return None
    try:
        return planner(hit, facts, tree)
    except NoFix:
        return None


PLANNERS = {
    "LL101": step_fix,
    "LL102": step_fix,
    "LL103": step_fix,
    "LL104": step_fix,
    "LL105": step_fix,
    "LL201": time_split_fix,
    "LL202": look_ahead_fix,
    "LL203": group_fix,
    "LL301": refit_fix,
    "LL302": fit_after_split_fix,
    "LL304": nested_cv_fix,
    "LL305": validation_split_fix,
}
