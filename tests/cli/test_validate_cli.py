"""``oic-ai validate`` as a user runs it: exit codes, JSON contract, one-line errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.conftest import FIXTURES, OUR_TEMPLATES
from tests.support.cli import oic


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return oic(*args, cwd=cwd, timeout=120)


def test_valid_files_exit_zero_and_group_findings_by_file() -> None:
    lint = FIXTURES / "lint" / "plaintext-password.yml"
    result = run("validate", str(OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"), str(lint))
    assert result.returncode == 0, result.stderr
    assert "plaintext-password.yml: valid (1 warning)" in result.stdout
    assert "[plaintext-password]" in result.stdout
    assert "Checked 2 files: 2 valid, 0 invalid, 1 warning." in result.stdout


def test_an_invalid_file_makes_exit_one() -> None:
    bad = FIXTURES / "invalid" / "dist-mismatch-ubuntu.yml"
    result = run("validate", str(OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"), str(bad))
    assert result.returncode == 1
    assert "dist-mismatch-ubuntu.yml: invalid (1 error)" in result.stdout
    assert "$.target.dist" in result.stdout and "line 6" in result.stdout


def test_json_output_follows_the_contract() -> None:
    bad = FIXTURES / "invalid" / "overlapping-partitions.yml"
    warned = FIXTURES / "lint" / "http-repository.yml"
    result = run("validate", "--json", str(bad), str(warned))
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    first, second = payload["files"]
    assert set(first) == {"path", "valid", "errors", "warnings"}
    assert first["valid"] is False and second["valid"] is True
    (error,) = first["errors"]
    assert {"path", "line", "message", "code"} <= set(error)
    assert error["code"] == "partition-overlap" and error["path"] == "$.disk.partitions[1].start"
    assert [w["code"] for w in second["warnings"]] == ["insecure-http", "insecure-http"]


def test_a_folder_is_expanded_to_its_templates() -> None:
    result = run("validate", "--json", str(FIXTURES / "lint"))
    assert result.returncode == 0
    assert len(json.loads(result.stdout)["files"]) == len(list((FIXTURES / "lint").glob("*.yml")))


def test_schema_flag_uses_the_upstream_user_template(reference_schema: Path) -> None:
    # upstream has no el10 pair rule, so this file passes there and fails with ours
    el9 = str(FIXTURES / "invalid" / "dist-mismatch-el10.yml")
    assert run("validate", el9).returncode == 1
    result = run("validate", "--json", "--schema", str(reference_schema), el9)
    assert result.returncode == 0, result.stdout


def test_missing_file_is_one_line_exit_two_and_no_traceback() -> None:
    result = run("validate", "does-not-exist.yml")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == "oic-ai: does-not-exist.yml does not exist; check the path"


def test_bad_schema_file_is_exit_two(tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text("{not json")
    result = run(
        "validate", "--schema", str(schema), str(OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml")
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "is not JSON" in result.stderr and "Traceback" not in result.stderr


def test_usage_errors_are_one_line_exit_two() -> None:
    for args in (("validate",), ("no-such-command",), ()):
        result = run(*args)
        assert result.returncode == 2, args
        assert "Traceback" not in result.stderr
    assert len(run("validate").stderr.strip().splitlines()) == 1
