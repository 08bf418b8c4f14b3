"""Bindings of one activation, and the limits that keep call inlining bounded."""
from __future__ import annotations

from typing import Optional

from .values import Value

MAX_CALL_DEPTH = 4
# Calls followed into other modules of the project, counted as changes of module along a
# chain of calls: a helper module and one more (beyond, a call is an unknown call that
# keeps its rows). Calls within one module do not count.
MAX_MODULE_DEPTH = 2
STATEMENT_BUDGET = 200_000


class BudgetExceeded(Exception):
    """The file is too large to interpret with call inlining; stop inlining."""


class Scope:
    """Bindings of one module or function activation."""

    def __init__(self, parent: Optional["Scope"] = None):
        self.env: dict = {}
        self.parent = parent
        self.globals: set = set()
        self.returns: Optional[Value] = None
        self.stars: list = []  # project modules star-imported here (their files)

    def lookup(self, name: str) -> Optional[Value]:
        scope = self
        while scope is not None:
            if name in scope.env:
                return scope.env[name]
            scope = scope.parent
        return None
