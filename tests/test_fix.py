"""Fixes: every rule's Example fixed runs and prints what its Use-instead prints; over all
fixtures and over generated scripts a fix leaves code that parses, removes its finding,
adds none, and a second --fix changes nothing; notebooks keep every byte outside the
edited cells; --diff applies with patch -p0 and git apply -p0; JSON and SARIF carry the
edits; the lint path never imports libcst."""
import ast
import importlib.util
import itertools
import json
import shutil
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jsonschema
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixture_expectations import fixture_files
from leaklint.config import Settings
from leaklint.fix import fixed_bytes
from leaklint.fix.files import fix_file
from leaklint.fix.notebook import _source_spans
from leaklint.ruleset import all_rules, rule_by_code
from leaklint.runner import job_for, run_job
from leaklint.sources import read_source
from snippets import LEAKY

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
# Rules whose Example has a fix --fix --unsafe-fixes applies; LL203's is display-only (which
# column is the entity is the user's call) and LL303 (which model to keep) has none, as
# their "Fix safety" sections say.
FIXED_EXAMPLES = {"LL101", "LL102", "LL103", "LL104", "LL105", "LL201", "LL202", "LL301", "LL302", "LL304", "LL305"}
# The fixed Example and the Use-instead run the same procedure on the same data with
# numpy's global generator seeded: the printed scores must agree to this.
SCORE_TOLERANCE = 1e-6
# Both scripts in one interpreter (scikit-learn imported once), each from the same seed;
# the last word each prints is its score.
SEEDED = (
    "import contextlib, io, numpy, runpy, sys\n"
    "for script in sys.argv[1:]:\n"
    "    numpy.random.seed(0)\n"
    "    out = io.StringIO()\n"
    "    with contextlib.redirect_stdout(out):\n"
    "        runpy.run_path(script, run_name='__main__')\n"
    "    print(out.getvalue().strip().splitlines()[-1].split()[-1])\n"
)


def leaklint(*args, cwd=None, stdin=None):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    options = list(args) if args and args[0] == "audit" else ["--no-cache", *args]
    return subprocess.run(command + options, cwd=cwd, capture_output=True, text=True, timeout=300, input=stdin)


def lint(path: str, raw: bytes):
    result = run_job(job_for(path, Settings()), raw)
    assert not result.internal, result.internal
    return result


def parses(path: str, raw: bytes) -> bool:
    try:
        ast.parse(read_source(path, raw).text)
    except (SyntaxError, ValueError):
        return False
    return True


def check_fixes(path: str, raw: bytes) -> int:
    """Each fix alone, then all of them: returns how many fixes there were."""
    result = lint(path, raw)
    before = Counter(f.code for f in result.findings)
    fixes = [f for f in result.findings if f.fix is not None]
    for finding in fixes:
        new = fixed_bytes(path, raw, finding.fix.ops)
        assert parses(path, new), f"{finding.code} at line {finding.location.line}: the fix does not parse"
        after = Counter(f.code for f in lint(path, new).findings)
        assert after[finding.code] < before[finding.code], f"{finding.code} at line {finding.location.line} stays"
        added = {code: n for code, n in after.items() if n > before[code]}
        assert not added, f"the fix of {finding.code} at line {finding.location.line} adds {added}"
    if any(f.fix.applicability != "display-only" for f in fixes):
        job = job_for(path, Settings())
        fixed, count, error, _withheld = fix_file(job, raw, unsafe=True)
        assert error is None and count >= 1
        again, count, _, _ = fix_file(job, fixed, unsafe=True)
        assert again == fixed and count == 0, "a second --fix changed the file"
    return len(fixes)


@pytest.mark.parametrize("lints, expected", [
    # the LL305 fix brings an LL101 to light and nothing fixes it: the file is left as it was
    ({b"v0": [("LL305", b"v1")], b"v1": [("LL101", None)]}, (b"v0", 0, None, 1)),
    # a later fix removes what the first brought to light: both are kept
    ({b"v0": [("LL305", b"v1")], b"v1": [("LL101", b"v2")], b"v2": []}, (b"v2", 2, None, 0)),
    # fixes are kept up to the last point where no rule has more findings than at first
    ({b"v0": [("LL201", b"v1"), ("LL105", b"v1")], b"v1": [("LL105", b"v2")], b"v2": [("LL101", None)]},
     (b"v1", 1, None, 1)),
    # a finding fixed in two steps at one place (another fix the second time) is fixed twice
    ({b"v0": [("LL105", b"v1")], b"v1": [("LL105", b"v2")], b"v2": []}, (b"v2", 2, None, 0)),
])
def test_fixes_stop_where_no_rule_has_more_findings_than_before(monkeypatch, lints, expected):
    from types import SimpleNamespace

    import leaklint.fix.files as files
    from leaklint.findings import Finding, Fix, Location

    def lint_of(raw):
        return SimpleNamespace(findings=[
            Finding("a.py", code, "n", "error", "m", "h", Location(1, 1, 1, 2),
                    fix=None if target is None else Fix("unsafe", "fix", (target,)))
            for code, target in lints[raw]])

    monkeypatch.setattr(files, "run_job", lambda job, raw: lint_of(raw))
    monkeypatch.setattr(files, "fixed_bytes", lambda path, raw, ops: ops[0])
    assert files.fix_file(("a.py",), b"v0", unsafe=True) == expected


def test_a_fix_offered_again_where_it_was_made_is_not_made_again(monkeypatch):
    """A fix that leaves its finding in place (the same edit offered again, each time
    wrapping the text once more) is made once, not until the passes run out."""
    from types import SimpleNamespace

    import leaklint.fix.files as files
    from leaklint.findings import Finding, Fix, Location

    finding = Finding("a.py", "LL105", "n", "error", "m", "h", Location(3, 5, 3, 9), fix=Fix("unsafe", "fix", ("op",)))
    monkeypatch.setattr(files, "run_job", lambda job, raw: SimpleNamespace(findings=[finding]))
    monkeypatch.setattr(files, "fixed_bytes", lambda path, raw, ops: b"[" + raw + b"]")
    assert files.fix_file(("a.py",), b"v0", unsafe=True) == (b"[v0]", 1, None, 0)


# ------------------------------------------------------------ every rule's Example
def _write_data(folder: Path) -> None:
    rng = np.random.default_rng(7)
    features = {f"f{i}": rng.normal(size=400) for i in range(5)}
    for name, label in (("patients", "outcome"), ("churn", "churned"), ("loans", "default")):
        pd.DataFrame({**features, label: rng.integers(0, 2, size=400)}).to_csv(folder / f"{name}.csv", index=False)
    days = pd.date_range("2024-01-01", periods=300, freq="D")
    pd.DataFrame({"day": days, "units": rng.normal(size=300).cumsum() + 50}).to_csv(folder / "sales.csv", index=False)
    pd.DataFrame({"day": days, "close": rng.normal(size=300).cumsum() + 100}).to_csv(folder / "prices.csv", index=False)


def _fix_and_run(code: str, folder: Path) -> dict:
    """Fix the Example with the real command line, then run it and the Use-instead."""
    rule = rule_by_code(code)
    folder.mkdir()
    _write_data(folder)
    (folder / "example.py").write_text(rule.code_block("Example"))
    (folder / "use_instead.py").write_text(rule.code_block("Use instead"))
    fixing = leaklint("--fix", "--unsafe-fixes", "example.py", cwd=folder)
    run = subprocess.run([sys.executable, "-c", SEEDED, "example.py", "use_instead.py"], cwd=folder,
                         capture_output=True, text=True, timeout=600)
    return {"fixing": fixing, "run": run, "fixed": (folder / "example.py").read_text(), "example": rule.code_block("Example")}


@pytest.fixture(scope="module")
def fixed_examples(tmp_path_factory):
    """Every fixable Example, two at a time (the machine has two cores)."""
    base = tmp_path_factory.mktemp("examples")
    runnable = [c for c in sorted(FIXED_EXAMPLES) if not (c == "LL104" and importlib.util.find_spec("imblearn") is None)
                and not (c == "LL305" and importlib.util.find_spec("lightgbm") is None)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(runnable, pool.map(lambda c: _fix_and_run(c, base / c), runnable)))


def test_the_examples_with_fixes_are_the_documented_ones():
    fixed = set()
    for rule in all_rules():
        result = lint("example.py", rule.code_block("Example").encode())
        if any(f.fix is not None and f.fix.applicability != "display-only" for f in result.findings
               if f.code == rule.code):
            fixed.add(rule.code)
        assert rule.section("Fix safety"), f"{rule.code} does not document its fixes"
    assert fixed == FIXED_EXAMPLES


def test_a_display_only_fix_is_shown_and_never_applied(tmp_path):
    (tmp_path / "groups.py").write_text(rule_by_code("LL203").code_block("Example"))
    findings = json.loads(leaklint("--output-format", "json", "groups.py", cwd=tmp_path).stdout)
    fix = findings[0]["fix"]
    assert fix["applicability"] == "display-only"
    written = "".join(e["content"] for e in fix["edits"])
    assert "cv = GroupKFold(5)" in written and 'groups=visits["patient_id"]' in written
    proc = leaklint("--fix", "--unsafe-fixes", "groups.py", cwd=tmp_path)
    assert proc.returncode == 1 and "Found 1 leak in 1 file." in proc.stdout
    assert (tmp_path / "groups.py").read_text() == rule_by_code("LL203").code_block("Example")


@pytest.mark.parametrize("code", sorted(FIXED_EXAMPLES))
def test_fixed_example_is_silent_runs_and_prints_the_use_instead_score(code, fixed_examples):
    if code not in fixed_examples:
        pytest.skip(f"{code}'s example needs a package not installed here")
    outcome = fixed_examples[code]
    assert outcome["fixing"].returncode == 0, outcome["fixing"].stdout + outcome["fixing"].stderr  # nothing remains
    assert "fixed, 0 remaining" in outcome["fixing"].stdout
    assert outcome["fixed"] != outcome["example"]
    ast.parse(outcome["fixed"])
    assert outcome["run"].returncode == 0, outcome["run"].stderr[-2000:]
    fixed_score, honest_score = map(float, outcome["run"].stdout.split())
    assert fixed_score == pytest.approx(honest_score, abs=SCORE_TOLERANCE)


# ------------------------------------------------------------ all fixtures
FIXTURES = fixture_files()


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_fixture_fixes_parse_remove_their_finding_add_none_and_converge(path):
    check_fixes(str(path), path.read_bytes())


def test_fixtures_have_fixes_of_every_fixable_family():
    counts = Counter()
    for path in FIXTURES:
        for finding in lint(str(path), path.read_bytes()).findings:
            if finding.fix is not None:
                counts[finding.code] += 1
    assert set(counts) == FIXED_EXAMPLES | {"LL203"}, counts
    assert sum(counts.values()) >= 90, counts


# ------------------------------------------------------------ generated scripts
STEPS = [
    ("StandardScaler()", "sklearn.preprocessing", "StandardScaler", "transform"),
    ("MinMaxScaler()", "sklearn.preprocessing", "MinMaxScaler", "transform"),
    ("PCA(n_components=2)", "sklearn.decomposition", "PCA", "transform"),
    ("SelectKBest(f_classif, k=2)", "sklearn.feature_selection", "SelectKBest, f_classif", "select"),
    ("SMOTE(random_state=0)", "imblearn.over_sampling", "SMOTE", "sample"),
]


EVALUATIONS = ("cv", "split", "search")


@st.composite
def scripts(draw):
    step = draw(st.sampled_from(STEPS))
    overwrite = draw(st.booleans())
    return script(step, draw(st.booleans()), overwrite, step[3] != "sample" and draw(st.booleans()),
                  draw(st.sampled_from(EVALUATIONS)), draw(st.booleans()), draw(st.booleans()),
                  "X" if overwrite else draw(st.sampled_from(["X_s", "features", "Xt"])))


def script(step, named, overwrite, chained, evaluation, shown, later, out) -> str:
    """An ML script: a step fitted on all rows, then cross-validated, split or searched."""
    ctor, module, names, kind = step
    lines = [
        f"from {module} import {names}",
        "from sklearn.datasets import load_breast_cancer",
        "from sklearn.linear_model import LogisticRegression",
        "from sklearn.model_selection import GridSearchCV, cross_val_score, train_test_split",
        "",
        "X, y = load_breast_cancer(return_X_y=True)  # the data",
    ]
    step = ctor
    if named:
        lines.append(f"step = {ctor}")
        step = "step"
    labels = ", y" if kind != "transform" else ""
    if kind == "sample":
        outputs = f"{out}, y_r" if not overwrite else "X, y"
        lines.append(f"{outputs} = {step}.fit_resample(X, y)")
        y_name = "y_r" if not overwrite else "y"
    elif chained:
        lines.append(f"{out} = {step}.fit(X{labels}).transform(X)")
        y_name = "y"
    else:
        lines.append(f"# {kind} the features")
        lines.append(f"{out} = {step}.fit_transform(X{labels})")
        y_name = "y"
    if shown:
        lines.append(f"print({out}[:2])")
    if evaluation == "cv":
        lines.append(f"scores = cross_val_score(LogisticRegression(max_iter=500), {out}, {y_name}, cv=3)")
        lines.append("print(scores.mean())")
    elif evaluation == "split":
        lines.append(f"X_train, X_test, y_train, y_test = train_test_split({out}, {y_name}, random_state=0)")
        lines.append("model = LogisticRegression(max_iter=500).fit(X_train, y_train)")
        lines.append("print(model.score(X_test, y_test))")
    else:
        lines.append('search = GridSearchCV(LogisticRegression(max_iter=500), {"C": [0.1, 1.0]}, cv=3)')
        lines.append(f"search.fit({out}, {y_name})")
        lines.append("print(search.best_params_, search.cv_results_[\"mean_test_score\"])")
    if later:
        lines.append(f"print({out}.shape)")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_generated_scripts_fixes_hold_the_same_properties(source):
    raw = source.encode()
    result = lint("generated.py", raw)
    assert result.findings, source  # every generated script leaks
    check_fixes("generated.py", raw)


def test_generated_scripts_are_mostly_fixable():
    """The property above is not vacuous: every shape the generator makes, linted once; a fix
    is missing only where the step's output overwrote its input and later code reads it."""
    missing = []
    shapes = itertools.product(STEPS, (False, True), (False, True), (False, True), EVALUATIONS, (False, True),
                               (False, True))
    for step, named, overwrite, chained, evaluation, shown, later in shapes:
        if chained and step[3] == "sample":
            continue
        source = script(step, named, overwrite, chained, evaluation, shown, later, "X" if overwrite else "X_s")
        if not any(f.fix is not None for f in lint("generated.py", source.encode()).findings):
            missing.append((step[0], named, overwrite, chained, evaluation, shown, later))
    assert all(overwrite and (later or shown) for _, _, overwrite, _, _, shown, later in missing), missing[:5]


