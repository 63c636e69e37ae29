"""Scan a folder of templates into models, surviving whatever else is in there."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.template_model import Template, parse_template
from oic_ai.stores.template_output import file_kind
from oic_ai.stores.yaml_document import YamlSyntaxError

MAX_TEMPLATE_BYTES = 1024 * 1024
TEMPLATE_SUFFIXES = (".yml", ".yaml")


@dataclass(frozen=True)
class SkippedFile:
    """A file the scan could not use, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        """Format as ``path: reason`` for a warning line."""
        return f"{self.path}: {self.reason}"


@dataclass
class TemplateLibrary:
    """Every usable template under ``root``, plus the files that were skipped."""

    root: Path
    templates: list[Template] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)

    @classmethod
    def scan(cls, root: str | Path) -> TemplateLibrary:
        """Read every ``*.yml``/``*.yaml`` below ``root``.

        Bad files (malformed, empty, binary, not UTF-8, over 1 MiB, unreadable, not a
        regular file, not a mapping) and folders that cannot be listed are skipped with a
        reason; symlinked folders are followed once each,
        so a symlink loop cannot hang the scan.
        """
        library = cls(root=Path(root))
        for path in iter_template_files(library.root, library.skipped):
            relative = path.relative_to(library.root).as_posix()
            template_or_reason = load_template_file(path, relative)
            if isinstance(template_or_reason, Template):
                library.templates.append(template_or_reason)
            else:
                library.skipped.append(SkippedFile(relative, template_or_reason))
        return library


class UnreadableFileError(ValueError):
    """A file that cannot be used as text: its reason, and a stable code for findings."""

    def __init__(self, reason: str, code: str) -> None:
        """Keep the reason (``a named pipe (FIFO), not a regular file``) and the code."""
        super().__init__(reason)
        self.reason = reason
        self.code = code


def read_file_bytes(path: str | Path, *, limit: int = MAX_TEMPLATE_BYTES) -> bytes:
    """Read a regular file of at most ``limit`` bytes, refusing everything else up front.

    The type and size are checked before the file is opened, and again on the open
    descriptor, so a named pipe never blocks, a device like ``/dev/zero`` is never read
    and a file that grows meanwhile is cut off at ``limit`` + 1 bytes.

    Raises:
        UnreadableFileError: the path is missing, a dangling symlink, not a regular file,
            over ``limit``, or cannot be read; ``code`` is ``unreadable``,
            ``not-a-file`` or ``too-large``.
    """
    file = os.fspath(path)
    try:
        info = os.stat(file)
    except FileNotFoundError:
        if os.path.islink(file):
            raise UnreadableFileError(
                f"unreadable (a symlink to {os.readlink(file)}, which does not exist)", "unreadable"
            ) from None
        raise UnreadableFileError("unreadable (it does not exist)", "unreadable") from None
    except OSError as exc:
        raise UnreadableFileError(f"unreadable ({exc.strerror or exc})", "unreadable") from None
    _check_regular(info, limit)
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise UnreadableFileError(f"unreadable ({exc.strerror or exc})", "unreadable") from None
    try:
        _check_regular(os.fstat(fd), limit)  # replaced between stat and open
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UnreadableFileError(f"unreadable ({exc.strerror or exc})", "unreadable") from None
    finally:
        os.close(fd)
    if size > limit:
        raise UnreadableFileError(f"grew past {limit} bytes while being read", "too-large")
    return b"".join(chunks)


def read_user_text(
    path: Path,
    what: str,
    *,
    fix: str,
    utf8_fix: str | None = None,
    missing_fix: str | None = None,
    limit: int = MAX_TEMPLATE_BYTES,
) -> str:
    """Read a file the user named (a config, a queries file) as UTF-8 text.

    Args:
        path: The file.
        what: What it is, for the messages ("repository config").
        fix: The fix when it cannot be read.
        utf8_fix: Given, text that is not UTF-8 reads "<what> <path> is not UTF-8 text"
            with this fix; else "cannot read <what> <path> (<error>)" with ``fix``.
        missing_fix: Given, a path that does not exist reads "<what> <path> does not
            exist" with this fix.
        limit: The largest size accepted, in bytes.

    Raises:
        UserInputError: the file cannot be read or is not UTF-8.
    """
    from oic_ai.stores.errors import UserInputError

    try:
        data = read_file_bytes(path, limit=limit)
    except UnreadableFileError as exc:
        if missing_fix is not None and not path.exists() and not path.is_symlink():
            raise UserInputError(f"{what} {path} does not exist", fix=missing_fix) from None
        raise UserInputError(f"cannot read {what} {path}: {exc.reason}", fix=fix) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if utf8_fix is not None:
            raise UserInputError(f"{what} {path} is not UTF-8 text", fix=utf8_fix) from None
        raise UserInputError(f"cannot read {what} {path} ({exc})", fix=fix) from None


