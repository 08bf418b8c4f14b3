"""Bad input never crashes a run: each unreadable or unparsable file is one LL000 line.

Every case is checked in-process (lint_paths) and through the console script in a
subprocess; the other files of the same tree are still linted, and the exit code is
2 only for usage, configuration or internal errors.
"""
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from leaklint import engine
from leaklint.recover import print_call, python3_line
from leaklint.runner import lint_paths

LEAKY = """\
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("data.csv")
X = StandardScaler().fit_transform(df.drop(columns="y"))
X_train, X_test, y_train, y_test = train_test_split(X, df["y"])
from sklearn.linear_model import LogisticRegression
print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))
"""
LEAK_LINE = 6  # the fit_transform line of LEAKY
IMPORTS = "from sklearn.model_selection import train_test_split\n"


def leaklint(*args, cwd=None, timeout=300):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    return subprocess.run(command + ["--no-cache", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def assert_no_traceback(proc):
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert proc.returncode in (0, 1), (proc.returncode, proc.stderr)


def lines_for(proc, name):
    return [line for line in proc.stdout.splitlines() if line.startswith(name + ":")]


def notebook(cells, language="python"):
    def cell(source):
        return {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}

    kernel = {"name": "python3" if language == "python" else language, "language": language, "display_name": language}
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": kernel,
                       "language_info": {"name": language}}, "cells": [cell(c) for c in cells]})


def _binary() -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 16 + b"train_test_split"


# name -> (bytes, expected: "clean", "leak" or the text an LL000 line must contain, cell)
# (the notebook with a broken cell also reports the leak in its other cells)
CASES = {
    "empty.py": (b"", "clean", None),
    "comments.py": (b"# nothing here\n# train_test_split only in a comment\n", "clean", None),
    "python2.py": ((IMPORTS + 'print "x"\n').encode(), "not Python 3 (this looks like Python 2)", None),
    "python2_except.py": ((IMPORTS + "try:\n    pass\nexcept ValueError, err:\n    pass\n").encode(),
                          "looks like Python 2", None),
    "syntax.py": ((IMPORTS + "def f(:\n    pass\n").encode(), "syntax error", None),
    "bad_utf8.py": ((IMPORTS + 'x = "\xff\xfe"\n').encode("latin-1"), "not valid UTF-8", None),
    "utf16_bom.py": (LEAKY.encode("utf-16"), "leak", None),
    "latin1_cookie.py": (("# -*- coding: latin-1 -*-\n" + LEAKY.replace('"data.csv"', '"donn\xe9es.csv"')).encode("latin-1"),
                         "leak-shifted", None),
    "binary.py": (_binary(), "binary file", None),
    "nb_not_json.ipynb": (b'{"cells": [ train_test_split', "not valid JSON", None),
    "nb_empty.ipynb": (b"", "clean", None),  # a 0-byte notebook opens empty in Jupyter and VS Code
    "nb_blank.ipynb": (b"\n  \n", "clean", None),
    "nb_v3.ipynb": (json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {},
                                "worksheets": [{"cells": [{"cell_type": "code", "input": LEAKY}]}]}).encode(),
                    "notebook format 3", None),
    "nb_string_source.ipynb": (notebook([LEAKY]).encode(), "leak", 1),
    "nb_r_kernel.ipynb": (notebook(["library(caret)\nsplit <- train_test_split(df)\n"], language="R").encode(),
                          "not a Python notebook", None),
    "nb_bad_cell.ipynb": (notebook([LEAKY.splitlines(True)[:4], ["def broken(:\n", "    pass\n"],
                                    LEAKY.splitlines(True)[4:]]).encode(), "line skipped", 2),
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad_inputs")
    for name, (content, _, _) in CASES.items():
        (root / name).write_bytes(content)
    (root / "leaky.py").write_text(LEAKY)
    (root / "x.py").mkdir()  # a directory with a Python suffix is walked, not read
    (root / "x.py" / "inner.py").write_text(LEAKY)
    return root


