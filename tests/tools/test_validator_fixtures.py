"""Invalid fixtures are rejected with the right code and path; lint fixtures stay valid."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from oic_ai.tools.validate_template import validate_file
from tests.conftest import FIXTURES, OUR_TEMPLATES


def _manifest(folder: Path) -> dict[str, set[tuple[str, str]]]:
    expected: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for raw in (folder / "expected.txt").read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        name, *rest = raw.split()
        expected[name]  # a fixture with no findings still gets an entry
        if rest:
            code, path = rest
            expected[name].add((code, path))
    return dict(expected)


INVALID = _manifest(FIXTURES / "invalid")
LINT = _manifest(FIXTURES / "lint")


def test_manifests_cover_every_fixture_file() -> None:
    for folder, manifest in ((FIXTURES / "invalid", INVALID), (FIXTURES / "lint", LINT)):
        on_disk = {p.name for p in folder.glob("*.yml")}
        assert on_disk == set(manifest), folder
    assert len(INVALID) >= 25


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_fixture_is_rejected_with_the_right_path(name: str) -> None:
    report = validate_file(FIXTURES / "invalid" / name)
    assert not report.valid
    found = {(f.code, f.path) for f in report.errors}
    assert found == INVALID[name], [f.to_json() for f in report.errors]
    for finding in report.errors:
        assert finding.line is not None and finding.line >= 1
        assert finding.message


@pytest.mark.parametrize("name", sorted(LINT))
def test_lint_fixture_is_valid_but_warned(name: str) -> None:
    report = validate_file(FIXTURES / "lint" / name)
    assert report.valid, [f.to_json() for f in report.errors]
    assert {(f.code, f.path) for f in report.warnings} == LINT[name]


def test_yaml_syntax_error_gives_line_and_column() -> None:
    report = validate_file(FIXTURES / "invalid" / "yaml-syntax-error.yml")
    (finding,) = report.errors
    text = (FIXTURES / "invalid" / "yaml-syntax-error.yml").read_text().splitlines()
    assert finding.line is not None and finding.column is not None
    # the parser stops at or just after the unclosed bracket
    assert any("[x86_64" in line for line in text[finding.line - 3 : finding.line])


def test_findings_point_at_the_offending_source_line() -> None:
    path = FIXTURES / "invalid" / "versioned-package-ge.yml"
    (finding,) = validate_file(path).errors
    assert finding.line is not None
    assert "nginx>=1.24" in path.read_text().splitlines()[finding.line - 1]


def test_dist_mismatch_message_names_the_fix() -> None:
    (finding,) = validate_file(FIXTURES / "invalid" / "dist-mismatch-el10.yml").errors
    assert "el10" in finding.message and "el9" in finding.message


def test_a_password_placeholder_is_a_placeholder_not_a_plaintext_password() -> None:
    from oic_ai.tools.validate_template import validate_text

    text = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text()
    # as the agent writes it: the placeholder, and the hash_algo the composer needs for a hash
    data_line = (
        '  users:\n    - name: ops\n      password: "<PASSWORD_HASH>"\n      hash_algo: sha512\n'
    )
    assert "  users:" not in text
    text = text.replace("systemConfig:\n", "systemConfig:\n" + data_line, 1)
    report = validate_text(text)
    codes = [w.code for w in report.warnings]
    assert report.valid and codes == ["placeholder-value"]
    plain = validate_text(text.replace('"<PASSWORD_HASH>"', "hunter2"))
    assert [w.code for w in plain.warnings] == ["plaintext-password"]
