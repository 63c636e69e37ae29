"""Read a disk image without mounting it: the partition table and ext2/3/4 files.

The partition table comes from ``sfdisk --json`` (util-linux's ``fdisk`` package), the
file systems from their superblocks, and files inside an ext2/3/4 file system from
``debugfs`` (e2fsprogs) at the partition's byte offset. Nothing is mounted and no loop
device is attached, so reading needs no root. A compressed image (``.gz``, ``.xz``,
``.zst``) is unpacked first, sparse, into a folder the caller chooses.
"""

from __future__ import annotations

import gzip
import json
import lzma
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, cast

from oic_ai.stores.errors import UserInputError

# Files read from an image are small system files; a bigger one is not read at all.
MAX_FILE_BYTES = 64 * 1024 * 1024
_CHUNK = 1024 * 1024
_ZEROS = bytes(_CHUNK)
_TOOL_PACKAGES = {"sfdisk": "fdisk", "debugfs": "e2fsprogs"}
COMPRESSED_SUFFIXES = (".gz", ".xz", ".zst")


@dataclass(frozen=True)
class ImagePartition:
    """One partition of the image, as the partition table and its superblock say.

    Attributes:
        number: 1-based position in the table.
        start: Offset in bytes from the start of the image.
        size: Size in bytes.
        type: GPT type GUID (lower case) or MBR type (hex, lower case, no ``0x``).
        uuid: GPT partition UUID (PARTUUID, lower case), or "".
        name: GPT partition name, or "".
        fs: The file system found in it (``ext4``, ``fat32``, ``swap``...), or None.
        fs_uuid: The file system's UUID or FAT volume id (lower case), or "".
        fs_label: The file system's label, or "".
    """

    number: int
    start: int
    size: int
    type: str
    uuid: str = ""
    name: str = ""
    fs: str | None = None
    fs_uuid: str = ""
    fs_label: str = ""


@dataclass(frozen=True)
class PartitionTable:
    """The image's partition table.

    Attributes:
        label: ``gpt`` or ``dos`` (MBR), as sfdisk names it.
        sector_size: Bytes per sector.
        image_size: The image file's size in bytes (the disk size).
        partitions: The partitions, in table order.
    """

    label: str
    sector_size: int
    image_size: int
    partitions: tuple[ImagePartition, ...]


def _tool(name: str) -> str:
    """The path of a system program, or a one-line error naming its Debian package."""
    found = shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/sbin") / name) if p.exists()), None
    )
    if found is None:
        package = _TOOL_PACKAGES.get(name, name)
        raise UserInputError(
            f"{name} is missing: reading an image needs it",
            fix=f"install Debian's {package} package (apt-get install {package})",
        )
    return found


def read_partition_table(image: Path) -> PartitionTable:
    """Read the partition table of a raw image with ``sfdisk --json``.

    Raises:
        UserInputError: sfdisk is missing, or the image has no table it can read.
    """
    sfdisk = _tool("sfdisk")
    done = subprocess.run(
        [sfdisk, "--json", str(image)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0 or not done.stdout.strip():
        why = (done.stderr.strip().splitlines() or ["no partition table"])[-1]
        raise UserInputError(
            f"{image} has no partition table sfdisk can read ({why})",
            fix="give a raw disk image (.raw, or .raw.gz/.xz/.zst)",
        )
    table = json.loads(done.stdout).get("partitiontable", {})
    sector = int(table.get("sectorsize", 512))
    parts = []
    with image.open("rb") as handle:
        for number, entry in enumerate(table.get("partitions", []), start=1):
            start = int(entry["start"]) * sector
            size = int(entry["size"]) * sector
            fs, fs_uuid, fs_label = detect_filesystem(handle, start)
            parts.append(
                ImagePartition(
                    number=number,
                    start=start,
                    size=size,
                    type=str(entry.get("type", "")).lower(),
                    uuid=str(entry.get("uuid", "")).lower(),
                    name=str(entry.get("name", "")),
                    fs=fs,
                    fs_uuid=fs_uuid,
                    fs_label=fs_label,
                )
            )
    return PartitionTable(
        label=str(table.get("label", "")),
        sector_size=sector,
        image_size=image.stat().st_size,
        partitions=tuple(parts),
    )


def _read_at(handle: IO[bytes], offset: int, size: int) -> bytes:
    handle.seek(offset)
    return handle.read(size)


def _uuid(raw: bytes) -> str:
    text = raw.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:32]}"


def _label(raw: bytes) -> str:
    text = raw.split(b"\0", 1)[0].decode("utf-8", errors="replace").strip()
    return "" if text == "NO NAME" else text