def _check(name, findings, errors):
    expected, cell = CASES[name][1], CASES[name][2]
    mine = [f for f in findings if Path(f.path).name == name]
    bad = [e for e in errors if Path(e.path).name == name]
    if expected == "clean":
        assert not mine and not bad
    elif expected.startswith("leak"):
        assert not bad, [e.message for e in bad]
        line = LEAK_LINE + (1 if expected == "leak-shifted" else 0)
        assert [(f.code, f.location.line, f.location.cell) for f in mine] == [("LL101", line, cell)]
    else:
        if name == "nb_bad_cell.ipynb":  # the cells around the broken one are still linted
            assert [(f.code, f.location.line, f.location.cell) for f in mine] == [("LL101", 2, 3)]
        else:
            assert not mine
        assert len(bad) == 1, [e.message for e in bad]
        assert expected in bad[0].message and "\n" not in bad[0].message
        assert bad[0].code == "LL000"
        if cell is not None:
            assert bad[0].location.cell == cell


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_input_in_process(tree, name):
    run = lint_paths([str(tree / name)], isolated=True, jobs=1)
    assert not run.internal
    _check(name, run.findings, run.errors)


def test_whole_tree_in_process_other_files_still_linted(tree):
    run = lint_paths([str(tree)], isolated=True, jobs=2)
    assert not run.internal
    for name in CASES:
        _check(name, run.findings, run.errors)
    paths = {Path(f.path).relative_to(tree).as_posix() for f in run.findings}
    assert {"leaky.py", "x.py/inner.py"} <= paths


def test_whole_tree_console_script(tree):
    proc = leaklint(".", cwd=tree)
    assert_no_traceback(proc)
    assert proc.returncode == 1  # leaks found; LL000 alone would not count
    for name, (_, expected, _) in CASES.items():
        lines = lines_for(proc, name)
        if expected == "clean":
            assert lines == []
        elif expected.startswith("leak"):
            assert len(lines) == 1 and " LL101 " in lines[0]
        else:
            errors = [line for line in lines if " LL000 " in line]
            assert len(errors) == 1 and expected in errors[0], lines
            assert len(lines) == (2 if name == "nb_bad_cell.ipynb" else 1), lines
    assert len(lines_for(proc, "leaky.py")) == 1
    assert len(lines_for(proc, "x.py/inner.py")) == 1
    assert proc.stderr == ""


def test_python2_reason_names_python2(tmp_path):
    (tmp_path / "old.py").write_text(IMPORTS + 'print "hello"\n')
    proc = leaklint("old.py", cwd=tmp_path)
    assert_no_traceback(proc)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == (
        "old.py:2:1: LL000 not Python 3 (this looks like Python 2): syntax error: "
        "Missing parentheses in call to 'print'. Did you mean print(...)?; read as a print() call"
    )


def test_bad_lines_do_not_hide_the_rest_of_a_script(tmp_path):
    """A pasted shell line is skipped and Python 2 prints are read as calls, said once for
    them all; the leak is found."""
    lines = LEAKY.splitlines()
    lines.insert(4, "pip install seaborn")
    lines.insert(6, 'print "rows:", len(df)')
    lines.append("for c in df:")
    lines.append('    print "col", c')
    (tmp_path / "mixed.py").write_text("\n".join(lines) + "\n")
    proc = leaklint("--output-format", "json", "mixed.py", cwd=tmp_path)
    found = sorted((f["code"], f["line"]) for f in json.loads(proc.stdout))
    assert found == [("LL000", 5), ("LL000", 7), ("LL101", LEAK_LINE + 2)]
    endings = {f["line"]: f["message"].rsplit("; ", 1)[1] for f in json.loads(proc.stdout) if f["code"] == "LL000"}
    assert endings == {5: "line skipped", 7: "this and 1 more print statements (to line 13) read as print() calls"}


def test_indentation_mixing_tabs_and_spaces_is_read_as_python2_read_it(tmp_path):
    """A Python 2 helper indented with spaces on one line and a tab on the next: one LL000
    names it, tabs are read as 8 columns and the leak below is found; a tab inside a string
    literal stays as written."""
    helper = "def f(x):\n    if x:\n\treturn 1\n    return '''a\n\tb'''\n"
    (tmp_path / "old.py").write_text(helper + LEAKY)
    proc = leaklint("--output-format", "json", "old.py", cwd=tmp_path)
    found = [(f["code"], f["line"], f["message"]) for f in json.loads(proc.stdout)]
    assert found[0] == ("LL000", 3, "indentation error: inconsistent use of tabs and spaces in indentation; "
                        "tabs read as 8 columns, as Python 2 read them")
    assert [(code, line) for code, line, _ in found[1:]] == [("LL101", LEAK_LINE + 5)]


