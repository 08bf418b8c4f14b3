"""Results of unchanged files, keyed on content, leaklint version and settings.

A re-run on an unchanged tree (the common pre-commit case) then only reads and
hashes the files.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Optional

CACHE_DIR = ".leaklint_cache"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by leaklint.\n"


class Cache:
    def __init__(self, directory: Path, version: str, entries: dict):
        self.directory = directory
        self.version = version
        self.entries = entries
        self.used: dict = {}
        self.dirty = False

    @classmethod
    def open(cls, directory: Path, version: str) -> "Cache":
        entries = {}
        try:
            with open(directory / f"results-{version}.pickle", "rb") as handle:
                loaded = pickle.load(handle)
            if isinstance(loaded, dict):
                entries = loaded
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
            entries = {}
        return cls(directory, version, entries)

    def _key(self, job) -> Optional[str]:
        path = job[0]
        try:
            with open(path, "rb") as handle:
                content = handle.read()
        except OSError:
            return None
        digest = hashlib.blake2b(content, digest_size=20)
        digest.update(repr(job).encode())
        return digest.hexdigest()

    def get(self, job):
        key = self._key(job)
        if key is None:
            return None
        result = self.entries.get(key)
        if result is not None:
            self.used[key] = result
        return result

    def put(self, job, result) -> None:
        key = self._key(job)
        if key is not None:
            self.used[key] = result
            self.dirty = True

    def save(self) -> None:
        """Keep the entries of this run only, so the cache does not grow without bound."""
        if not self.dirty and len(self.used) == len(self.entries):
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            tag = self.directory / "CACHEDIR.TAG"
            if not tag.exists():
                tag.write_text(_TAG)
                (self.directory / ".gitignore").write_text("*\n")
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(self.used, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.directory / f"results-{self.version}.pickle")
        except OSError:
            pass  # a read-only tree still gets its findings, only without a cache
