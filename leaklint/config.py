"""``[tool.leaklint]`` settings: found, validated, merged with the command line.

Every key is checked: an unknown key, a wrong type or an unknown code is a
ConfigError naming the file and the key (the CLI exits 2, in one line).

Rule selection follows ruff: the defaults, then the file's ``select`` /
``extend-select`` / ``ignore``, then the command line's as a later layer (a
``--select`` there starts afresh; ``--extend-select`` and ``--ignore`` add to the
file's). Within one layer the more specific selector wins (``select = ["LL101"]``
beats ``ignore = ["LL1"]``); at equal specificity ``ignore`` wins. Per-file ignores
apply last.

``fail-on`` says which findings fail the run (exit 1): "warning" (the default) any
finding, "error" only those of rules whose severity is error. Each finding is judged by
the settings of its own file; ``--fail-on`` overrides them all.
"""
from __future__ import annotations

import fnmatch
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

from .ruleset import all_rules

DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache",
    ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv",
    ".vscode", "__pypackages__", "__pycache__", "_build", "buck-out", "build", "dist", "node_modules",
    "site-packages", "venv", ".leaklint_cache",
)
PARSE_CODE = "LL000"
SEVERITIES = ("error", "warning")  # the most severe first


class ConfigError(Exception):
    """A configuration problem: reported in one line, exit code 2."""


@dataclass(frozen=True)
class Settings:
    select: Optional[tuple] = None
    extend_select: tuple = ()
    ignore: tuple = ()
    exclude: tuple = DEFAULT_EXCLUDE
    extend_exclude: tuple = ()
    per_file_ignores: tuple = ()  # ((glob, (codes...)), ...)
    respect_gitignore: bool = True
    extend_classes: tuple = ()  # ((code, (qualnames...)), ...)
    time_functions: tuple = ()
    fail_on: str = "warning"  # the least severe finding that fails the run
    root: Optional[str] = None  # directory of the configuration file
    origin: Optional[str] = None  # the configuration file
    # later selection layers (the command line): ((select or None, extend_select, ignore), ...)
    overrides: tuple = field(default=(), compare=True)

    def selected_codes(self, path: Optional[str] = None) -> list:
        """Codes of the rules to run (and LL000 when selected explicitly)."""
        universe = all_codes()
        chosen = {r.code for r in all_rules() if r.default}
        for select, extend, ignore in ((self.select, self.extend_select, self.ignore), *self.overrides):
            chosen = _resolve_layer(universe, chosen, select, extend, ignore)
        if path is not None:
            for pattern, ignored in self.per_file_ignores:
                if self._matches(path, pattern):
                    chosen -= {c for c in universe if _matches_any(c, ignored)}
        return sorted(chosen)

    def selects_parse_errors(self, path: Optional[str] = None) -> bool:
        """True when LL000 (unparsable files) is selected explicitly: it then counts for the exit code."""
        return PARSE_CODE in self.selected_codes(path)

    def fails(self, severity: str) -> bool:
        """Whether a finding of this severity fails the run (exit 1)."""
        return SEVERITIES.index(severity) <= SEVERITIES.index(self.fail_on)

    def extra_classes(self, code: str) -> tuple:
        names = []
        for key, extra in self.extend_classes:
            if key == code:
                names.extend(extra)
        return tuple(names)

    def is_excluded(self, path, ancestors: bool = True) -> bool:
        """Whether ``exclude``/``extend-exclude`` match the path (or, with ``ancestors``, a folder above it).

        A directory walk checks each entry as it goes (``ancestors=False``), so a folder
        named on the command line is linted even when its name is excluded, as in ruff;
        ``--force-exclude`` checks the whole path.
        """
        relative = _relative(str(path), self.root)
        return any(_glob_matches(relative, p, ancestors) for p in self.exclude + self.extend_exclude)

    def _matches(self, path: str, pattern: str) -> bool:
        return _glob_matches(_relative(str(path), self.root), pattern, True)


def _glob_matches(relative: str, pattern: str, ancestors: bool) -> bool:
    """ruff's exclude semantics: a bare name matches a file or folder name at any depth;
    a pattern with a slash matches the path relative to the configuration's folder."""
    parts = relative.split("/")
    candidates = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)] if ancestors else [relative]
    pattern = pattern.strip()
    if pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.strip("/") if pattern.strip("/") else pattern
    if "/" not in pattern:
        names = parts if ancestors else parts[-1:]
        return any(fnmatch.fnmatchcase(name, pattern) for name in names)
    variants = {pattern}
    while pattern.startswith("**/"):  # ``**/`` also matches no folder at all
        pattern = pattern[3:]
        variants.add(pattern)
    return any(fnmatch.fnmatchcase(candidate, v) for candidate in candidates for v in variants)


