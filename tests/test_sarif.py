"""SARIF 2.1.0: valid against the official schema, and what GitHub code scanning reads."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from leaklint.ruleset import all_rules  # noqa: E402
from snippets import LEAKY  # noqa: E402

# The OASIS schema (sarif-schema-2.1.0.json, errata01), shipped unchanged.
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def leaklint(*args, cwd=None):
    exe = Path(sys.executable).parent / "leaklint"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "leaklint"]
    return subprocess.run(command + ["--no-cache", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def sarif(*args, cwd):
    proc = leaklint("--output-format", "sarif", *args, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def validate(log) -> None:
    validator = jsonschema.Draft4Validator(SCHEMA)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def git_repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


@pytest.fixture()
def repo(tmp_path):
    root = git_repo(tmp_path / "repo")
    (root / "src" / "models").mkdir(parents=True)
    (root / "src" / "models" / "train model.py").write_text(LEAKY)
    (root / "src" / "broken.py").write_text("from sklearn.model_selection import train_test_split\ndef f(:\n")
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# nb"]},
            {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
             "source": LEAKY.splitlines(keepends=True)},
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / "src" / "explore.ipynb").write_text(json.dumps(notebook, indent=1))
    return root


def test_schema_file_is_the_official_one():
    assert SCHEMA["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-04/schema#"
    jsonschema.Draft4Validator.check_schema(SCHEMA)


def test_the_validator_catches_mistakes():
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {}}, "results": []}]}  # driver without name
    assert list(jsonschema.Draft4Validator(SCHEMA).iter_errors(broken))


def test_valid_against_the_schema(repo):
    log = sarif(".", cwd=repo)
    validate(log)
    assert len(log["runs"][0]["results"]) == 5  # 2 in the script, 2 in the notebook, 1 LL000


def test_valid_with_no_results(tmp_path):
    (tmp_path / "clean.py").write_text("print('hello')\n")
    log = sarif(".", cwd=tmp_path)
    validate(log)
    assert log["runs"][0]["results"] == []


def test_what_github_code_scanning_reads(repo):
    log = sarif(".", cwd=repo)
    assert log["$schema"] and log["version"] == "2.1.0" and len(log["runs"]) == 1
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "leaklint" and driver["version"] and driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [r.code for r in all_rules()] + ["LL000"]
    for descriptor, rule in zip(rules, all_rules()):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["fullDescription"]["text"] == rule.doc
        assert "## What it does" in descriptor["help"]["markdown"] and descriptor["help"]["text"]
        assert descriptor["defaultConfiguration"]["level"] == rule.severity
    assert rules[-1]["defaultConfiguration"]["level"] == "warning"  # LL000
    for result in log["runs"][0]["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == rules[result["ruleIndex"]]["defaultConfiguration"]["level"]
        assert result["message"]["text"]
        (location,) = result["locations"]
        uri = location["physicalLocation"]["artifactLocation"]["uri"]
        assert not uri.startswith(("/", "file:")) and "\\" not in uri and " " not in uri
        region = location["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region.get("startColumn", 1) >= 1
        if result["ruleId"] != "LL000":
            assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(region)
            assert result["relatedLocations"], result


def test_repo_relative_uris_from_a_subdirectory(repo):
    log = sarif(".", cwd=repo / "src")
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"] for loc in r["locations"]}
    assert uris == {"src/models/train%20model.py", "src/explore.ipynb", "src/broken.py"}
    run = log["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == (repo.resolve().as_uri() + "/")
    assert all(loc["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
               for r in run["results"] for loc in r["locations"])


def test_script_result_region_and_related_location(repo):
    log = sarif("src/models", cwd=repo)
    first, second = log["runs"][0]["results"]
    assert (first["ruleId"], first["level"]) == ("LL101", "warning")  # an unsupervised scaler
    assert (second["ruleId"], second["level"]) == ("LL102", "error")  # supervised selection
    assert first["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 9, "startColumn": 5, "endLine": 9, "endColumn": 38}
    (related,) = first["relatedLocations"]
    assert related["physicalLocation"]["region"]["startLine"] == 11
    assert related["physicalLocation"]["artifactLocation"]["uri"] == "src/models/train%20model.py"
    assert re.search(r"cross-validated by cross_val_score at line 11", related["message"]["text"])


def test_notebook_region_points_at_the_source_line_in_the_json(repo):
    log = sarif("src/explore.ipynb", cwd=repo)
    path = repo / "src" / "explore.ipynb"
    lines = path.read_text().splitlines()
    for result in log["runs"][0]["results"]:
        region = result["locations"][0]["physicalLocation"]["region"]
        physical = lines[region["startLine"] - 1]
        cell_line = result["properties"]["cellLine"]
        assert result["properties"]["notebookCell"] == 2
        assert json.loads(physical.strip().rstrip(",")) == LEAKY.splitlines(keepends=True)[cell_line - 1]
        assert result["message"]["text"].startswith(f"cell 2, line {cell_line}: ")


def test_sarif_written_with_output_file(repo):
    proc = leaklint("--output-format", "sarif", "-o", "out/leaklint.sarif", ".", cwd=repo)
    assert proc.returncode == 1 and proc.stdout == ""
    validate(json.loads((repo / "out" / "leaklint.sarif").read_text()))
