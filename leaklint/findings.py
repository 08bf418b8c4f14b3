"""The data a rule hands to the reporters: one finding, its related locations."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass(frozen=True)
class Location:
    """A 1-based position; ``cell`` is the 1-based notebook cell or None for .py files."""

    line: int
    column: int
    end_line: int
    end_column: int
    cell: Optional[int] = None


@dataclass(frozen=True)
class Related:
    """Where the data was later split, cross-validated or evaluated."""

    location: Location
    message: str
    path: Optional[str] = None  # another file of the project (a helper module); None: the finding's file


@dataclass(frozen=True)
class Finding:
    path: str
    code: str
    name: str
    severity: str
    message: str
    help: str
    location: Location
    related: tuple[Related, ...] = ()
    # Procedure pieces the runtime checker may rebuild: values are CallSpec,
    # Opaque, literals or None (see leaklint.analysis.specs).
    procedure: dict = field(default_factory=dict, compare=False, hash=False)

    def sort_key(self):
        loc = self.location
        return (self.path, loc.cell or 0, loc.line, loc.column, self.code)
