"""Where a generated template is written, and writing it without ever losing a file."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from oic_ai.stores.errors import UserInputError

_BARE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def resolve_output(value: str, templates_dir: Path) -> Path:
    """Turn ``--output`` into a file path.

    A bare name (no folder part) goes into the templates folder with ``.yml`` added when it
    has no YAML suffix; a value with a folder part is used as given.

    Raises:
        UserInputError: a bare name is not a plain file name, or would leave the folder.
    """
    text = value.strip()
    if not text:
        raise UserInputError("--output is empty", fix="give a file name, e.g. --output edge-gw")
    if os.sep in text or (os.altsep and os.altsep in text):
        return Path(text).expanduser()
    if not _BARE_NAME.match(text) or ".." in text:
        raise UserInputError(
            f"--output {value!r} is not a plain template name",
            fix="use letters, digits, '.', '_' and '-' (e.g. edge-gw), or give a path",
        )
    name = text if text.endswith((".yml", ".yaml")) else f"{text}.yml"
    folder = templates_dir.resolve()
    path = (folder / name).resolve()
    if path.parent != folder:
        raise UserInputError(f"--output {value!r} escapes {folder}", fix="use a plain name")
    return path


def write_template(path: Path, text: str, *, force: bool = False) -> None:
    """Write ``text`` to ``path`` atomically; never replace an existing file unless ``force``.

    The text goes to a temporary file in the same folder first, so a crash leaves either the
    old file or the new one, never half of one.

    Raises:
        UserInputError: the file exists (without ``force``) or cannot be written.
    """
    if path.is_dir():
        raise UserInputError(f"{path} is a folder", fix="give a file name")
    if path.exists() and not force:
        raise UserInputError(f"{path} already exists", fix="pass --force to replace it")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise UserInputError(
            f"cannot write {path} ({exc.strerror or exc})", fix="check the folder"
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)  # fails if the file appeared meanwhile: no clobbering
            except FileExistsError:
                raise UserInputError(
                    f"{path} already exists", fix="pass --force to replace it"
                ) from None
            except OSError:
                if path.exists():
                    raise UserInputError(
                        f"{path} already exists", fix="pass --force to replace it"
                    ) from None
                os.replace(tmp, path)  # filesystems without hard links
    except OSError as exc:
        raise UserInputError(
            f"cannot write {path} ({exc.strerror or exc})", fix="check the folder"
        ) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
