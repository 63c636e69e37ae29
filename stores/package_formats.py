"""Readers for distribution package indexes: Debian ``Packages`` and RPM ``repodata``.

Both produce :class:`PackageRecord` values. Compressed input (gzip, xz, zstd, bzip2)
is recognised by its magic bytes, not its file name. Input is decompressed and parsed as a
stream, and refused once it inflates past a limit (:data:`DEFAULT_MAX_INDEX_BYTES`), so a
small compression bomb cannot exhaust memory.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any, Protocol, cast

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
        depends: What it needs installed (Debian ``Pre-Depends`` and ``Depends``, RPM
            ``requires``), one entry per relation, alternatives joined by ``|``
            (``"apache2|apache2-bin"``), versions and arch qualifiers stripped.
    """

    name: str
    version: str
    arch: str
    provides: tuple[str, ...] = ()
    depends: tuple[str, ...] = ()


class IndexTooLargeError(IndexFormatError):
    """An index (or the download of one) larger than the configured limit."""

    @classmethod
    def for_limit(cls, source: str, limit: int, verb: str = "inflates to") -> IndexTooLargeError:
        """The one-line refusal for ``source`` past ``limit`` bytes."""
        return cls(
            f"{source} {verb} more than {limit / MIB:g} MiB, the limit for one package "
            "index (ai.packages.max_index_mb)",
            fix="check the repository URL, or raise ai.packages.max_index_mb if the index "
            "is really that big",
        )


MIB = 1 << 20
DEFAULT_MAX_INDEX_BYTES = 512 * MIB
"""Largest index accepted after decompression (Debian main is about 70 MB)."""
_READ = 1 << 16
_MAX_LINE = 1 << 20

Source = bytes | IO[bytes]
"""An index as bytes or as a binary file object (read from its current position)."""


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...

    def close(self) -> None: ...


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


class _Capped(io.RawIOBase):
    """A reader over a decompressing stream that counts what it yields.

    Past ``limit`` bytes it raises :class:`IndexTooLargeError`; a damaged stream raises
    :class:`IndexFormatError`. Nothing is held beyond the caller's buffer.
    """

    def __init__(
        self, inner: _Readable, kind: str, source: str, limit: int | None, *, owned: bool
    ) -> None:
        self._inner = inner
        self._owned = owned
        self._kind = kind
        self._source = source
        self._limit = limit
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        try:
            data = self._inner.read(len(view))
        except _DAMAGE as exc:
            raise _damaged(self._source, self._kind, exc) from None
        except Exception as exc:  # zstandard.ZstdError is not importable without the module
            if type(exc).__name__ != "ZstdError":
                raise
            raise _damaged(self._source, self._kind, exc) from None
        size = len(data)
        self.count += size
        if self._limit is not None and self.count > self._limit:
            raise IndexTooLargeError.for_limit(self._source, self._limit)
        view[:size] = data
        return size

    def close(self) -> None:
        try:
            if self._owned:  # a decompressor; the caller's own stream stays open
                self._inner.close()
        finally:
            super().close()


_DAMAGE = (OSError, EOFError, lzma.LZMAError, ValueError, zlib.error)


def _damaged(source: str, kind: str, exc: BaseException) -> IndexFormatError:
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return IndexFormatError(
        f"{source} is a damaged {kind} file ({reason})", fix="download it again"
    )


def open_index(
    data: Source, source: str = "index", limit: int | None = DEFAULT_MAX_INDEX_BYTES
) -> io.BufferedReader:
    """Open an index for reading, decompressed on the fly, whatever it is compressed with.

    Args:
        data: The index as bytes or a binary file object.
        source: The name used in error messages.
        limit: The most bytes it may inflate to (None: no limit).

    Raises:
        IndexFormatError: zstd is needed and the ``zstandard`` module is not installed;
            reading raises it for damaged data, and :class:`IndexTooLargeError` past
            ``limit``.
    """
    raw: IO[bytes] = io.BytesIO(data) if isinstance(data, bytes) else data
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(_Plain(raw))
    kind = compression_of(buffered.peek(8)[:8])
    inner: _Readable
    if kind == "gzip":
        inner = gzip.GzipFile(fileobj=buffered, mode="rb")
    elif kind == "xz":
        inner = lzma.LZMAFile(buffered)
    elif kind == "bzip2":
        inner = bz2.BZ2File(buffered)
    elif kind == "zstd":
        inner = _unzstd(buffered, source)
    else:
        inner = buffered
    capped = _Capped(inner, kind, source, limit, owned=inner is not buffered)
    return io.BufferedReader(capped, buffer_size=_READ)


