"""The IPython extension: a real shell running real cells, and a real kernel through nbclient."""
import subprocess
import sys
from dataclasses import dataclass

import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from nbclient import NotebookClient
from traitlets.config import Config

import leaklint.audit.dependencies
import leaklint.jupyter
from leaklint.audit.command import INSTALL_HINT

DATA = (
    "from sklearn.datasets import make_classification\n"
    "from sklearn.linear_model import LogisticRegression\n"
    "from sklearn.model_selection import train_test_split\n"
    "from sklearn.pipeline import make_pipeline\n"
    "from sklearn.preprocessing import StandardScaler\n"
    "X, y = make_classification(n_samples=200, n_features=5, random_state=0)"
)
SCALE_ALL = "X = StandardScaler().fit_transform(X)"
SPLIT_FIT_SCORE = (
    "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)\n"
    "model = LogisticRegression().fit(X_train, y_train)\n"
    "model.score(X_test, y_test)"
)
LEAKY = SCALE_ALL + "\n" + SPLIT_FIT_SCORE
CORRECT = (
    "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)\n"
    "model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)\n"
    "model.score(X_test, y_test)"
)
LL101_IN_CELL_3 = "leaklint: cell 3, line 1: LL101 [preprocessing-before-split] StandardScaler is fitted on X (all rows)"


@dataclass
class Ran:
    success: bool
    stdout: str
    stderr: str
    text: str  # text/plain of what was displayed
    html: str


@pytest.fixture(scope="module")
def shell():
    main = sys.modules["__main__"]  # the shell installs its user module as __main__
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    instance = InteractiveShell.instance(config=config)
    yield instance
    InteractiveShell.clear_instance()
    sys.modules["__main__"] = main


@pytest.fixture
def ip(shell):
    shell.reset(new_session=True)  # fresh namespace, history and execution count
    yield shell
    if "leaklint" in shell.extension_manager.loaded:
        shell.extension_manager.unload_extension("leaklint")


def run(shell, source) -> Ran:
    with capture_output() as captured:
        result = shell.run_cell(source, store_history=True)
    shown = [output.data for output in captured.outputs]
    return Ran(
        result.success,
        captured.stdout,
        captured.stderr,
        "\n".join(data.get("text/plain", "") for data in shown),
        "\n".join(data.get("text/html", "") for data in shown),
    )


def run_all(shell, *sources) -> list:
    return [run(shell, source) for source in sources]


def quiet(ran: Ran) -> bool:
    return ran.success and not ran.text and not ran.html and "leaklint" not in ran.stdout + ran.stderr


def test_a_leak_is_shown_under_its_cell_as_text_and_html(ip):
    load, data, leaky, again = run_all(ip, "%load_ext leaklint", DATA, LEAKY, "model.score(X_test, y_test)")
    assert quiet(load) and quiet(data)
    assert leaky.success
    assert leaky.text.startswith(LL101_IN_CELL_3)
    assert "--> cell 3, line 2: X is split by train_test_split" in leaky.text
    assert "help: fit the step on the training rows only" in leaky.text
    assert "<b>leaklint LL101</b>" in leaky.html and "Why is this bad?" in leaky.html
    assert "fit the step on the training rows only" in leaky.html
    assert quiet(again)  # shown once, not under every later cell


def test_the_correct_version_shows_nothing(ip):
    assert all(map(quiet, run_all(ip, "%load_ext leaklint", DATA, CORRECT, "%leaklint")[:3]))


def test_a_leak_across_cells_is_shown_when_the_split_runs(ip):
    _, _, fit, split = run_all(ip, "%load_ext leaklint", DATA, SCALE_ALL, SPLIT_FIT_SCORE)
    assert quiet(fit)  # no split yet: no leak yet
    assert split.text.startswith(LL101_IN_CELL_3)
    assert "at cell 4, line 1" in split.text


def test_magics_and_shell_escapes_do_not_hide_a_leak(ip):
    cells = run_all(
        ip,
        "%load_ext leaklint",
        "%precision 3\n" + DATA,
        "files = !ls\n!echo hi\n%time X = StandardScaler().fit_transform(X)",
        "%%capture\n" + SPLIT_FIT_SCORE,
    )
    assert all(ran.success for ran in cells)
    assert "LL101" in cells[-1].text