def all_codes() -> list:
    return [r.code for r in all_rules()] + [PARSE_CODE]


def _specificity(selector: str) -> int:
    return 0 if selector == "ALL" else len(selector)


def _matches_any(code: str, selectors) -> bool:
    """Whether a selector covers the code. LL000 (an unparsable file counts for the exit
    code) is covered only when named: LL0, LL00 or LL000, not by ALL or LL."""
    if code == PARSE_CODE:
        return any(len(s) >= 3 and code.startswith(s) for s in selectors or ())
    return any(s == "ALL" or code.startswith(s) for s in selectors or ())


def _resolve_layer(universe, previous: set, select, extend, ignore) -> set:
    enabling = tuple(select or ()) + tuple(extend or ())
    base = set() if select is not None else set(previous)
    chosen = set()
    for code in universe:
        on = max((_specificity(s) for s in enabling if _matches_any(code, (s,))), default=-1)
        off = max((_specificity(s) for s in ignore or () if _matches_any(code, (s,))), default=-1)
        if on < 0 and off < 0:
            keep = code in base
        else:
            keep = on > off
        if keep:
            chosen.add(code)
    return chosen


def _relative(path: str, root: Optional[str]) -> str:
    """The path relative to the configuration's directory (else the working directory)."""
    absolute = Path(os.path.abspath(path))
    for base in (root, os.getcwd()):
        if not base:
            continue
        for candidate, folder in ((absolute, Path(os.path.abspath(base))), (_resolved(absolute), _resolved(Path(base)))):
            try:
                relative = candidate.relative_to(folder).as_posix()
            except ValueError:
                continue
            return relative if relative != "." else absolute.name
    # outside the project: names of every folder up to the filesystem's root count, as in ruff
    return absolute.as_posix().lstrip("/")


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path


# ------------------------------------------------------------------- loading
_LIST_KEYS = ("select", "extend-select", "ignore", "exclude", "extend-exclude", "time-functions")
_CODE_KEYS = ("select", "extend-select", "ignore")
_KNOWN = frozenset(_LIST_KEYS) | {"per-file-ignores", "respect-gitignore", "rules", "fail-on"}
_RULE_KEYS = frozenset({"extend-classes"})


def known_selector(code: str) -> bool:
    """ALL, a rule code or a prefix of one (LL1, LL10, LL101), upper case."""
    return code == "ALL" or (code.startswith("LL") and any(c.startswith(code) for c in all_codes()))


def _read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as err:
        raise ConfigError(f"{path}: cannot read configuration: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: invalid TOML: {' '.join(str(err).split())}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: invalid TOML: not UTF-8") from None


def load_file(path: Path) -> Optional[dict]:
    """The [tool.leaklint] table of a pyproject.toml (or the whole of another TOML file)."""
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            return None
        return tool.get("leaklint")
    return data


def parse_table(table, origin: Path) -> Settings:
    prefix = "[tool.leaklint] " if origin.name == "pyproject.toml" else ""

    def fail(key, why):
        raise ConfigError(f"{origin}: {prefix}{key}: {why}")

    if not isinstance(table, dict):
        raise ConfigError(f"{origin}: {prefix.strip() or 'configuration'}: must be a table")
    values = {}
    for key, value in table.items():
        if key not in _KNOWN:
            hint = _did_you_mean(key, _KNOWN)
            if key in _RULE_KEYS:
                hint = " (it belongs in a rule's table, e.g. [tool.leaklint.rules.LL101])"
            fail(key, f"unknown key{hint} (known: {', '.join(sorted(_KNOWN))})")
        if key in _LIST_KEYS:
            if not isinstance(value, list):
                fail(key, f"must be a list of strings, not {_type_name(value)}")
            stray = next((v for v in value if not isinstance(v, str)), None)
            if stray is not None:
                fail(key, f"must be a list of strings, not a list holding {_type_name(stray)} ({stray!r})")
            if key in _CODE_KEYS:
                for code in value:
                    _check_code(code, key, fail)
            if key == "time-functions":
                for name in value:
                    if not _qualified(name):
                        fail(key, f"{name!r} is not a qualified name such as 'mylib.io.load_sales'")
            values[key] = tuple(value)
        elif key == "respect-gitignore":
            if not isinstance(value, bool):
                fail(key, f"must be true or false, not {_type_name(value)}")
            values[key] = value
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                fail(key, f"must be a table of glob = [codes], not {_type_name(value)}")
            pairs = []
            for glob, codes in value.items():
                if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                    fail(f"{key}.{glob!r}", f"must be a list of codes, not {_type_name(codes)}")
                for code in codes:
                    _check_code(code, f"{key}.{glob!r}", fail)
                pairs.append((glob, tuple(codes)))
            values[key] = tuple(pairs)
        elif key == "rules":
            values[key] = _parse_rules(value, fail)
        elif key == "fail-on":
            if value not in SEVERITIES:
                fail(key, f"must be \"error\" or \"warning\", not {value!r}")
            values[key] = value
    return Settings(
        select=values.get("select"),
        extend_select=values.get("extend-select", ()),
        ignore=values.get("ignore", ()),
        exclude=values.get("exclude", DEFAULT_EXCLUDE),
        extend_exclude=values.get("extend-exclude", ()),
        per_file_ignores=values.get("per-file-ignores", ()),
        respect_gitignore=values.get("respect-gitignore", True),
        extend_classes=values.get("rules", ()),
        time_functions=values.get("time-functions", ()),
        fail_on=values.get("fail-on", "warning"),
        root=str(origin.parent),
        origin=str(origin),
    )


