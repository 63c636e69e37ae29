"""The library scan survives every kind of bad file and never hangs on symlink loops."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from oic_ai.stores.template_library import (
    MAX_TEMPLATE_BYTES,
    TemplateLibrary,
    bundled_templates_dir,
)

GOOD = (
    "image: {name: good, version: '1'}\n"
    "target: {os: ubuntu, dist: ubuntu24, arch: x86_64, imageType: raw}\n"
)


def _reasons(library: TemplateLibrary) -> dict[str, str]:
    return {s.path: s.reason for s in library.skipped}


def test_bad_files_are_skipped_with_a_reason(tmp_path: Path) -> None:
    (tmp_path / "good.yml").write_text(GOOD)
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "also-good.yaml").write_text(GOOD)
    (tmp_path / "malformed.yml").write_text("image: [unclosed\n")
    (tmp_path / "empty.yml").write_text("  \n")
    (tmp_path / "binary.yml").write_bytes(b"image:\x00\x01\x02")
    (tmp_path / "latin1.yml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    (tmp_path / "huge.yml").write_text("# pad\n" * (MAX_TEMPLATE_BYTES // 6 + 10))
    (tmp_path / "list.yml").write_text("- a\n- b\n")
    (tmp_path / "notes.txt").write_text("not a template at all")
    os.symlink(tmp_path / "gone.yml", tmp_path / "dangling.yml")
    os.mkfifo(tmp_path / "pipe.yml")  # opening a FIFO would block the scan forever

    library = TemplateLibrary.scan(tmp_path)

    assert sorted(t.path for t in library.templates) == ["good.yml", "nested/also-good.yaml"]
    reasons = _reasons(library)
    assert reasons["malformed.yml"].startswith("malformed YAML")
    assert reasons["empty.yml"] == "empty file"
    assert reasons["binary.yml"].startswith("binary file")
    assert reasons["latin1.yml"].startswith("not UTF-8")
    assert reasons["huge.yml"].startswith("too large")
    assert reasons["list.yml"].startswith("not a template")
    assert reasons["dangling.yml"].startswith("unreadable")
    assert reasons["pipe.yml"] == "a named pipe (FIFO), not a regular file"
    assert "notes.txt" not in reasons
    for skipped in library.skipped:
        assert skipped.path in str(skipped) and skipped.reason in str(skipped)


def test_unreadable_file_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "locked.yml").write_text(GOOD)
    (tmp_path / "fine.yml").write_text(GOOD)
    real_open = os.open

    def os_open(path: str, flags: int, *args: int) -> int:
        if Path(path).name == "locked.yml":  # root ignores file modes, so simulate EACCES
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", os_open)
    library = TemplateLibrary.scan(tmp_path)
    assert [t.path for t in library.templates] == ["fine.yml"]
    assert _reasons(library) == {"locked.yml": "unreadable (Permission denied)"}


def test_symlink_loops_do_not_hang_and_linked_folders_are_read_once(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "t.yml").write_text(GOOD)
    os.symlink(tmp_path, tmp_path / "a" / "loop")  # a -> root -> a -> ...
    os.symlink(tmp_path / "a", tmp_path / "alias")
    library = TemplateLibrary.scan(tmp_path)
    assert [t.path for t in library.templates] == ["a/t.yml"]


def test_bundled_library_is_found_in_a_checkout() -> None:
    folder = bundled_templates_dir()
    assert folder.is_dir()
    assert len(list(folder.glob("*.yml"))) >= 36