def test_a_script_with_too_many_bad_lines_names_the_last_one(tmp_path):
    (tmp_path / "bad.py").write_text(IMPORTS + "    if x:\n  y\n" * 12)
    proc = leaklint("--output-format", "json", "bad.py", cwd=tmp_path)
    [found] = json.loads(proc.stdout)
    assert found["code"] == "LL000" and found["message"].startswith(("indentation error", "syntax error"))
    assert found["message"].endswith(", and more lines than leaklint recovers"), found["message"]


def test_a_score_printed_by_a_python2_print_counts_as_reported(tmp_path):
    """More than 20 Python 2 prints do not make a script unparsable, and the search's own
    score printed by one of them is reported (LL304), as print(...) would be."""
    (tmp_path / "old.py").write_text(
        "from sklearn.model_selection import GridSearchCV\n"
        "from sklearn.svm import SVC\n"
        "import pandas as pd\n"
        "df = pd.read_csv('d.csv')\n"
        + "print 'step'\n" * 25
        + "grid = GridSearchCV(SVC(), {'C': [1, 10]}, cv=5).fit(df[['a', 'b']], df['y'])\n"
        "print 'best CV accuracy:', grid.best_score_  # the result\n"
    )
    proc = leaklint("--output-format", "json", "old.py", cwd=tmp_path)
    found = json.loads(proc.stdout)
    assert [(f["code"], f["line"]) for f in found if f["code"] != "LL000"] == [("LL304", 31)]
    assert [f["line"] for f in found if f["code"] == "LL000"] == [5]  # one report for the 26 prints


@pytest.mark.parametrize("header", ["def (:", "class:", "for x in :"])
def test_a_broken_header_with_no_block_under_it_is_one_skipped_line(tmp_path, header):
    (tmp_path / "top.py").write_text(header + "\n" + LEAKY)
    proc = leaklint("--output-format", "json", "top.py", cwd=tmp_path)
    found = sorted((f["code"], f["line"]) for f in json.loads(proc.stdout))
    assert found == [("LL000", 1), ("LL101", LEAK_LINE + 1)]
    assert json.loads(proc.stdout)[0]["message"].endswith("; line skipped")


def test_ll000_counts_when_selected(tmp_path):
    (tmp_path / "bin.py").write_bytes(_binary())
    assert leaklint("bin.py", cwd=tmp_path).returncode == 0
    assert leaklint("--extend-select", "LL000", "bin.py", cwd=tmp_path).returncode == 1


# ------------------------------------------------------------------ deep nesting
DEEP = {
    "binop_3000": "x = " + " + ".join(["df"] * 3000),
    "binop_100000": "x = " + "+".join(["df"] * 100_000),
    "attribute_2000": "x = df" + ".a" * 2000,
    "subscript_5000": "x = df" + "[0]" * 5000,
    "unary_100000": "x = " + "-" * 100_000 + "df",
    "ifexp_3000": "x = " + "df if c else " * 3000 + "df",
    "parens_5000": "x = " + "(" * 5000 + "df" + ")" * 5000,
    "lists_1000": "x = " + "[" * 1000 + "]" * 1000,
    "calls_2000": "x = df" + ".f()" * 2000,
    "tuples_20000": "x = df\n" + "x = (x, df)\n" * 20_000 + "y = x if c else (df, 1)\n",
    "indent_150": "".join(" " * i + "if c:\n" for i in range(150)) + " " * 150 + "pass\n",
}


@pytest.mark.parametrize("name", sorted(DEEP))
def test_deep_nesting_is_a_result_or_one_ll000(tmp_path, name):
    path = tmp_path / f"{name}.py"
    path.write_text(LEAKY + DEEP[name] + "\n")
    run = lint_paths([str(path)], isolated=True, jobs=1)
    assert not run.internal
    assert len(run.errors) <= 1
    if run.errors and run.errors[0].message.endswith("; line skipped"):
        # the too-deep line is skipped like any line the parser rejects; the rest is analysed
        assert run.errors[0].location.line == LEAKY.count("\n") + 1
        assert [f.code for f in run.findings] == ["LL101"]
    elif run.errors:
        assert run.errors[0].code == "LL000" and "\n" not in run.errors[0].message
        assert not run.findings
    else:
        assert [f.code for f in run.findings] == ["LL101"]


