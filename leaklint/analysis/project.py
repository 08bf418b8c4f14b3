"""The project's own modules: where an import names one on disk, and its parsed tree.

``train.py`` importing ``add_target_means`` from ``churn/features.py`` hands it all the
rows; the analysis follows the call into that module's code as it follows a function of
the same file. Imports are resolved as Python would find them when the project runs
from its own folders: relative imports from the importing file's package, absolute ones
from the importing file's folder and its parents up to the project root (a folder with
``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git``), and their ``src/``
folders. Library packages are never project modules. A module that cannot be read or
parsed is not followed (the call stays an unknown call).
"""
from __future__ import annotations

import ast
import hashlib
import os
import warnings
from functools import lru_cache
from typing import Optional

from ..recover import LINE_SKIPPED, MAX_PASSES, recover_line
from . import libraries as lib

ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
MAX_PARENTS = 4  # folders searched above the importing file's own when no root marker is met
MAX_BYTES = 2_000_000  # a module larger than this is not followed
PATH_ATTRIBUTE = "_leaklint_path"  # set on every node of another module's tree
NOT_PROJECT = lib.ML_PACKAGES | lib.DATA_ROOTS | frozenset(("matplotlib", "seaborn", "statsmodels", "mlflow"))


def resolve(module: str, level: int, importer: Optional[str]) -> Optional[str]:
    """The file of project module ``module`` (``level`` leading dots) imported from
    ``importer`` (an absolute path), or None."""
    if importer is None or (level == 0 and (not module or module.split(".")[0] in NOT_PROJECT)):
        return None
    parts = module.split(".") if module else []
    if level:
        base = os.path.dirname(importer)
        for _ in range(level - 1):
            base = os.path.dirname(base)
        return _module_file(base, tuple(parts))
    for root in _search_roots(os.path.dirname(importer)):
        found = _module_file(root, tuple(parts))
        if found is not None:
            return found
    return None


@lru_cache(maxsize=1024)
def _search_roots(folder: str) -> tuple:
    roots = []
    for depth in range(MAX_PARENTS + 1):
        roots.append(folder)
        if os.path.isdir(os.path.join(folder, "src")):
            roots.append(os.path.join(folder, "src"))
        if any(os.path.exists(os.path.join(folder, marker)) for marker in ROOT_MARKERS):
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return tuple(roots)


@lru_cache(maxsize=4096)
def _module_file(base: str, parts: tuple) -> Optional[str]:
    path = os.path.join(base, *parts)
    for candidate in (path + ".py", os.path.join(path, "__init__.py")):
        if os.path.isfile(candidate):
            return os.path.normpath(candidate)
    return None


def load(path: str) -> Optional[tuple]:
    """(tree with every node tagged with ``path``, content digest), or None."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _parse(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _parse(path: str, _mtime: int, size: int) -> Optional[tuple]:
    if size > MAX_BYTES:
        return None
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
        tree = _parse_recovering(raw.decode("utf-8"), path)
    except (OSError, UnicodeDecodeError, ValueError, MemoryError, RecursionError):
        return None
    if tree is None:
        return None
    for node in ast.walk(tree):
        setattr(node, PATH_ATTRIBUTE, path)
    return tree, digest(raw)


def _parse_recovering(text: str, path: str) -> Optional[ast.Module]:
    """Parse a helper module as a script is parsed: a few bad lines (a pasted command) are
    neutralised, and Python 2 ``print`` statements read as calls, rather than losing the
    module's helpers. A function or class holding a neutralised line is dropped (its calls
    stay unknown calls): its body is not the code its author wrote."""
    bad, messages = set(), []
    for _ in range(MAX_PASSES):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(text, filename=path)
        except SyntaxError as err:
            recovered = recover_line(text, err.lineno, messages)
            if recovered is None:
                return None
            text, lines = recovered
            messages += [how for _, how in lines]
            bad |= {line for line, how in lines if how == LINE_SKIPPED}  # a print read as a call is the code written
            continue
        tree.body = [
            stmt for stmt in tree.body
            if not (isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                    and any(stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno) for line in bad))
        ]
        return tree
    return None


def digest(raw: bytes) -> str:
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def is_current(path: str, expected: str) -> bool:
    """The module on disk still has the content a cached result was computed from."""
    try:
        with open(path, "rb") as handle:
            return digest(handle.read()) == expected
    except OSError:
        return False