def detect_filesystem(handle: IO[bytes], offset: int) -> tuple[str | None, str, str]:
    """The file system at ``offset`` by its superblock magic, its UUID and its label.

    Recognises ext2/3/4, FAT12/16/32, XFS, Btrfs, swap, squashfs, EROFS and LUKS; the UUID
    and the label are "" where unknown.
    """
    ext = _read_at(handle, offset + 1024, 256)
    if len(ext) >= 0x88 and ext[0x38:0x3A] == b"\x53\xef":
        compat = int.from_bytes(ext[0x5C:0x60], "little")
        incompat = int.from_bytes(ext[0x60:0x64], "little")
        # extents, 64bit or flex_bg make it ext4; a journal alone, ext3
        kind = "ext4" if incompat & 0x2C0 else ("ext3" if compat & 0x4 else "ext2")
        return kind, _uuid(ext[0x68:0x78]), _label(ext[0x78:0x88])
    boot = _read_at(handle, offset, 512)
    if len(boot) == 512 and boot[510:512] == b"\x55\xaa":
        if boot[82:90] == b"FAT32   ":
            return "fat32", boot[67:71][::-1].hex(), _label(boot[71:82])
        if boot[54:59] in (b"FAT16", b"FAT12"):
            return boot[54:59].decode().lower(), boot[39:43][::-1].hex(), _label(boot[43:54])
    if boot[:4] == b"XFSB":
        return "xfs", _uuid(boot[32:48]), _label(boot[108:120])
    if boot[:4] == b"hsqs":
        return "squashfs", "", ""
    if boot[:6] == b"LUKS\xba\xbe":
        return "luks", "", ""
    if _read_at(handle, offset + 4096 - 10, 10) in (b"SWAPSPACE2", b"SWAP-SPACE"):
        header = _read_at(handle, offset + 1024, 44)
        return "swap", _uuid(header[12:28]), _label(header[28:44])
    if _read_at(handle, offset + 1024, 4) == b"\xe2\xe1\xf5\xe0":
        return "erofs", "", ""
    btrfs = _read_at(handle, offset + 0x10000, 0x200)
    if btrfs[0x40:0x48] == b"_BHRfS_M":
        return "btrfs", _uuid(btrfs[0x20:0x30]), _label(btrfs[0x12B:0x1AB])
    return None, "", ""


@dataclass(frozen=True)
class DirEntry:
    """One entry of a directory listing read with debugfs."""

    name: str
    mode: int
    size: int

    @property
    def is_dir(self) -> bool:
        """Whether the entry is a directory."""
        return (self.mode & 0o170000) == 0o040000

    @property
    def is_file(self) -> bool:
        """Whether the entry is a regular file."""
        return (self.mode & 0o170000) == 0o100000

    @property
    def is_symlink(self) -> bool:
        """Whether the entry is a symbolic link."""
        return (self.mode & 0o170000) == 0o120000


# debugfs `ls -p`: /inode/mode(octal)/uid/gid/name/size/
_LS_LINE = re.compile(r"^/(\d+)/([0-7]+)/\d+/\d+/(.*)/(\d*)/$")
_SAFE_NAME = re.compile(r'^[^"\n\\]+$')


