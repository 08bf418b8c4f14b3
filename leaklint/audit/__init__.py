"""The runtime checker: run a flagged procedure as written and honestly, on data with no signal.

``audit_findings`` returns one ``AuditResult`` per finding; ``render_table`` and ``plot``
show them. Nothing here runs or evaluates the user's code: see ``pieces`` and ``allowlist``.
The names are imported on first use, so ``leaklint check`` does not pay for them.
"""
from importlib import import_module

_EXPORTS = {
    "AuditResult": "leaklint.audit.result",
    "MissingDependencyError": "leaklint.audit.dependencies",
    "audit_findings": "leaklint.audit.runner",
    "missing_dependencies": "leaklint.audit.dependencies",
    "plot": "leaklint.audit.render",
    "render_table": "leaklint.audit.render",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
