"""Results of unchanged files, keyed on content, leaklint's code and the file's settings.

A re-run on an unchanged tree (the common pre-commit case) then only reads, screens
and hashes the files. The cache is one file, ``.leaklint_cache/results-<version>.pickle``,
next to a ``CACHEDIR.TAG`` and a ``.gitignore``; it is read with an unpickler that
only builds leaklint's own result classes, so a planted cache file cannot run code.
"""
from __future__ import annotations

import hashlib
import io
import os
import pickle
import tempfile
import time
from pathlib import Path

CACHE_DIR = ".leaklint_cache"
FORMAT = 3
MAX_ENTRIES = 100_000  # the least recently used beyond this are dropped
MAX_AGE_DAYS = 30  # entries no run has used for this long are dropped
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by leaklint.\n"

_ALLOWED = {
    "leaklint.engine": {"FileResult"},
    "leaklint.findings": {"Finding", "Location", "Related", "Fix", "Op"},
    "leaklint.analysis.specs": {"CallSpec", "FuncRef", "Opaque"},
    "builtins": {"complex", "frozenset", "set", "slice", "Ellipsis", "NotImplemented", "range"},
    "copyreg": {"_reconstructor"},
}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if name in _ALLOWED.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a leaklint cache")


def code_fingerprint(version: str) -> str:
    """leaklint's version and the size and mtime of its modules (an edited checkout counts)."""
    import leaklint
    import leaklint.rules

    digest = hashlib.blake2b(version.encode(), digest_size=16)
    roots = sorted({str(Path(leaklint.__file__).parent), *map(str, leaklint.rules.__path__)})
    for root in roots:
        for directory, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith(".py"):
                    try:
                        stat = os.stat(os.path.join(directory, name))
                    except OSError:
                        continue
                    digest.update(f"{directory}/{name}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


class Cache:
    def __init__(self, directory: Path, version: str, entries: dict, fingerprint: str = ""):
        self.directory = Path(directory)
        self.version = version
        self.fingerprint = fingerprint
        self.entries = entries  # key -> (day last used, FileResult)
        self.today = int(time.time() // 86400)
        self.dirty = False

    @property
    def path(self) -> Path:
        return self.directory / f"results-{self.version}.pickle"

    @classmethod
    def open(cls, directory: Path, version: str) -> "Cache":
        fingerprint = code_fingerprint(version)
        entries = {}
        try:
            with open(Path(directory) / f"results-{version}.pickle", "rb") as handle:
                loaded = _Unpickler(io.BytesIO(handle.read())).load()
            if (
                isinstance(loaded, dict)
                and loaded.get("format") == FORMAT
                and loaded.get("fingerprint") == fingerprint
                and isinstance(loaded.get("entries"), dict)
            ):
                entries = loaded["entries"]
        except Exception:  # missing, truncated, foreign or tampered: start empty
            entries = {}
        return cls(directory, version, entries, fingerprint)

    def key(self, job, raw: bytes) -> str:
        """The file's content with everything that decides its result: path, codes, catalogs."""
        digest = hashlib.blake2b(raw, digest_size=20)
        digest.update(b"\0" + repr(job).encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    def get(self, key: str):
        entry = self.entries.get(key)
        if entry is None:
            return None
        if entry[0] != self.today:
            self.entries[key] = (self.today, entry[1])
            self.dirty = True
        return entry[1]

    def put(self, key: str, result) -> None:
        self.entries[key] = (self.today, result)
        self.dirty = True

    def save(self) -> None:
        """Write the entries back (atomically), dropping old and surplus ones."""
        if not self.dirty:
            return
        oldest = self.today - MAX_AGE_DAYS
        kept = {k: v for k, v in self.entries.items() if v[0] >= oldest}
        if len(kept) > MAX_ENTRIES:
            newest = sorted(kept.items(), key=lambda item: item[1][0], reverse=True)[:MAX_ENTRIES]
            kept = dict(newest)
        payload = {"format": FORMAT, "fingerprint": self.fingerprint, "entries": kept}
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            tag = self.directory / "CACHEDIR.TAG"
            if not tag.exists():
                tag.write_text(_TAG)
            ignore = self.directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Created by leaklint automatically.\n*\n")
            try:
                data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
            except _UNPICKLABLE:  # keep every entry that can be stored
                payload["entries"] = {k: v for k, v in kept.items() if _picklable(v)}
                data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".results-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(tmp, self.path)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except (OSError, *_UNPICKLABLE):
            pass  # a read-only tree: findings are still shown, only not cached
        self.dirty = False


_UNPICKLABLE = (pickle.PicklingError, TypeError, AttributeError, RecursionError)


def _picklable(value) -> bool:
    try:
        pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except _UNPICKLABLE:
        return False
    return True