def test_deep_nesting_console_script(tmp_path):
    for name, text in DEEP.items():
        (tmp_path / f"{name}.py").write_text(LEAKY + text + "\n")
    proc = leaklint(".", cwd=tmp_path)
    assert_no_traceback(proc)
    for name in DEEP:
        lines = lines_for(proc, f"{name}.py")
        skipped = [line for line in lines if line.endswith("; line skipped")]
        # one line each: the leak, or the file's LL000; a skipped line adds its LL000 to the leak
        assert len(lines) == 1 + len(skipped) and len(skipped) <= 1, name


def test_recursion_limit_restored(tmp_path):
    before = sys.getrecursionlimit()
    path = tmp_path / "deep.py"
    path.write_text(LEAKY + DEEP["binop_3000"] + "\n")
    lint_paths([str(path)], isolated=True, jobs=1)
    assert sys.getrecursionlimit() == before


# --------------------------------------------------------------- a 10 MB file
def _ten_megabytes() -> str:
    """A generated module: ML statements, helpers and a large embedded data table."""
    rng = random.Random(0)
    parts = [LEAKY]
    for i in range(2500):
        parts.append(
            f"\ndef helper_{i}(frame):\n    out = frame.copy()\n"
            f"    out['z{i}'] = (out['a'] - out['a'].mean()) / out['a'].std()\n    return out\n\n"
            f"df_{i} = helper_{i}(pd.read_csv('part_{i}.csv'))\n"
            f"a_{i}, b_{i} = train_test_split(df_{i}, test_size=0.25, random_state={i})\n"
        )
    size = sum(map(len, parts))
    parts.append("\nTABLE = [\n")
    while size < 10 * 1024 * 1024:
        row = "    (" + ", ".join(f"{rng.random():.6f}" for _ in range(8)) + "),\n"
        parts.append(row)
        size += len(row)
    parts.append("]\n")
    return "".join(parts)


@pytest.mark.slow
def test_ten_megabyte_file(tmp_path):
    path = tmp_path / "generated.py"
    path.write_text(_ten_megabytes())
    raw = path.read_bytes()
    assert len(raw) >= 10 * 1024 * 1024 and engine.may_leak(raw)  # it is parsed, not screened out
    proc = leaklint("generated.py", cwd=tmp_path, timeout=600)
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert f"generated.py:{LEAK_LINE}:5: LL101" in proc.stdout


# ------------------------------------------------------- the file system itself
def test_symlink_loop_and_dangling_link(tmp_path):
    (tmp_path / "leaky.py").write_text(LEAKY)
    os.symlink("loop.py", tmp_path / "loop.py")
    os.symlink("missing.py", tmp_path / "dangling.py")
    (tmp_path / "sub").mkdir()
    os.symlink("..", tmp_path / "sub" / "up")  # a directory cycle: not followed
    run = lint_paths([str(tmp_path)], isolated=True, jobs=1)
    assert not run.internal
    assert [Path(f.path).name for f in run.findings] == ["leaky.py"]
    reasons = {Path(e.path).name: e.message for e in run.errors}
    assert "loop.py" in reasons and reasons["loop.py"].startswith("cannot read")
    proc = leaklint(".", cwd=tmp_path)
    assert_no_traceback(proc)
    assert len(lines_for(proc, "loop.py")) == 1 and " LL000 cannot read" in lines_for(proc, "loop.py")[0]
    assert len(lines_for(proc, "leaky.py")) == 1


def test_unreadable_file(tmp_path):
    (tmp_path / "leaky.py").write_text(LEAKY)
    locked = tmp_path / "locked.py"
    locked.write_text(LEAKY)
    locked.chmod(0)
    try:
        run = lint_paths([str(tmp_path)], isolated=True, jobs=1)
        proc = leaklint(".", cwd=tmp_path)
    finally:
        locked.chmod(0o644)
    assert not run.internal
    assert_no_traceback(proc)
    assert len(lines_for(proc, "leaky.py")) == 1
    if os.geteuid() != 0:  # root reads it anyway
        assert [e.message for e in run.errors] == ["cannot read: Permission denied"]
        assert lines_for(proc, "locked.py") == ["locked.py:1:1: LL000 cannot read: Permission denied"]


