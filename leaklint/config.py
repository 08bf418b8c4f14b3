"""``[tool.leaklint]`` settings: found, validated, merged with the command line.

Every key is checked: an unknown key, a wrong type or an unknown code is a
ConfigError naming the file and the key (the CLI exits 2).
"""
from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, replace
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
    root: Optional[str] = None  # directory of the configuration file

    def selected_codes(self, path: Optional[str] = None) -> list:
        """Codes of the rules to run (and LL000 when selected explicitly)."""
        codes = [r.code for r in all_rules()] + ["LL000"]
        default = {r.code for r in all_rules() if r.default}
        chosen = {c for c in codes if _matches_any(c, self.select)} if self.select is not None else set(default)
        chosen |= {c for c in codes if _matches_any(c, self.extend_select)}
        chosen -= {c for c in codes if _matches_any(c, self.ignore)}
        if path is not None:
            for pattern, ignored in self.per_file_ignores:
                if _path_matches(path, pattern, self.root):
                    chosen -= {c for c in codes if _matches_any(c, ignored)}
        return sorted(chosen)

    def extra_classes(self, code: str) -> tuple:
        for key, names in self.extend_classes:
            if key == code:
                return names
        return ()

    def is_excluded(self, path: Path) -> bool:
        patterns = self.exclude + self.extend_exclude
        return any(_path_matches(str(path), p, self.root) for p in patterns)


def _matches_any(code: str, selectors) -> bool:
    return any(s == "ALL" or code.startswith(s) for s in selectors or ())


def _path_matches(path: str, pattern: str, root: Optional[str]) -> bool:
    candidate = Path(path)
    if root:
        try:
            candidate = Path(path).resolve().relative_to(Path(root).resolve())
        except ValueError:
            pass
    text = candidate.as_posix()
    if fnmatch.fnmatch(text, pattern) or fnmatch.fnmatch(text, pattern.rstrip("/") + "/*"):
        return True
    return any(fnmatch.fnmatch(part, pattern) for part in candidate.parts)


# ------------------------------------------------------------------- loading
_LIST_KEYS = {"select", "extend-select", "ignore", "exclude", "extend-exclude", "time-functions"}
_KNOWN = _LIST_KEYS | {"per-file-ignores", "respect-gitignore", "rules"}
_RULE_KEYS = {"extend-classes"}


def known_selector(code: str) -> bool:
    codes = [r.code for r in all_rules()] + ["LL000"]
    return code == "ALL" or any(c.startswith(code) for c in codes) and code.startswith("LL")


def load_file(path: Path) -> Optional[dict]:
    """The [tool.leaklint] table of a pyproject.toml (or the whole of a leaklint.toml)."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as err:
        raise ConfigError(f"{path}: cannot read configuration: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: invalid TOML: {err}") from None
    if path.name == "pyproject.toml":
        return data.get("tool", {}).get("leaklint")
    return data


def parse_table(table: dict, origin: Path) -> Settings:
    def fail(key, why):
        raise ConfigError(f"{origin}: [tool.leaklint] {key}: {why}")

    if not isinstance(table, dict):
        fail("", "must be a table")
    values = {}
    for key, value in table.items():
        if key not in _KNOWN:
            fail(key, f"unknown key (known: {', '.join(sorted(_KNOWN))})")
        if key in _LIST_KEYS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                fail(key, "must be a list of strings")
            if key in ("select", "extend-select", "ignore"):
                for code in value:
                    if not known_selector(code):
                        fail(key, f"unknown rule code {code!r}")
            values[key] = tuple(value)
        elif key == "respect-gitignore":
            if not isinstance(value, bool):
                fail(key, "must be true or false")
            values[key] = value
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                fail(key, "must be a table of glob = [codes]")
            pairs = []
            for glob, codes in value.items():
                if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                    fail(f"{key}.{glob}", "must be a list of codes")
                for code in codes:
                    if not known_selector(code):
                        fail(f"{key}.{glob}", f"unknown rule code {code!r}")
                pairs.append((glob, tuple(codes)))
            values[key] = tuple(pairs)
        elif key == "rules":
            values[key] = _parse_rules(value, fail)
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
        root=str(origin.parent),
    )


def _parse_rules(value, fail) -> tuple:
    if not isinstance(value, dict):
        fail("rules", "must be a table of rule codes")
    codes = {r.code for r in all_rules()}
    out = []
    for code, table in value.items():
        if code not in codes:
            fail(f"rules.{code}", "unknown rule code")
        if not isinstance(table, dict):
            fail(f"rules.{code}", "must be a table")
        for key, names in table.items():
            if key not in _RULE_KEYS:
                fail(f"rules.{code}.{key}", "unknown key (known: extend-classes)")
            if not isinstance(names, list) or not all(isinstance(n, str) and "." in n for n in names):
                fail(f"rules.{code}.{key}", "must be a list of qualified names such as 'mylib.scaling.RobustZ'")
            out.append((code, tuple(names)))
    return tuple(out)


def find_config(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml with a [tool.leaklint] table, walking up."""
    directory = start if start.is_dir() else start.parent
    directory = directory.resolve()
    for folder in (directory, *directory.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                with open(candidate, "rb") as handle:
                    data = tomllib.load(handle)
            except (OSError, tomllib.TOMLDecodeError):
                continue
            if "leaklint" in data.get("tool", {}):
                return candidate
    return None


def load_settings(path: Optional[Path]) -> Settings:
    if path is None:
        return Settings()
    table = load_file(path)
    return parse_table(table or {}, path)


def with_overrides(settings: Settings, **overrides) -> Settings:
    """Command-line options override the file; None means "not given"."""
    given = {k: v for k, v in overrides.items() if v is not None}
    return replace(settings, **given) if given else settings


__all__ = ["ConfigError", "Settings", "find_config", "load_settings", "with_overrides", "DEFAULT_EXCLUDE"]
