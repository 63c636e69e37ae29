"""Readers for distribution package indexes: Debian ``Packages`` and RPM ``repodata``.

Both produce :class:`PackageRecord` values. Compressed input (gzip, xz, zstd, bzip2)
is recognised by its magic bytes, not its file name.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO

from oic_ai.stores.errors import UserInputError

# Provides that can stand in for a package name; RPM's "libc.so.6()(64bit)",
# "config(foo)" and file paths are dropped.
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+_.:~-]*$")

_GZIP = b"\x1f\x8b"
_XZ = b"\xfd7zXZ\x00"
_ZSTD = b"\x28\xb5\x2f\xfd"
_BZIP2 = b"BZh"


class IndexFormatError(UserInputError):
    """An index file that cannot be read as the format it claims to be."""


@dataclass(frozen=True, slots=True)
class PackageRecord:
    """One binary package as an index lists it.

    Attributes:
        name: The package name.
        version: The full version (``epoch:version-release`` for RPM).
        arch: The package architecture as the index writes it (``amd64``, ``noarch``).
        provides: Virtual names this package provides (versions stripped).
    """

    name: str
    version: str
    arch: str
    provides: tuple[str, ...] = ()


def compression_of(data: bytes) -> str:
    """Return ``gzip``, ``xz``, ``zstd``, ``bzip2`` or ``none`` from the magic bytes."""
    if data.startswith(_GZIP):
        return "gzip"
    if data.startswith(_XZ):
        return "xz"
    if data.startswith(_ZSTD):
        return "zstd"
    if data.startswith(_BZIP2):
        return "bzip2"
    return "none"


def decompress(data: bytes, source: str = "index") -> bytes:
    """Return ``data`` uncompressed, whatever of gzip/xz/zstd/bzip2 it uses.

    Raises:
        IndexFormatError: the data is damaged, or zstd is needed and the
            ``zstandard`` module is not installed.
    """
    kind = compression_of(data)
    try:
        if kind == "gzip":
            return gzip.decompress(data)
        if kind == "xz":
            return lzma.decompress(data)
        if kind == "bzip2":
            return bz2.decompress(data)
        if kind == "zstd":
            return _unzstd(data, source)
    except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
        raise IndexFormatError(
            f"{source} is a damaged {kind} file ({exc})", fix="download it again"
        ) from None
    return data


def _unzstd(data: bytes, source: str) -> bytes:
    try:
        import zstandard
    except ImportError:
        raise IndexFormatError(
            f"{source} is zstd-compressed and the zstandard module is not installed",
            fix="install it into oic-ai's environment (pip install zstandard) or "
            "decompress the file with 'unzstd' first",
        ) from None
    try:
        with zstandard.ZstdDecompressor().stream_reader(BytesIO(data)) as reader:
            return reader.read()
    except zstandard.ZstdError as exc:
        raise ValueError(str(exc)) from None


def _names_from_relation(field: str) -> tuple[str, ...]:
    """``"a (= 1), b:any, c"`` -> ``("a", "b", "c")``."""
    names = []
    for part in field.split(","):
        name = part.strip().split(" ", 1)[0].split("(", 1)[0].split(":", 1)[0]
        if name:
            names.append(name)
    return tuple(names)


def parse_deb_packages(data: bytes, source: str = "Packages") -> Iterator[PackageRecord]:
    """Yield the packages of a Debian ``Packages`` file (plain or compressed).

    Only ``Package``, ``Version``, ``Architecture`` and ``Provides`` are read;
    continuation lines and every other field are skipped.

    Raises:
        IndexFormatError: the data is not a Packages file.
    """
    text = decompress(data, source).decode("utf-8", errors="replace")
    if text.strip() and "Package:" not in text[:65536]:
        raise IndexFormatError(
            f"{source} is not a Debian Packages index (no 'Package:' field)",
            fix="pass a Packages, Packages.gz or Packages.xz file",
        )
    name = version = arch = ""
    provides: tuple[str, ...] = ()
    for line in text.splitlines():
        if not line:
            if name:
                yield PackageRecord(name, version, arch, provides)
            name = version = arch = ""
            provides = ()
            continue
        first = line[0]
        if first in " \t#":
            continue
        if first == "P":
            if line.startswith("Package:"):
                name = line[8:].strip()
            elif line.startswith("Provides:"):
                provides = _names_from_relation(line[9:])
        elif first == "V" and line.startswith("Version:"):
            version = line[8:].strip()
        elif first == "A" and line.startswith("Architecture:"):
            arch = line[13:].strip()
    if name:
        yield PackageRecord(name, version, arch, provides)


_RPM_COMMON = "{http://linux.duke.edu/metadata/common}"
_RPM = "{http://linux.duke.edu/metadata/rpm}"
_REPO = "{http://linux.duke.edu/metadata/repo}"


def primary_location(repomd: bytes, source: str = "repomd.xml") -> str:
    """Return the ``href`` of the ``primary`` metadata named in ``repomd.xml``.

    Raises:
        IndexFormatError: the file is not repomd XML or lists no primary data.
    """
    try:
        root = ET.fromstring(decompress(repomd, source))
    except ET.ParseError as exc:
        raise IndexFormatError(f"{source} is not valid XML ({exc})", fix="check the URL") from None
    for data in root.iter(f"{_REPO}data"):
        if data.get("type") == "primary":
            location = data.find(f"{_REPO}location")
            if location is not None and location.get("href"):
                return str(location.get("href"))
    raise IndexFormatError(
        f"{source} does not name a primary metadata file",
        fix="point at an RPM repository (the folder that holds repodata/)",
    )


def parse_rpm_primary(data: bytes, source: str = "primary.xml") -> Iterator[PackageRecord]:
    """Yield the packages of an RPM ``primary.xml`` (plain, .gz, .xz or .zst).

    Raises:
        IndexFormatError: the data is not primary.xml.
    """
    raw = decompress(data, source)
    if b"<metadata" not in raw[:4096]:
        raise IndexFormatError(
            f"{source} is not RPM primary metadata (no <metadata> element)",
            fix="pass repodata/*-primary.xml(.gz|.zst) or the repository folder",
        )
    try:
        for _event, element in ET.iterparse(BytesIO(raw), events=("end",)):
            if element.tag != f"{_RPM_COMMON}package":
                continue
            if element.get("type", "rpm") == "rpm":
                yield _rpm_record(element)
            element.clear()
    except ET.ParseError as exc:
        raise IndexFormatError(
            f"{source} is not valid XML ({exc})", fix="download it again"
        ) from None


def _rpm_record(element: ET.Element) -> PackageRecord:
    name = element.findtext(f"{_RPM_COMMON}name", "").strip()
    arch = element.findtext(f"{_RPM_COMMON}arch", "").strip()
    version_element = element.find(f"{_RPM_COMMON}version")
    version = ""
    if version_element is not None:
        epoch = version_element.get("epoch", "0")
        ver = version_element.get("ver", "")
        rel = version_element.get("rel", "")
        version = f"{ver}-{rel}" if rel else ver
        if epoch not in ("", "0"):
            version = f"{epoch}:{version}"
    provides: list[str] = []
    entries = element.find(f"{_RPM_COMMON}format/{_RPM}provides")
    if entries is not None:
        for entry in entries.iter(f"{_RPM}entry"):
            provided = entry.get("name", "")
            if provided != name and _NAME.match(provided) and provided not in provides:
                provides.append(provided)
    return PackageRecord(name, version, arch, tuple(provides))
