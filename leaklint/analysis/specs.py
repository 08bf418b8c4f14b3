"""Literal-only descriptions of library calls, safe to rebuild outside the user's code.

The runtime checker never evaluates user expressions; it rebuilds a procedure from
these specs and only after checking every qualified name against its allow-list.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable, Optional


@dataclass(frozen=True)
class FuncRef:
    """A reference (not a call) to a resolved library name, e.g. ``f_classif``."""

    qualname: str


@dataclass(frozen=True)
class Opaque:
    """Anything that is not a literal or a resolved library call: never rebuilt."""

    source: str


@dataclass(frozen=True)
class CallSpec:
    qualname: str
    args: tuple = ()
    kwargs: tuple = ()  # ((name, value), ...)

    def kwarg(self, name: str, default=None):
        for key, value in self.kwargs:
            if key == name:
                return value
        return default


_LITERAL_CONTAINERS = {ast.Tuple: tuple, ast.List: list}


def to_spec(node: ast.AST, resolve: Callable[[ast.AST], Optional[str]]):
    """Describe ``node`` with literals, FuncRef, CallSpec; anything else becomes Opaque.

    ``resolve`` maps a Name/Attribute node to a qualified library name or None.
    """
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = to_spec(node.operand, resolve)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
        return Opaque(_text(node))
    kind = _LITERAL_CONTAINERS.get(type(node))
    if kind is not None:
        items = [to_spec(elt, resolve) for elt in node.elts]
        return kind(items)
    if isinstance(node, (ast.Name, ast.Attribute)):
        qualname = resolve(node)
        return FuncRef(qualname) if qualname else Opaque(_text(node))
    if isinstance(node, ast.Call):
        qualname = resolve(node.func)
        if not qualname or any(isinstance(a, ast.Starred) for a in node.args):
            return Opaque(_text(node))
        if any(k.arg is None for k in node.keywords):
            return Opaque(_text(node))
        return CallSpec(
            qualname,
            tuple(to_spec(a, resolve) for a in node.args),
            tuple((k.arg, to_spec(k.value, resolve)) for k in node.keywords),
        )
    return Opaque(_text(node))


def is_safe(value, allowed: Callable[[str], bool]) -> bool:
    """True when ``value`` holds only literals and allow-listed names."""
    if isinstance(value, Opaque):
        return False
    if isinstance(value, FuncRef):
        return allowed(value.qualname)
    if isinstance(value, CallSpec):
        return (
            allowed(value.qualname)
            and all(is_safe(a, allowed) for a in value.args)
            and all(is_safe(v, allowed) for _, v in value.kwargs)
        )
    if isinstance(value, (list, tuple)):
        return all(is_safe(v, allowed) for v in value)
    return value is None or isinstance(value, (bool, int, float, str))


def _text(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # unparse fails on a few malformed synthetic trees
        return "<expression>"
    return text if len(text) <= 80 else text[:77] + "..."
