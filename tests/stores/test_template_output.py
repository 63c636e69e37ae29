"""--output: where a template goes, and that writing it never loses a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.template_output import LibraryNameError, resolve_output, write_template


def test_a_bare_name_goes_into_the_templates_folder(tmp_path: Path) -> None:
    assert resolve_output("edge-gw", tmp_path) == (tmp_path / "edge-gw.yml").resolve()


def test_a_file_name_is_a_path_in_the_working_folder_as_upstream(tmp_path: Path) -> None:
    assert resolve_output("edge.yaml", tmp_path) == Path("edge.yaml")
    assert resolve_output("x.yml", tmp_path) == Path("x.yml")


def test_a_path_is_used_as_given(tmp_path: Path) -> None:
    assert resolve_output(str(tmp_path / "x" / "t.yml"), Path("lib")) == tmp_path / "x" / "t.yml"


@pytest.mark.parametrize("name", ["..", ".hidden", "a..b", "bad name", "", "-rf", "x;rm"])
def test_names_that_could_escape_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(UserInputError):
        resolve_output(name, tmp_path)


def test_write_creates_and_never_clobbers_without_force(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "t.yml"
    write_template(target, "image: {}\n")
    assert target.read_text() == "image: {}\n"
    with pytest.raises(UserInputError, match="already exists.*--force"):
        write_template(target, "other\n")
    assert target.read_text() == "image: {}\n"
    write_template(target, "other\n", force=True)
    assert target.read_text() == "other\n"
    assert [p.name for p in target.parent.iterdir()] == ["t.yml"]  # no temp files left


def test_writing_onto_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="is a folder"):
        write_template(tmp_path, "x", force=True)


def test_an_unwritable_folder_is_a_clear_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        import os

        if os.access(locked, os.W_OK):
            pytest.skip("running as root: permissions are not enforced")
        with pytest.raises(UserInputError, match="cannot write"):
            write_template(locked / "t.yml", "x")
    finally:
        locked.chmod(0o700)


def test_a_bare_output_name_follows_the_library_rule(tmp_path: Path) -> None:
    library = tmp_path / "image-templates"
    library.mkdir()
    outside = tmp_path / "outside.yml"
    outside.write_text("kept\n")
    (library / "linked.yml").symlink_to(outside)
    for name in ("linked", ".hidden", "a\tb", "x" * 129):
        with pytest.raises(LibraryNameError) as refused:
            resolve_output(name, library)
        assert "--output" in str(refused.value)
    assert resolve_output("edge-gw", library) == library.resolve() / "edge-gw.yml"
    # the documented user paths of the command line stay paths
    assert resolve_output("file.yml", library) == Path("file.yml")
    assert resolve_output("sub/file.yml", library) == Path("sub/file.yml")
