"""Write a corpus manifest's files out of local git snapshots of its repositories.

The manifests under ``benchmarks/`` name files by repository, commit and path; the files
themselves are never committed. Given a folder of git directories (one per repository,
named ``owner+name``, bare or with a ``.git`` inside, as a mirror or ``git clone --bare``
leaves them), this writes each listed file under OUT with the name the labels use::

    python benchmarks/extract_corpus.py benchmarks/wild11/manifest.json MIRRORS OUT

A manifest of the form ``{"repos": [{repo, commit}]}`` stands for every ``.py`` and
``.ipynb`` file of each repository at that commit (the first 400, in ``git ls-tree``
order). Repositories with no snapshot are listed on stderr and skipped.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PER_REPO = 400


def git_dir(mirrors: Path, repo: str) -> Path | None:
    """The git directory of ``repo`` under ``mirrors``, or None."""
    root = mirrors / repo.replace("/", "+")
    for candidate in (root, root / "repo", root / ".git", root / "repo" / ".git"):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def git(gdir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gdir), *args],
                          capture_output=True, check=True).stdout


def entries(manifest: object, mirrors: Path, missing: set[str]):
    """(repo, commit, path, output name) for each file the manifest stands for."""
    if isinstance(manifest, list):
        for e in manifest:
            name = e.get("file") or e.get("local") or local_name(e["repo"], e["path"])
            yield e["repo"], e["commit"], e["path"], Path(name).name
        return
    for r in manifest["repos"]:
        gdir = git_dir(mirrors, r["repo"])
        if gdir is None:
            missing.add(r["repo"])
            continue
        listing = git(gdir, "ls-tree", "-r", "--name-only", "-z", r["commit"])
        paths = [p for p in listing.decode().split("\0") if p.endswith((".py", ".ipynb"))]
        for path in paths[:PER_REPO]:
            yield r["repo"], r["commit"], path, local_name(r["repo"], path)


def local_name(repo: str, path: str) -> str:
    return repo.replace("/", "+") + "__" + path.replace("/", "_")


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    manifest = json.loads(Path(argv[0]).read_text())
    mirrors, out = Path(argv[1]), Path(argv[2])
    out.mkdir(parents=True, exist_ok=True)
    written, missing = 0, set()
    for repo, commit, path, name in entries(manifest, mirrors, missing):
        gdir = git_dir(mirrors, repo)
        if gdir is None:
            missing.add(repo)
            continue
        try:
            data = git(gdir, "show", f"{commit}:{path}")
        except subprocess.CalledProcessError:
            try:
                data = git(gdir, "show", f"HEAD:{path}")
            except subprocess.CalledProcessError:
                print(f"absent: {repo} {path}", file=sys.stderr)
                continue
        (out / name).write_bytes(data)
        written += 1
    for repo in sorted(missing):
        print(f"no snapshot: {repo}", file=sys.stderr)
    print(f"{written} files written to {out}; {len(missing)} repositories without a snapshot")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
