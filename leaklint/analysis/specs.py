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


@dataclass(frozen=True)
class Mapping:
    """A dict display of literals (``{"max_depth": 5}``), only ever unpacked into keywords
    (``**params``); anywhere else it is not rebuilt."""

    items: tuple  # ((str key, literal value), ...)

    def updated(self, settings: dict) -> "Mapping":
        """The settings after ``params.update(settings)`` (or ``params[k] = v``): new keys win."""
        return Mapping(tuple((dict(self.items) | settings).items()))

    def without(self, key: str) -> "Mapping":
        return Mapping(tuple((k, v) for k, v in self.items if k != key))


_LITERAL_CONTAINERS = {ast.Tuple: tuple, ast.List: list}

# What a name is bound to, when that binding was literal syntax (or a library call
# described by literals): ``(value,)``, else None. Nothing is ever evaluated.
Bound = Callable[[ast.AST], Optional[tuple]]


def to_spec(node: ast.AST, resolve: Callable[[ast.AST], Optional[str]], bound: Optional[Bound] = None):
    """Describe ``node`` with literals, FuncRef, CallSpec; anything else becomes Opaque.

    ``resolve`` maps a Name/Attribute node to a qualified library name or None;
    ``bound`` gives the literal a name was bound to (a constant, a variable assigned a
    literal, a dict display unpacked with ``**``), read from the syntax of that binding.
    """
    if isinstance(node, ast.Constant) and not isinstance(node.value, bytes):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = to_spec(node.operand, resolve, bound)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
        return Opaque(opaque_text(node))
    kind = _LITERAL_CONTAINERS.get(type(node))
    if kind is not None:
        items = [to_spec(elt, resolve, bound) for elt in node.elts]
        return kind(items)
    if isinstance(node, (ast.Name, ast.Attribute)):
        qualname = resolve(node)
        if qualname:
            return FuncRef(qualname)
        found = bound(node) if bound is not None else None
        if found is not None and not isinstance(found[0], Mapping):
            return found[0]
        return Opaque(opaque_text(node))
    if isinstance(node, ast.Call):
        qualname = resolve(node.func)
        if not qualname or any(isinstance(a, ast.Starred) for a in node.args):
            return Opaque(opaque_text(node))
        kwargs = []
        for keyword in node.keywords:
            if keyword.arg is not None:
                kwargs.append((keyword.arg, to_spec(keyword.value, resolve, bound)))
                continue
            unpacked = _unpacked(keyword.value, bound)
            if unpacked is None:
                return Opaque(opaque_text(node))
            kwargs.extend(unpacked)
        if len({name for name, _ in kwargs}) != len(kwargs):
            return Opaque(opaque_text(node))  # a keyword given twice fails when called
        return CallSpec(qualname, tuple(to_spec(a, resolve, bound) for a in node.args), tuple(kwargs))
    return Opaque(opaque_text(node))


def literal_of(node: ast.AST) -> Optional[tuple]:
    """``(value,)`` when ``node`` is literal syntax (a constant, a signed number, a list or
    tuple of literals, a dict display with string keys and literal values, or ``dict(k=v)``
    of literal values), else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args \
            and node.keywords and all(k.arg is not None for k in node.keywords):
        node = ast.Dict(keys=[ast.Constant(k.arg) for k in node.keywords], values=[k.value for k in node.keywords])
    if isinstance(node, ast.Dict):
        if any(not (isinstance(k, ast.Constant) and isinstance(k.value, str)) for k in node.keys):
            return None  # (a None key is a ``**other`` inside the display)
        values = [literal_of(v) for v in node.values]
        if any(v is None or isinstance(v[0], Mapping) for v in values):
            return None
        # (a key written twice holds its last value, as Python builds the dict)
        return (Mapping(tuple({k.value: v[0] for k, v in zip(node.keys, values)}.items())),)
    if isinstance(node, ast.Constant):  # the common case, without building a spec
        value = node.value
        return (value,) if value is None or isinstance(value, (bool, int, float, str)) else None
    if not isinstance(node, (ast.UnaryOp, ast.Tuple, ast.List)):
        return None
    value = to_spec(node, lambda expr: None)
    return (value,) if _literal(value) else None


def _literal(value) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_literal(v) for v in value)
    return value is None or isinstance(value, (bool, int, float, str))


def _unpacked(node: ast.AST, bound: Optional[Bound]) -> Optional[list]:
    """The keywords of ``**{...}`` or ``**params`` with params bound to a dict display."""
    found = literal_of(node) if isinstance(node, ast.Dict) else (bound(node) if bound is not None else None)
    if found is None or not isinstance(found[0], Mapping):
        return None
    return list(found[0].items)


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


def opaque_text(node: ast.AST) -> str:
    """Short source text of ``node`` (what an Opaque shows)."""
    try:
        text = ast.unparse(node)
    except Exception:  # unparse fails on a few malformed synthetic trees
        return "<expression>"
    return text if len(text) <= 80 else text[:77] + "..."