def _check_regular(info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFileError(f"{file_kind(info.st_mode)}, not a regular file", "not-a-file")
    if info.st_size > limit:
        raise UnreadableFileError(
            f"too large ({info.st_size} bytes; the limit is {limit})", "too-large"
        )


def utf16_reason(raw: bytes) -> str | None:
    """Name the encoding if ``raw`` looks like UTF-16 text (a BOM, or NUL every other byte).

    UTF-32 with a byte-order mark is named too.

    Returns:
        A reason such as ``UTF-16 text; save it as UTF-8``, or ``None``.
    """
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32 text; save it as UTF-8"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16 text; save it as UTF-8"
    sample = raw[:4096]
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    even, odd = sample[0 : pairs * 2 : 2], sample[1 : pairs * 2 : 2]
    for zeros, text in ((even, odd), (odd, even)):  # big- or little-endian ASCII
        if zeros.count(0) >= pairs * 0.9 and text.count(0) <= pairs * 0.1:
            return "UTF-16 text; save it as UTF-8"
    return None


def text_problem(raw: bytes) -> tuple[str, int | None] | None:
    """Why ``raw`` is not UTF-8 text, with the 1-based line of the problem, or ``None``."""
    utf16 = utf16_reason(raw)
    if utf16 is not None:
        return utf16, None
    if b"\x00" in raw:
        return "binary file (contains NUL bytes)", None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return f"not UTF-8 text (bad byte at offset {exc.start})", line
    return None


def iter_template_files(root: Path, errors: list[SkippedFile] | None = None) -> Iterator[Path]:
    """Yield template files below ``root`` in a stable order, each real folder once.

    Args:
        root: The folder to walk.
        errors: If given, each folder that cannot be listed is appended to it (with its
            path relative to ``root``) instead of being passed over in silence.
    """
    visited: set[tuple[int, int]] = set()

    def unlisted(exc: OSError) -> None:
        if errors is not None:
            where = Path(exc.filename or root)
            try:
                relative = where.relative_to(root).as_posix()
            except ValueError:
                relative = str(where)
            errors.append(SkippedFile(relative, f"cannot list this folder ({exc.strerror or exc})"))

    for folder, dirs, files in os.walk(root, onerror=unlisted, followlinks=True):
        try:
            info = os.stat(folder)
        except OSError as exc:
            unlisted(exc)
            dirs[:] = []
            continue
        key = (info.st_dev, info.st_ino)
        if key in visited:  # a symlink back to a folder already walked
            dirs[:] = []
            continue
        visited.add(key)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(TEMPLATE_SUFFIXES) and not name.startswith("."):
                yield Path(folder) / name


def load_template_file(path: Path, relative: str) -> Template | str:
    """Parse one file, or return the reason it cannot be used."""
    try:
        raw = read_file_bytes(path)
    except UnreadableFileError as exc:
        return exc.reason
    return parse_template_bytes(raw, relative)


class TemplateNotFoundError(UserInputError):
    """No template in the library has the requested name."""


def library_template_text(root: Path, name: str) -> str:
    """The text of the template called ``name`` (its stem or relative path) under ``root``.

    Only files the library lists can be read, so a name cannot reach outside it.

    Raises:
        TemplateNotFoundError: no template has that name.
        UserInputError: the file is not a regular UTF-8 text file of at most 1 MiB.
    """
    for path in iter_template_files(root) if root.is_dir() else ():
        relative = path.relative_to(root).as_posix()
        if name in (path.stem, relative):
            try:
                raw = read_file_bytes(path)
            except UnreadableFileError as exc:
                raise UserInputError(f"{relative}: {exc.reason}", fix="check the file") from None
            problem = text_problem(raw)
            if problem is not None:
                raise UserInputError(f"{relative}: {problem[0]}", fix="save it as UTF-8 text")
            return raw.decode("utf-8")
    raise TemplateNotFoundError(
        f"no template {name!r} in {root}", fix="list them with GET /api/v1/templates"
    )


def parse_template_bytes(raw: bytes, relative: str) -> Template | str:
    """Parse a file's bytes, or return the reason they are not a usable template."""
    if not raw.strip():
        return "empty file"
    problem = text_problem(raw)
    if problem is not None:
        return problem[0]
    try:
        return parse_template(raw, relative)
    except YamlSyntaxError as exc:
        return f"malformed YAML: {exc}"
    except ValueError as exc:
        return f"not a template: {exc}"


def bundled_templates_dir() -> Path:
    """The template library that ships with oic-ai.

    In a wheel it is package data under ``stores/image_templates``; in a checkout it
    is the top-level ``image-templates`` folder.
    """
    here = Path(__file__).resolve().parent
    packaged = here / "image_templates"
    if packaged.is_dir():
        return packaged
    return here.parent / "image-templates"
