"""The console script end to end: exit codes, formats parsed back, sorting, selection."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from snippets import LEAKY

CLEAN = """\
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("cells.csv")
X, y = df.drop(columns=["label"]), df["label"]
print(cross_val_score(make_pipeline(StandardScaler(), LogisticRegression()), X, y).mean())
"""


def leaklint(*args, cwd=None, stdin=None):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    args = list(args)
    if args[:1] == ["check"]:
        args.insert(1, "--no-cache")
    elif args[:1] not in (["rule"], ["clean"], ["audit"]):
        args.insert(0, "--no-cache")
    return subprocess.run(command + args, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=120)


@pytest.fixture()
def project(tmp_path):
    (tmp_path / "b_leaky.py").write_text(LEAKY)
    (tmp_path / "a_clean.py").write_text(CLEAN)
    return tmp_path


def test_concise_output_and_exit_one(project):
    proc = leaklint(".", cwd=project)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("b_leaky.py:9:5: LL101 StandardScaler is fitted on X")
    assert lines[1].startswith("b_leaky.py:10:5: LL102 [*] SelectKBest is fitted on X")  # [*]: --fix fixes it
    assert lines[-2] == "Found 2 leaks in 1 file."
    assert lines[-1] == "[*] 1 fixable with the `--fix` option."
    assert proc.stderr == ""


def test_check_subcommand_and_module_entry(project):
    assert leaklint("check", "a_clean.py", cwd=project).stdout == "No leaks found.\n"
    proc = subprocess.run([sys.executable, "-m", "leaklint", "--no-cache", "b_leaky.py"], cwd=project,
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "LL102" in proc.stdout


def test_clean_file_exit_zero(project):
    proc = leaklint("a_clean.py", cwd=project)
    assert proc.returncode == 0 and proc.stdout == "No leaks found.\n"


def test_exit_zero_flag(project):
    assert leaklint("--exit-zero", ".", cwd=project).returncode == 0


def test_json_contract(project):
    proc = leaklint("--output-format", "json", ".", cwd=project)
    data = json.loads(proc.stdout)
    assert [(d["path"], d["line"], d["column"], d["code"]) for d in data] == [
        ("b_leaky.py", 9, 5, "LL101"),
        ("b_leaky.py", 10, 5, "LL102"),
    ]
    first = data[0]
    for key in ("end_line", "end_column", "name", "severity", "message", "help", "cell", "related"):
        assert key in first
    assert first["cell"] is None and first["name"] == "preprocessing-before-split"
    assert first["related"] == [
        {"line": 11, "column": 7, "cell": None, "message": first["related"][0]["message"]}
    ]
    assert "cross-validated by cross_val_score at line 11" in first["related"][0]["message"]


def test_full_output_has_help(project):
    proc = leaklint("--output-format", "full", "b_leaky.py", cwd=project)
    assert "  help: fit the step on the training rows only" in proc.stdout
    assert "  --> b_leaky.py:11:7: X is cross-validated by cross_val_score at line 11" in proc.stdout


def test_github_annotations(project):
    proc = leaklint("--output-format", "github", "b_leaky.py", cwd=project)
    first = proc.stdout.splitlines()[0]
    assert first.startswith("::warning file=b_leaky.py,line=9,col=5,endLine=9,endColumn=")  # LL101: a warning
    assert proc.stdout.splitlines()[1].startswith("::error file=b_leaky.py,line=10,")  # LL102: an error
    assert ",title=leaklint (LL101)::StandardScaler is fitted" in first


@pytest.mark.parametrize(
    "args, codes",
    [
        (("--select", "LL102"), ["LL102"]),
        (("--ignore", "LL1"), []),
        (("--select", "LL1", "--ignore", "LL101"), ["LL102"]),
    ],
)
def test_select_and_ignore(project, args, codes):
    proc = leaklint("--output-format", "json", *args, "b_leaky.py", cwd=project)
    assert [d["code"] for d in json.loads(proc.stdout)] == codes


def test_statistics(project):
    proc = leaklint("--statistics", ".", cwd=project)
    assert "    1  LL101  preprocessing-before-split" in proc.stdout


def test_stdin(project):
    proc = leaklint("--stdin-filename", "snippet.py", "-", cwd=project, stdin=LEAKY)
    assert proc.returncode == 1 and proc.stdout.startswith("snippet.py:9:5: LL101")


@pytest.mark.parametrize("args", [("missing_dir/",), ("--select", "XX9", "."), ("--select", "", "."), ("--output-format", "xml", "."),
                                  ("--nope",)])
def test_usage_errors_exit_two_in_one_line(project, args):
    proc = leaklint(*args, cwd=project)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_rule_docs():
    proc = leaklint("rule", "LL102")
    assert proc.returncode == 0
    assert "## What it does" in proc.stdout and "## Use instead" in proc.stdout
    listing = leaklint("rule", "--all").stdout.splitlines()
    assert [line.split()[0] for line in listing][:3] == ["LL000", "LL101", "LL102"]
    parse = leaklint("rule", "LL000")
    assert parse.returncode == 0 and parse.stdout.startswith("# unparsable-file (LL000)")
    assert leaklint("rule", "LL999").returncode == 2


def test_unparsable_file_reported_not_fatal(project):
    (project / "c_broken.py").write_text("def f(:\n    train_test_split\n")
    proc = leaklint(".", cwd=project)
    assert proc.returncode == 1
    assert "c_broken.py:1:1: LL000 syntax error" in proc.stdout
    assert "b_leaky.py:9:5: LL101" in proc.stdout
    assert proc.stdout.splitlines()[-2] == "Found 2 leaks in 1 file. 1 file had lines or cells skipped (LL000)."


def test_selected_parse_errors_fail_the_run_and_the_summary_says_why(project):
    (project / "c_broken.py").write_text("def f(:\n    train_test_split\n")
    proc = leaklint("--select", "LL000", ".", cwd=project)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[-1] == ("No leaks found. 1 file had lines or cells skipped (LL000). "
                                            "LL000 is selected: its reports fail the run.")
    assert leaklint(".", cwd=project).stdout.splitlines()[-2].endswith("skipped (LL000).")


def test_json_carries_each_rules_severity(project):
    data = json.loads(leaklint("--output-format", "json", "b_leaky.py", cwd=project).stdout)
    assert [(d["code"], d["severity"]) for d in data] == [("LL101", "warning"), ("LL102", "error")]


@pytest.mark.parametrize(
    "args, code",
    [
        ((), 1),  # any finding fails, as before fail-on
        (("--fail-on", "warning"), 1),
        (("--fail-on", "error"), 1),  # LL102 is an error
        (("--fail-on", "error", "--select", "LL101"), 0),  # a warning alone passes, still shown
    ],
)
def test_fail_on_chooses_what_fails_the_run(project, args, code):
    proc = leaklint(*args, "b_leaky.py", cwd=project)
    assert proc.returncode == code, proc.stderr
    assert "b_leaky.py:9:5: LL101" in proc.stdout


def test_fail_on_rejects_other_levels(project):
    proc = leaklint("--fail-on", "note", "b_leaky.py", cwd=project)
    assert proc.returncode == 2 and "--fail-on" in proc.stderr


def test_audit_report_ends_with_a_newline_and_draws_no_bar_off_a_terminal(project):
    small = ("--repeats", "1", "--rows", "40", "--features", "30")
    proc = leaklint("audit", "b_leaky.py", *small, cwd=project)  # stderr is a pipe, as in CI
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.endswith("\n") and not proc.stdout.endswith("\n\n") and proc.stderr == ""
    forced = leaklint("audit", "b_leaky.py", *small, "--progress", cwd=project)
    assert "leaklint audit" in forced.stderr and "2/2" in forced.stderr