def test_the_magic_lists_the_session_findings(ip):
    empty = run_all(ip, "%load_ext leaklint", DATA, "%leaklint")[-1]
    assert "leaklint: no leaks found in the 2 cells run so far" in empty.stdout
    listed = run_all(ip, LEAKY, "%leaklint")[-1]
    assert listed.text.startswith("leaklint: cell 4, line 1: LL101")
    assert "usage: %leaklint [audit]" in run(ip, "%leaklint please").stderr


def test_unloading_stops_the_output(ip):
    run_all(ip, "%load_ext leaklint", "%unload_ext leaklint", DATA)
    leaky, magic = run_all(ip, LEAKY, "%leaklint")
    assert quiet(leaky)
    assert not magic.success and "not found" in magic.stdout + magic.stderr


def test_loading_mid_session_reports_the_cells_run_before(ip):
    run_all(ip, DATA, LEAKY)
    loaded = run(ip, "%load_ext leaklint")
    assert loaded.text.startswith("leaklint: cell 2, line 1: LL101")


def test_configuration_of_the_working_directory_applies(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.leaklint]\nignore = ["LL101"]\n')
    assert quiet(run_all(ip, "%load_ext leaklint", DATA, LEAKY)[-1])
    (tmp_path / "pyproject.toml").write_text('[tool.leaklint]\nignroe = ["LL101"]\n')
    broken = run_all(ip, "x = 1", "y = 2")
    assert broken[0].success and broken[0].stderr.count("\n") == 1 and "ignroe" in broken[0].stderr
    assert quiet(broken[1])  # the same failure is not repeated under every cell


def test_a_helper_module_of_the_working_directory_is_followed(ip, tmp_path, monkeypatch):
    (tmp_path / "helpers.py").write_text(
        "from sklearn.preprocessing import StandardScaler\n\n\ndef scale(X):\n    return StandardScaler().fit_transform(X)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    leaky = run_all(ip, "%load_ext leaklint", DATA, "from helpers import scale\nX = scale(X)\n" + SPLIT_FIT_SCORE)[-1]
    assert leaky.text.startswith("leaklint: cell 3, line 2: LL101")
    assert "--> helpers.py, line 5: " in leaky.text


def test_an_internal_error_is_one_line_never_a_traceback(ip, monkeypatch):
    def broken(job, raw):
        raise RuntimeError("boom")

    run(ip, "%load_ext leaklint")
    monkeypatch.setattr(leaklint.jupyter, "run_job", broken)
    data = run(ip, DATA)
    assert data.success
    assert data.stderr == "leaklint: internal error RuntimeError: boom; please report it\n"
    assert "Traceback" not in data.stdout


def test_audit_without_the_audit_extra_says_so_in_one_line(ip, monkeypatch):
    monkeypatch.setattr(leaklint.audit.dependencies, "missing_dependencies", lambda plot=False: ["scikit-learn"])
    audit = run_all(ip, "%load_ext leaklint", DATA, LEAKY, "%leaklint audit")[-1]
    assert audit.stderr == f"{INSTALL_HINT} (missing: scikit-learn)\n"


def test_audit_runs_the_session_findings(ip):
    audit = run_all(ip, "%load_ext leaklint", DATA, LEAKY, "%leaklint audit")[-1]
    assert audit.success
    assert "session.ipynb:cell 3:1:5  LL101" in audit.stdout
    assert "leaked" in audit.stdout and "honest" in audit.stdout


def test_importing_leaklint_does_not_import_ipython():
    code = "import sys, leaklint; assert not [m for m in sys.modules if m.startswith('IPython')]"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def execute(tmp_path, *sources):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    path = tmp_path / "analysis.ipynb"
    nbformat.write(notebook, path)
    client = NotebookClient(nbformat.read(path, as_version=4), timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    return [cell.outputs for cell in client.execute().cells]


def displayed(outputs, mime) -> str:
    return "\n".join(o["data"].get(mime, "") for o in outputs if o["output_type"] == "display_data")


def test_a_kernel_shows_the_finding_under_the_leaky_cell(tmp_path):
    load, data, leaky = execute(tmp_path, "%load_ext leaklint", DATA, LEAKY)
    assert not load and not data
    assert displayed(leaky, "text/plain").startswith(LL101_IN_CELL_3)
    assert "<b>leaklint LL101</b>" in displayed(leaky, "text/html")


def test_a_kernel_shows_nothing_for_the_correct_notebook(tmp_path):
    outputs = execute(tmp_path, "%load_ext leaklint", DATA, CORRECT)
    assert not outputs[0] and not outputs[1]
    assert [o["output_type"] for o in outputs[2]] == ["execute_result"]