def test_directory_named_like_a_python_file_given_explicitly(tmp_path):
    (tmp_path / "pkg.py").mkdir()
    (tmp_path / "pkg.py" / "a.py").write_text(LEAKY)
    proc = leaklint("pkg.py", cwd=tmp_path)
    assert_no_traceback(proc)
    assert proc.returncode == 1 and "pkg.py/a.py:6:5: LL101" in proc.stdout


def test_read_error_of_a_directory_is_one_line():
    from leaklint.runner import run_job

    result = run_job((".", ("LL101",), (), ()))
    assert [e.message for e in result.errors] == ["cannot read: is a directory"]


# ---------------------------------------------------------- internal errors
_BOOM = """
import sys
import leaklint.engine as engine
original = engine.analyze
def analyze(tree, *args, **kwargs):
    if any(getattr(n, "id", None) == "BOOM" for n in __import__("ast").walk(tree)):
        raise KeyError("synthetic failure")
    return original(tree, *args, **kwargs)
engine.analyze = analyze
from leaklint.cli import main
sys.argv[0] = "leaklint"
main()
"""


def test_internal_error_in_one_file_is_reported_and_the_run_goes_on(tmp_path, monkeypatch):
    (tmp_path / "a_boom.py").write_text(LEAKY + "BOOM\n")
    (tmp_path / "b_leaky.py").write_text(LEAKY)
    proc = subprocess.run([sys.executable, "-c", _BOOM, "--no-cache", "-j", "1", "."], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("leaklint: a_boom.py: internal error KeyError")
    assert "please report" in lines[0]
    assert "b_leaky.py:6:5: LL101" in proc.stdout  # the other file was linted

    original = engine.analyze

    def analyze(tree, *args, **kwargs):
        if "BOOM" in {getattr(n, "id", None) for n in __import__("ast").walk(tree)}:
            raise RuntimeError("synthetic")
        return original(tree, *args, **kwargs)

    monkeypatch.setattr(engine, "analyze", analyze)
    run = lint_paths([str(tmp_path)], isolated=True, jobs=1)
    assert len(run.internal) == 1 and "a_boom.py" in run.internal[0] and "please report" in run.internal[0]
    assert [Path(f.path).name for f in run.findings] == ["b_leaky.py"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_fifo_and_device_named_like_python_files_do_not_block(tmp_path):
    (tmp_path / "leaky.py").write_text(LEAKY)
    os.mkfifo(tmp_path / "pipe.py")
    if os.path.exists("/dev/zero"):
        os.symlink("/dev/zero", tmp_path / "zero.py")
    proc = leaklint(".", cwd=tmp_path, timeout=60)
    assert_no_traceback(proc)
    assert lines_for(proc, "pipe.py") == ["pipe.py:1:1: LL000 cannot read: not a regular file"]
    if os.path.exists("/dev/zero"):
        assert lines_for(proc, "zero.py") == ["zero.py:1:1: LL000 cannot read: not a regular file"]
    assert len(lines_for(proc, "leaky.py")) == 1


def test_lone_carriage_return_lines(tmp_path):
    """Old Mac files end lines in a lone ``\\r``: findings keep Python's line numbers, a
    ``noqa`` on such a line is read, and a fix keeps the file's line ends (libcst alone
    would drop the last one)."""
    text = LEAKY.replace("\n", "\r")
    (tmp_path / "mac.py").write_bytes(text.encode())
    proc = leaklint("--output-format", "json", "mac.py", cwd=tmp_path)
    assert_no_traceback(proc)
    assert [(f["code"], f["line"]) for f in json.loads(proc.stdout)] == [("LL101", LEAK_LINE)]
    lines = text.split("\r")
    lines[LEAK_LINE - 1] += "  # noqa: LL101"
    (tmp_path / "quiet.py").write_bytes("\r".join(lines).encode())
    proc = leaklint("quiet.py", cwd=tmp_path)
    assert (proc.returncode, proc.stdout.strip()) == (0, "No leaks found.")
    proc = leaklint("--fix", "--unsafe-fixes", "mac.py", cwd=tmp_path)
    assert_no_traceback(proc)
    assert (proc.returncode, proc.stderr) == (0, "")
    fixed = (tmp_path / "mac.py").read_bytes()
    assert b"\n" not in fixed and fixed.endswith(b"\r") and fixed.count(b"\r") > text.count("\r")
    assert fixed.split(b"\r")[:4] == text.encode().split(b"\r")[:4]  # the lines before the fix, unchanged
    assert leaklint("mac.py", cwd=tmp_path).returncode == 0


def test_form_feed_does_not_shift_fix_rows(tmp_path):
    """A form feed is not a line break for Python: the rows of a fix's edits are the rows
    the finding names."""
    lines = LEAKY.splitlines()
    lines.insert(3, "\x0c# section two")
    (tmp_path / "ff.py").write_text("\n".join(lines) + "\n")
    proc = leaklint("--output-format", "json", "--unsafe-fixes", "ff.py", cwd=tmp_path)
    (finding,) = json.loads(proc.stdout)
    assert finding["line"] == LEAK_LINE + 1
    rows = sorted(e["location"]["row"] for e in finding["fix"]["edits"])
    assert rows[0] == LEAK_LINE + 1


@pytest.mark.parametrize("statement, call", [
    ("print x", "print(x)"),
    ("print 'a:', f(x), 'b'", "print('a:', f(x), 'b')"),
    ("print x,", "print(x,)"),
    ('print >>sys.stderr, "err", x', 'print("err", x, file=sys.stderr)'),
    ("print score  # on the test part", "print(score)"),
    ("print 'a' % (b,", None),  # continued on the next line: not whole here
    ("print = 3", None),
    ("printer x", None),
])
def test_python2_print_statements_read_as_the_call_they_meant(statement, call):
    assert print_call(statement) == call


@pytest.mark.parametrize("line, modern", [
    ("selector = SelectKBest(f_classif, k=10L)", "selector = SelectKBest(f_classif, k=10)"),
    ("os.chmod(path, 0755)", "os.chmod(path, 0o755)"),
    ("label = `score`", "label = repr(score)"),
    ("if a <> b:", "if a != b:"),
    ("except ValueError, err:", "except ValueError as err:"),
    ('print "k:", 10L', 'print("k:", 10)'),
    ("alpha = 0.05", None),  # Python 3 already
    ("key = lambda (c, v): v", None),  # no Python 3 spelling here: skipped
])
def test_python2_lines_read_as_python3_writes_them(line, modern):
    assert python3_line(line) == modern


def test_a_python2_literal_does_not_hide_the_step_on_its_line(tmp_path):
    (tmp_path / "old.py").write_text(
        "from sklearn.feature_selection import SelectKBest, f_classif\n"
        "from sklearn.linear_model import LogisticRegression\n"
        "from sklearn.model_selection import cross_val_score\n"
        "import numpy as np\n"
        "X, y = np.load('X.npy'), np.load('y.npy')\n"
        "X_sel = SelectKBest(f_classif, k=10L).fit_transform(X, y)\n"
        "print cross_val_score(LogisticRegression(), X_sel, y, cv=5).mean()\n"
    )
    found = json.loads(leaklint("--output-format", "json", "old.py", cwd=tmp_path).stdout)
    assert [(f["code"], f["line"], f["message"].rsplit("; ", 1)[-1]) for f in found if f["code"] == "LL000"] == [
        ("LL000", 6, "read as Python 3"), ("LL000", 7, "read as a print() call")]
    assert [(f["code"], f["line"]) for f in found if f["code"] != "LL000"] == [("LL102", 6)]


def test_a_file_indented_with_tabs_alone_is_not_read_with_tab_stops(tmp_path):
    """Tabs used alone are consistent: a pasted shell line in such a file is skipped, and
    no LL000 blames the tabs."""
    (tmp_path / "tabs.py").write_text(IMPORTS + "def f(x):\n\tif x:\n\t\treturn 1\n\t!pip install seaborn\n\treturn 0\n")
    proc = leaklint("--output-format", "json", "tabs.py", cwd=tmp_path)
    [found] = json.loads(proc.stdout)
    assert (found["code"], found["line"]) == ("LL000", 5)
    assert found["message"].endswith("; line skipped"), found["message"]