class ExtReader:
    """Reads files from the ext2/3/4 file system at one offset of an image, with debugfs.

    The image is reached through a symlink in a private folder, so a ``?`` in its path
    cannot be taken for debugfs's ``?offset=`` option.
    """

    def __init__(self, image: Path, offset: int, work: Path) -> None:
        """Prepare to read the file system at byte ``offset`` of ``image``.

        Args:
            image: A raw disk image.
            offset: Where the file system starts, in bytes.
            work: A private folder for the symlink and the files read.
        """
        self._debugfs = _tool("debugfs")
        self._work = work
        link = work / f"image-{offset}"
        if not link.is_symlink():
            link.symlink_to(image.resolve())
        self._device = f"{link}?offset={offset}"

    def _run(self, commands: Iterable[str]) -> str:
        script = self._work / "commands"
        script.write_text("".join(f"{line}\n" for line in commands), encoding="utf-8")
        done = subprocess.run(
            [self._debugfs, "-f", str(script), self._device],
            capture_output=True,
            text=True,
            errors="replace",
            check=False,
        )
        return done.stdout

    def list_dir(self, path: str) -> list[DirEntry] | None:
        """The entries of directory ``path`` (without ``.`` and ``..``), or None if absent."""
        if not _SAFE_NAME.match(path):
            return None
        entries = []
        found = False
        for line in self._run([f'ls -p "{path}"']).splitlines():
            match = _LS_LINE.match(line.strip())
            if match is None:
                continue
            found = True
            _inode, mode, name, size = match.groups()
            if name not in (".", ".."):
                entries.append(DirEntry(name, int(mode, 8), int(size or 0)))
        return entries if found else None

    def read_files(self, paths: Iterable[str]) -> dict[str, bytes | None]:
        """The contents of each absolute path (None: absent, not a file, or too big).

        Symbolic links are followed (up to 8 levels, within this file system).
        """
        wanted = list(dict.fromkeys(paths))
        result: dict[str, bytes | None] = dict.fromkeys(wanted)
        pending = {path: path for path in wanted}  # asked path -> path to read now
        for _ in range(8):
            if not pending:
                break
            entries = self._entries({p.rsplit("/", 1)[0] or "/" for p in pending.values()})
            dumps: dict[str, str] = {}
            follow: dict[str, str] = {}
            for asked, path in pending.items():
                entry = entries.get(path)
                if entry is None or not _SAFE_NAME.match(path):
                    continue
                if entry.is_symlink:
                    follow[asked] = path
                elif entry.is_file and entry.size <= MAX_FILE_BYTES:
                    dumps[asked] = path
            result.update(self._dump(dumps))
            pending = {
                asked: target
                for asked, path in follow.items()
                if (target := self._link_target(path)) is not None
            }
        return result

    def _entries(self, folders: Iterable[str]) -> dict[str, DirEntry]:
        found: dict[str, DirEntry] = {}
        for folder in folders:
            for entry in self.list_dir(folder) or []:
                found[f"{folder.rstrip('/')}/{entry.name}"] = entry
        return found

    def _dump(self, paths: dict[str, str]) -> dict[str, bytes | None]:
        if not paths:
            return {}
        out = Path(tempfile.mkdtemp(dir=self._work))
        names = {asked: out / str(index) for index, asked in enumerate(paths)}
        self._run(f'dump "{paths[asked]}" "{names[asked]}"' for asked in paths)
        read: dict[str, bytes | None] = {}
        for asked, file in names.items():
            read[asked] = file.read_bytes() if file.exists() else None
        shutil.rmtree(out, ignore_errors=True)
        return read

    def _link_target(self, path: str) -> str | None:
        """Where the symlink at ``path`` points, as an absolute path, or None."""
        text = self._run([f'stat "{path}"'])
        match = re.search(r'Fast link dest: "(.*)"', text)
        if match is None:
            return None
        target = match.group(1)
        base = path.rsplit("/", 1)[0] or "/"
        joined = target if target.startswith("/") else f"{base}/{target}"
        return os.path.normpath(joined).replace("//", "/")


def is_compressed(image: Path) -> bool:
    """Whether the image file is compressed (by its name)."""
    return image.name.endswith(COMPRESSED_SUFFIXES)


def _open_compressed(image: Path) -> IO[bytes]:
    if image.name.endswith(".gz"):
        return cast(IO[bytes], gzip.open(image, "rb"))
    if image.name.endswith(".xz"):
        return cast(IO[bytes], lzma.open(image, "rb"))
    import zstandard  # deferred: only .zst images need it

    reader = zstandard.ZstdDecompressor().stream_reader(image.open("rb"), closefd=True)
    return cast(IO[bytes], reader)


def unpack_image(image: Path, folder: Path) -> Path:
    """Unpack a compressed image into ``folder`` as a sparse raw file; returns its path.

    Runs of zeros are skipped rather than written, so a 4 GiB image with 1 GiB of data
    takes 1 GiB. The file appears under its final name only when complete.

    Raises:
        UserInputError: the file is not what its name says, or the disk is full.
    """
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / image.name.rsplit(".", 1)[0]
    partial = target.with_name(target.name + ".part")
    try:
        with _open_compressed(image) as source, partial.open("wb") as out:
            size = 0
            while chunk := source.read(_CHUNK):
                if chunk == _ZEROS[: len(chunk)]:
                    out.seek(len(chunk), os.SEEK_CUR)
                else:
                    out.write(chunk)
                size += len(chunk)
            out.truncate(size)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        partial.unlink(missing_ok=True)
        raise UserInputError(
            f"cannot unpack {image}: {exc}", fix="check the file (and the free disk space)"
        ) from None
    except Exception as exc:  # zstandard.ZstdError and other decoder errors
        partial.unlink(missing_ok=True)
        raise UserInputError(f"cannot unpack {image}: {exc}", fix="check the file") from None
    partial.replace(target)
    return target


@contextmanager
def raw_image(image: Path, scratch: Path) -> Iterator[Path]:
    """A raw image for ``image``: itself, or a copy unpacked into ``scratch`` (deleted after).

    Raises:
        UserInputError: the image does not exist or cannot be unpacked.
    """
    if not image.is_file():
        raise UserInputError(f"image {image} does not exist", fix="check the path")
    if not is_compressed(image):
        yield image
        return
    scratch.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="unpacked-", dir=scratch))
    try:
        yield unpack_image(image, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
