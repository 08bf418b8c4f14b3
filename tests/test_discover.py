"""File discovery: suffixes, default excludes, .gitignore up to the repository root."""
import subprocess
from pathlib import Path

import pytest

from leaklint.config import Settings
from leaklint.discover import iter_files


def touch(root: Path, *names):
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")


def found(paths, settings=None, force_exclude=False, cwd=None):
    settings = settings or Settings()
    return sorted(Path(p).relative_to(cwd).as_posix() if cwd else p
                  for p, _ in iter_files([str(p) for p in paths], lambda _: settings, force_exclude))


@pytest.fixture()
def tree(tmp_path):
    touch(tmp_path, "a.py", "b.pyi", "nb.ipynb", "notes.txt", "data.csv",
          ".venv/lib/site.py", "build/gen.py", "pkg/__pycache__/x.py", "pkg/mod.py",
          ".ipynb_checkpoints/nb-checkpoint.ipynb", "node_modules/x.py", ".leaklint_cache/y.py")
    return tmp_path


def test_python_files_and_notebooks_under_default_excludes(tree):
    assert found([tree], cwd=tree) == ["a.py", "b.pyi", "nb.ipynb", "pkg/mod.py"]


def test_a_file_named_explicitly_is_linted_even_when_excluded(tree):
    assert found([tree / "build" / "gen.py"], cwd=tree) == ["build/gen.py"]
    assert found([tree / "notes.txt"], cwd=tree) == ["notes.txt"]
    assert found([tree / "build" / "gen.py"], force_exclude=True, cwd=tree) == []


def test_a_directory_named_explicitly_is_walked_even_when_its_name_is_excluded(tree):
    assert found([tree / "build"], cwd=tree) == ["build/gen.py"]


def test_gitignore_from_the_repository_root_applies_to_a_subdirectory(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("src/generated/\n*_scratch.py\n")
    (tmp_path / "src" / "deep").mkdir(parents=True)
    (tmp_path / "src" / ".gitignore").write_text("local.py\n")
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("private.py\n")
    touch(tmp_path, "src/generated/g.py", "src/keep.py", "src/deep/try_scratch.py", "src/local.py",
          "src/deep/local.py", "src/private.py", "top.py")
    assert found([tmp_path / "src"], cwd=tmp_path) == ["src/keep.py"]
    assert found([tmp_path], cwd=tmp_path) == ["src/keep.py", "top.py"]
    assert found([tmp_path / "src"], Settings(respect_gitignore=False), cwd=tmp_path) == [
        "src/deep/local.py", "src/deep/try_scratch.py", "src/generated/g.py", "src/keep.py", "src/local.py",
        "src/private.py"]


def test_gitignore_outside_a_repository_is_read_from_the_walked_folder_down(tmp_path):
    (tmp_path / ".gitignore").write_text("*.py\n")  # above the walk, no repository: not applied
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / ".gitignore").write_text("skip.py\n")
    touch(tmp_path, "proj/keep.py", "proj/skip.py")
    assert found([tmp_path / "proj"], cwd=tmp_path) == ["proj/keep.py"]


def test_extend_exclude_patterns(tree):
    settings = Settings(extend_exclude=("pkg/*.py", "*.pyi"), root=str(tree))
    assert found([tree], settings, cwd=tree) == ["a.py", "nb.ipynb"]


def test_no_duplicates(tree):
    assert found([tree / "a.py", tree, tree / "a.py"], cwd=tree).count("a.py") == 1
