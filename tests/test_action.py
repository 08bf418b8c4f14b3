"""The composite GitHub Action (``action.yml``): valid metadata, and its own scripts run as a runner runs them.

The ``run:`` scripts are taken from action.yml, not copied: each is run with
``bash --noprofile --norc -eo pipefail`` (the runner's command for ``shell: bash``), with
the step's ``env:`` evaluated from the inputs and the earlier steps' outputs, and with
``GITHUB_ACTION_PATH``, ``GITHUB_OUTPUT``, ``RUNNER_TEMP`` and ``GITHUB_WORKSPACE`` set as
the runner sets them. The install step really installs a copy of this checkout (as the
action's checkout) into its virtual environment, once per module; the run step then lints
a workspace with a leaky and a clean script.

``tests/data/github-action.schema.json`` is SchemaStore's schema for action metadata
(``https://json.schemastore.org/github-action.json``, as vendored unchanged by
check-jsonschema 0.39.0; Apache-2.0, ``github-action.schema.LICENSE`` beside it).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from snippets import LEAKY

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = ACTION["runs"]["steps"]
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}", re.S)
INPUT_REF = re.compile(r"\binputs\.([A-Za-z_][A-Za-z0-9_-]*)")
IGNORE = shutil.ignore_patterns(".git", ".ci", "__pycache__", "*.egg-info", ".leaklint_cache", ".pytest_cache",
                                ".hypothesis", "build", "dist", ".venv", "venv", "*.pyc")
CLEAN = """\
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("cells.csv")
X, y = df.drop(columns=["label"]), df["label"]
model = make_pipeline(StandardScaler(), SelectKBest(f_classif, k=20), LogisticRegression())
print(cross_val_score(model, X, y, cv=5).mean())
"""
ANNOTATION = re.compile(r"^::(error|warning) file=([^,]*),line=\d+,.*::")


def step(step_id: str) -> dict:
    (found,) = [s for s in STEPS if s.get("id") == step_id]
    return found


def strings(value):
    """Every string inside a step (keys excluded), with where it sits."""
    if isinstance(value, dict):
        for key, item in value.items():
            for where, text in strings(item):
                yield f"{key}.{where}" if where else key, text
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for where, text in strings(item):
                yield f"{index}.{where}" if where else str(index), text
    elif isinstance(value, str):
        yield "", value


# --- the metadata --------------------------------------------------------------------------------------------------

def test_composite_action_metadata():
    assert set(ACTION) <= {"name", "author", "description", "inputs", "outputs", "runs", "branding"}
    assert isinstance(ACTION["name"], str) and ACTION["name"]
    assert isinstance(ACTION["description"], str) and ACTION["description"]
    assert ACTION["runs"]["using"] == "composite"
    assert isinstance(STEPS, list) and STEPS
    for number, item in enumerate(STEPS):
        assert ("run" in item) != ("uses" in item), f"step {number}: exactly one of run/uses"
        if "run" in item:
            assert set(item) <= {"name", "id", "if", "run", "shell", "env", "working-directory", "continue-on-error"}
            assert item.get("shell") == "bash", f"step {number}: a run step of a composite action needs its shell"
        else:
            assert set(item) <= {"name", "id", "if", "uses", "with", "env", "continue-on-error"}
    ids = [s["id"] for s in STEPS if "id" in s]
    assert len(ids) == len(set(ids))
    for name, spec in ACTION["inputs"].items():
        assert re.fullmatch(r"[a-z][a-z0-9-]*", name)
        assert spec.get("description"), name
        assert "default" not in spec or isinstance(spec["default"], str), name
        assert spec.get("required", False) is False, name
    assert ACTION["inputs"]["output-format"]["default"] == "github"
    assert ACTION["inputs"]["paths"]["default"] == "."
    for name, spec in ACTION.get("outputs", {}).items():
        assert spec.get("description") and EXPRESSION.fullmatch(spec["value"]), name


def test_valid_against_the_schemastore_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "github-action.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    errors = sorted(validator.iter_errors(ACTION), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])
    # the schema does catch what matters here
    broken = json.loads(json.dumps(ACTION))
    del broken["runs"]["steps"][1]["shell"]
    assert list(validator.iter_errors(broken))


def test_expressions_reference_declared_inputs_and_earlier_steps():
    declared = set(ACTION["inputs"])
    used = set()
    seen_ids = set()
    for item in STEPS:
        for where, text in strings({k: v for k, v in item.items() if k != "run"}):
            expressions = EXPRESSION.findall(text) + ([text] if where == "if" else [])
            for expression in expressions:
                for name in INPUT_REF.findall(expression):
                    assert name in declared, f"{where}: inputs.{name} is not declared"
                    used.add(name)
                for step_id in re.findall(r"\bsteps\.([A-Za-z0-9_-]+)\.outputs\.", expression):
                    assert step_id in seen_ids, f"{where}: steps.{step_id} is not an earlier step"
        if "id" in item:
            seen_ids.add(item["id"])
    for spec in ACTION.get("outputs", {}).values():
        for step_id in re.findall(r"\bsteps\.([A-Za-z0-9_-]+)\.outputs\.", spec["value"]):
            assert step_id in seen_ids
    assert used == declared, f"declared but never used: {declared - used}"


def test_scripts_take_inputs_from_the_environment_only():
    for item in STEPS:
        if "run" in item:
            # no ${{ }} inside a script at all: an input's text never becomes shell code
            assert "${{" not in item["run"], item.get("name")


def test_install_step_installs_the_action_checkout():
    script = step("install")["run"]
    installs = [line.strip() for line in script.splitlines() if "pip install" in line]
    assert installs == ['"$venv_python" -I -m pip install --disable-pip-version-check "${GITHUB_ACTION_PATH:?}"']
    assert "pip install leaklint" not in (ROOT / "action.yml").read_text(encoding="utf-8")


def test_setup_python_only_when_asked():
    uses = [s for s in STEPS if "uses" in s]
    assert [s["uses"].split("@")[0] for s in uses] == ["actions/setup-python"]
    assert uses[0]["if"] == "inputs.python-version != ''"
    assert uses[0]["with"] == {"python-version": "${{ inputs.python-version }}"}


def test_readme_recipes_install_this_project():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"pip install leaklint\b(?![-\w])", readme.replace("`pip install leaklint`", ""))
    recipes = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", readme, re.S)]
    action_steps = []
    for recipe in recipes:
        if isinstance(recipe, dict) and "jobs" in recipe:
            for job in recipe["jobs"].values():
                action_steps += [s for s in job["steps"] if s.get("uses", "").split("@")[0].endswith("/leaklint")]
    assert len(action_steps) >= 2
    for item in action_steps:
        assert set(item.get("with") or {}) <= set(ACTION["inputs"]), item
    sarif = [s for s in action_steps if (s.get("with") or {}).get("output-format") == "sarif"]
    assert sarif and all(s["with"].get("sarif-file", "leaklint.sarif") == "leaklint.sarif" for s in sarif)


# --- the scripts, run ----------------------------------------------------------------------------------------------

def evaluate(expression: str, context: dict) -> str:
    """The few expressions action.yml uses: a context property, or an input compared with ''."""
    compared = re.fullmatch(r"inputs\.([\w-]+)\s*(==|!=)\s*''", expression)
    if compared:
        empty = context["inputs"][compared.group(1)] == ""
        return "true" if empty == (compared.group(2) == "==") else ""
    first, *rest = expression.split(".")
    assert re.fullmatch(r"[\w.-]+", expression) and first in context, f"cannot evaluate {expression!r}"
    value = context[first]
    for part in rest:
        value = value.get(part) if isinstance(value, dict) else None  # a missing property is null: ''
    assert value is None or isinstance(value, str), f"cannot evaluate {expression!r}"
    return value or ""


def substitute(text: str, context: dict) -> str:
    return EXPRESSION.sub(lambda m: evaluate(m.group(1), context), text)


def read_outputs(path: Path) -> dict:
    outputs, lines = {}, path.read_text(encoding="utf-8").splitlines()
    while lines:
        line = lines.pop(0)
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value = []
            while lines[0] != delimiter:
                value.append(lines.pop(0))
            lines.pop(0)
            outputs[name] = "\n".join(value)
        elif line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


class Runner:
    """Runs action.yml's steps in order, as a GitHub runner would on Linux."""

    def __init__(self, action_path: Path, runner_temp: Path):
        self.action_path, self.runner_temp = action_path, runner_temp
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("GITHUB_", "RUNNER_", "INPUT_", "PYTHON", "LEAKLINT_"))}
        self.env.pop("VIRTUAL_ENV", None)

    def run(self, workspace: Path, inputs=None, outputs=None, skip=()):
        """The action's steps from the first not in ``skip``; ``outputs`` stand for skipped steps'."""
        unknown = set(inputs or {}) - set(ACTION["inputs"])
        assert not unknown, unknown
        given = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
        given.update(inputs or {})
        context = {"inputs": given, "github": {"action_path": str(self.action_path), "workspace": str(workspace)},
                   "steps": {step_id: {"outputs": values} for step_id, values in (outputs or {}).items()}}
        proc = None
        for number, item in enumerate(STEPS):
            if item.get("id") in skip:
                continue
            if "if" in item and not evaluate(item["if"], context):
                continue
            assert "run" in item, f"step {number} ({item['uses']}) would run: not emulated"
            output_file = self.runner_temp / f"output-{number}-{time.monotonic_ns()}"
            output_file.touch()
            script = self.runner_temp / f"step-{number}.sh"
            script.write_text(item["run"], encoding="utf-8")
            env = {**self.env, "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_ACTION_PATH": str(self.action_path),
                   "GITHUB_WORKSPACE": str(workspace), "GITHUB_OUTPUT": str(output_file),
                   "RUNNER_TEMP": str(self.runner_temp), "RUNNER_OS": "Linux"}
            env.update({name: substitute(str(value), context) for name, value in (item.get("env") or {}).items()})
            proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                                  env=env, capture_output=True, text=True, timeout=300)
            if "id" in item:
                context["steps"][item["id"]] = {"outputs": read_outputs(output_file)}
            if proc.returncode != 0:
                break  # a failed step fails the action: the later steps do not run
        outputs = {name: substitute(spec["value"], context) for name, spec in ACTION.get("outputs", {}).items()}
        return proc, outputs, context["steps"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The install step, run for real: a copy of this checkout as the action's own checkout."""
    base = tmp_path_factory.mktemp("action")
    action_path = base / "_actions" / "leaklint" / "v0"
    shutil.copytree(ROOT, action_path, ignore=IGNORE)
    runner_temp = base / "runner-temp"
    runner_temp.mkdir()
    workspace = base / "workspace"
    workspace.mkdir()
    runner = Runner(action_path, runner_temp)
    install = [s.get("id") for s in STEPS].index("install")
    proc, _, steps = runner.run(workspace, skip=[s.get("id") for s in STEPS[install + 1:]])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    python = steps["install"]["outputs"]["python"]
    assert python == str(runner_temp / "leaklint-venv" / "bin" / "python")
    assert re.search(r"^leaklint, version \d", proc.stdout, re.M), proc.stdout
    where = subprocess.run([python, "-c", "import leaklint; print(leaklint.__file__)"], cwd=workspace,
                           env=runner.env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(runner_temp / "leaklint-venv"), where  # installed, not this source tree
    return runner, {"install": steps["install"]["outputs"]}


@pytest.fixture()
def action(installed, tmp_path):
    runner, install_outputs = installed
    workspace = tmp_path / "repo"
    workspace.mkdir()
    (workspace / "train.py").write_text(LEAKY)
    (workspace / "clean.py").write_text(CLEAN)

    def run(**inputs):
        inputs = {name.replace("_", "-"): value for name, value in inputs.items()}
        return runner.run(workspace, inputs, outputs=install_outputs, skip=["install"])[:2]

    run.workspace = workspace
    return run


def annotations(stdout: str) -> list:
    return [ANNOTATION.match(line).groups() for line in stdout.splitlines() if ANNOTATION.match(line)]


def test_github_annotations_fail_on_a_leak(action):
    proc, outputs = action()  # the defaults: paths ".", output-format github
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # LL101 (an unsupervised scaler) is a warning, LL102 (supervised selection) an error
    assert annotations(proc.stdout) == [("warning", "train.py"), ("error", "train.py")]
    assert "::warning file=train.py,line=9,col=5," in proc.stdout
    assert outputs == {"sarif-file": ""}
    assert not (action.workspace / ".leaklint_cache").exists()

    proc, _ = action(paths="clean.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert annotations(proc.stdout) == []

    proc, _ = action(args="--exit-zero")
    assert proc.returncode == 0 and len(annotations(proc.stdout)) == 2


def test_sarif_file_for_code_scanning(action):
    jsonschema = pytest.importorskip("jsonschema")
    proc, outputs = action(output_format="sarif", sarif_file="reports/leaklint.sarif")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert outputs == {"sarif-file": "reports/leaklint.sarif"}
    assert annotations(proc.stdout) == []
    log = json.loads((action.workspace / "reports" / "leaklint.sarif").read_text(encoding="utf-8"))
    assert log["version"] == "2.1.0"
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    assert not list(jsonschema.Draft4Validator(schema).iter_errors(log))
    results = log["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results) == ["LL101", "LL102"]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {"train.py"}
    assert "LL101" in proc.stderr  # --statistics: the counts in the step's log

    proc, outputs = action(output_format="sarif", paths="clean.py", args="--exit-zero")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    log = json.loads((action.workspace / "leaklint.sarif").read_text(encoding="utf-8"))
    assert log["runs"][0]["results"] == []


def test_inputs_are_words_never_code(action):
    (action.workspace / "my data").mkdir()
    (action.workspace / "my data" / "train.py").write_text(LEAKY)
    proc, _ = action(paths="'my data/train.py'\nclean.py", args="--select LL102")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert annotations(proc.stdout) == [("error", "my data/train.py")]

    for hostile in ["$(touch pwned)", "`touch pwned`", "clean.py; touch pwned", "*.py"]:
        proc, _ = action(paths=hostile)
        assert proc.returncode == 2, (hostile, proc.stdout, proc.stderr)  # no such path: a usage error
        assert not (action.workspace / "pwned").exists()
    proc, _ = action(args="--select 'LL1")
    assert proc.returncode == 2 and "not a list of shell words" in proc.stderr

    proc, _ = action(output_format="json")
    assert proc.returncode == 2 and "::error title=leaklint::the output-format input" in proc.stdout


def test_the_workspace_is_never_imported(action):
    """Module names of the linted repository shadow nothing the action runs (python -I)."""
    marker = action.workspace / "imported"
    plant = f"open({str(marker)!r}, 'w').close()\n"
    for name in ("shlex.py", "click.py", "pathspec.py", "leaklint/__init__.py", "leaklint/__main__.py"):
        (action.workspace / name).parent.mkdir(exist_ok=True)
        (action.workspace / name).write_text(plant)
    proc, _ = action(paths="train.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert len(annotations(proc.stdout)) == 2
    assert not marker.exists()