class _Plain(io.RawIOBase):
    """Any binary file object as a raw stream, so it can be buffered (and peeked)."""

    def __init__(self, inner: IO[bytes]) -> None:
        self._inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data = self._inner.read(len(view))
        view[: len(data)] = data
        return len(data)


def decompress(data: bytes, source: str = "index", limit: int | None = None) -> bytes:
    """Return ``data`` uncompressed, whatever of gzip/xz/zstd/bzip2 it uses.

    Raises:
        IndexFormatError: the data is damaged, or zstd is needed and the
            ``zstandard`` module is not installed.
        IndexTooLargeError: it inflates past ``limit``.
    """
    with open_index(data, source, limit) as reader:
        return reader.read()


def _unzstd(stream: IO[bytes], source: str) -> IO[bytes]:
    try:
        import zstandard
    except ImportError:
        raise IndexFormatError(
            f"{source} is zstd-compressed and the zstandard module is not installed",
            fix="install it into oic-ai's environment (pip install zstandard) or "
            "decompress the file with 'unzstd' first",
        ) from None
    reader: IO[bytes] = zstandard.ZstdDecompressor().stream_reader(stream, closefd=False)
    return reader


def _names_from_relation(field: str) -> tuple[str, ...]:
    """``"a (= 1), b:any, c"`` -> ``("a", "b", "c")``."""
    names = []
    for part in field.split(","):
        name = part.strip().split(" ", 1)[0].split("(", 1)[0].split(":", 1)[0]
        if name:
            names.append(name)
    return tuple(names)


def _relations(field: str) -> tuple[str, ...]:
    """``"a (>= 1) | b, c:any"`` -> ``("a|b", "c")``: each relation, its alternatives."""
    groups = []
    for part in field.split(","):
        names = [
            alternative.strip().split(" ", 1)[0].split("(", 1)[0].split(":", 1)[0]
            for alternative in part.split("|")
        ]
        group = "|".join(name for name in names if name)
        if group and group not in groups:
            groups.append(group)
    return tuple(groups)


def parse_deb_packages(
    data: Source, source: str = "Packages", limit: int | None = DEFAULT_MAX_INDEX_BYTES
) -> Iterator[PackageRecord]:
    """Yield the packages of a Debian ``Packages`` file (plain or compressed).

    The file is decompressed and read line by line, so memory stays small whatever
    its size. Only ``Package``, ``Version``, ``Architecture``, ``Provides``, ``Depends``
    and ``Pre-Depends`` are read; continuation lines and every other field are skipped.

    Raises:
        IndexFormatError: the data is not a Packages file (or is damaged).
        IndexTooLargeError: it inflates past ``limit`` bytes.
    """
    name = version = arch = ""
    provides: tuple[str, ...] = ()
    depends: tuple[str, ...] = ()
    seen_package = seen_text = False
    line_start = True
    consumed = 0
    with open_index(data, source, limit) as reader:
        while True:
            chunk = reader.readline(_MAX_LINE)
            if not chunk:
                break
            starts, line_start = line_start, chunk.endswith(b"\n")
            if not starts:
                continue  # the rest of an over-long line
            if not seen_package:
                seen_package = b"Package:" in chunk
                seen_text = seen_text or bool(chunk.strip())
                consumed += len(chunk)
                if seen_text and not seen_package and consumed > 65536:
                    raise _not_packages(source)
            line = chunk.decode("utf-8", errors="replace").rstrip("\r\n")
            if not line:
                if name:
                    yield PackageRecord(name, version, arch, provides, depends)
                name = version = arch = ""
                provides = depends = ()
                continue
            first = line[0]
            if first in " \t#":
                continue
            if first == "P":
                if line.startswith("Package:"):
                    name = line[8:].strip()
                elif line.startswith("Provides:"):
                    provides = _names_from_relation(line[9:])
                elif line.startswith("Pre-Depends:"):
                    depends = (*_relations(line[12:]), *depends)
            elif first == "D" and line.startswith("Depends:"):
                depends = (*depends, *_relations(line[8:]))
            elif first == "V" and line.startswith("Version:"):
                version = line[8:].strip()
            elif first == "A" and line.startswith("Architecture:"):
                arch = line[13:].strip()
    if seen_text and not seen_package:
        raise _not_packages(source)
    if name:
        yield PackageRecord(name, version, arch, provides, depends)


