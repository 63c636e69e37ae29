"""Every file that cannot be read is reported on its own, and the run goes on.

A dangling symlink, a file over 1 MiB, a file or a folder that cannot be read: each is
one report with one error (as a binary file already was), whether it was named on the
command line or found in a folder. UTF-16 text is named as such, not called binary.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from oic_ai.services.library import template_files, validate_files
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.template_library import (
    MAX_TEMPLATE_BYTES,
    TemplateLibrary,
    load_template_file,
)
from oic_ai.tools.validate_template import FileReport, validate_file
from tests.conftest import OUR_TEMPLATES

GOOD = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text()


def _by_name(reports: list[FileReport]) -> dict[str, FileReport]:
    return {Path(r.path).name: r for r in reports}


def _code(report: FileReport) -> str:
    (error,) = report.errors
    return error.code


def _assert_reports(files: dict[str, FileReport], expected: dict[str, tuple[str, str]]) -> None:
    """Exactly the ``expected`` files: ``good.yml`` valid, each other one error.

    ``expected`` maps a name to its error's code and a text its message holds.
    """
    assert sorted(files) == sorted([*expected, "good.yml"])
    assert files["good.yml"].valid
    for name, (code, text) in expected.items():
        assert _code(files[name]) == code, name
        assert text in files[name].errors[0].message, name


def _good_and_dangling(folder: Path) -> None:
    """A valid ``good.yml`` and a ``dangling.yml`` symlink to a missing file."""
    (folder / "good.yml").write_text(GOOD)
    os.symlink(folder / "gone.yml", folder / "dangling.yml")


def _deny(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make ``name`` unreadable: root ignores file modes, so simulate EACCES on open."""
    real_open = os.open

    def os_open(path: str, flags: int, *args: int) -> int:
        if Path(path).name == name:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", os_open)


def test_a_dangling_symlink_and_a_huge_file_among_arguments_do_not_stop_the_run(
    tmp_path: Path,
) -> None:
    _good_and_dangling(tmp_path)
    (tmp_path / "huge.yml").write_text("# pad\n" * (MAX_TEMPLATE_BYTES // 6 + 10))
    reports = validate_files(
        [tmp_path / "dangling.yml", tmp_path / "huge.yml", tmp_path / "good.yml"]
    )
    assert [Path(r.path).name for r in reports] == ["dangling.yml", "huge.yml", "good.yml"]
    _assert_reports(
        _by_name(reports),
        {
            "dangling.yml": ("unreadable", "gone.yml, which does not exist"),
            "huge.yml": ("too-large", ""),
        },
    )


def test_unreadable_files_in_a_folder_are_reported_not_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _good_and_dangling(tmp_path)
    (tmp_path / "locked.yml").write_text(GOOD)
    _deny(monkeypatch, "locked.yml")
    _assert_reports(
        _by_name(validate_files([tmp_path])),
        {"locked.yml": ("unreadable", "Permission denied"), "dangling.yml": ("unreadable", "")},
    )


def test_a_folder_that_cannot_be_listed_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "good.yml").write_text(GOOD)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "hidden.yml").write_text(GOOD)
    real_scandir = os.scandir

    def scandir(path: str | Path = ".") -> object:
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    reports = validate_files([tmp_path])
    files = {r.path: r for r in reports}
    good = str(tmp_path / "good.yml")
    locked = (tmp_path / "locked").as_posix()
    assert sorted(files) == sorted([good, locked])
    assert files[good].valid
    assert _code(files[locked]) == "unreadable"
    assert "cannot list this folder (Permission denied)" in files[locked].errors[0].message
    library = TemplateLibrary.scan(tmp_path)
    assert [(s.path, s.reason) for s in library.skipped] == [
        ("locked", "cannot list this folder (Permission denied)")
    ]
    with pytest.raises(UserInputError, match="cannot list this folder"):
        template_files([tmp_path])  # packages check: a bad file fails the whole call


def test_a_missing_argument_is_still_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="does not exist"):
        validate_files([tmp_path / "typo.yml"])


def test_validate_file_answers_for_every_kind_of_path(tmp_path: Path) -> None:
    # named pipes and devices would hang a regression: tests/reliability/test_special_files.py
    assert _code(validate_file(tmp_path)) == "not-a-file"
    assert _code(validate_file(tmp_path / "missing.yml")) == "unreadable"


def test_a_file_growing_past_the_limit_while_read_is_cut_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oic_ai.stores.template_library import UnreadableFileError, read_file_bytes

    path = tmp_path / "growing.yml"
    path.write_bytes(b"#" * 100)
    real_stat, real_fstat = os.stat, os.fstat

    def small(info: os.stat_result) -> os.stat_result:  # as it was when it was checked
        return os.stat_result((*info[:6], 10, *info[7:10]))

    monkeypatch.setattr(os, "stat", lambda p, *a, **k: small(real_stat(p, *a, **k)))
    monkeypatch.setattr(os, "fstat", lambda fd: small(real_fstat(fd)))
    with pytest.raises(UnreadableFileError) as caught:
        read_file_bytes(path, limit=50)
    assert caught.value.code == "too-large"
    assert "grew past 50 bytes" in caught.value.reason


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_is_named_with_its_fix_not_called_binary(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "wide.yml"
    path.write_bytes(GOOD.encode(encoding))
    (error,) = validate_file(path).errors
    assert error.code == "not-text"
    assert error.message == "UTF-16 text; save it as UTF-8"
    assert load_template_file(path, "wide.yml") == "UTF-16 text; save it as UTF-8"


def test_real_binary_is_still_binary(tmp_path: Path) -> None:
    path = tmp_path / "blob.yml"
    path.write_bytes(bytes(range(256)) * 4)
    (error,) = validate_file(path).errors
    assert error.code == "not-text" and error.message.startswith("binary file")


def test_utf32_with_a_bom_is_named_too(tmp_path: Path) -> None:
    path = tmp_path / "wider.yml"
    path.write_bytes(GOOD.encode("utf-32"))
    (error,) = validate_file(path).errors
    assert error.message == "UTF-32 text; save it as UTF-8"
