"""Writing ``--output``: only regular files are replaced, and modes are kept (issue 12, item 2).

The command-line side (refused before the turn runs) is in
``tests/reliability/test_cli_requests.py``.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.template_output import write_template

TEXT = "image:\n  name: edge\n"


@pytest.fixture
def umask() -> Iterator[None]:
    """Run the test under umask 022, then put the old one back."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


# --- item 2: only regular files are replaced ------------------------------------------------


def test_force_never_replaces_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yml"
    os.mkfifo(fifo)
    with pytest.raises(UserInputError, match="FIFO.*not a regular file"):
        write_template(fifo, TEXT, force=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.yml"]  # no temp file left


def test_force_never_replaces_a_socket(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        with pytest.raises(UserInputError, match="socket"):
            write_template(path, TEXT, force=True)
        assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_force_never_replaces_a_device_node(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    node = tmp_path / "null.yml"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # what /dev/null is
    except PermissionError:
        pytest.skip("this container may not make device nodes")
    with pytest.raises(UserInputError, match="character device, not a regular file"):
        write_template(node, TEXT, force=True)
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_link_to_a_regular_file_is_replaced_not_followed(tmp_path: Path) -> None:
    real = tmp_path / "real.yml"
    real.write_text("old\n")
    link = tmp_path / "link.yml"
    link.symlink_to(real)
    write_template(link, TEXT, force=True)
    assert not link.is_symlink() and link.read_text() == TEXT
    assert real.read_text() == "old\n"


def test_a_link_to_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    link = tmp_path / "link.yml"
    link.symlink_to(tmp_path / "folder")
    with pytest.raises(UserInputError, match="link to a folder"):
        write_template(link, TEXT, force=True)
    assert link.is_symlink()


@pytest.mark.usefixtures("umask")
def test_a_new_file_honours_the_umask(tmp_path: Path) -> None:
    write_template(tmp_path / "new.yml", TEXT)
    assert stat.S_IMODE(os.stat(tmp_path / "new.yml").st_mode) == 0o644
    os.umask(0o077)
    write_template(tmp_path / "private.yml", TEXT)
    assert stat.S_IMODE(os.stat(tmp_path / "private.yml").st_mode) == 0o600


@pytest.mark.usefixtures("umask")
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o664])
def test_an_overwritten_file_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "t.yml"
    path.write_text("old\n")
    path.chmod(mode)
    write_template(path, TEXT, force=True)
    assert path.read_text() == TEXT
    assert stat.S_IMODE(os.stat(path).st_mode) == mode
