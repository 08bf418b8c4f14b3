"""Which files to lint: Python files and notebooks under the given paths.

Skips ruff's default excludes and what .gitignore ignores; a file named explicitly
is always linted (unless --force-exclude, as pre-commit passes every staged file).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator, Optional

import pathspec

SUFFIXES = (".py", ".pyi", ".ipynb")


class _GitIgnores:
    """The .gitignore files between a walk's root and a directory, cached."""

    def __init__(self):
        self._specs: dict = {}

    def spec(self, directory: Path) -> Optional[pathspec.PathSpec]:
        if directory not in self._specs:
            gitignore = directory / ".gitignore"
            spec = None
            if gitignore.is_file():
                try:
                    lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
                    spec = pathspec.PathSpec.from_lines("gitwildmatch", lines)
                except OSError:
                    spec = None
            self._specs[directory] = spec
        return self._specs[directory]

    def ignored(self, path: Path, is_dir: bool, stop: Path) -> bool:
        for folder in (path.parent, *path.parent.parents):
            spec = self.spec(folder)
            if spec is not None:
                relative = path.relative_to(folder).as_posix() + ("/" if is_dir else "")
                if spec.match_file(relative):
                    return True
            if folder == stop or (folder / ".git").exists():
                break
        return False


def iter_files(paths, settings_for, force_exclude: bool = False) -> Iterator[tuple]:
    """Yield (path as given/relative, error or None) for every file to lint."""
    ignores = _GitIgnores()
    seen = set()
    for given in paths:
        root = Path(given)
        if root.is_file() or (root.suffix in SUFFIXES and root.exists() and not root.is_dir()):
            settings = settings_for(root)
            if force_exclude and settings.is_excluded(root):
                continue
            if str(root) not in seen:
                seen.add(str(root))
                yield str(root), None
            continue
        for directory, dirnames, filenames in os.walk(root, followlinks=False, onerror=None):
            folder = Path(directory)
            settings = settings_for(folder)
            kept = []
            for name in sorted(dirnames):
                child = folder / name
                if settings.is_excluded(child):
                    continue
                if settings.respect_gitignore and ignores.ignored(child.resolve(), True, root.resolve()):
                    continue
                kept.append(name)
            dirnames[:] = kept
            for name in sorted(filenames):
                child = folder / name
                if not name.endswith(SUFFIXES) or settings.is_excluded(child):
                    continue
                if settings.respect_gitignore and ignores.ignored(child.resolve(), False, root.resolve()):
                    continue
                key = str(child)
                if key not in seen:
                    seen.add(key)
                    yield key, None
