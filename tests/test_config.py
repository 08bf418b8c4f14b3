"""[tool.leaklint]: discovery, every key, validation errors, command-line precedence."""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from leaklint.config import ConfigError, Settings, find_config, load_settings, parse_table, with_overrides
from snippets import LEAKY

CUSTOM_SCALER = """\
import pandas as pd
from mylib.scaling import RobustZ
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

df = pd.read_csv("visits.csv")
X, y = df.drop(columns=["label"]), df["label"]
X = RobustZ(clip=3.0).fit_transform(X)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))
"""
TEAM_LOADER = """\
from mylib.io import load_sales
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold, cross_val_score

sales = load_sales("2023")
X, y = sales[["lag_1", "lag_7"]], sales["units"]
cv = KFold(5, shuffle=True, random_state=0)
print(cross_val_score(RandomForestRegressor(), X, y, cv=cv).mean())
"""


def leaklint(*args, cwd=None, stdin=None):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    return subprocess.run(command + ["--no-cache", *args], cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=120)


def codes(proc):
    return [(Path(d["path"]).as_posix(), d["code"]) for d in json.loads(proc.stdout)]


def pyproject(directory: Path, body: str) -> Path:
    path = directory / "pyproject.toml"
    path.write_text("[project]\nname = 'demo'\n\n" + textwrap.dedent(body))
    return path


