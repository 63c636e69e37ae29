"""``generate --output``: what may be replaced, the modes files get, and bad requests.

Issue 12, items 2, 13 and 16b. The refusals here happen before the turn runs, so each
command is one short process.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_store import sessions_db_path
from oic_ai.stores.template_output import write_template
from tests.support.cli import cli_env, oic, one_line_error

TEXT = "image:\n  name: edge\n"


@pytest.fixture
def umask() -> Iterator[None]:
    """Run the test under umask 022, then put the old one back."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _generate(tmp_path: Path, *args: str) -> str:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    return one_line_error(oic("generate", *args, env=env, cwd=tmp_path))


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


def test_generate_refuses_a_fifo_output_before_the_turn(tmp_path: Path) -> None:
    fifo = tmp_path / "out.yml"
    os.mkfifo(fifo)
    line = _generate(tmp_path, "add htop", "--output", str(fifo), "--force")
    assert "FIFO" in line and "not a regular file" in line
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# --- item 16b: a folder is called a folder at once -------------------------------------------


@pytest.mark.parametrize("force", [False, True])
def test_output_onto_a_folder_says_folder_at_once(tmp_path: Path, force: bool) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    line = _generate(tmp_path, "add htop", "--output", str(folder), *(["--force"] * force))
    assert "is a folder" in line and "already exists" not in line


# --- item 13: an empty request or session id is a usage error -------------------------------


@pytest.mark.parametrize("request_text", ["", "   ", "\t\n"])
def test_an_empty_request_is_a_usage_error(tmp_path: Path, request_text: str) -> None:
    line = _generate(tmp_path, request_text)
    assert "request is empty" in line
    assert not sessions_db_path(tmp_path / "data").exists()


@pytest.mark.parametrize("session", ["", "  "])
def test_an_empty_session_id_is_a_usage_error(tmp_path: Path, session: str) -> None:
    line = _generate(tmp_path, "add htop", "--session", session)
    assert "--session is empty" in line


def test_chat_refuses_an_empty_session_id(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", OIC_AI_PROVIDER="builtin")
    line = one_line_error(oic("chat", "--session", "", env=env, cwd=tmp_path, stdin=""))
    assert "--session is empty" in line
