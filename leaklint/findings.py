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
class Op:
    """One change a fix makes, in the analysed text (a notebook's cells joined).

    ``kind``: "replace" (the expression at the span becomes ``code``), "delete" (the
    statement at the span goes), "insert" (``code``, statements, after the statement at
    the span), "before" (the same, before it), "params" (the function parameter at the
    span becomes the parameters in ``code``), "import" / "unimport" (``code`` is
    ``module:name``; added, or removed when nothing uses it any more). Lines are 1-based,
    columns 0-based characters.
    """

    kind: str
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0
    code: str = ""


@dataclass(frozen=True)
class Edit:
    """Replace from (row, column) to (end_row, end_column), 1-based, with ``content``;
    rows are within ``cell`` for a notebook (None for a .py file or the file as stored)."""

    content: str
    row: int
    column: int
    end_row: int
    end_column: int
    cell: Optional[int] = None


@dataclass(frozen=True)
class Fix:
    """A correction as data; libcst writes it only when edits are asked for (leaklint.fix)."""

    applicability: str  # "safe", "unsafe" or "display-only", as ruff
    message: str
    ops: tuple = ()
    edits: tuple = ()  # Edits as the user reads the file (cells of a notebook), once computed
    physical: tuple = ()  # the same Edits in the file as stored (a notebook's JSON text)


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
    fix: Optional[Fix] = field(default=None, compare=False, hash=False)

    def sort_key(self):
        loc = self.location
        return (self.path, loc.cell or 0, loc.line, loc.column, self.code)