@pytest.fixture()
def project(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(LEAKY)
    return tmp_path


# ------------------------------------------------------------- selection
def test_select_ignore_and_extend_select_from_file(project):
    pyproject(project, '[tool.leaklint]\nselect = ["LL1"]\nignore = ["LL101"]\n')
    proc = leaklint("--output-format", "json", ".", cwd=project)
    assert codes(proc) == [("src/train.py", "LL102")]


def test_command_line_overrides_the_file(project):
    pyproject(project, '[tool.leaklint]\nignore = ["LL101"]\n')
    assert codes(leaklint("--output-format", "json", ".", cwd=project)) == [("src/train.py", "LL102")]
    # a later layer: --extend-select re-enables what the file ignored, --select starts afresh
    assert [c for _, c in codes(leaklint("--output-format", "json", "--extend-select", "LL101", ".", cwd=project))] == [
        "LL101", "LL102"]
    assert [c for _, c in codes(leaklint("--output-format", "json", "--select", "LL101", ".", cwd=project))] == ["LL101"]
    assert codes(leaklint("--output-format", "json", "--ignore", "LL102", ".", cwd=project)) == []


def test_more_specific_selector_wins():
    assert Settings(select=("LL101",), ignore=("LL1",)).selected_codes() == ["LL101"]
    assert "LL101" not in Settings(select=("LL1",), ignore=("LL101",)).selected_codes()
    assert "LL000" not in Settings(select=("ALL",)).selected_codes()
    assert "LL000" in Settings(extend_select=("LL000",)).selected_codes()
    layered = with_overrides(Settings(ignore=("LL101",)), extend_select=("LL101",))
    assert "LL101" in layered.selected_codes()


def test_per_file_ignores(project):
    (project / "notebooks").mkdir()
    (project / "notebooks" / "explore.py").write_text(LEAKY)
    pyproject(project, """
        [tool.leaklint.per-file-ignores]
        "notebooks/*" = ["LL1"]
        "train.py" = ["LL102"]
    """)
    assert codes(leaklint("--output-format", "json", ".", cwd=project)) == [("src/train.py", "LL101")]


def test_exclude_and_extend_exclude(project):
    (project / "legacy").mkdir()
    (project / "legacy" / "old.py").write_text(LEAKY)
    (project / "build").mkdir()
    (project / "build" / "gen.py").write_text(LEAKY)
    pyproject(project, '[tool.leaklint]\nextend-exclude = ["legacy"]\n')
    assert {p for p, _ in codes(leaklint("--output-format", "json", ".", cwd=project))} == {"src/train.py"}
    # exclude replaces the defaults: build/ is linted again
    pyproject(project, '[tool.leaklint]\nexclude = ["src/*.py"]\n')
    assert {p for p, _ in codes(leaklint("--output-format", "json", ".", cwd=project))} == {"build/gen.py",
                                                                                             "legacy/old.py"}


def test_force_exclude_applies_to_named_files(project):
    pyproject(project, '[tool.leaklint]\nextend-exclude = ["src/train.py"]\n')
    assert leaklint("src/train.py", cwd=project).returncode == 1  # named explicitly: linted
    proc = leaklint("--force-exclude", "src/train.py", cwd=project)
    assert proc.returncode == 0 and proc.stdout == "No leaks found.\n"


def test_respect_gitignore(project):
    (project / ".gitignore").write_text("generated/\n")
    (project / "generated").mkdir()
    (project / "generated" / "copy.py").write_text(LEAKY)
    assert {p for p, _ in codes(leaklint("--output-format", "json", ".", cwd=project))} == {"src/train.py"}
    pyproject(project, "[tool.leaklint]\nrespect-gitignore = false\n")
    assert {p for p, _ in codes(leaklint("--output-format", "json", ".", cwd=project))} == {"src/train.py",
                                                                                             "generated/copy.py"}


# ------------------------------------------------------------- catalog extensions
def test_extend_classes_flags_a_team_scaler_end_to_end(tmp_path):
    (tmp_path / "model.py").write_text(CUSTOM_SCALER)
    assert leaklint("model.py", cwd=tmp_path).stdout == "No leaks found.\n"
    pyproject(tmp_path, """
        [tool.leaklint.rules.LL101]
        extend-classes = ["mylib.scaling.RobustZ"]
    """)
    proc = leaklint("model.py", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.startswith("model.py:8:5: LL101 [*] RobustZ is fitted on X (all rows) before the rows are split")


def test_time_functions_make_a_loader_time_ordered(tmp_path):
    (tmp_path / "forecast.py").write_text(TEAM_LOADER)
    assert leaklint("forecast.py", cwd=tmp_path).returncode == 0
    pyproject(tmp_path, '[tool.leaklint]\ntime-functions = ["mylib.io.load_sales"]\n')
    proc = leaklint("forecast.py", cwd=tmp_path)
    assert proc.returncode == 1 and "forecast.py:7:6: LL201" in proc.stdout and "load_sales" in proc.stdout


# ------------------------------------------------------------- discovery
def test_nearest_pyproject_walking_up_from_each_file(project):
    pyproject(project, '[tool.leaklint]\nignore = ["LL101"]\n')
    sub = project / "src" / "team_b"
    sub.mkdir()
    (sub / "model.py").write_text(LEAKY)
    pyproject(sub, '[tool.leaklint]\nignore = ["LL102"]\n')
    assert sorted(codes(leaklint("--output-format", "json", ".", cwd=project))) == [
        ("src/team_b/model.py", "LL101"),
        ("src/train.py", "LL102"),
    ]


def test_pyproject_without_a_leaklint_table_is_passed_over(project):
    pyproject(project, '[tool.leaklint]\nignore = ["LL101"]\n')
    (project / "src" / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    assert find_config(project / "src" / "train.py") == (project / "pyproject.toml").resolve()


def test_config_option_and_isolated(project):
    pyproject(project, '[tool.leaklint]\nignore = ["LL1"]\n')
    other = project / "ci.toml"
    other.write_text('select = ["LL102"]\n')
    assert leaklint(".", cwd=project).stdout == "No leaks found.\n"
    assert [c for _, c in codes(leaklint("--output-format", "json", "--config", "ci.toml", ".", cwd=project))] == [
        "LL102"]
    assert [c for _, c in codes(leaklint("--output-format", "json", "--isolated", ".", cwd=project))] == [
        "LL101", "LL102"]


def test_parse_errors_count_when_ll000_is_selected(project):
    (project / "src" / "broken.py").write_text("from sklearn.model_selection import train_test_split\ndef f(:\n")
    (project / "src" / "train.py").unlink()
    assert leaklint(".", cwd=project).returncode == 0
    pyproject(project, '[tool.leaklint]\nextend-select = ["LL000"]\n')
    assert leaklint(".", cwd=project).returncode == 1


def test_fail_on_from_each_files_settings_and_the_command_line(project):
    # LL101 (a warning) alone: with fail-on = "error" it is shown and the run passes
    pyproject(project, '[tool.leaklint]\nselect = ["LL101"]\nfail-on = "error"\n')
    proc = leaklint(".", cwd=project)
    assert proc.returncode == 0 and "src/train.py:9:5: LL101" in proc.stdout
    assert leaklint("--fail-on", "warning", ".", cwd=project).returncode == 1
    # a sub-project's own table decides for its files
    (project / "strict").mkdir()
    (project / "strict" / "train.py").write_text(LEAKY)
    pyproject(project / "strict", '[tool.leaklint]\nselect = ["LL101"]\n')
    assert leaklint(".", cwd=project).returncode == 1


# ------------------------------------------------------------- validation
BAD = [
    ('[tool.leaklint]\nselekt = ["LL101"]\n', "[tool.leaklint] selekt: unknown key (did you mean 'select'?)"),
    ('[tool.leaklint]\nselect = "LL101"\n', "[tool.leaklint] select: must be a list of strings, not a string"),
    ('[tool.leaklint]\nselect = ["LL999"]\n', "[tool.leaklint] select: unknown rule code 'LL999'"),
    ('[tool.leaklint]\nextend-select = ["E501"]\n', "[tool.leaklint] extend-select: unknown rule code 'E501'"),
    ('[tool.leaklint]\nignore = ["ll101"]\n', "[tool.leaklint] ignore: unknown rule code 'll101' (codes are upper case)"),
    ('[tool.leaklint]\nexclude = [1]\n', "[tool.leaklint] exclude: must be a list of strings, not a list holding an integer (1)"),
    ('[tool.leaklint]\nextend-exclude = "build"\n', "[tool.leaklint] extend-exclude: must be a list of strings"),
    ('[tool.leaklint]\nrespect-gitignore = "yes"\n', "[tool.leaklint] respect-gitignore: must be true or false, not a string"),
    ('[tool.leaklint]\nper-file-ignores = ["tests/*"]\n', "[tool.leaklint] per-file-ignores: must be a table"),
    ('[tool.leaklint.per-file-ignores]\n"tests/*" = "LL101"\n', "[tool.leaklint] per-file-ignores.'tests/*': must be a list of codes"),
    ('[tool.leaklint.per-file-ignores]\n"tests/*" = ["LL1O1"]\n', "[tool.leaklint] per-file-ignores.'tests/*': unknown rule code 'LL1O1'"),
    ('[tool.leaklint]\ntime-functions = ["load_sales"]\n', "[tool.leaklint] time-functions: 'load_sales' is not a qualified name"),
    ('[tool.leaklint]\nrules = 3\n', "[tool.leaklint] rules: must be a table of rule codes"),
    ('[tool.leaklint.rules.LL999]\nextend-classes = ["a.B"]\n', "[tool.leaklint] rules.LL999: unknown rule code"),
    ('[tool.leaklint.rules.LL101]\nextend-class = ["a.B"]\n', "[tool.leaklint] rules.LL101.extend-class: unknown key"),
    ('[tool.leaklint.rules.LL101]\nextend-classes = "a.B"\n', "[tool.leaklint] rules.LL101.extend-classes: must be a list of strings"),
    ('[tool.leaklint.rules.LL101]\nextend-classes = ["RobustZ"]\n', "[tool.leaklint] rules.LL101.extend-classes: 'RobustZ' is not a qualified name"),
    ('[tool.leaklint]\nfail-on = "errors"\n', "[tool.leaklint] fail-on: must be \"error\" or \"warning\", not 'errors'"),
    ('[tool.leaklint]\nfail-on = 1\n', "[tool.leaklint] fail-on: must be \"error\" or \"warning\", not 1"),
    ('[tool.leaklint]\nselect = ["LL101"\n', "invalid TOML"),
    ("[tool]\nleaklint = 3\n", "[tool.leaklint]: must be a table"),
]


@pytest.mark.parametrize("body, message", BAD, ids=[m.split(":")[0][:40] + str(i) for i, (_, m) in enumerate(BAD)])
def test_invalid_configuration_is_a_one_line_error_naming_file_and_key(project, body, message):
    path = project / "pyproject.toml"
    path.write_text(body)
    proc = leaklint(".", cwd=project)
    assert proc.returncode == 2, proc.stdout
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith(f"leaklint: error: {path.resolve()}: ") or lines[0].startswith(f"leaklint: error: {path}: ")
    assert message in lines[0]


def test_invalid_config_file_given_with_config(project):
    bad = project / "leaklint.toml"
    bad.write_text("extend-classes = []\n")
    proc = leaklint("--config", str(bad), ".", cwd=project)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"leaklint: error: {bad}: extend-classes: unknown key (it belongs in a rule's table, e.g. "
        "[tool.leaklint.rules.LL101]) (known: exclude, extend-exclude, extend-select, fail-on, ignore, "
        "per-file-ignores, respect-gitignore, rules, select, time-functions)"
    )


def test_missing_config_file_is_a_usage_error(project):
    proc = leaklint("--config", "nope.toml", ".", cwd=project)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_parse_table_valid_everything(tmp_path):
    settings = parse_table(
        {
            "select": ["LL1", "LL201"],
            "extend-select": ["LL301"],
            "ignore": ["LL105"],
            "exclude": ["build"],
            "extend-exclude": ["legacy/*.py"],
            "per-file-ignores": {"tests/*": ["LL101"]},
            "respect-gitignore": False,
            "time-functions": ["mylib.io.load_sales"],
            "fail-on": "error",
            "rules": {"LL101": {"extend-classes": ["mylib.scaling.RobustZ"]},
                      "LL102": {"extend-classes": ["mylib.select.TopK"]}},
        },
        tmp_path / "pyproject.toml",
    )
    assert settings.selected_codes() == ["LL101", "LL102", "LL103", "LL104", "LL201", "LL301"]
    assert settings.selected_codes(str(tmp_path / "tests" / "a.py")) == ["LL102", "LL103", "LL104", "LL201", "LL301"]
    assert settings.extra_classes("LL101") == ("mylib.scaling.RobustZ",)
    assert settings.fails("error") and not settings.fails("warning")
    assert Settings().fails("warning")  # by default any finding fails the run
    assert with_overrides(settings, fail_on="warning").fails("warning")
    assert settings.is_excluded(tmp_path / "build" / "x.py")
    assert settings.is_excluded(tmp_path / "legacy" / "old.py")
    assert not settings.is_excluded(tmp_path / "src" / "legacy.py")


def test_load_settings_reads_other_toml_whole(tmp_path):
    path = tmp_path / "leaklint.toml"
    path.write_text('ignore = ["LL2"]\n')
    assert load_settings(path).ignore == ("LL2",)
    with pytest.raises(ConfigError):
        path.write_text('ignore = "LL2"\n')
        load_settings(path)


# ------------------------------------------------------------- output options
def test_output_file_and_statistics(project):
    proc = leaklint("-o", "reports/leaks.txt", "--statistics", ".", cwd=project)
    assert proc.returncode == 1 and proc.stdout == ""
    report = (project / "reports" / "leaks.txt").read_text()
    assert report.startswith("src/train.py:9:5: LL101")
    assert "    1  LL101  preprocessing-before-split\n    1  LL102  selection-before-split\n" in report
    assert report.endswith("Found 2 leaks in 1 file.\n[*] 1 fixable with the `--fix` option.\n")


def test_statistics_with_a_machine_format_go_to_stderr(project):
    proc = leaklint("--output-format", "json", "--statistics", ".", cwd=project)
    assert len(json.loads(proc.stdout)) == 2
    assert "    1  LL102  selection-before-split" in proc.stderr


def test_stdin_filename_uses_that_files_settings(project):
    pyproject(project, '[tool.leaklint.per-file-ignores]\n"src/*" = ["LL101"]\n')
    proc = leaklint("--stdin-filename", "src/new.py", "-", cwd=project, stdin=LEAKY)
    assert proc.returncode == 1
    assert [line.split()[1] for line in proc.stdout.splitlines()[:-2]] == ["LL102"]
    assert proc.stdout.startswith("src/new.py:10:5: LL102")


def test_stdin_force_exclude(project):
    pyproject(project, '[tool.leaklint]\nextend-exclude = ["generated"]\n')
    proc = leaklint("--force-exclude", "--stdin-filename", "generated/x.py", "-", cwd=project, stdin=LEAKY)
    assert proc.returncode == 0 and proc.stdout == "No leaks found.\n"


def test_readme_configuration_example_is_valid():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    table = tomllib.loads(block)["tool"]["leaklint"]
    settings = parse_table(table, Path("README.md"))
    assert settings.extra_classes("LL101") == ("mylib.scaling.RobustZ",)
    documented = {line.split("`")[1].split(".")[0] for line in section.splitlines() if line.startswith("| `")}
    assert documented == set(table)  # every key is in the reference table and the example


def test_stdin_filename_alone_reads_stdin(project):
    proc = leaklint("--stdin-filename", "snippet.py", cwd=project, stdin=LEAKY)
    assert proc.returncode == 1 and proc.stdout.startswith("snippet.py:9:5: LL101")


def test_warnings_from_compiling_user_code_are_not_printed(tmp_path):
    import os

    (tmp_path / "regex.py").write_text(LEAKY + 'import re\npattern = re.compile("\\d+")\n')
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    proc = subprocess.run(command + ["--no-cache", "regex.py"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONWARNINGS": "default"}, timeout=120)
    assert proc.returncode == 1 and proc.stderr == ""
