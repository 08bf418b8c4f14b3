"""The runtime checker: run a flagged procedure as written and honestly, on data with no signal.

``audit_findings`` returns one ``AuditResult`` per finding; ``render_table`` and ``plot``
show them. Nothing here runs or evaluates the user's code: see ``pieces`` and ``allowlist``.
"""
from leaklint.audit.dependencies import MissingDependencyError, missing_dependencies
from leaklint.audit.render import plot, render_table
from leaklint.audit.result import AuditResult
from leaklint.audit.runner import audit_findings

__all__ = [
    "AuditResult",
    "MissingDependencyError",
    "audit_findings",
    "missing_dependencies",
    "plot",
    "render_table",
]
