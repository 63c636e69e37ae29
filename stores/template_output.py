"""Where a generated template is written, and writing it without ever losing a file."""

from __future__ import annotations

import os
import re
import secrets
import stat
from pathlib import Path

from oic_ai.stores.errors import UserInputError

_BARE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def resolve_output(value: str, templates_dir: Path) -> Path:
    """Turn ``--output`` into a file path.

    A file name (``x.yml``, ``x.yaml``) or any value with a folder part is a path, used as
    given (relative to the working folder, as the composer's ``ai --output`` does). A bare
    name (``edge-gw``) is a template name: it goes into the templates folder as
    ``edge-gw.yml``.

    Raises:
        UserInputError: a bare name is not a plain file name, or would leave the folder.
    """
    text = value.strip()
    if not text:
        raise UserInputError("--output is empty", fix="give a file name, e.g. --output edge-gw")
    if os.sep in text or (os.altsep and os.altsep in text):
        return Path(text).expanduser()
    if text.endswith((".yml", ".yaml")) and text not in (".yml", ".yaml"):
        return Path(text)
    if not _BARE_NAME.match(text) or ".." in text:
        raise UserInputError(
            f"--output {value!r} is not a plain template name",
            fix="use letters, digits, '.', '_' and '-' (e.g. edge-gw), or give a path",
        )
    name = f"{text}.yml"
    folder = templates_dir.resolve()
    path = (folder / name).resolve()
    if path.parent != folder:
        raise UserInputError(f"--output {value!r} escapes {folder}", fix="use a plain name")
    return path


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, in words, for anything that is not a regular file."""
    return next((word for test, word in _KINDS if test(mode)), "not a regular file")


def check_target(path: Path, *, force: bool = False) -> int | None:
    """Check that ``path`` may be written, and return the mode an overwritten file keeps.

    Only a regular file, or a symbolic link to one, may be replaced (with ``force``); the
    link itself is replaced, never what it points to. A folder, device, FIFO or socket is
    refused whether or not ``force`` is given.

    Returns:
        The permission bits of the file being replaced, or None when there is none.

    Raises:
        UserInputError: ``path`` is not a regular file, or exists and ``force`` is False.
    """
    info: os.stat_result | None
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UserInputError(
            f"cannot write {path} ({exc.strerror or exc})", fix="check the path"
        ) from None
    if stat.S_ISLNK(info.st_mode):
        try:
            info = os.stat(path)
        except OSError:  # a dangling link: replacing it loses nothing
            info = None
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise UserInputError(
                f"{path} is a link to {_kind(info.st_mode)}, not to a regular file",
                fix="give the path of a regular file",
            )
    elif stat.S_ISDIR(info.st_mode):
        raise UserInputError(f"{path} is a folder", fix="give a file name")
    elif not stat.S_ISREG(info.st_mode):
        raise UserInputError(
            f"{path} is {_kind(info.st_mode)}, not a regular file",
            fix="give the path of a regular file",
        )
    if not force:
        raise UserInputError(f"{path} already exists", fix="pass --force to replace it")
    return stat.S_IMODE(info.st_mode) if info is not None else None


def _create_temp(folder: Path, name: str) -> tuple[int, str]:
    """A new temporary file beside ``name``, created 0666 so that the umask applies."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = str(folder / f".{name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue


def write_template(path: Path, text: str, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` atomically; never replace an existing file unless ``force``.

    The text goes to a temporary file in the same folder first, so a crash leaves either the
    old file or the new one, never half of one. A new file gets the umask's permissions; a
    replaced file keeps its own. Only regular files (or links to them, which are replaced
    rather than followed) are ever replaced: see :func:`check_target`.

    Raises:
        UserInputError: the file exists (without ``force``), is not a regular file, or
            cannot be written.
    """
    mode = check_target(path, force=force)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _create_temp(path.parent, path.name)
    except OSError as exc:
        raise UserInputError(
            f"cannot write {path} ({exc.strerror or exc})", fix="check the folder"
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        if force:
            check_target(path, force=True)  # it may have changed while the turn ran
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails if the file appeared meanwhile: no clobbering
            except FileExistsError:
                raise UserInputError(
                    f"{path} already exists", fix="pass --force to replace it"
                ) from None
            except OSError:
                if os.path.lexists(path):
                    raise UserInputError(
                        f"{path} already exists", fix="pass --force to replace it"
                    ) from None
                os.replace(tmp, path)  # filesystems without hard links
    except OSError as exc:
        raise UserInputError(
            f"cannot write {path} ({exc.strerror or exc})", fix="check the folder"
        ) from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