# ------------------------------------------------------------ notebooks
def _outside_sources(raw: bytes) -> str:
    text = raw.decode("utf-8")
    out, last = [], 0
    for start, end, _indent in sorted(_source_spans(text).values()):
        out.append(text[last:start])
        last = end
    return "".join(out) + text[last:]


NOTEBOOKS = [p for p in FIXTURES if p.suffix == ".ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_fix_keeps_everything_outside_the_edited_cells(path):
    raw = path.read_bytes()
    fixed = fix_file(job_for(str(path), Settings()), raw, unsafe=True).data
    if fixed == raw:
        return
    assert _outside_sources(fixed) == _outside_sources(raw)
    before, after = json.loads(raw), json.loads(fixed)
    assert len(before["cells"]) == len(after["cells"])
    for old, new in zip(before["cells"], after["cells"]):
        assert {k: v for k, v in old.items() if k != "source"} == {k: v for k, v in new.items() if k != "source"}


def test_some_fixture_notebooks_are_fixed():
    fixed = [p for p in NOTEBOOKS if fix_file(job_for(str(p), Settings()), p.read_bytes(), True).data != p.read_bytes()]
    assert len(fixed) >= 5


def test_notebook_fix_spans_cells_and_keeps_magics(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("%matplotlib inline\nimport pandas as pd\n"
                                  "from sklearn.model_selection import train_test_split\n"
                                  "from sklearn.preprocessing import StandardScaler"),
        nbformat.v4.new_markdown_cell("# Scaling"),
        nbformat.v4.new_code_cell("df = pd.read_csv('d.csv')\nX, y = df.drop(columns=['t']), df['t']\n"
                                  "X_scaled = StandardScaler().fit_transform(X)\nX_scaled[:3]",
                                  outputs=[nbformat.v4.new_output("execute_result", data={"text/plain": "x"},
                                                                  execution_count=2)]),
        nbformat.v4.new_code_cell("!ls\nX_train, X_test, y_train, y_test = train_test_split(X_scaled, y)"),
        nbformat.v4.new_code_cell("from sklearn.linear_model import LogisticRegression\n"
                                  "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))"),
    ]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    raw = path.read_bytes()
    proc = leaklint("--fix", "nb.ipynb", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout
    fixed = json.loads(path.read_bytes())
    assert fixed["cells"][:3] == json.loads(raw)["cells"][:3]  # the fit's cell keeps X_scaled for its display
    assert "".join(fixed["cells"][3]["source"]) == (
        "!ls\nX_train, X_test, y_train, y_test = train_test_split(X, y)\nstandard_scaler = StandardScaler()\n"
        "X_train = standard_scaler.fit_transform(X_train)\nX_test = standard_scaler.transform(X_test)"
    )


# ------------------------------------------------------------ the command line
@pytest.fixture()
def project(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "cv.py").write_text(rule_by_code("LL102").code_block("Example"))
    (root / "leaky.py").write_text(LEAKY)
    (root / "time.py").write_text(rule_by_code("LL201").code_block("Example"))
    (root / "no_fix.py").write_text(rule_by_code("LL203").code_block("Example"))
    notebook = next(p for p in NOTEBOOKS if any(f.fix for f in lint(str(p), p.read_bytes()).findings))
    shutil.copy(notebook, root / "nb.ipynb")
    return root


def test_text_marks_fixable_findings_and_says_how_to_fix(project):
    proc = leaklint("cv.py", "time.py", cwd=project)
    lines = proc.stdout.splitlines()
    assert any(line.startswith("cv.py:9:7: LL102 [*] ") for line in lines), proc.stdout
    assert any(line.startswith("time.py:9:6: LL201 X is") for line in lines)  # unsafe: not marked
    assert lines[-1] == "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
    proc = leaklint("--unsafe-fixes", "time.py", cwd=project)
    assert "LL201 [*] " in proc.stdout and proc.stdout.endswith("`--fix --unsafe-fixes` options.\n")


def test_fix_applies_relints_and_reports_what_remains(project):
    proc = leaklint("--fix", "cv.py", "time.py", "no_fix.py", cwd=project)
    assert proc.returncode == 1
    assert "Found 3 leaks (1 fixed, 2 remaining)." in proc.stdout
    assert "make_pipeline(SelectKBest(f_classif, k=20), LogisticRegression()), X, y" in (project / "cv.py").read_text()
    assert "KFold(5, shuffle=True" in (project / "time.py").read_text()  # unsafe: left alone
    proc = leaklint("--fix", "--unsafe-fixes", "time.py", cwd=project)
    assert proc.returncode == 0 and "TimeSeriesSplit(5)" in (project / "time.py").read_text()


def test_fix_only_reports_the_count_and_exits_zero(project):
    proc = leaklint("--fix-only", "--unsafe-fixes", "leaky.py", "no_fix.py", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Fixed 2 leaks.\n"
    assert leaklint("leaky.py", cwd=project).returncode == 0


def test_fix_only_keeps_a_machine_format_parseable(project):
    proc = leaklint("--fix-only", "--unsafe-fixes", "--output-format", "json", "leaky.py", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [] and proc.stderr == "Fixed 2 leaks.\n"


def test_diff_changes_nothing_and_applies_with_patch_and_git(project, tmp_path):
    before = {p.name: p.read_bytes() for p in project.iterdir()}
    proc = leaklint("--diff", "--unsafe-fixes", ".", cwd=project)
    assert proc.returncode == 1 and proc.stderr.startswith("Would fix ")
    assert {p.name: p.read_bytes() for p in project.iterdir()} == before
    patch_file = tmp_path / "fixes.patch"
    patch_file.write_text(proc.stdout)
    fixed = tmp_path / "fixed"
    shutil.copytree(project, fixed)
    assert leaklint("--fix", "--unsafe-fixes", ".", cwd=fixed).returncode == 1  # LL203's fix is display-only
    for tool in (["patch", "-p0", "-s", "-i"], ["git", "apply", "-p0"]):
        if shutil.which(tool[0]) is None:
            continue
        copy = tmp_path / tool[0]
        shutil.copytree(project, copy)
        subprocess.run(tool + [str(patch_file)], cwd=copy, check=True, capture_output=True)
        assert {p.name: p.read_bytes() for p in copy.iterdir()} == {p.name: p.read_bytes() for p in fixed.iterdir()}
    clean = leaklint("--diff", "no_fix.py", cwd=project)
    assert clean.returncode == 0 and clean.stdout == ""


def test_diff_of_a_path_with_spaces_applies_with_patch_and_git(project, tmp_path):
    spaced = tmp_path / "my project"
    (spaced / "sub folder").mkdir(parents=True)
    shutil.copy(project / "cv.py", spaced / "sub folder" / "cv fit.py")
    proc = leaklint("--diff", "sub folder/cv fit.py", cwd=spaced)
    assert proc.returncode == 1
    for tool in (["patch", "-p0", "-s", "-i"], ["git", "apply", "-p0"]):
        if shutil.which(tool[0]) is None:
            continue
        copy = tmp_path / tool[0]
        shutil.copytree(spaced, copy)
        patch_file = tmp_path / f"{tool[0]}.patch"
        patch_file.write_text(proc.stdout)
        subprocess.run(tool + [str(patch_file)], cwd=copy, check=True, capture_output=True)
        assert "make_pipeline(SelectKBest" in (copy / "sub folder" / "cv fit.py").read_text()


def test_diff_and_fix_together_is_a_usage_error(project):
    proc = leaklint("--diff", "--fix", "cv.py", cwd=project)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_fix_on_stdin_writes_the_fixed_source(project):
    source = (project / "cv.py").read_text()
    proc = leaklint("--fix", "--stdin-filename", "cv.py", "-", cwd=project, stdin=source)
    assert proc.returncode == 0
    assert "make_pipeline(SelectKBest" in proc.stdout and "X20" not in proc.stdout
    assert "0 remaining" in proc.stderr


def test_fix_on_stdin_reports_what_remains_on_stderr_and_fails(project):
    source = (project / "no_fix.py").read_text()
    proc = leaklint("--fix", "--stdin-filename", "no_fix.py", "-", cwd=project, stdin=source)
    assert proc.returncode == 1 and proc.stdout == source
    assert "no_fix.py:" in proc.stderr and "LL203" in proc.stderr


def test_json_fix_edits_rebuild_the_fixed_file(project):
    proc = leaklint("--output-format", "json", "cv.py", "no_fix.py", cwd=project)
    findings = {f["path"]: f for f in json.loads(proc.stdout)}
    assert findings["no_fix.py"]["fix"]["applicability"] == "display-only"  # LL203's, shown only
    fix = findings["cv.py"]["fix"]
    assert fix["applicability"] == "safe" and fix["message"].startswith("Fit SelectKBest inside")
    lines = (project / "cv.py").read_text().splitlines(keepends=True)
    for edit in sorted(fix["edits"], key=lambda e: e["location"]["row"], reverse=True):
        assert edit["cell"] is None and edit["location"]["column"] == 1
        lines[edit["location"]["row"] - 1:edit["end_location"]["row"] - 1] = [edit["content"]]
    leaklint("--fix", "cv.py", cwd=project)
    assert "".join(lines) == (project / "cv.py").read_text()


def test_json_notebook_edits_name_their_cell(project):
    findings = json.loads(leaklint("--output-format", "json", "--unsafe-fixes", "nb.ipynb", cwd=project).stdout)
    edits = [e for f in findings if f["fix"] for e in f["fix"]["edits"]]
    assert edits and all(isinstance(e["cell"], int) for e in edits)


def test_sarif_fixes_are_valid_and_replace_in_the_stored_file(project):
    proc = leaklint("--output-format", "sarif", ".", cwd=project)
    log = json.loads(proc.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    results = [r for r in log["runs"][0]["results"] if r.get("fixes")]
    assert results
    for result in results:
        change = result["fixes"][0]["artifactChanges"][0]
        assert change["artifactLocation"]["uri"] == result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert result["fixes"][0]["properties"]["applicability"] in ("safe", "unsafe", "display-only")


def test_full_output_shows_the_fix(project):
    proc = leaklint("--output-format", "full", "cv.py", cwd=project)
    assert "  fix (safe): Fit SelectKBest inside the cross-validation" in proc.stdout
    assert "    + print(cross_val_score(make_pipeline(SelectKBest(f_classif, k=20), LogisticRegression())" in proc.stdout


def test_comments_and_formatting_outside_the_fix_are_kept(tmp_path):
    source = (
        "import pandas as pd  # data\n"
        "from sklearn.model_selection import train_test_split\n"
        "from sklearn.preprocessing import StandardScaler\n\n"
        "df = pd.read_csv('d.csv')\n"
        "X, y = df.drop(columns=['t']),   df['t']  # odd spacing stays\n"
        "# scale everything\n"
        "X_s = StandardScaler().fit_transform(X)\n"
        "X_tr, X_te, y_tr, y_te = train_test_split(\n"
        "    X_s, y,  # rows\n"
        "    test_size=0.2,\n"
        ")\n"
    )
    fixed = fixed_bytes("a.py", source.encode(), lint("a.py", source.encode()).findings[0].fix.ops).decode()
    assert "X, y = df.drop(columns=['t']),   df['t']  # odd spacing stays\n" in fixed
    assert "# scale everything\n" in fixed and "X_s" not in fixed
    assert "    X, y,  # rows\n" in fixed
    assert fixed.endswith("X_tr = standard_scaler.fit_transform(X_tr)\nX_te = standard_scaler.transform(X_te)\n")


def test_the_lint_path_never_imports_libcst(project):
    code = (
        "import sys\nfrom leaklint.cli import main\n"
        "sys.argv = ['leaklint', '--no-cache', '--output-format', 'concise', '.']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "assert 'libcst' not in sys.modules, 'libcst imported'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "[*]" in proc.stdout


def test_audit_full_shows_the_fix_it_measures(project):
    pytest.importorskip("sklearn")
    proc = leaklint("audit", "--output-format", "full", "--repeats", "2", "cv.py", cwd=project)
    assert proc.returncode == 1, proc.stderr
    assert "honest: SelectKBest(f_classif, k=20) and LogisticRegression() in one Pipeline" in proc.stdout
    assert "cv.py:9:7 LL102 fix (safe): Fit SelectKBest inside the cross-validation" in proc.stdout
    assert "+print(cross_val_score(make_pipeline(SelectKBest(f_classif, k=20), LogisticRegression()), X, y" in proc.stdout


# ------------------------------------------------------------ shapes seen in real code
FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures"


def _only_fix(path: str, raw: bytes):
    findings = [f for f in lint(path, raw).findings if f.code != "LL000"]
    assert len(findings) == 1, findings
    return findings[0].fix


def _ran(folder: Path, text: str) -> subprocess.CompletedProcess:
    """``text`` run as the script ``folder/a.py``, which must exit cleanly."""
    script = folder / "a.py"
    script.write_text(text, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc


def _fix_of(source: str, code: str):
    """The fix of the one finding of ``code`` in the script ``source`` (None: no fix)."""
    findings = [f for f in lint("a.py", source.encode()).findings if f.code == code]
    assert len(findings) == 1, findings
    return findings[0].fix


def _fixed_text(source: str, code: str, expected):
    """The script as the fix of its one ``code`` finding leaves it, holding ``expected``;
    None, after checking there is no fix, when ``expected`` is None."""
    fix = _fix_of(source, code)
    assert (fix is None) is (expected is None)
    if fix is None:
        return None
    out = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert expected in out
    return out


def test_a_step_fitted_inside_the_cross_validation_call_joins_the_model_in_a_pipeline():
    path = FIXTURES_DIR / "ll101" / "leak_scaler_inline_in_cross_val_score.py"
    raw = path.read_bytes()
    fix = _only_fix(str(path), raw)
    assert fix.applicability == "safe"
    fixed = fixed_bytes(str(path), raw, fix.ops).decode()
    assert "accuracies = cross_val_score(make_pipeline(scl, lr), X_train, y=y_train, cv=cv_object)" in fixed
    assert "from sklearn.pipeline import make_pipeline\n" in fixed


def test_an_inline_step_read_again_later_makes_the_pipeline_fix_unsafe(tmp_path):
    source = (FIXTURES_DIR / "ll101" / "leak_scaler_inline_in_cross_val_score.py").read_text(encoding="utf-8")
    source += "print(scl.mean_[:3])\n"  # what the inline fit learned is read after it
    fix = _only_fix("a.py", source.encode())
    assert fix.applicability == "unsafe"


PIPELINE_STEP_READ_LATER = (
    "import numpy as np\n"
    "from sklearn.linear_model import LogisticRegression\n"
    "from sklearn.model_selection import cross_val_score, train_test_split\n"
    "from sklearn.preprocessing import StandardScaler\n"
    "rng = np.random.default_rng(0)\n"
    "X, y = rng.normal(size=(120, 4)), rng.integers(0, 2, 120)\n"
    "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)\n"
    "scaler = StandardScaler()\n"
    "X_train_s = scaler.fit_transform(X_train)\n"
    "X_test_s = scaler.transform(X_test)\n"
    "print(cross_val_score(LogisticRegression(), X_train_s, y_train, cv=5).mean())\n"
)


def test_a_step_still_read_after_it_is_put_in_the_pipeline_keeps_its_fit(tmp_path):
    _fixed_and_runs(
        PIPELINE_STEP_READ_LATER,
        "X_train_s = scaler.fit_transform(X_train)\nX_test_s = scaler.transform(X_test)\n"
        "print(cross_val_score(make_pipeline(scaler, LogisticRegression()), X_train, y_train, cv=5).mean())\n",
        tmp_path,
        "assert np.allclose(X_test_s, StandardScaler().fit(X_train).transform(X_test))\n",
    )


def test_python2_notebook_fix_keeps_what_its_skipped_lines_read():
    path = FIXTURES_DIR / "ll101" / "leak_python2_notebook_scaled_then_cross_validated.ipynb"
    raw = path.read_bytes()
    fix = _only_fix(str(path), raw)
    assert fix.applicability == "unsafe"
    assert "lines leaklint could not read" in fix.message
    after = json.loads(fixed_bytes(str(path), raw, fix.ops))
    before = json.loads(raw)
    cell = "".join(after["cells"][3]["source"])
    # ``print 'scaled', X_scaled.min()`` (skipped) reads X_scaled: the fit that makes it stays
    assert cell == "".join(before["cells"][3]["source"])
    assert "cross_val_score(make_pipeline(scaler, LogisticRegression()), X, y" in "".join(after["cells"][4]["source"])
    assert "print 'accuracy', scores.mean()" in "".join(after["cells"][4]["source"])


def test_a_search_name_bound_again_gets_its_own_nested_score_with_its_folds_and_scoring():
    path = FIXTURES_DIR / "ll304" / "leak_search_name_reused_per_model_cv_object.py"
    raw = path.read_bytes()
    findings = [f for f in lint(str(path), raw).findings if f.code == "LL304"]
    assert len(findings) == 2 and all(f.fix is not None for f in findings)
    for finding in findings:
        fixed = fixed_bytes(str(path), raw, finding.fix.ops).decode().splitlines()
        line = fixed[finding.location.line - 1]
        assert line.startswith('print(np.sqrt(-cross_val_score(grid, X, y, cv=kfolds, scoring="neg_mean_squared_error")')
        other = [f.location.line for f in findings if f is not finding][0]
        assert fixed[other - 1].startswith("print(np.sqrt(-grid.best_score_))")


def test_rows_drawn_early_for_an_unseeded_split_are_the_rows_it_trains_on(tmp_path):
    source = (
        "import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import Ridge\n"
        "from sklearn.model_selection import train_test_split\n\n"
        "rng = np.random.default_rng(3)\n"
        "x = pd.DataFrame(rng.normal(size=(200, 3)), columns=['a', 'b', 'c'])\n"
        "x.loc[rng.choice(200, 40, replace=False), 'b'] = np.nan\n"
        "y = rng.normal(size=200)\n"
        "x['b'] = x['b'].fillna(x['b'].median())\n"
        "X = x\n"
        "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3)\n"
        "print(Ridge().fit(X_train, y_train).score(X_test, y_test))\n"
    )
    fix = _only_fix("a.py", source.encode())
    assert fix.applicability == "unsafe" and "random_state=0" in fix.message
    fixed = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)" in fixed
    assert not [f for f in lint("a.py", fixed.encode()).findings if f.code != "LL000"]
    _ran(tmp_path, fixed + "assert list(x_train_rows.index) == list(X_train.index)\n")


@pytest.mark.parametrize("name, lines", [
    # the model's training score stays a score of the rows it trains on
    ("leak_catboost_test_eval_set_training_score_printed.py",
     ['print("Training set score: {:.4f}".format(clf.score(X_fit, y_fit)))',
      'print("Test set score: {:.4f}".format(clf.score(X_test, y_test)))']),
    # rows by keyword; time-ordered rows give the latest part as the validation part
    ("leak_keras_keyword_rows_validation_data_test.py",
     ["X_fit, X_val, y_fit, y_val = train_test_split(X_train, y_train, test_size=0.2, shuffle=False)",
      "history = model.fit(x=X_fit, y=y_fit,"]),
    # native boosters stop on containers of a validation part, built as the originals were
    ("leak_lgb_native_train_valid_sets_test.py",
     ["train_set_fit = lgb.Dataset(X_fit, label=y_fit)",
      "train_set_val = lgb.Dataset(X_val, label=y_val, reference=train_set_fit)",
      "valid_sets=[train_set_fit, train_set_val],"]),
    ("leak_xgb_native_train_dtest_evals.py",
     ["dtrain_fit = xgb.DMatrix(X_fit, label=y_fit, missing=np.nan)",
      "dtrain_val = xgb.DMatrix(X_val, label=y_val, missing=np.nan)",
      'evals=[(dtrain_fit, "train"), (dtrain_val, "test")],']),
    # CatBoost fitted on a Pool: Pools of a validation part, drawn with the splitter's seed constant
    ("leak_catboost_fold_pools_stop_on_the_fold_they_score.py",
     ["train_test_split(X_trn, y_trn, test_size=0.2, random_state=RANDOM_STATE)",
      "trn_pool_fit = Pool(X_fit, label=y_fit)",
      "trn_pool_val = Pool(X_val_2, label=y_val_2)",
      "model.fit(trn_pool_fit, eval_set=trn_pool_val)"]),
    # rows picked by fold indices: the validation part is drawn from them as the folds were drawn
    ("leak_fold_rows_by_index_stop_on_the_fold_they_score.py",
     ["X_fit, X_val, y_fit, y_val = sklearn.model_selection.train_test_split(X.iloc[tr], y[tr], test_size=0.2, "
      "random_state=42)",
      "m.fit(X_fit, y_fit, eval_set=[(X_val, y_val)],"]),
])
def test_early_stopping_fix_on_real_shapes(name, lines):
    path = FIXTURES_DIR / "ll305" / name
    raw = path.read_bytes()
    fixed = fixed_bytes(str(path), raw, _only_fix(str(path), raw).ops).decode()
    for line in lines:
        assert line in fixed


def _fixed_cell(tmp_path, sources: list, number: int, *options) -> str:
    """The source of cell ``number`` after ``leaklint --fix *options`` on a notebook of
    code cells ``sources``, which must leave no leak."""
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    proc = leaklint("--fix", *options, "nb.ipynb", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return "".join(json.loads(path.read_bytes())["cells"][number]["source"])


def test_a_fix_on_a_timed_line_keeps_the_magic(tmp_path):
    cell = _fixed_cell(tmp_path, [
        "import pandas as pd\nfrom sklearn.linear_model import LogisticRegression\n"
        "from sklearn.model_selection import cross_val_score\nfrom sklearn.preprocessing import StandardScaler\n"
        "df = pd.read_csv('d.csv')\nX, y = df.drop(columns=['t']), df['t']\n"
        "scl, clf = StandardScaler(), LogisticRegression()",
        "%timeit -n 3 acc = cross_val_score(clf, scl.fit_transform(X), y, cv=5)",
    ], 1)
    assert cell == "%timeit -n 3 acc = cross_val_score(make_pipeline(scl, clf), X, y, cv=5)"


def test_a_line_a_fix_puts_before_a_timed_statement_keeps_the_magic_on_the_statement(tmp_path):
    cell = _fixed_cell(tmp_path, [
        "import pandas as pd\nfrom sklearn.preprocessing import StandardScaler\n"
        "from sklearn.model_selection import train_test_split\nfrom sklearn.linear_model import LogisticRegression\n"
        "df = pd.read_csv('d.csv')\nX, y = df.drop(columns=['y']), df['y']",
        "%time X = StandardScaler().fit_transform(X)",
        "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)\n"
        "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))",
    ], 1, "--unsafe-fixes")
    assert cell == ("X_train_rows, _ = train_test_split(X, random_state=0)\n"
                    "%time X = StandardScaler().fit(X_train_rows).transform(X)")


def test_an_import_a_fix_adds_goes_below_a_leading_cell_magic(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("%%time\nimport pandas as pd\nfrom xgboost import XGBClassifier\n"
                                  "df = pd.read_csv('d.csv')\nX, y = df.drop(columns=['t']), df['t']"),
        nbformat.v4.new_code_cell("from sklearn.model_selection import KFold\nscores = []\n"
                                  "folds = KFold(5, shuffle=True, random_state=3)\n"
                                  "for tr, te in folds.split(X):\n"
                                  "    X_tr, y_tr, X_te, y_te = X.iloc[tr], y.iloc[tr], X.iloc[te], y.iloc[te]\n"
                                  "    m = XGBClassifier(n_estimators=500, early_stopping_rounds=20)\n"
                                  "    m.fit(X_tr, y_tr, eval_set=[(X_te, y_te)])\n"
                                  "    scores.append(m.score(X_te, y_te))\nprint(sum(scores) / 5)"),
    ]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    proc = leaklint("--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert "Found 1 leak (1 fixed, 0 remaining)" in proc.stdout, proc.stdout + proc.stderr
    first = "".join(json.loads(path.read_bytes())["cells"][0]["source"]).split("\n")
    assert first[0] == "%%time" and first[1] == "import sklearn.model_selection"


@pytest.mark.parametrize("made, options", [
    ("X_test_s = scaler.transform(X_test)", "random_state=42"),  # followed back to the split
    ("X_test_s = X_all[800:]", "shuffle=False"),  # rows cut by position: the latest part
    ("X_test_s = scaler.transform(X[df['year'] >= 2015])", "shuffle=False"),  # rows past a cut in a column
    ("X_test_s = X[(df['year'] > 2015) & (df['year'] <= 2020)]", "shuffle=False"),  # between two cuts
    ("X_test_s = pl.from_pandas(X).filter(pl.col('year') > 2015).to_numpy()", "shuffle=False"),  # polars
    ("X_test_s = X[df['year'].isin(years)]", None),  # chosen some other way: no draw is guessed
])
def test_early_stopping_fix_draws_as_the_watched_rows_were_made(made, options):
    source = (
        "import pandas as pd\nfrom sklearn.model_selection import train_test_split\n"
        "from sklearn.preprocessing import StandardScaler\nfrom xgboost import XGBClassifier\n"
        "df = pd.read_csv('d.csv')\nX, y = df.drop(columns='t'), df['t']\n"
        "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42)\n"
        "scaler = StandardScaler().fit(X_train)\nX_all = scaler.transform(X)\n"
        f"X_train_s = scaler.transform(X_train)\n{made}\n"
        "model = XGBClassifier(n_estimators=500, early_stopping_rounds=20)\n"
        "model.fit(X_train_s, y_train, eval_set=[(X_test_s, y_test)])\n"
        "print(model.score(X_test_s, y_test))\n"
    )
    if options is None:
        assert _fix_of(source, "LL305") is None
    else:
        assert f"train_test_split(X_train_s, y_train, test_size=0.2, {options})" in _early_stopping_fixed(source)


def test_early_stopping_fix_of_a_fold_column_split_draws_at_random():
    source = (FIXTURES_DIR / "ll305" / "leak_fold_mapping_template_early_stopping_on_the_valid_fold.py").read_text()
    fixed = _early_stopping_fixed(source)
    assert "train_test_split(train, ytrain, test_size=0.2, random_state=0)" in fixed
    assert "eval_set=[(train_val, ytrain_val)]" in fixed


def _early_stopping_fixed(source: str) -> str:
    """The source with the fix of its one LL305 finding applied."""
    findings = [f for f in lint("a.py", source.encode()).findings if f.code == "LL305"]
    assert len(findings) == 1 and findings[0].fix is not None
    return fixed_bytes("a.py", source.encode(), findings[0].fix.ops).decode()


@pytest.mark.parametrize("loop, options", [
    ("for tr, te in KFold(5, shuffle=True, random_state=3).split(X):", "random_state=3"),  # splitter built inline
    ("for i, (tr, te) in enumerate(folds.split(X), 1):", "random_state=3"),  # counted from one
    ("splits = folds.split(X)\nfor i, (tr, te) in enumerate(splits):", "random_state=3"),  # folds bound first
    ("for tr, te in KFold(5).split(X):", "shuffle=False"),  # folds in order: the latest part
    ("for i, (tr, te) in tqdm(enumerate(folds.split(X)), total=5):", "random_state=3"),  # with a progress bar
    ("for tr, te in KFold(5, shuffle=True, random_state=SEED).split(X):", "random_state=SEED"),  # a module's seed
])
def test_early_stopping_fix_in_a_fold_loop_draws_as_the_splitter_draws(loop, options):
    source = (
        "import pandas as pd\nfrom sklearn.model_selection import KFold\nfrom xgboost import XGBClassifier\n"
        "from tqdm import tqdm\nSEED = 3\ndf = pd.read_csv('d.csv')\nX, y = df.drop(columns='t'), df['t']\n"
        "folds = KFold(5, shuffle=True, random_state=3)\nscores = []\n"
        f"{loop}\n"
        "    X_tr, y_tr, X_te, y_te = X.iloc[tr], y.iloc[tr], X.iloc[te], y.iloc[te]\n"
        "    m = XGBClassifier(n_estimators=500, early_stopping_rounds=20)\n"
        "    m.fit(X_tr, y_tr, eval_set=[(X_te, y_te)])\n"
        "    scores.append(m.score(X_te, y_te))\nprint(sum(scores) / 5)\n"
    )
    assert f"train_test_split(X_tr, y_tr, test_size=0.2, {options})" in _early_stopping_fixed(source)


def test_early_stopping_fix_on_fold_rows_is_refused_when_the_model_predicts_its_training_rows_later():
    source = (FIXTURES_DIR / "ll305" / "leak_fold_rows_by_index_stop_on_the_fold_they_score.py").read_text()
    source = source.replace("    oof[va] = m.predict_proba(X.iloc[va])\n",
                            "    oof[va] = m.predict_proba(X.iloc[va])\n    print(m.score(X.iloc[tr], y[tr]))\n")
    assert _fix_of(source, "LL305") is None


def test_early_stopping_fix_in_a_fold_loop_keeps_no_seed_of_a_helpers_own():
    source = (
        "import pandas as pd\nfrom sklearn.model_selection import KFold\nfrom xgboost import XGBClassifier\n"
        "def run(X, y, seed):\n"
        "    for tr, te in KFold(5, shuffle=True, random_state=seed).split(X):\n"
        "        m = XGBClassifier(n_estimators=500, early_stopping_rounds=20)\n"
        "        m.fit(X.iloc[tr], y.iloc[tr], eval_set=[(X.iloc[te], y.iloc[te])])\n"
        "        print(m.score(X.iloc[te], y.iloc[te]))\n"
        "df = pd.read_csv('d.csv')\nrun(df.drop(columns='t'), df['t'], 3)\n"
    )
    fix = _fix_of(source, "LL305")
    assert fix is not None and "test_size=0.2, random_state=0)" in fixed_bytes("a.py", source.encode(), fix.ops).decode()


def test_early_stopping_fix_in_a_helper_called_twice_edits_the_helper_when_it_splits_the_rows_itself():
    source = (
        "import numpy as np\nimport pandas as pd\nfrom sklearn.model_selection import KFold\n"
        "from lightgbm import LGBMRegressor, early_stopping\n\n\n"
        "def cv_score(X, y):\n    scores = []\n"
        "    for tr, te in KFold(5, shuffle=True, random_state=1).split(X):\n"
        "        X_tr, y_tr, X_te, y_te = X.iloc[tr], y.iloc[tr], X.iloc[te], y.iloc[te]\n"
        "        m = LGBMRegressor(n_estimators=1000)\n"
        "        m.fit(X_tr, y_tr, eval_set=[(X_te, y_te)], callbacks=[early_stopping(50)])\n"
        "        scores.append(m.score(X_te, y_te))\n    return np.mean(scores)\n\n\n"
        "a, b = pd.read_csv('a.csv'), pd.read_csv('b.csv')\n"
        "print(cv_score(a.drop(columns='t'), a['t']), cv_score(b.drop(columns='t'), b['t']))\n"
    )
    findings = [f for f in lint("a.py", source.encode()).findings if f.code == "LL305"]
    assert findings and all(f.fix is not None for f in findings)
    fixed = fixed_bytes("a.py", source.encode(), findings[0].fix.ops).decode()
    assert "train_test_split(X_tr, y_tr, test_size=0.2, random_state=1)" in fixed
    assert not [f for f in lint("a.py", fixed.encode()).findings if f.code == "LL305"]


@pytest.mark.parametrize("watch", ["valid_sets=[train_set, test_set]", "valid_sets=test_set"])
def test_early_stopping_fix_of_lgb_train_takes_its_watched_sets_as_a_list_or_one_set(watch):
    source = (FIXTURES_DIR / "ll305" / "leak_lgb_native_train_valid_sets_test.py").read_text(encoding="utf-8")
    source = source.replace("valid_sets=[train_set, test_set]", watch)
    findings = [f for f in lint("a.py", source.encode()).findings if f.code == "LL305"]
    assert len(findings) == 1 and findings[0].fix is not None
    out = fixed_bytes("a.py", source.encode(), findings[0].fix.ops).decode()
    assert "test_set" not in out.split("lgb.train(")[1].split(")")[0]
    assert not [f for f in lint("a.py", out.encode()).findings if f.code == "LL305"]


@pytest.mark.parametrize("held, fixed", [
    ("[Q1_test, Q2_test]", "Q1_fit, Q1_val, Q2_fit, Q2_val, y_fit, y_val = train_test_split(Q1_train, Q2_train, y_train, "
                           "test_size=0.2, random_state=42)"),
    ("[X_test[:, 0], X_test[:, 1]]", None),  # the held-out inputs are not named: no part to put in their place
])
def test_early_stopping_fix_of_a_model_of_several_inputs_draws_every_input_alike(held, fixed):
    source = (
        "import numpy as np\nfrom keras.callbacks import EarlyStopping\nfrom keras.layers import Dense, Input, concatenate\n"
        "from keras.models import Model\nfrom sklearn.model_selection import train_test_split\n\n"
        "X = np.random.rand(500, 2, 10)\ny = np.random.randint(0, 2, 500)\n"
        "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.1, random_state=42)\n"
        "Q1_train, Q2_train = X_train[:, 0], X_train[:, 1]\nQ1_test, Q2_test = X_test[:, 0], X_test[:, 1]\n"
        "a, b = Input(shape=(10,)), Input(shape=(10,))\n"
        "model = Model(inputs=[a, b], outputs=Dense(1, activation='sigmoid')(concatenate([a, b])))\n"
        "model.compile(loss='binary_crossentropy', optimizer='adam', metrics=['accuracy'])\n"
        "model.fit([Q1_train, Q2_train], y_train, epochs=20, callbacks=[EarlyStopping(patience=3, restore_best_weights=True)],\n"
        f"          validation_data=({held}, y_test))\n"
        "print(model.evaluate([Q1_test, Q2_test], y_test))\n"
    )
    out = _fixed_text(source, "LL305", fixed)
    if out is None:
        return
    assert "validation_data=([Q1_val, Q2_val], y_val)" in out and "model.fit([Q1_fit, Q2_fit], y_fit," in out
    assert not [f for f in lint("a.py", out.encode()).findings if f.code != "LL000"]


@pytest.mark.parametrize("bound, fixed", [
    ("", "train_test_split(X_train, y_train, test_size=0.2, random_state=42)"),
    # bound twice in the module: which split the objective reads is not known
    ("X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.3, random_state=1)\n", None),
])
def test_early_stopping_fix_in_an_objective_reading_the_modules_split_draws_as_that_split(bound, fixed):
    source = (
        "import pandas as pd\nfrom lightgbm import LGBMRegressor, early_stopping\n"
        "from sklearn.model_selection import train_test_split\n\n"
        "df = pd.read_csv('a.csv')\nX, y = df.drop(columns='t'), df['t']\n"
        "X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=42)\n"
        f"{bound}\n\n"
        "def objective(leaves):\n    m = LGBMRegressor(n_estimators=1000, num_leaves=leaves)\n"
        "    m.fit(X_train, y_train, eval_set=[(X_val, y_val)], callbacks=[early_stopping(50)])\n"
        "    return m.score(X_val, y_val)\n\n\n"
        "print(max(objective(n) for n in (15, 31, 63)))\n"
    )
    out = _fixed_text(source, "LL305", fixed)
    if out is None:
        return
    assert not [f for f in lint("a.py", out.encode()).findings if f.code == "LL305"]


@pytest.mark.parametrize("read, fixed", [
    # time-ordered rows, test rows read from another file: the latest part of the training rows
    ("pd.read_csv('{}.csv', parse_dates=['date'], index_col='date').sort_index()", "shuffle=False"),
    # nothing shows how the test rows were drawn, nor an order: no draw is guessed
    ("pd.read_csv('{}.csv')", None),
])
def test_early_stopping_fix_on_test_rows_from_another_file_draws_by_the_rows_order(read, fixed):
    source = (
        "import pandas as pd\nfrom xgboost import XGBRegressor\n"
        f"train = {read.format('train')}\ntest = {read.format('test')}\n"
        "X_train, y_train = train.drop(columns='t'), train['t']\nX_test, y_test = test.drop(columns='t'), test['t']\n"
        "model = XGBRegressor(n_estimators=500, early_stopping_rounds=20)\n"
        "model.fit(X_train, y_train, eval_set=[(X_test, y_test)])\nprint(model.score(X_test, y_test))\n"
    )
    fix = _fix_of(source, "LL305")
    if fixed is None:
        assert fix is None
    else:
        text = fixed_bytes("a.py", source.encode(), fix.ops).decode()
        assert f"train_test_split(X_train, y_train, test_size=0.2, {fixed})\n" in text


STRATIFIED = (
    "import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LogisticRegression\n"
    "from sklearn.model_selection import train_test_split\n\n"
    "rng = np.random.default_rng(5)\n"
    "churn = pd.DataFrame(rng.normal(size=(300, 3)), columns=['a', 'b', 'c'])\n"
    "churn['Churn'] = rng.choice(['No', 'Yes'], size=300, p=[0.8, 0.2])\n"
    "churn.loc[rng.choice(300, 50, replace=False), 'b'] = np.nan\n"
    "churn['b'] = churn['b'].fillna(churn['b'].median())\n"
    "{between}"
    "X = churn.drop(columns='Churn')\ny = churn['Churn']\n"
    "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, stratify=y, random_state=7)\n"
    "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n"
)


def test_rows_drawn_early_are_stratified_by_the_label_column_read_where_the_step_learns(tmp_path):
    source = STRATIFIED.format(between="churn['a'] = churn['a'].clip(-2, 2)\n")
    fix = _only_fix("a.py", source.encode())
    fixed = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert "train_test_split(churn, test_size=0.25, stratify=churn['Churn'], random_state=7)" in fixed
    _ran(tmp_path, fixed + "assert list(churn_train_rows.index) == list(X_train.index)\n")


def test_no_rows_are_drawn_early_when_the_label_column_changes_before_the_split():
    source = STRATIFIED.format(between="churn['Churn'] = churn['Churn'].map({'No': 1, 'Yes': 0})\n")
    assert _only_fix("a.py", source.encode()) is None


@pytest.mark.parametrize("between, fixed", [
    ("test = pd.DataFrame(rng.normal(size=(20, 3)), columns=['a', 'b', 'c']).dropna()\n", True),  # another table
    ("churn = churn.dropna(subset=['a'])\n", False),  # the table split: it drops none here, but may
])
def test_rows_drawn_early_only_look_at_the_tables_the_split_reads(between, fixed):
    source = STRATIFIED.format(between=between)
    assert (_only_fix("a.py", source.encode()) is not None) is fixed


@pytest.mark.parametrize("between, fixed", [
    ("for col in ['a', 'c']:\n    churn[col] = churn[col].clip(-2, 2)\n", True),  # other columns, listed
    ("for col in churn.columns.drop('Churn'):\n    churn[col] = churn[col].clip(-2, 2)\n", True),  # all but the label
    ("for col in ['a', 'Churn']:\n    churn[col] = churn[col].astype(str)\n", False),  # the label among them
    ("for col in churn.columns:\n    churn[col] = churn[col].astype(str)\n", False),  # columns not known
])
def test_rows_drawn_early_know_which_columns_a_loop_over_listed_columns_writes(between, fixed):
    source = STRATIFIED.format(between=between)
    assert (_only_fix("a.py", source.encode()) is not None) is fixed


@pytest.mark.parametrize("between, fixed", [
    ("churn.loc[churn['a'] > 1, 'c'] = churn.loc[churn['a'] > 1, 'c'].abs()\n", True),  # cells written
    ("churn = pd.concat([churn, pd.DataFrame({'d': churn['a'] * 2})], axis=1)\n", True),  # a column added
    ("churn = pd.concat([churn, pd.read_csv('more.csv')])\n", False),  # rows added
    ("churn = churn[churn['a'] > -3]\n", False),  # rows filtered
    ("churn = churn.join(churn[['a']].add_suffix('_2'))\n", True),  # joined on the index
    ("churn = pd.merge(churn, churn[['a']].add_suffix('_2'), left_index=True, right_index=True)\n", True),
    ("churn = churn.merge(pd.read_csv('more.csv'), on='a')\n", False),  # merged on a column: rows may go
    ("churn = churn.join(pd.read_csv('more.csv').set_index('a'), on='a')\n", False),
    ("kept = churn[churn['a'] > 0].index\nchurn = churn.loc[kept]\n", False),  # row labels
])
def test_rows_drawn_early_tell_written_cells_and_added_columns_from_changed_rows(between, fixed):
    source = STRATIFIED.format(between=between).replace("stratify=y, ", "")
    assert (_only_fix("a.py", source.encode()) is not None) is fixed


@pytest.mark.parametrize("after, fixed", [
    ("churn = pd.concat([churn, pd.read_csv('more.csv')], ignore_index=True)\n", True),  # bound again once X and y are taken
    ("X = pd.concat([X, pd.read_csv('more.csv')], ignore_index=True)\n", False),  # the rows the split reads
])
def test_a_table_bound_again_after_the_split_inputs_are_taken_does_not_change_the_rows_drawn(after, fixed):
    source = STRATIFIED.format(between="").replace("y = churn['Churn']\n", "y = churn['Churn']\n" + after)
    assert (_only_fix("a.py", source.encode()) is not None) is fixed


@pytest.mark.parametrize("scores", ["X.corrwith(y).abs()", "pd.Series(mutual_info_classif(X, y, random_state=0), index=X.columns)"])
def test_scores_by_hand_are_computed_on_the_training_rows_drawn_early(scores, tmp_path):
    source = (
        "import numpy as np\nimport pandas as pd\nfrom sklearn.feature_selection import mutual_info_classif\n"
        "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import train_test_split\n\n"
        "rng = np.random.default_rng(3)\ndf = pd.DataFrame(rng.normal(size=(300, 6)), columns=list('abcdef'))\n"
        "df['target'] = (df['a'] + rng.normal(size=300) > 0).astype(int)\n"
        "X, y = df.drop(columns='target'), df['target']\n"
        f"scores = {scores}\n"
        "chosen = [c for c in X.columns if scores[c] > 0.01]\n"
        "X_train, X_test, y_train, y_test = train_test_split(X[chosen], y, test_size=0.25, random_state=7)\n"
        "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n"
    )
    fix = _only_fix("a.py", source.encode())
    fixed = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert "= train_test_split(X, y, test_size=0.25, random_state=7)" in fixed
    assert not [f for f in lint("a.py", fixed.encode()).findings if f.code == "LL102"]
    _ran(tmp_path, fixed + "assert list(X_train_rows.index) == list(X_train.index)\n")


def test_rows_drawn_early_know_the_index_of_a_statistic_per_column_holds_column_labels():
    between = ("flat = churn[['a', 'c']].var()[churn[['a', 'c']].var() < 1e-6].index.tolist()\n"
               "churn = churn.drop(columns=flat)\n")
    source = STRATIFIED.format(between=between).replace("stratify=y, ", "")
    fills = [f for f in lint("a.py", source.encode()).findings if f.code == "LL105" and "median" in f.message]
    assert len(fills) == 1 and fills[0].fix is not None


@pytest.mark.parametrize("imports, stack, fixed", [
    ("from scipy import sparse\n", "sparse.hstack", True),
    ("from scipy.sparse import hstack\n", "hstack", True),
    ("import scipy.sparse as sp\n", "sp.hstack", True),
    ("", "np.hstack", False),  # numpy's joins 1-d arrays end to end: rows
])
def test_rows_drawn_early_know_a_sparse_hstack_joins_columns(imports, stack, fixed, tmp_path):
    source = (
        "import numpy as np\n" + imports +
        "from sklearn.feature_extraction.text import TfidfVectorizer\n"
        "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import train_test_split\n\n"
        "rng = np.random.default_rng(2)\n"
        "texts = [' '.join(rng.choice(['spam', 'ham', 'eggs', 'tea'], size=5)) for _ in range(200)]\n"
        "y = rng.integers(0, 2, size=200)\n"
        "words = TfidfVectorizer().fit_transform(texts)\n"
        "lengths = np.array([[len(t)] for t in texts], dtype=float)\n"
        f"X = {stack}([words, lengths])\n"
        "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=7)\n"
        "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n"
    )
    fix = _only_fix("a.py", source.encode())
    assert (fix is not None) is fixed
    if fixed:
        _ran(tmp_path, fixed_bytes("a.py", source.encode(), fix.ops).decode())


REFIT_ON_ALL = (
    "import numpy as np\nfrom sklearn.model_selection import train_test_split\nfrom sklearn.preprocessing import StandardScaler\n"
    "from sklearn.svm import SVC\n\n"
    "rng = np.random.default_rng(8)\nX = rng.normal(size=(300, 8))\nY = rng.integers(0, 2, size=300)\n"
    "X_train, X_test, y_train, y_test = train_test_split(X, Y, test_size=0.2, random_state=100)\n"
    "{between}"
    "model = SVC(kernel='rbf', gamma=2.0).fit(X, Y)\n"
    "print('training accuracy:', model.score(X, Y))\n"
    "print('test accuracy:', model.score(X_test, y_test))\n"
)


@pytest.mark.parametrize("between, fixed", [
    ("", True),
    ("scaler = StandardScaler()\nX_train = scaler.fit_transform(X_train)\nX_test = scaler.transform(X_test)\n", True),
    ("X = X[:250]\n", False),  # other rows under the same name
    ("X_train = X_train[:200]\n", False),  # the training part cut down: not the rows X held
])
def test_a_model_fitted_on_all_rows_after_the_split_learns_from_the_training_side(between, fixed, tmp_path):
    source = REFIT_ON_ALL.format(between=between)
    fix = _fix_of(source, "LL302")
    assert (fix is not None) is fixed
    if not fixed:
        return
    out = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert ".fit(X_train, y_train)" in out and "model.score(X_train, y_train)" in out
    assert not [f for f in lint("a.py", out.encode()).findings if f.code != "LL000"]
    proc = _ran(tmp_path, out)
    assert float(proc.stdout.split()[-1]) < 0.75  # noise labels: the test accuracy is now near chance


FUNCTION_FORM = (
    "import numpy as np\nfrom sklearn import preprocessing\nfrom sklearn.linear_model import LogisticRegression\n"
    "from sklearn.model_selection import cross_val_score, train_test_split\n\n"
    "rng = np.random.default_rng(0)\nX = rng.normal(size=(200, 5))\ny = rng.integers(0, 2, size=200)\n"
    "{steps}"
)


@pytest.mark.parametrize("steps, expected", [
    ("X = preprocessing.scale(X, axis=0)\n"
     "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=1)\n"
     "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n",
     "X_train = standard_scaler.fit_transform(X_train)"),
    ("Xs = preprocessing.minmax_scale(X, feature_range=(0, 2))\n"
     "print(cross_val_score(LogisticRegression(), Xs, y, cv=5).mean())\n",
     "cross_val_score(make_pipeline(MinMaxScaler(feature_range=(0, 2)), LogisticRegression()), X, y, cv=5)"),
    ("import pandas as pd\nXs = pd.DataFrame(preprocessing.robust_scale(X))\n"  # framed: drawn early
     "X_train, X_test, y_train, y_test = train_test_split(Xs, y, test_size=0.25, random_state=1)\n"
     "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n",
     "Xs = pd.DataFrame(RobustScaler().fit(X_train_rows).transform(X))"),
    ("opts = {'with_mean': True}\nX = preprocessing.scale(X, **opts)\n"  # settings not known
     "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=1)\n"
     "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n", None),
])
def test_a_scaling_function_is_fixed_as_the_estimator_it_stands_for(steps, expected, tmp_path):
    source = FUNCTION_FORM.format(steps=steps)
    fix = _fix_of(source, "LL101")
    if expected is None:
        assert fix is None
        return
    out = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert expected in out
    assert "from sklearn.preprocessing import " in out
    assert not [f for f in lint("a.py", out.encode()).findings if f.code != "LL000"]
    _ran(tmp_path, out)


SUPPORT = (
    "import numpy as np\nimport pandas as pd\nfrom sklearn.feature_selection import SelectKBest, f_classif\n"
    "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import cross_val_score\n\n"
    "rng = np.random.default_rng(6)\nX = pd.DataFrame(rng.normal(size=(120, 40)), columns=[f'f{{i}}' for i in range(40)])\n"
    "other = pd.DataFrame(rng.normal(size=(120, 40)), columns=[f'g{{i}}' for i in range(40)])\n"
    "y = rng.integers(0, 2, size=120)\n"
    "selector = SelectKBest(f_classif, k=5).fit(X, y)\n"
    "print('kept:', list(X.columns[selector.get_support()]))\n"
    "{kept}\n"
    "print(cross_val_score(LogisticRegression(), X_kept, y, cv=5).mean())\n"
)


@pytest.mark.parametrize("kept, fixed", [
    ("X_kept = X[X.columns[selector.get_support()]]", True),
    ("names = X.columns\nX_kept = X[names[selector.get_support()]]", True),
    ("X_kept = X.loc[:, selector.get_support()]", True),
    ("X_kept = X[other.columns[selector.get_support()]]", False),  # another table's names
    ("names = X.columns\nnames = names[::-1]\nX_kept = X[names[selector.get_support()]]", False),
])
def test_the_columns_a_selector_keeps_read_by_its_support_join_the_model_in_a_pipeline(kept, fixed, tmp_path):
    source = SUPPORT.format(kept=kept)
    fix = _fix_of(source, "LL102")
    assert (fix is not None) is fixed
    if fixed:
        out = fixed_bytes("a.py", source.encode(), fix.ops).decode()
        assert "cross_val_score(make_pipeline(selector, LogisticRegression()), X, y, cv=5)" in out
        assert not [f for f in lint("a.py", out.encode()).findings if f.code != "LL000"]
        proc = _ran(tmp_path, out)
        assert float(proc.stdout.split()[-1]) < 0.7  # noise labels: the honest score is near chance


CUSTOM_SCALER = (
    "import numpy as np\nimport pandas as pd\nfrom sklearn.base import BaseEstimator, TransformerMixin\n"
    "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import train_test_split\n"
    "from sklearn.preprocessing import StandardScaler\n\n"
    "class ColumnScaler(BaseEstimator, TransformerMixin):\n"
    "    def __init__(self, columns):\n        self.columns = columns\n        self.scaler = StandardScaler()\n\n"
    "    def fit(self, X, y=None):\n        self.scaler.fit(X[self.columns])\n{returns}\n"
    "    def transform(self, X):\n        out = X.copy()\n"
    "        out[self.columns] = self.scaler.transform(X[self.columns])\n        return out\n\n"
    "rng = np.random.default_rng(4)\nX = pd.DataFrame(rng.normal(size=(200, 3)), columns=['a', 'b', 'c'])\n"
    "y = rng.integers(0, 2, size=200)\nscaler = ColumnScaler(['a', 'b'])\n{fit}"
    "X_train, X_test, y_train, y_test = train_test_split(scaled, y, train_size=0.8, random_state=20)\n"
    "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n"
)


@pytest.mark.parametrize("returns, fit, fixed", [
    ("        return self\n", "scaler.fit(X)\nscaled = scaler.transform(X)\n", True),
    ("        return self\n", "scaled = scaler.fit_transform(X)\n", True),
    ("", "scaled = scaler.fit_transform(X)\n", False),  # fit(rows).transform(X) needs fit to give the object
])
def test_a_class_of_the_file_fitted_on_all_rows_learns_from_the_training_rows_drawn_early(
        returns, fit, fixed, tmp_path):
    source = CUSTOM_SCALER.format(returns=returns, fit=fit)
    fix = _fix_of(source, "LL101")
    assert (fix is not None) is fixed
    if fixed:
        assert "ColumnScaler" in fix.message
        checked = fixed_bytes("a.py", source.encode(), fix.ops).decode() + (
            "assert list(X_train_rows.index) == list(X_train.index)\n")
        _ran(tmp_path, checked)
        assert not [f for f in lint("a.py", checked.encode()).findings if f.code == "LL101"]


def test_no_rows_are_drawn_early_from_a_table_the_split_does_not_take_its_rows_from():
    source = STRATIFIED.format(between="").replace(
        "churn['b'] = churn['b'].fillna(churn['b'].median())\n",
        "positive = churn[churn['a'] > 0]\nchurn['b'] = churn['b'].fillna(positive['b'].median())\n")
    findings = [f for f in lint("a.py", source.encode()).findings if f.code == "LL105"]
    assert len(findings) == 1 and findings[0].fix is None  # drawing "positive" would pick other rows


FOLDS = (
    "import numpy as np\nimport pandas as pd\n"
    "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import StratifiedKFold\n"
    "from sklearn.preprocessing import StandardScaler\n\n"
    "rng = np.random.default_rng(11)\n"
    "X = pd.DataFrame(rng.normal(size=(150, 4)) * [1, 5, 20, 100], columns=list('abcd'))\n"
    "y = (X['a'] + rng.normal(size=150) > 0).astype(int).values\n"
    "test = pd.DataFrame(rng.normal(size=(30, 4)), columns=list('abcd'))\n"
    "scaler = StandardScaler()\n"
    "X_s = scaler.fit_transform(X)\n"
    "test_s = scaler.transform(test)\n"
    "kf = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)\n"
    "scores, preds = [], []\n"
    "for fold, (tr, va) in enumerate(kf.split(X_s, y)):\n"
    "    model = LogisticRegression().fit(X_s[tr], y[tr])\n"
    "    scores.append(model.score(X_s[va], y[va]))\n"
    "    preds.append(model.predict_proba(test_s)[:, 1])\n"
    "print(np.mean(scores))\n"
)


def test_a_step_before_a_fold_loop_is_fitted_in_each_fold_and_code_outside_runs_as_before(tmp_path):
    fix = _only_fix("a.py", FOLDS.encode())
    assert fix.applicability == "safe"
    fixed = fixed_bytes("a.py", FOLDS.encode(), fix.ops).decode()
    assert "for fold, (tr, va) in enumerate(kf.split(X, y)):\n    fold_scaler = clone(scaler).fit(X.iloc[tr])\n" in fixed
    assert "    test_s_fold = fold_scaler.transform(test)\n" in fixed
    _silent_and_runs(fixed, tmp_path, (
        "from sklearn.model_selection import cross_val_score\nfrom sklearn.pipeline import make_pipeline\n"
        "honest = cross_val_score(make_pipeline(StandardScaler(), LogisticRegression()), X, y, cv=kf)\n"
        "assert np.allclose(scores, honest), (scores, honest)\n"
        "assert np.allclose(X_s, StandardScaler().fit_transform(X)) and np.allclose(test_s, scaler.transform(test))\n"
    ))


def _fixed_and_runs(source: str, expected: str, folder: Path, checks: str) -> None:
    """The one finding's fix writes ``expected`` into ``source``; the result is silent and runs."""
    fixed = fixed_bytes("a.py", source.encode(), _only_fix("a.py", source.encode()).ops).decode()
    assert expected in fixed
    _silent_and_runs(fixed, folder, checks)


def _silent_and_runs(fixed: str, folder: Path, checks: str) -> None:
    """The fixed script has no finding left, and runs with ``checks`` appended."""
    assert not [f for f in lint("a.py", fixed.encode()).findings if f.code != "LL000"]
    _ran(folder, fixed + checks)


def test_a_step_only_the_fold_loop_reads_moves_into_it():
    source = FOLDS.replace("test_s = scaler.transform(test)\n", "").replace(
        "    preds.append(model.predict_proba(test_s)[:, 1])\n", "")
    fixed = fixed_bytes("a.py", source.encode(), _only_fix("a.py", source.encode()).ops).decode()
    assert "X_s = scaler.fit_transform(X)" not in fixed and "clone" not in fixed
    assert "    X_s = scaler.fit(X.iloc[tr]).transform(X)\n    model = " in fixed


def test_no_fold_fix_when_nothing_shows_whether_the_rows_are_a_table_or_an_array():
    source = FOLDS.replace(
        "X = pd.DataFrame(rng.normal(size=(150, 4)) * [1, 5, 20, 100], columns=list('abcd'))\n",
        "def load_table():\n    return np.load('t.npy')\n\n\nX = load_table()\n").replace(
        "(X['a'] + rng.normal(size=150) > 0).astype(int).values", "np.load('y.npy')")
    assert _only_fix("a.py", source.encode()) is None


def test_no_fold_fix_when_code_before_the_loop_changes_the_steps_output():
    source = FOLDS.replace("test_s = scaler.transform(test)\n", "test_s = scaler.transform(test)\nX_s = X_s + 1\n")
    assert _only_fix("a.py", source.encode()) is None


POSITIONAL = (
    "import numpy as np\nfrom sklearn.linear_model import LinearRegression\nfrom sklearn.preprocessing import MinMaxScaler\n\n"
    "rng = np.random.default_rng(5)\n"
    "prices = (rng.normal(size=300).cumsum() + 100).reshape(-1, 1)\n"
    "scaler = MinMaxScaler(feature_range=(0, 1))\n"
    "scaled = scaler.fit_transform(prices)\n"
    "n_train = int(len(scaled) * 0.8)\n"
    "train, test = scaled[0:n_train, :], scaled[n_train - 1:, :]\n"
    "model = LinearRegression().fit(train[:-1], train[1:, 0])\n"
    "print(model.score(test[:-1], test[1:, 0]))\n"
)


def test_a_step_before_a_split_by_position_learns_from_the_training_slice(tmp_path):
    fix = _only_fix("a.py", POSITIONAL.encode())
    assert fix.applicability == "safe"
    fixed = fixed_bytes("a.py", POSITIONAL.encode(), fix.ops).decode()
    # the bound, computed after the step, is computed before it (the input has the output's length)
    assert "n_train = int(len(prices) * 0.8)\nscaled = scaler.fit(prices[0:n_train]).transform(prices)\n" in fixed
    _silent_and_runs(fixed, tmp_path, (
        "assert np.allclose(scaler.data_max_, prices[:240].max(axis=0)) and n_train == 240\n"
        "assert np.allclose(scaled, (prices - prices[:240].min()) / (prices[:240].max() - prices[:240].min()))\n"
    ))


def test_a_bound_written_over_lines_is_kept_as_written():
    source = POSITIONAL.replace("scaled[0:n_train, :], scaled[n_train - 1:, :]",
                                "scaled[0:n_train +\n    0, :], scaled[n_train - 1:, :]")
    fix = _only_fix("a.py", source.encode())
    assert "scaled = scaler.fit(prices[0:n_train +\n    0]).transform(prices)\n" in fixed_bytes(
        "a.py", source.encode(), fix.ops).decode()


@pytest.mark.parametrize("change", [
    # windows built from the output are sliced, not its rows: their positions are not the rows'
    ("train, test = scaled[0:n_train, :], scaled[n_train - 1:, :]\n",
     "windows = np.stack([scaled[i:i + 5, 0] for i in range(len(scaled) - 5)])\n"
     "train, test = windows[0:n_train, :], windows[n_train - 1:, :]\n"),
    # the bound's name held another value that is read before it is bound again
    ("n_train = int(len(scaled) * 0.8)\n", "print(n_train)\nn_train = int(len(scaled) * 0.8)\n"),
    # the bound reads the output's values, not only its length
    ("int(len(scaled) * 0.8)", "int(np.argmax(scaled))"),
])
def test_no_positional_fix_when_the_bound_or_the_rows_would_mean_something_else(change):
    old, new = change
    source = POSITIONAL.replace(old, new, 1)
    assert source != POSITIONAL
    findings = [f for f in lint("a.py", source.encode()).findings if f.code == "LL101"]
    assert findings and all(f.fix is None for f in findings)


REFITTED = (
    "import numpy as np\nfrom sklearn.linear_model import LogisticRegression\n"
    "from sklearn.model_selection import train_test_split\nfrom sklearn.preprocessing import MinMaxScaler\n\n"
    "rng = np.random.default_rng(2)\nX = rng.normal(size=(200, 3))\ny = (X[:, 0] > 0).astype(int)\n"
    "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)\n"
    "{steps}"
    "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n"
)


@pytest.mark.parametrize("steps, expected, applicability", [
    # the same name built again before the refit: the training fit is used, the new one goes
    ("scaler = MinMaxScaler()\nX_train = scaler.fit_transform(X_train)\nscaler = MinMaxScaler()\n"
     "X_test = scaler.fit_transform(X_test)\n",
     "X_train = scaler.fit_transform(X_train)\nX_test = scaler.transform(X_test)\n", "safe"),
    # a copy built the same way for the test rows: it becomes the one fitted on the training rows
    ("scaler_train = MinMaxScaler(feature_range=(0, 1))\nscaler_test = MinMaxScaler(feature_range=(0, 1))\n"
     "X_train = scaler_train.fit_transform(X_train)\nX_test = scaler_test.fit_transform(X_test)\n"
     "print(scaler_test.inverse_transform(X_test)[:1])\n",
     "scaler_test = scaler_train\nX_train = scaler_train.fit_transform(X_train)\n"
     "X_test = scaler_test.transform(X_test)\n", "unsafe"),
])
def test_a_step_refitted_on_the_test_rows_uses_its_training_twin(steps, expected, applicability):
    source = REFITTED.format(steps=steps)
    fix = _only_fix("a.py", source.encode())
    assert fix.applicability == applicability
    fixed = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert expected in fixed
    assert not [f for f in lint("a.py", fixed.encode()).findings if f.code != "LL000"]


def test_a_step_refitted_on_a_test_file_uses_the_fit_on_the_rows_the_model_learned(tmp_path):
    source = (
        "import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LogisticRegression\n"
        "from sklearn.preprocessing import StandardScaler\n\n"
        f"train = pd.read_csv({str(tmp_path / 'train.csv')!r})\ntest = pd.read_csv({str(tmp_path / 'test.csv')!r})\n"
        "scaled_train = StandardScaler().fit_transform(train[['a', 'b']])\n"
        "model = LogisticRegression().fit(scaled_train, train['y'])\n"
        "scaled_test = StandardScaler().fit_transform(test[['a', 'b']])\n"
        "print(model.score(scaled_test, test['y']))\n"
    )
    fix = _only_fix("a.py", source.encode())
    assert fix.applicability == "safe"
    fixed = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert ("standard_scaler = StandardScaler()\nscaled_train = standard_scaler.fit_transform(train[['a', 'b']])\n"
            in fixed and "scaled_test = standard_scaler.transform(test[['a', 'b']])\n" in fixed)
    rng = np.random.default_rng(0)
    for name, shift in (("train", 0.0), ("test", 5.0)):  # the test rows sit elsewhere: their own scaling hides it
        pd.DataFrame({"a": rng.normal(shift, 1, 60), "b": rng.normal(size=60), "y": np.tile([0, 1], 30)}).to_csv(
            tmp_path / f"{name}.csv", index=False)
    _silent_and_runs(fixed, tmp_path, "assert abs(scaled_test[:, 0].mean() - 5.0) < 0.6\n")


def test_no_twin_when_the_copy_is_built_otherwise():
    source = REFITTED.format(steps="scaler_train = MinMaxScaler()\nscaler_test = MinMaxScaler(feature_range=(-1, 1))\n"
                             "X_train = scaler_train.fit_transform(X_train)\nX_test = scaler_test.fit_transform(X_test)\n")
    assert _only_fix("a.py", source.encode()) is None


def test_no_fold_fix_when_the_loop_binds_the_steps_output_again():
    source = FOLDS.replace("    model = LogisticRegression()", "    X_s = X_s[:, :3]\n    model = LogisticRegression()")
    assert _only_fix("a.py", source.encode()) is None


@pytest.mark.parametrize("made", [
    "np.log1p(pd.DataFrame(rng.normal(size=(150, 4)), columns=list('abcd')))",  # a ufunc keeps a table a table
    "pd.DataFrame(rng.normal(size=(150, 4)), columns=list('abcd')).groupby('a').transform('mean')",  # pandas'
])
def test_fold_fix_does_not_take_a_table_for_an_array(made):
    source = FOLDS.replace("X = pd.DataFrame(rng.normal(size=(150, 4)) * [1, 5, 20, 100], columns=list('abcd'))",
                           f"X = {made}")
    assert made in source
    assert _only_fix("a.py", source.encode()) is None


def test_fold_fix_follows_a_chain_of_table_methods():
    source = FOLDS.replace("X = pd.DataFrame(rng.normal(size=(150, 4)) * [1, 5, 20, 100], columns=list('abcd'))",
                           "X = pd.DataFrame(rng.normal(size=(150, 5)), columns=list('abcde')).drop(columns='e').fillna(0)")
    assert "drop(columns='e')" in source
    fixed = fixed_bytes("a.py", source.encode(), _only_fix("a.py", source.encode()).ops).decode()
    assert "fold_scaler = clone(scaler).fit(X.iloc[tr])" in fixed


ZSCORE = (
    "import numpy as np\nimport pandas as pd\nfrom scipy.stats import zscore\n"
    "from sklearn.linear_model import LinearRegression\nfrom sklearn.model_selection import train_test_split\n\n"
    "rng = np.random.default_rng(3)\n"
    "df = pd.DataFrame(rng.normal(5, 2, size=(200, 3)), columns=['income', 'aspect', 'age'])\n"
    "x_columns = df.columns.drop('age')\n"
    "for col in x_columns:\n"
    "    df[col] = zscore(df[col])\n"
    "x = df[x_columns].values\ny = df['age'].values\n"
    "x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.25, random_state=42)\n"
    "print(LinearRegression().fit(x_train, y_train).score(x_test, y_test))\n"
)


def test_a_zscore_before_the_split_standardizes_all_rows_by_the_training_rows(tmp_path):
    # df.columns.drop(...) drops column labels, not rows: the same draw still picks the same rows
    fix = _only_fix("a.py", ZSCORE.encode())
    fixed = fixed_bytes("a.py", ZSCORE.encode(), fix.ops).decode()
    assert ("    df[col] = ((df[col] - df_train_rows[col].mean(axis=0)) / df_train_rows[col].std(axis=0, ddof=0))"
            in fixed)
    checks = ("assert np.allclose(x_train.mean(axis=0), 0) and np.allclose(x_train.std(axis=0), 1)\n"
              "assert len(x_test) == 50 and not np.allclose(x_test.mean(axis=0), 0)\n")
    _silent_and_runs(fixed, tmp_path, checks)


def test_quantile_bins_computed_and_applied_in_one_call_get_no_fix():
    source = ZSCORE.replace("    df[col] = zscore(df[col])\n", "    df[col] = pd.qcut(df[col], q=4, labels=False)\n")
    assert _only_fix("a.py", source.encode()) is None


FOLD_STOPPING = (
    "import lightgbm as lgb\nimport numpy as np\nimport pandas as pd\nfrom sklearn.metrics import roc_auc_score\n"
    "from sklearn.model_selection import StratifiedKFold\n\n"
    "rng = np.random.default_rng(0)\n"
    "app = pd.DataFrame(rng.normal(size=(300, 4)), columns=list('abcd'))\n"
    "app['TARGET'] = rng.integers(0, 2, size=300)\nfeats = list('abcd')\n"
    "folds = StratifiedKFold(n_splits=3, shuffle=True, random_state=1001)\n"
    "oof = np.zeros(len(app))\n"
    "for train_idx, valid_idx in folds.split(app[feats], app['TARGET']):\n"
    "    train_x, train_y = app[feats].iloc[train_idx], app['TARGET'].iloc[train_idx]\n"
    "    valid_x, valid_y = app[feats].iloc[valid_idx], app['TARGET'].iloc[valid_idx]\n"
    "    clf = lgb.LGBMClassifier(n_estimators=50, verbose=-1)\n"
    "    clf.fit(train_x, train_y, eval_set=[(valid_x, valid_y)], callbacks=[lgb.early_stopping(5, verbose=False)])\n"
    "    oof[valid_idx] = clf.predict_proba(valid_x)[:, 1]\n"
    "print(roc_auc_score(app['TARGET'], oof))\n"
)


@pytest.mark.skipif(importlib.util.find_spec("lightgbm") is None, reason="needs lightgbm")
def test_a_fold_loop_stops_each_fold_on_a_validation_part_of_its_training_fold(tmp_path):
    fix = _only_fix("a.py", FOLD_STOPPING.encode())
    fixed = fixed_bytes("a.py", FOLD_STOPPING.encode(), fix.ops).decode()
    # drawn as the folds are (shuffled, the splitter's seed); train_x / train_y keep distinct parts
    assert ("    train_x_fit, train_x_val, train_y_fit, train_y_val = sklearn.model_selection.train_test_split("
            "train_x, train_y, test_size=0.2, random_state=1001)\n") in fixed
    checks = "assert len(train_x_fit) == 160 and set(train_x_val.index) <= set(train_x.index)\n"
    _silent_and_runs(fixed, tmp_path, checks)


# the same loop inside a helper the notebook calls once, handed the splitter
FOLD_STOPPING_HELPER = (
    "import lightgbm as lgb\nimport numpy as np\nimport pandas as pd\nfrom sklearn.metrics import roc_auc_score\n"
    "from sklearn.model_selection import StratifiedKFold\n\n"
    "def kfold_lgb(app, feats, folds):\n"
    "    oof = np.zeros(len(app))\n"
    "    for train_idx, valid_idx in folds.split(app[feats], app['TARGET']):\n"
    "        train_x, train_y = app[feats].iloc[train_idx], app['TARGET'].iloc[train_idx]\n"
    "        valid_x, valid_y = app[feats].iloc[valid_idx], app['TARGET'].iloc[valid_idx]\n"
    "        clf = lgb.LGBMClassifier(n_estimators=50, verbose=-1)\n"
    "        clf.fit(train_x, train_y, eval_set=[(valid_x, valid_y)], callbacks=[lgb.early_stopping(5, verbose=False)])\n"
    "        oof[valid_idx] = clf.predict_proba(valid_x)[:, 1]\n"
    "    return roc_auc_score(app['TARGET'], oof)\n\n"
    "rng = np.random.default_rng(0)\n"
    "app = pd.DataFrame(rng.normal(size=(300, 4)), columns=list('abcd'))\n"
    "app['TARGET'] = rng.integers(0, 2, size=300)\n"
    "skf = StratifiedKFold(n_splits=3, shuffle=True, random_state=1001)\n"
    "print(kfold_lgb(app, list('abcd'), skf))\n"
)


@pytest.mark.skipif(importlib.util.find_spec("lightgbm") is None, reason="needs lightgbm")
def test_a_fold_loop_in_a_helper_called_once_is_fixed_in_the_helper(tmp_path):
    fix = _only_fix("a.py", FOLD_STOPPING_HELPER.encode())
    fixed = fixed_bytes("a.py", FOLD_STOPPING_HELPER.encode(), fix.ops).decode()
    # the splitter is the helper's parameter: its draw is read where the one call hands it over
    assert ("        train_x_fit, train_x_val, train_y_fit, train_y_val = sklearn.model_selection.train_test_split("
            "train_x, train_y, test_size=0.2, random_state=1001)\n") in fixed
    _silent_and_runs(fixed, tmp_path, "")


@pytest.mark.parametrize("change", [
    "print(kfold_lgb(app, list('abc'), skf))\n",  # a second caller would change too
    "runner = kfold_lgb\n",  # the helper is handed on: its callers are not all in sight
])
def test_no_fix_inside_a_helper_with_other_callers(change):
    source = FOLD_STOPPING_HELPER + change
    findings = [f for f in lint("a.py", source.encode()).findings if f.code == "LL305"]
    assert findings and all(f.fix is None for f in findings)


def test_rows_drawn_early_serve_a_second_split_drawn_the_same_way(tmp_path):
    source = STRATIFIED.format(between="").replace(
        "stratify=y, random_state=7)\n", "random_state=7)\n") + (
        "X_scaled = (X - X.min()) / (X.max() - X.min())\n"
        "Xs_train, Xs_test, ys_train, ys_test = train_test_split(X_scaled, y, test_size=0.25, random_state=7)\n"
        "print(LogisticRegression().fit(Xs_train, ys_train).score(Xs_test, ys_test))\n")
    fixes = [f.fix for f in lint("a.py", source.encode()).findings if f.code == "LL105" and f.location.line == 10]
    assert len(fixes) == 1 and fixes[0] is not None
    fixed = fixed_bytes("a.py", source.encode(), fixes[0].ops).decode()
    assert "churn['b'] = churn['b'].fillna(churn_train_rows['b'].median())" in fixed
    _ran(tmp_path, fixed + "assert list(churn_train_rows.index) == list(Xs_train.index) == list(X_train.index)\n")


EVALS_NAME = (
    "import numpy as np\nfrom sklearn.metrics import accuracy_score\n"
    "from sklearn.model_selection import train_test_split\nfrom xgboost import XGBClassifier\n\n"
    "rng = np.random.default_rng(1)\nX = rng.normal(size=(200, 4))\ny = rng.integers(0, 2, size=200)\n"
    "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=156)\n"
    "xgb_wrapper = XGBClassifier(n_estimators=30, early_stopping_rounds=5, eval_metric='logloss')\n"
    "evals = [(X_test, y_test)]\n"
    "xgb_wrapper.fit(X_train, y_train, eval_set=evals, verbose=False)\n"
    "print(accuracy_score(y_test, xgb_wrapper.predict(X_test)))\n"
)


@pytest.mark.skipif(importlib.util.find_spec("xgboost") is None, reason="needs xgboost")
def test_an_eval_set_bound_to_a_name_gets_the_validation_part_drawn_before_it(tmp_path):
    fixed = fixed_bytes("a.py", EVALS_NAME.encode(), _only_fix("a.py", EVALS_NAME.encode()).ops).decode()
    assert ("X_fit, X_val, y_fit, y_val = train_test_split(X_train, y_train, test_size=0.2, random_state=156)\n"
            "evals = [(X_val, y_val)]\nxgb_wrapper.fit(X_fit, y_fit, eval_set=evals, verbose=False)\n") in fixed
    _silent_and_runs(fixed, tmp_path, "assert len(X_fit) == 128 and len(X_val) == 32\n")


def test_no_validation_part_when_the_training_rows_change_after_the_eval_set_is_bound():
    source = EVALS_NAME.replace("xgb_wrapper.fit(", "X_train = X_train * 2\nxgb_wrapper.fit(")
    assert _only_fix("a.py", source.encode()) is None


def test_a_best_score_read_from_the_fit_result_gets_the_nested_score(tmp_path):
    source = (
        "import numpy as np\nfrom sklearn.model_selection import GridSearchCV\nfrom sklearn.svm import SVC\n\n"
        "rng = np.random.default_rng(2)\nX = rng.normal(size=(60, 3))\ny = np.tile([0, 1], 30)\n"
        "grid = GridSearchCV(SVC(), {'C': [0.1, 1, 10]}, cv=3, scoring='accuracy')\n"
        "grid_result = grid.fit(X, y)\n"
        "print(f'Best Accuracy for {grid_result.best_score_:.4} using {grid_result.best_params_}')\n"
    )
    expected = ("nested_score = cross_val_score(grid, X, y, cv=3, scoring='accuracy').mean()\n"
                "print(f'Best Accuracy for {nested_score:.4} using {grid_result.best_params_}')\n")
    _fixed_and_runs(source, expected, tmp_path, "assert 0 <= nested_score <= 1\n")


def test_a_named_model_searched_after_a_step_gets_its_grid_keys_prefixed(tmp_path):
    source = (
        "import numpy as np\nfrom sklearn.model_selection import GridSearchCV\n"
        "from sklearn.preprocessing import StandardScaler\nfrom sklearn.neighbors import KNeighborsClassifier\n\n"
        "rng = np.random.default_rng(3)\nX = rng.normal(size=(60, 3))\ny = np.tile([0, 1], 30)\n"
        "X_scaled = StandardScaler().fit_transform(X)\n"
        "param_grid = {'n_neighbors': [3, 5]}\n"
        "clf = KNeighborsClassifier()\n"
        "grid = GridSearchCV(clf, param_grid, cv=3)\n"
        "grid.fit(X_scaled, y)\n"
        "print(grid.best_params_, grid.cv_results_['mean_test_score'])\n"
    )
    expected = ("param_grid = {'kneighborsclassifier__n_neighbors': [3, 5]}\n"
                "clf = KNeighborsClassifier()\n"
                "grid = GridSearchCV(make_pipeline(StandardScaler(), clf), param_grid, cv=3)\n"
                "grid.fit(X, y)\n")
    _fixed_and_runs(source, expected, tmp_path, "assert list(grid.best_params_) == ['kneighborsclassifier__n_neighbors']\n")


@pytest.mark.parametrize("search, expected", [
    ("from sklearn.model_selection import GridSearchCV as GS\ngs = GS(SVC(), {'C': [0.1, 1, 10]}, cv=3)\n"
     "gs.fit(X, y)\n",
     "print('best', cross_val_score(gs, X, y, cv=3).mean())"),
    ("from sklearn.model_selection import GridSearchCV\n"
     "gs = GridSearchCV(estimator=SVC(), param_grid={'C': [0.1, 1, 10]}, cv=3).fit(X=X, y=y)\n",
     "print('best', cross_val_score(gs, X, y, cv=3).mean())"),
])
def test_a_search_imported_under_another_name_or_fitted_where_it_is_built_gets_the_nested_score(
        search, expected, tmp_path):
    source = ("import numpy as np\nfrom sklearn.svm import SVC\n\n"
              "rng = np.random.default_rng(2)\nX = rng.normal(size=(60, 3))\ny = np.tile([0, 1], 30)\n"
              + search + "print('best', gs.best_score_)\n")
    _fixed_and_runs(source, expected, tmp_path, (
        "from sklearn.model_selection import GridSearchCV as Search\n"
        "honest = cross_val_score(Search(SVC(), {'C': [0.1, 1, 10]}, cv=3), X, y, cv=3).mean()\n"
        "assert np.isclose(honest, cross_val_score(gs, X, y, cv=3).mean())\n"))


def test_a_sampler_called_by_its_old_name_is_moved_after_the_split_as_fit_resample(tmp_path):
    source = (
        "import numpy as np\nfrom imblearn.over_sampling import RandomOverSampler\n"
        "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import train_test_split\n\n"
        "rng = np.random.default_rng(4)\nX = rng.normal(size=(200, 3))\ny = (rng.random(200) < 0.2).astype(int)\n"
        "ros = RandomOverSampler(random_state=0)\n"
        "X_sm, y_sm = ros.fit_sample(X, y)\n"
        "X_train, X_test, y_train, y_test = train_test_split(X_sm, y_sm, test_size=0.3, random_state=0)\n"
        "print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))\n"
    )
    expected = ("X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)\n"
                "X_train, y_train = ros.fit_resample(X_train, y_train)\n")
    _fixed_and_runs(source, expected, tmp_path, "assert len(X_test) == 60 and y_train.mean() == 0.5\n")


def test_a_statistic_of_the_held_out_part_becomes_that_of_the_training_part(tmp_path):
    source = (
        "import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LogisticRegression\n"
        "from sklearn.model_selection import train_test_split\n\n"
        "rng = np.random.default_rng(6)\n"
        "df = pd.DataFrame({'age': rng.integers(20, 60, size=200).astype(float), 'y': rng.integers(0, 2, size=200)})\n"
        "df.loc[rng.choice(200, 30, replace=False), 'age'] = np.nan\n"
        "df_train, df_test = train_test_split(df, test_size=0.2, random_state=1)\n"
        "df_train['age'] = df_train['age'].fillna(df_train['age'].median())\n"
        "df_test['age'] = df_test['age'].fillna(df_test['age'].median())\n"
        "model = LogisticRegression().fit(df_train[['age']], df_train['y'])\n"
        "print(model.score(df_test[['age']], df_test['y']))\n"
    )
    expected = "df_test['age'] = df_test['age'].fillna(df_train['age'].median())\n"
    _fixed_and_runs(source, expected, tmp_path, "assert not df_test['age'].isna().any()\n")


def test_no_statistic_of_the_training_part_once_its_name_holds_something_else():
    source = ("import pandas as pd\nfrom sklearn.linear_model import LinearRegression\n"
              "from sklearn.model_selection import train_test_split\n\n"
              "df = pd.read_csv('d.csv')\ndf_train, df_test = train_test_split(df, random_state=1)\n"
              "df_train = pd.read_csv('other.csv')\n"
              "df_test['x'] = df_test['x'].fillna(df_test['x'].mean())\n"
              "print(LinearRegression().fit(df[['x']], df['y']).score(df_test[['x']], df_test['y']))\n")
    findings = [f for f in lint("a.py", source.encode()).findings if f.code == "LL301"]
    assert findings and all(f.fix is None for f in findings)


@pytest.mark.skipif(importlib.util.find_spec("lightgbm") is None, reason="needs lightgbm")
def test_a_fold_loop_over_a_training_split_draws_as_its_folds_do(tmp_path):
    source = FOLD_STOPPING.replace(
        "feats = list('abcd')\n",
        "feats = list('abcd')\napp, app_test = train_test_split(app, test_size=0.25, random_state=7)\n").replace(
        "from sklearn.model_selection import StratifiedKFold\n",
        "from sklearn.model_selection import StratifiedKFold, train_test_split\n").replace(
        "oof = np.zeros(len(app))\n", "oof = pd.Series(0.0, index=app.index)\n").replace(
        "oof[valid_idx] = ", "oof.iloc[valid_idx] = ")
    _fixed_and_runs(source, "train_x, train_y, test_size=0.2, random_state=1001)\n", tmp_path,
                    "assert set(train_x_val.index) <= set(train_x.index)\n")



FRAMED = (
    "import numpy as np\nimport pandas as pd\n"
    "from sklearn.model_selection import KFold, cross_val_score\nfrom sklearn.neighbors import KNeighborsClassifier\n"
    "from sklearn.preprocessing import MinMaxScaler\n\n"
    "rng = np.random.default_rng(3)\n"
    "X = pd.DataFrame(rng.normal(size=(120, 3)) * [1, 10, 100], columns=list('abc'))\n"
    "y = (X['a'] + X['b'] / 10 + rng.normal(size=120) > 0).astype(int)\n"
    "cv = KFold(5, shuffle=True, random_state=0)\n"
    "scaler = MinMaxScaler()\n"
)
HONEST_KNN = (
    "from sklearn.pipeline import make_pipeline\n"
    "honest = cross_val_score(make_pipeline(MinMaxScaler(), KNeighborsClassifier()), X, y, cv=cv)\n"
)


@pytest.mark.parametrize("framing, expected", [
    ("X_s = pd.DataFrame(scaler.fit_transform(X), columns=X.columns)\n",
     "scores = cross_val_score(make_pipeline(scaler, KNeighborsClassifier()), X, y, cv=cv)"),
    ("arr = scaler.fit_transform(X)\nX_s = pd.DataFrame(arr, columns=X.columns, index=X.index)\n",
     "scores = cross_val_score(make_pipeline(scaler, KNeighborsClassifier()), X, y, cv=cv)"),
])
def test_a_step_output_put_in_a_frame_then_cross_validated_joins_the_model_in_a_pipeline(framing, expected, tmp_path):
    source = FRAMED + framing + "scores = cross_val_score(KNeighborsClassifier(), X_s, y, cv=cv)\n"
    fix = _only_fix("a.py", source.encode())
    assert fix.applicability == "unsafe"  # the model is handed an array where it was handed a frame
    fixed = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert expected in fixed
    _silent_and_runs(fixed, tmp_path, HONEST_KNN + "assert np.allclose(scores, honest), (scores, honest)\n")


def test_a_frame_made_of_a_step_output_read_through_another_name_gets_no_pipeline():
    source = FRAMED + ("arr = scaler.fit_transform(X)\nX_s = pd.DataFrame(arr, columns=X.columns)\n"
                       "X_s['d'] = 1.0\nscores = cross_val_score(KNeighborsClassifier(), X_s, y, cv=cv)\n")
    assert _only_fix("a.py", source.encode()) is None


def test_a_step_output_framed_under_the_inputs_name_is_framed_again_in_each_fold(tmp_path):
    source = FRAMED + (
        "X = pd.DataFrame(scaler.fit_transform(X), columns=X.columns, index=X.index)\n"
        "scores = []\n"
        "for tr, va in cv.split(X):\n"
        "    model = KNeighborsClassifier().fit(X.iloc[tr], y.iloc[tr])\n"
        "    scores.append(model.score(X.iloc[va], y.iloc[va]))\n"
        "print(X.describe())\n"
    )
    expected = ("for tr, va in cv.split(X_raw):\n    X_fold = pd.DataFrame(clone(scaler).fit(X_raw.iloc[tr]).transform(X_raw), "
                "columns=X_raw.columns, index=X_raw.index)\n")
    _fixed_and_runs(source, expected, tmp_path, HONEST_KNN + (
        "assert np.allclose(scores, honest), (scores, honest)\n"
        "assert np.allclose(X, MinMaxScaler().fit_transform(X_raw)) and list(X.columns) == list('abc')\n"))


def test_a_step_output_framed_before_a_split_learns_from_the_rows_drawn_for_it():
    source = FRAMED.replace("KFold, ", "KFold, train_test_split, ") + (
        "X_s = pd.DataFrame(scaler.fit_transform(X), columns=X.columns)\n"
        "X_train, X_test, y_train, y_test = train_test_split(X_s, y, random_state=0)\n"
        "print(KNeighborsClassifier().fit(X_train, y_train).score(X_test, y_test))\n")
    fix = _only_fix("a.py", source.encode())
    assert "drawn the same way here" in fix.message  # a frame made anew per side would lose the rows' index


GENERATED_TEXTS = '''
import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score


def lines(n):
    for i in range(n):
        yield "good day" if i % 2 else "bad night"


texts = {texts}
labels = np.arange(40) % 2
vectorizer = TfidfVectorizer()
features = vectorizer.fit_transform(texts)
print(cross_val_score(LogisticRegression(), features, labels, cv=5).mean())
'''


def test_a_step_fitted_on_a_generator_is_not_moved_into_a_pipeline(tmp_path):
    """A pipeline draws its folds by index, which a generator's items cannot give: the step
    fitted on one keeps its finding and gets no fix; on the same items as a list, the
    pipeline fix runs."""
    generator = GENERATED_TEXTS.format(texts="lines(40)").encode()
    (finding,) = [f for f in lint("a.py", generator).findings if f.code != "LL000"]
    assert (finding.code, finding.fix) == ("LL101", None)
    _fixed_and_runs(GENERATED_TEXTS.format(texts="list(lines(40))"),
                    "cross_val_score(make_pipeline(vectorizer, LogisticRegression()), texts, labels, cv=5)",
                    tmp_path, "")


RESUBSTITUTED = (
    "import numpy as np\nimport pandas as pd\nfrom sklearn.ensemble import RandomForestClassifier\n"
    "from sklearn.metrics import accuracy_score\n\n"
    "rng = np.random.default_rng(0)\nX = pd.DataFrame(rng.normal(size=(120, 4)), columns=list('abcd'))\n"
    "y = pd.Series(rng.integers(0, 2, size=120))\n"
    "model = RandomForestClassifier(n_estimators=30, random_state=0)\nmodel.fit(X, y)\n"
    "{scores}"
)


def test_a_model_scored_on_its_own_training_rows_is_scored_out_of_fold(tmp_path):
    source = RESUBSTITUTED.format(scores=(
        "pred = model.predict(X)\nprint('accuracy', accuracy_score(y, pred))\n"
        "print('score', model.score(X, y))\nprint('auc input', model.predict_proba(X)[:, 1].mean())\n"))
    fix = _only_fix("a.py", source.encode())
    assert fix.applicability == "unsafe"
    fixed = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert "pred = cross_val_predict(model, X, y, cv=5)\n" in fixed
    assert "cross_val_score(model, X, y, cv=5).mean()" in fixed
    assert "from sklearn.model_selection import cross_val_predict, cross_val_score" in fixed
    assert not [f for f in lint("a.py", fixed.encode()).findings if f.code != "LL000"]
    proc = _ran(tmp_path, fixed)
    accuracy = float(proc.stdout.split()[1])
    assert accuracy < 0.75  # labels are noise: out of fold, no longer the forest's memory of them


@pytest.mark.parametrize("scores", [
    "X = X * 2\nprint(accuracy_score(y, model.predict(X)))\n",  # the rows changed after the fit
    "print(accuracy_score(y, model.predict(X, check_input=True)))\n",  # an option the rewrite would drop
])
def test_no_out_of_fold_fix_when_the_scored_rows_are_not_the_fitted_ones_as_written(scores):
    findings = [f for f in lint("a.py", RESUBSTITUTED.format(scores=scores).encode()).findings if f.code == "LL302"]
    assert findings and all(f.fix is None for f in findings)


def test_a_chained_fit_and_score_is_scored_out_of_fold_and_keeps_its_fit():
    source = RESUBSTITUTED.format(scores="print(model.fit(X, y).score(X, y))\n").replace("model.fit(X, y)\nprint", "print")
    fix = _only_fix("a.py", source.encode())
    fixed = fixed_bytes("a.py", source.encode(), fix.ops).decode()
    assert "print(cross_val_score(model.fit(X, y), X, y, cv=5).mean())" in fixed
    assert not [f for f in lint("a.py", fixed.encode()).findings if f.code != "LL000"]


# Optuna's documented behaviour, enough to run a study without the library: a trial draws
# each suggested value, a FixedTrial returns the value its params give for that name.
FAKE_OPTUNA = (
    "import random\n\n"
    "class _Trial:\n"
    "    def __init__(self, draw):\n        self.draw, self.params = draw, {}\n"
    "    def suggest_int(self, name, low, high):\n"
    "        self.params[name] = self.draw(name, low, high)\n        return self.params[name]\n\n"
    "class _Study:\n"
    "    def __init__(self, direction):\n        self.sign = 1 if direction == 'maximize' else -1\n"
    "        self.best_value, self.best_params, self.rng = None, None, random.Random(0)\n"
    "    def optimize(self, func, n_trials):\n"
    "        for _ in range(n_trials):\n"
    "            trial = _Trial(lambda name, low, high: self.rng.randint(low, high))\n"
    "            value = func(trial)\n"
    "            if self.best_value is None or self.sign * value > self.sign * self.best_value:\n"
    "                self.best_value, self.best_params = value, dict(trial.params)\n\n"
    "def create_study(direction='minimize'):\n    return _Study(direction)\n\n"
    "class _Module:\n    pass\n\ntrial = _Module()\n"
    "def _fixed(params):\n"
    "    return _Trial(lambda name, low, high: params[name])\n"
    "trial.FixedTrial = _fixed\n"
)

STUDY_OF_A_SPLIT = (
    "import numpy as np\nimport optuna\nfrom sklearn.metrics import accuracy_score\n"
    "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import train_test_split\n\n"
    "rng = np.random.default_rng(0)\nX = rng.normal(size=(600, 300))\ny = rng.integers(0, 2, size=600)\n"
    "{split}\n\n"
    "def objective(trial):\n"
    "    column = trial.suggest_int('column', 0, 299)\n"
    "    model = LogisticRegression().fit(X_train[:, [column]], y_train)\n"
    "    return accuracy_score(y_val, model.predict(X_val[:, [column]]))\n\n"
    "study = optuna.create_study(direction='maximize')\nstudy.optimize(objective, n_trials=150)\n"
    "print('best accuracy:', study.best_value)\n"
)


def test_an_optuna_study_of_a_validation_part_tunes_on_a_part_of_the_training_side_and_reports_the_other(tmp_path):
    source = STUDY_OF_A_SPLIT.format(
        split="X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=1)")
    out = _fixed_text(source, "LL304", "def objective(trial, X_train=X_train_tune, X_val=X_val_tune, "
                      "y_train=y_train_tune, y_val=y_val_tune):")
    assert "objective(optuna.trial.FixedTrial(study.best_params), X_train=X_train, X_val=X_val, y_train=y_train, " \
           "y_val=y_val)" in out
    assert not [f for f in lint("a.py", out.encode()).findings if f.code != "LL000"]
    (tmp_path / "optuna.py").write_text(FAKE_OPTUNA, encoding="utf-8")
    scores = {}
    for name, text in (("as_written", source), ("fixed", out)):
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        proc = subprocess.run([sys.executable, f"{name}.py"], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        scores[name] = float(proc.stdout.split()[-1])
    # noise labels: the best of 150 one-column models on 120 rows looks good; the one chosen
    # on a part of the training side, scored on rows the search never saw, is near chance
    assert scores["as_written"] > 0.59
    assert scores["fixed"] < 0.55


@pytest.mark.parametrize("split", [
    # the objective is defined before the parts exist: its defaults could not name them
    None,
    # stratified by labels that are not one of the split's arrays
    "X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.3, stratify=X[:, 0] > 0)",
])
def test_no_optuna_fix_where_the_tuning_part_cannot_be_bound_to_the_objective(split):
    if split is None:
        source = STUDY_OF_A_SPLIT.format(split="").replace(
            "study = optuna", "X_train, X_val, y_train, y_val = train_test_split(X, y, random_state=1)\n"
                              "study = optuna")
    else:
        source = STUDY_OF_A_SPLIT.format(split=split)
    assert _fix_of(source, "LL304") is None


def test_no_optuna_fix_where_a_helper_of_the_objective_reads_the_parts_itself():
    source = STUDY_OF_A_SPLIT.format(
        split="X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.3, random_state=1)\n\n"
              "def held_out_accuracy(model, column):\n"
              "    return accuracy_score(y_val, model.predict(X_val[:, [column]]))").replace(
        "    return accuracy_score(y_val, model.predict(X_val[:, [column]]))\n\nstudy",
        "    return held_out_accuracy(model, column)\n\nstudy")
    assert "return held_out_accuracy(model, column)" in source
    assert _fix_of(source, "LL304") is None


FITTED_AFTER_THE_SPLIT = (
    "import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LogisticRegression\n"
    "from sklearn.model_selection import train_test_split\nfrom sklearn.preprocessing import StandardScaler\n\n"
    "rng = np.random.default_rng(3)\n"
    "df = pd.DataFrame({'price': rng.lognormal(size=300), 'qty': rng.integers(1, 9, size=300)})\n"
    "y = rng.integers(0, 2, size=300)\n"
    "X_train, X_test, y_train, y_test = train_test_split(df, y, test_size=0.3, random_state=0)\n"
    "scaler = StandardScaler()\n"
    "scaler.fit(df['price'].values.reshape(-1, 1))\n"
    "price_train = scaler.transform({train}['price'].values.reshape(-1, 1))\n"
    "price_test = scaler.transform(X_test['price'].values.reshape(-1, 1))\n"
    "model = LogisticRegression().fit(price_train, y_train)\n"
    "print(model.score(price_test, y_test))\n"
)


@pytest.mark.parametrize("train, fixed", [
    ("X_train", True),
    ("X_train.assign(price=1)", False),  # applied to something else than the training part's column
])
def test_a_step_fitted_after_the_split_on_the_whole_table_is_fitted_on_the_training_part_it_is_applied_to(
        train, fixed, tmp_path):
    source = FITTED_AFTER_THE_SPLIT.replace("{train}", train)
    out = _fixed_text(source, "LL101", "scaler.fit(X_train['price'].values.reshape(-1, 1))" if fixed else None)
    if fixed:
        assert not [f for f in lint("a.py", out.encode()).findings if f.code != "LL000"]
        _ran(tmp_path, out + "assert np.isclose(scaler.mean_[0], X_train['price'].mean())\n")


HELD_OUT_YEAR = (
    "import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LinearRegression\n\n"
    "rng = np.random.default_rng(5)\n"
    "df = pd.DataFrame({'year': rng.integers(2008, 2013, size=400), 'hours': rng.normal(size=400),\n"
    "                   'price': rng.normal(size=400)})\n"
    "df.loc[rng.random(400) < 0.2, 'hours'] = np.nan\n"
    "df['hours'] = df['hours'].fillna(df['hours'].median())\n"
    "{between}"
    "df_val = df[df.year == 2012]\ndf_train = df[df.year != 2012]\n"
    "model = LinearRegression().fit(df_train[['hours']], df_train.price)\n"
    "print(model.score(df_val[['hours']], df_val.price))\n"
)


@pytest.mark.parametrize("fill, between, fixed", [
    ("df['hours'] = df['hours'].fillna(df['hours'].median())", "", "df[df.year != 2012]['hours'].median()"),
    # each column of the table in a loop (the bulldozer course's fill)
    ("for label, content in df.items():\n    df[label] = content.fillna(content.median())", "",
     "content[df.year != 2012].median()"),
    ("df['hours'] = df['hours'].fillna(df['hours'].median())", "df = df.dropna()\n", None),  # other rows by then
])
def test_a_statistic_before_a_split_by_a_condition_is_computed_on_the_rows_that_condition_trains_on(
        fill, between, fixed, tmp_path):
    source = HELD_OUT_YEAR.replace("df['hours'] = df['hours'].fillna(df['hours'].median())", fill).replace(
        "{between}", between)
    out = _fixed_text(source, "LL105", fixed)
    if fixed:
        assert not [f for f in lint("a.py", out.encode()).findings if f.code != "LL000"]
        nans = "df.loc[rng.random(400) < 0.2, 'hours'] = np.nan\n"
        _ran(tmp_path, out.replace(nans, nans + "raw = df.copy()\n") + (
            "assert (df.hours[raw.hours.isna()] == raw.hours[raw.year != 2012].median()).all()\n"))


def test_no_draw_before_a_helper_that_reads_a_table_bound_after_it():
    # the helper reads the global X, which the module binds after the def: a draw before the
    # def would read a name that does not exist yet
    source = (
        "import numpy as np\nfrom sklearn.preprocessing import StandardScaler\n"
        "from sklearn.model_selection import train_test_split\nfrom sklearn.linear_model import LogisticRegression\n"
        "def scale():\n    return StandardScaler().fit_transform(X)\n"
        "X = np.random.rand(100, 3)\ny = np.random.randint(0, 2, 100)\nX = scale()\n"
        "Xa, Xb, ya, yb = train_test_split(X, y)\nprint(LogisticRegression().fit(Xa, ya).score(Xb, yb))\n"
    )
    assert _only_fix("a.py", source.encode()) is None


def test_no_refit_fix_when_the_held_out_rows_were_already_transformed_by_the_training_fit():
    source = (
        "import numpy as np\nfrom sklearn.preprocessing import MinMaxScaler\n"
        "from sklearn.model_selection import train_test_split\nfrom sklearn.ensemble import RandomForestClassifier\n"
        "X, y = np.random.rand(100, 3), np.random.randint(0, 2, 100)\n"
        "Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, random_state=0)\n"
        "mm = MinMaxScaler()\nXtr = mm.fit_transform(Xtr)\nXte = mm.transform(Xte)\n"
        "sc = MinMaxScaler()\nXte = sc.fit_transform(Xte)\n"
        "print(RandomForestClassifier().fit(Xtr, ytr).score(Xte, yte))\n"
    )
    assert _only_fix("a.py", source.encode()) is None
    # without the earlier transform, the refit becomes a transform with the training fit
    assert _only_fix("a.py", source.replace("Xte = mm.transform(Xte)\n", "").encode()) is not None


SEVERAL_EVALUATIONS = (
    "import numpy as np\nfrom sklearn.linear_model import LogisticRegression\n"
    "from sklearn.model_selection import KFold, cross_val_score, train_test_split\n"
    "from sklearn.preprocessing import StandardScaler\n\n"
    "rng = np.random.default_rng(2)\nX = np.asarray(rng.normal(size=(90, 4)))\ny = rng.integers(0, 2, size=90)\n"
    "scaler = StandardScaler()\nX_s = scaler.fit_transform(X)\n"
    "{evaluations}"
)


@pytest.mark.parametrize("evaluations, expected", [
    ("print(cross_val_score(LogisticRegression(), X_s, y, cv=3).mean())\n"
     "for tr, te in KFold(3).split(X_s):\n    print(LogisticRegression().fit(X_s[tr], y[tr]).score(X_s[te], y[te]))\n"
     "X_tr, X_te, y_tr, y_te = train_test_split(X_s, y, random_state=0)\n"
     "print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))\n",
     ["cross_val_score(make_pipeline(scaler, LogisticRegression()), X, y, cv=3)",
      "X_s_fold = clone(scaler).fit(X[tr]).transform(X)", "X_tr = scaler.fit_transform(X_tr)"]),
    # two splits of the same rows, neither inside the other: each is split first
    ("a_tr, a_te, ya_tr, ya_te = train_test_split(X_s, y, random_state=0)\n"
     "print(LogisticRegression().fit(a_tr, ya_tr).score(a_te, ya_te))\n"
     "b_tr, b_te, yb_tr, yb_te = train_test_split(X_s, y, test_size=0.5, random_state=1)\n"
     "print(LogisticRegression().fit(b_tr, yb_tr).score(b_te, yb_te))\n",
     ["a_tr = scaler.fit_transform(a_tr)", "b_te = scaler.transform(b_te)"]),
    # the fold loop binds a name from the scaled rows before it: no fix
    ("print(cross_val_score(LogisticRegression(), X_s, y, cv=3).mean())\nfirst = X_s[:5]\n"
     "for tr, te in KFold(3).split(X_s):\n    print(LogisticRegression().fit(X_s[tr], y[tr]).score(X_s[te], y[te]))\n",
     None),
])
def test_a_step_evaluated_several_ways_is_corrected_in_each(evaluations, expected, tmp_path):
    out = _fixed_text(SEVERAL_EVALUATIONS.format(evaluations=evaluations), "LL101", expected and expected[0])
    if out is None:
        return
    assert all(line in out for line in expected), out
    assert not [f for f in lint("a.py", out.encode()).findings if f.code != "LL000"]
    _ran(tmp_path, out)
