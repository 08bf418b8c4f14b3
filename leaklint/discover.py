"""Which files to lint: Python files and notebooks under the given paths.

Skips ruff's default excludes and what .gitignore ignores (every .gitignore from the
file's folder up to the root of its git repository, and the repository's
.git/info/exclude); a file named explicitly is always linted unless --force-exclude
(pre-commit passes every staged file) and ``exclude``/``extend-exclude`` match it.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator, Optional

import pathspec

SUFFIXES = (".py", ".pyi", ".ipynb")


class _GitIgnores:
    """The ignore files between a directory and its repository root, cached per folder."""

    def __init__(self):
        self._specs: dict = {}
        self._repo: dict = {}

    def spec(self, directory: Path) -> Optional[pathspec.PathSpec]:
        if directory not in self._specs:
            lines = _read_lines(directory / ".gitignore")
            if (directory / ".git").is_dir():
                lines += _read_lines(directory / ".git" / "info" / "exclude")
            self._specs[directory] = pathspec.GitIgnoreSpec.from_lines(lines) if lines else None
        return self._specs[directory]

    def repository(self, folder: Path) -> Optional[Path]:
        """The nearest folder at or above ``folder`` holding a .git entry."""
        if folder not in self._repo:
            found = None
            for candidate in (folder, *folder.parents):
                if (candidate / ".git").exists():
                    found = candidate
                    break
            self._repo[folder] = found
        return self._repo[folder]

    def ignored(self, path: Path, is_dir: bool, stop: Path) -> bool:
        """``stop`` bounds the search when the path is not inside a git repository."""
        top = self.repository(path.parent) or stop
        for folder in (path.parent, *path.parent.parents):
            spec = self.spec(folder)
            if spec is not None:
                relative = path.relative_to(folder).as_posix() + ("/" if is_dir else "")
                if spec.match_file(relative):
                    return True
            if folder == top or folder == folder.parent:
                break
        return False


def _read_lines(path: Path) -> list:
    try:
        if path.is_file():
            return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        pass
    return []


def iter_files(paths, settings_for, force_exclude: bool = False) -> Iterator[tuple]:
    """Yield (path as given/relative, error or None) for every file to lint."""
    ignores = _GitIgnores()
    seen = set()
    for given in paths:
        root = Path(given)
        if not root.is_dir():
            settings = settings_for(root)
            if force_exclude and settings.is_excluded(root):
                continue
            if str(root) not in seen:
                seen.add(str(root))
                yield str(root), None
            continue
        stop = Path(os.path.abspath(root))
        for directory, dirnames, filenames in os.walk(root, followlinks=False, onerror=None):
            folder = Path(directory)
            settings = settings_for(folder)
            kept = []
            for name in sorted(dirnames):
                child = folder / name
                if settings.is_excluded(child, ancestors=False):
                    continue
                if settings.respect_gitignore and ignores.ignored(Path(os.path.abspath(child)), True, stop):
                    continue
                kept.append(name)
            dirnames[:] = kept
            for name in sorted(filenames):
                if not name.endswith(SUFFIXES):
                    continue
                child = folder / name
                if settings.is_excluded(child, ancestors=False):
                    continue
                if settings.respect_gitignore and ignores.ignored(Path(os.path.abspath(child)), False, stop):
                    continue
                key = str(child)
                if key not in seen:
                    seen.add(key)
                    yield key, None
