"""Where a generated template is written, and writing it without ever losing a file."""

from __future__ import annotations

import os
import re
import secrets
import stat
import unicodedata
from pathlib import Path

from oic_ai.stores.errors import UserInputError

_BARE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
MAX_NAME_LENGTH = 128
NAME_FIX = "use letters, digits, '.', '_' and '-' (e.g. edge-gw), with no folder part"
YAML_SUFFIXES = (".yml", ".yaml")


class LibraryNameError(UserInputError):
    """A library name that is not a plain file name: it could leave the library folder."""


def check_library_name(name: object) -> str:
    """``name`` if it is a plain library file name, else one line saying what is wrong.

    A library name has no folder part (a slash or a backslash), no ``..``, no leading dot, no
    control characters, at most 128 characters, and only letters, digits, ``.``, ``_``
    and ``-``.

    Raises:
        LibraryNameError: the name breaks one of those rules.
    """
    if not isinstance(name, str) or not name:
        raise LibraryNameError("the template name is empty", fix=NAME_FIX)
    shown = repr(name[:40] + ("..." if len(name) > 40 else ""))
    problem = None
    if len(name) > MAX_NAME_LENGTH:
        problem = f"is over {MAX_NAME_LENGTH} characters"
    elif any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        problem = "has control characters"
    elif "/" in name or "\\" in name or os.path.isabs(name):
        problem = "has a folder part"
    elif ".." in name:
        problem = "has '..'"
    elif name.startswith("."):
        problem = "starts with a dot"
    elif not _BARE_NAME.match(name):
        problem = "has characters other than letters, digits, '.', '_' and '-'"
    if problem:
        raise LibraryNameError(f"template name {shown} {problem}", fix=NAME_FIX)
    return name


def library_file(name: object, folder: Path) -> Path:
    """The file of library name ``name`` in ``folder`` (``NAME.yml``; a YAML suffix is kept).

    The path lies inside the folder after resolving links, and is not itself a link:
    a write never follows a link out of the library.

    Raises:
        LibraryNameError: not a plain name, or its file is a link or leaves the folder.
    """
    plain = check_library_name(name)
    file = plain if plain.endswith(YAML_SUFFIXES) and plain not in YAML_SUFFIXES else f"{plain}.yml"
    root = Path(folder).resolve()
    path = root / file
    if os.path.islink(path):
        raise LibraryNameError(
            f"{file} in the library is a symbolic link", fix="remove the link, or pick another name"
        )
    if path.resolve().parent != root:
        raise LibraryNameError(f"template name {plain!r} leaves {root}", fix=NAME_FIX)
    return path


def resolve_output(value: str, templates_dir: Path) -> Path:
    """Turn the CLI's ``--output`` (and chat's ``/save``) into a file path.

    A file name (``x.yml``, ``x.yaml``) or any value with a folder part is the user's own
    path, used as given (relative to the working folder, as the composer's ``ai --output``
    does): the command line writes where its user says. A bare name (``edge-gw``) is a
    library name, under :func:`library_file`'s rule: ``edge-gw.yml`` in the templates
    folder, never through a link.

    Raises:
        LibraryNameError: a bare name is not a plain library name, or would leave the folder.
    """
    text = value.strip()
    if not text:
        raise UserInputError("--output is empty", fix="give a file name, e.g. --output edge-gw")
    if os.sep in text or (os.altsep and os.altsep in text):
        return Path(text).expanduser()
    if text.endswith(YAML_SUFFIXES) and text not in YAML_SUFFIXES:
        return Path(text)
    try:
        return library_file(text, templates_dir)  # a library name: the library's rule
    except LibraryNameError as exc:
        raise LibraryNameError(
            f"--output: {exc.problem}", fix=f"{NAME_FIX}; or give a path such as ./{text}.yml"
        ) from None


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a file of ``mode`` is, in words, for anything that is not a regular file."""
    return next((word for test, word in _KINDS if test(mode)), "an unknown kind of file")


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
                f"{path} is a link to {file_kind(info.st_mode)}, not to a regular file",
                fix="give the path of a regular file",
            )
    elif stat.S_ISDIR(info.st_mode):
        raise UserInputError(f"{path} is a folder", fix="give a file name")
    elif not stat.S_ISREG(info.st_mode):
        raise UserInputError(
            f"{path} is {file_kind(info.st_mode)}, not a regular file",
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