def _check_code(code: str, key: str, fail) -> None:
    if not known_selector(code):
        hint = " (codes are upper case)" if known_selector(code.upper()) else ""
        fail(key, f"unknown rule code {code!r}{hint}")


def _qualified(name: str) -> bool:
    parts = name.split(".")
    return len(parts) >= 2 and all(part.isidentifier() for part in parts)


def _type_name(value) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "a boolean", list: "a list",
             dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _did_you_mean(key: str, known) -> str:
    import difflib

    close = difflib.get_close_matches(key, sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _parse_rules(value, fail) -> tuple:
    if not isinstance(value, dict):
        fail("rules", f"must be a table of rule codes, not {_type_name(value)}")
    codes = {r.code for r in all_rules()}
    out = []
    for code, table in value.items():
        if code not in codes:
            fail(f"rules.{code}", "unknown rule code")
        if not isinstance(table, dict):
            fail(f"rules.{code}", f"must be a table, not {_type_name(table)}")
        for key, names in table.items():
            if key not in _RULE_KEYS:
                fail(f"rules.{code}.{key}", f"unknown key (known: {', '.join(sorted(_RULE_KEYS))})")
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                fail(f"rules.{code}.{key}", f"must be a list of strings, not {_type_name(names)}")
            for name in names:
                if not _qualified(name):
                    fail(f"rules.{code}.{key}", f"{name!r} is not a qualified name such as 'mylib.scaling.RobustZ'")
            out.append((code, tuple(names)))
    return tuple(out)


_FOUND: dict = {}
_LOADED: dict = {}


def _stamp(path: Path):
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)


def _has_table(candidate: Path) -> bool:
    """Whether a pyproject.toml has a [tool.leaklint] table (cached on mtime and size)."""
    key = (str(candidate), _stamp(candidate))
    if key not in _FOUND:
        try:
            data = _read_toml(candidate)
        except ConfigError:
            # An unrelated broken pyproject.toml is skipped; one that configures
            # leaklint is an error, not silently ignored.
            try:
                text = candidate.read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            if "leaklint" in text:
                raise
            data = {}
        tool = data.get("tool", {})
        _FOUND[key] = isinstance(tool, dict) and "leaklint" in tool
    return _FOUND[key]


def find_config(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml with a [tool.leaklint] table, walking up."""
    directory = start if start.is_dir() else start.parent
    directory = _resolved(Path(os.path.abspath(directory)))
    for folder in (directory, *directory.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _has_table(candidate):
            return candidate
    return None


def load_settings(path: Optional[Path]) -> Settings:
    if path is None:
        return Settings()
    path = Path(path)
    key = (str(path.resolve()), _stamp(path))
    if key not in _LOADED:
        table = load_file(path)
        _LOADED[key] = parse_table(table if table is not None else {}, path)
    return _LOADED[key]


def with_overrides(settings: Settings, select=None, extend_select=None, ignore=None, **others) -> Settings:
    """Command-line options override the file; None means "not given".

    ``select``/``extend_select``/``ignore`` form a later selection layer (see the module
    docstring); any other given field replaces the file's value.
    """
    if select is not None or extend_select is not None or ignore is not None:
        layer = (tuple(select) if select is not None else None, tuple(extend_select or ()), tuple(ignore or ()))
        settings = replace(settings, overrides=settings.overrides + (layer,))
    given = {k: v for k, v in others.items() if v is not None}
    return replace(settings, **given) if given else settings


__all__ = ["ConfigError", "Settings", "find_config", "load_settings", "with_overrides", "DEFAULT_EXCLUDE",
           "known_selector"]