def _not_packages(source: str) -> IndexFormatError:
    return IndexFormatError(
        f"{source} is not a Debian Packages index (no 'Package:' field)",
        fix="pass a Packages, Packages.gz or Packages.xz file",
    )


_RPM_COMMON = "{http://linux.duke.edu/metadata/common}"
_RPM = "{http://linux.duke.edu/metadata/rpm}"
_REPO = "{http://linux.duke.edu/metadata/repo}"


def primary_location(repomd: Source, source: str = "repomd.xml") -> str:
    """Return the ``href`` of the ``primary`` metadata named in ``repomd.xml``.

    Raises:
        IndexFormatError: the file is not repomd XML or lists no primary data.
    """
    try:
        with open_index(repomd, source, _REPOMD_LIMIT) as reader:
            root = ET.fromstring(reader.read())
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


_REPOMD_LIMIT = 16 * MIB


def parse_rpm_primary(
    data: Source, source: str = "primary.xml", limit: int | None = DEFAULT_MAX_INDEX_BYTES
) -> Iterator[PackageRecord]:
    """Yield the packages of an RPM ``primary.xml`` (plain, .gz, .xz or .zst).

    The XML is decompressed and parsed incrementally; each package element is dropped
    once read.

    Raises:
        IndexFormatError: the data is not primary.xml.
        IndexTooLargeError: it inflates past ``limit`` bytes.
    """
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    roots: list[ET.Element] = []
    with open_index(data, source, limit) as reader:
        head = reader.read(4096)
        if b"<metadata" not in head:
            raise IndexFormatError(
                f"{source} is not RPM primary metadata (no <metadata> element)",
                fix="pass repodata/*-primary.xml(.gz|.zst) or the repository folder",
            )
        chunk = head
        try:
            while chunk:
                parser.feed(chunk)
                yield from _rpm_packages(parser, roots)
                chunk = reader.read(_READ)
            parser.close()
            yield from _rpm_packages(parser, roots)
        except ET.ParseError as exc:
            raise IndexFormatError(
                f"{source} is not valid XML ({exc})", fix="download it again"
            ) from None


def _rpm_packages(
    parser: ET.XMLPullParser[ET.Element], roots: list[ET.Element]
) -> Iterator[PackageRecord]:
    """The packages completed so far; read ones are dropped from the tree."""
    events = cast("Iterator[tuple[str, object]]", parser.read_events())
    for event, element in events:
        if not isinstance(element, ET.Element):
            continue
        if event == "start":
            if not roots:
                roots.append(element)
            continue
        if element.tag != f"{_RPM_COMMON}package":
            continue
        if element.get("type", "rpm") == "rpm":
            yield _rpm_record(element)
        element.clear()
    if roots:
        del roots[0][:]  # the root would otherwise keep every (cleared) package


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
    provides = _rpm_entry_names(element, "provides", name)
    requires = _rpm_entry_names(element, "requires", name)
    return PackageRecord(name, version, arch, provides, requires)


def _rpm_entry_names(element: ET.Element, kind: str, own: str) -> tuple[str, ...]:
    """The package names a ``<rpm:provides>`` or ``<rpm:requires>`` list holds, once each.

    The package's own name is left out, and so is every entry that is no package name:
    rpmlib(...), sonames "libc.so.6()(64bit)" and file paths.
    """
    names: list[str] = []
    entries = element.find(f"{_RPM_COMMON}format/{_RPM}{kind}")
    if entries is not None:
        for entry in entries.iter(f"{_RPM}entry"):
            named = entry.get("name", "")
            if named != own and _NAME.match(named) and named not in names:
                names.append(named)
    return tuple(names)
