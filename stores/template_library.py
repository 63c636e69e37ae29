"""Scan a folder of templates into models, surviving whatever else is in there."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from oic_ai.stores.template_model import Template, parse_template
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
        mapping) are skipped with a reason; symlinked folders are followed once each,
        so a symlink loop cannot hang the scan.
        """
        library = cls(root=Path(root))
        for path in iter_template_files(library.root):
            relative = path.relative_to(library.root).as_posix()
            template_or_reason = read_template(path, relative)
            if isinstance(template_or_reason, Template):
                library.templates.append(template_or_reason)
            else:
                library.skipped.append(SkippedFile(relative, template_or_reason))
        return library


def iter_template_files(root: Path) -> Iterator[Path]:
    """Yield template files below ``root`` in a stable order, each real folder once."""
    visited: set[tuple[int, int]] = set()
    for folder, dirs, files in os.walk(root, followlinks=True):
        try:
            info = os.stat(folder)
        except OSError:
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


def read_template(path: Path, relative: str) -> Template | str:
    """Parse one file, or return the reason it cannot be used."""
    try:
        info = path.stat()
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > MAX_TEMPLATE_BYTES:
        return f"too large ({info.st_size} bytes; the limit is {MAX_TEMPLATE_BYTES})"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if not raw.strip():
        return "empty file"
    if b"\x00" in raw:
        return "binary file (contains NUL bytes)"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (bad byte at offset {exc.start})"
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
