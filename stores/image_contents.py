"""What a built image holds, read from its files without booting or mounting it.

:func:`read_image` finds the root file system (the partition the caller names, else the
GPT root type, else the largest ext partition), follows its ``/etc/fstab`` to the other
ext partitions, and reads the system files a template decides: hostname, users, groups
and their password state (never the hash itself), sudo rules, installed Debian packages,
the kernel command line GRUB boots with, the installed kernels and ``os-release``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from oic_ai.stores.disk_image import ExtReader, ImagePartition, PartitionTable

PasswordState = Literal["hash", "empty", "locked", "missing"]
PackageDatabase = Literal["dpkg", "rpm", "none"]
_EXT = frozenset({"ext2", "ext3", "ext4"})
_FILES = (
    "/etc/hostname",
    "/etc/passwd",
    "/etc/group",
    "/etc/shadow",
    "/etc/sudoers",
    "/etc/fstab",
    "/etc/os-release",
    "/usr/lib/os-release",
    "/var/lib/dpkg/status",
    "/boot/grub/grub.cfg",
    "/boot/grub2/grub.cfg",
    "/etc/kernel/cmdline",
)
_RPM_DATABASES = ("/var/lib/rpm", "/usr/lib/sysimage/rpm")


@dataclass(frozen=True)
class ImageUser:
    """A user account in the image.

    The password hash itself is kept out of ``repr`` and every output: only its state
    is shown; :meth:`password_is` compares it.
    """

    name: str
    uid: int
    gid: int
    home: str
    shell: str
    groups: tuple[str, ...]
    password: PasswordState
    password_max_days: int | None = None
    password_hash: str = field(default="", repr=False)

    def password_is(self, crypt_hash: str) -> bool:
        """Whether the account's password hash is exactly ``crypt_hash``."""
        return self.password == "hash" and self.password_hash == crypt_hash


@dataclass(frozen=True)
class FstabEntry:
    """One line of the image's ``/etc/fstab``."""

    spec: str
    mount_point: str
    fs_type: str
    options: str


@dataclass(frozen=True)
class ImageContents:
    """Everything :func:`read_image` found. ``None`` or empty: not there or not read.

    Attributes:
        table: The partition table.
        root: The partition holding ``/``, or None when none could be read.
        mounts: Mount point -> the partition ``/etc/fstab`` mounts there.
        hostname: ``/etc/hostname``.
        users: Every account in ``/etc/passwd``.
        groups: Group -> its members (``/etc/group``).
        sudo_rules: Rule lines of ``/etc/sudoers`` and ``/etc/sudoers.d/*``.
        package_db: Which package database the image has.
        packages: Installed package -> version (Debian: ``/var/lib/dpkg/status``).
        provided: Virtual package -> the installed packages that provide it.
        package_arches: The architectures of the installed packages.
        kernel_cmdline: The first ``linux`` line's arguments in GRUB's ``grub.cfg`` (or
            ``/etc/kernel/cmdline``).
        kernels: Kernel versions with a ``/boot/vmlinuz-*``.
        os_release: ``os-release`` keys.
        fstab: ``/etc/fstab`` entries.
        notes: What could not be read, one line each.
    """

    table: PartitionTable
    root: ImagePartition | None
    mounts: Mapping[str, ImagePartition] = field(default_factory=dict)
    hostname: str | None = None
    users: tuple[ImageUser, ...] = ()
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    sudo_rules: tuple[str, ...] = ()
    package_db: PackageDatabase = "none"
    packages: Mapping[str, str] = field(default_factory=dict)
    provided: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    package_arches: tuple[str, ...] = ()
    kernel_cmdline: str | None = None
    kernels: tuple[str, ...] = ()
    os_release: Mapping[str, str] = field(default_factory=dict)
    fstab: tuple[FstabEntry, ...] = ()
    notes: tuple[str, ...] = ()

    def user(self, name: str) -> ImageUser | None:
        """The account called ``name``, or None."""
        return next((u for u in self.users if u.name == name), None)


def find_root(
    table: PartitionTable, root_guids: set[str], hint: int | None
) -> ImagePartition | None:
    """The root partition: ``hint`` (1-based) if it is ext, else by type GUID, else largest ext."""
    ext = [p for p in table.partitions if p.fs in _EXT]
    if hint is not None:
        chosen = next((p for p in ext if p.number == hint), None)
        if chosen is not None:
            return chosen
    typed = [p for p in ext if p.type in root_guids]
    if typed:
        return typed[0]
    return max(ext, key=lambda p: p.size, default=None)


def partition_for(spec: str, table: PartitionTable) -> ImagePartition | None:
    """The partition an fstab ``spec`` (``PARTUUID=``, ``UUID=``, ``PARTLABEL=``) names."""
    key, _, value = spec.partition("=")
    value = value.strip('"').lower()
    for part in table.partitions:
        if (
            (key == "PARTUUID" and part.uuid == value)
            or (key == "UUID" and part.fs_uuid.replace("-", "") == value.replace("-", ""))
            or (key == "PARTLABEL" and part.name.lower() == value)
        ):
            return part
    return None


def read_image(
    raw: Path, table: PartitionTable, *, root_guids: set[str], root_hint: int | None = None
) -> ImageContents:
    """Read the image's system files (see :class:`ImageContents`).

    Args:
        raw: The raw (uncompressed) image.
        table: Its partition table (:func:`oic_ai.stores.disk_image.read_partition_table`).
        root_guids: GPT type GUIDs of root partitions (lower case).
        root_hint: The partition number the template mounts at ``/``, if known.
    """
    root = find_root(table, root_guids, root_hint)
    if root is None:
        return ImageContents(
            table=table,
            root=None,
            notes=("no ext2/3/4 partition found: the root file system was not read",),
        )
    with tempfile.TemporaryDirectory(prefix="oic-ai-image-") as work:
        readers = {root.number: ExtReader(raw, root.start, Path(work))}
        files = readers[root.number].read_files(_FILES)
        fstab = _fstab(_text(files["/etc/fstab"]))
        mounts = {"/": root}
        for entry in fstab:
            part = partition_for(entry.spec, table)
            if part is not None and entry.mount_point.startswith("/"):
                mounts[entry.mount_point.rstrip("/") or "/"] = part
        # files under another ext mount (/boot, /var) are read from that partition
        for path in _FILES:
            mount = _mount_of(path, mounts)
            part = mounts[mount]
            if mount != "/" and part.fs in _EXT:
                if part.number not in readers:
                    readers[part.number] = ExtReader(raw, part.start, Path(work))
                inner = path[len(mount) :] or "/"
                files[path] = readers[part.number].read_files([inner])[inner]
        sudoers_d = _sudoers_d(readers[mounts[_mount_of("/etc/sudoers.d", mounts)].number])
        boot = mounts[_mount_of("/boot", mounts)]
        boot_dir = "/" if boot is not root else "/boot"
        kernels = _kernels(readers.get(boot.number), boot_dir)
        rpm = any(readers[root.number].list_dir(p) is not None for p in _RPM_DATABASES)
    return _contents(table, root, mounts, files, fstab, sudoers_d, kernels, rpm)


def _mount_of(path: str, mounts: Mapping[str, ImagePartition]) -> str:
    """The longest mount point that holds ``path``."""
    best = "/"
    for mount in mounts:
        if (
            mount != "/"
            and (path == mount or path.startswith(mount + "/"))
            and len(mount) > len(best)
        ):
            best = mount
    return best


def _sudoers_d(reader: ExtReader) -> list[str]:
    entries = reader.list_dir("/etc/sudoers.d") or []
    # sudo skips names with a '.' or ending in '~' in an @includedir
    names = [
        e.name for e in entries if e.is_file and "." not in e.name and not e.name.endswith("~")
    ]
    texts = reader.read_files(f"/etc/sudoers.d/{name}" for name in names)
    return [_text(value) for value in texts.values() if value is not None]


def _kernels(reader: ExtReader | None, folder: str) -> tuple[str, ...]:
    if reader is None:
        return ()
    entries = reader.list_dir(folder) or []
    return tuple(
        sorted(e.name[len("vmlinuz-") :] for e in entries if e.name.startswith("vmlinuz-"))
    )


def _text(raw: bytes | None) -> str:
    return raw.decode("utf-8", errors="replace") if raw else ""


def _contents(
    table: PartitionTable,
    root: ImagePartition,
    mounts: Mapping[str, ImagePartition],
    files: Mapping[str, bytes | None],
    fstab: tuple[FstabEntry, ...],
    sudoers_d: list[str],
    kernels: tuple[str, ...],
    rpm: bool,
) -> ImageContents:
    notes: list[str] = []
    groups = _groups(_text(files["/etc/group"]))
    shadow = _shadow(_text(files["/etc/shadow"]))
    group_ids = _group_ids(_text(files["/etc/group"]))
    users = _users(_text(files["/etc/passwd"]), groups, group_ids, shadow)
    if files["/etc/passwd"] is None:
        notes.append("no /etc/passwd in the root file system")
    status = files["/var/lib/dpkg/status"]
    packages: dict[str, str] = {}
    provided: dict[str, tuple[str, ...]] = {}
    arches: tuple[str, ...] = ()
    database: PackageDatabase = "none"
    if status is not None:
        database = "dpkg"
        packages, provided, arches = _dpkg_status(_text(status))
    elif rpm:
        database = "rpm"
        notes.append("an RPM image: its package database (rpmdb.sqlite) is not read yet")
    else:
        notes.append("no package database found (/var/lib/dpkg/status, /var/lib/rpm)")
    grub = files["/boot/grub/grub.cfg"] or files["/boot/grub2/grub.cfg"]
    cmdline = _grub_cmdline(_text(grub)) if grub else None
    if cmdline is None and files["/etc/kernel/cmdline"]:
        cmdline = _text(files["/etc/kernel/cmdline"]).strip()
    if cmdline is None:
        notes.append(
            "no kernel command line found (no GRUB grub.cfg; a UKI on the ESP is not read yet)"
        )
    release = _text(files["/etc/os-release"] or files["/usr/lib/os-release"])
    hostname = files["/etc/hostname"]
    sudoers = "\n".join([_text(files["/etc/sudoers"]), *sudoers_d])
    return ImageContents(
        table=table,
        root=root,
        mounts=dict(mounts),
        hostname=_text(hostname).strip() if hostname is not None else None,
        users=users,
        groups=groups,
        sudo_rules=_sudo_rules(sudoers),
        package_db=database,
        packages=packages,
        provided=provided,
        package_arches=arches,
        kernel_cmdline=cmdline,
        kernels=kernels,
        os_release=_os_release(release),
        fstab=fstab,
        notes=tuple(notes),
    )


def _groups(text: str) -> dict[str, tuple[str, ...]]:
    """Group name -> members; the primary group's members come from ``/etc/passwd``."""
    groups: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 4 and fields[0]:
            groups[fields[0]] = tuple(m for m in fields[3].split(",") if m)
    return groups


def _group_ids(text: str) -> dict[str, str]:
    return {
        fields[2]: fields[0] for line in text.splitlines() if len(fields := line.split(":")) >= 3
    }


def _shadow(text: str) -> dict[str, list[str]]:
    """User -> its ``/etc/shadow`` fields after the name."""
    return {
        fields[0]: fields[1:] for line in text.splitlines() if len(fields := line.split(":")) >= 2
    }


def _password_state(field_value: str | None) -> PasswordState:
    if field_value is None:
        return "missing"
    if field_value == "":
        return "empty"
    if field_value.startswith("$"):
        return "hash"
    return "locked"  # "*", "!", "!$6$..." and other values no password matches


def _users(
    text: str,
    groups: Mapping[str, tuple[str, ...]],
    group_ids: Mapping[str, str],
    shadow: Mapping[str, list[str]],
) -> tuple[ImageUser, ...]:
    """The accounts; each one's groups include its primary group (by gid)."""
    users = []
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) < 7 or not fields[2].isdigit() or not fields[3].isdigit():
            continue
        name = fields[0]
        member_of = {group for group, members in groups.items() if name in members}
        if fields[3] in group_ids:
            member_of.add(group_ids[fields[3]])
        secret = shadow.get(name)
        crypt = secret[0] if secret else None
        max_days = secret[3] if secret and len(secret) > 3 and secret[3].isdigit() else None
        users.append(
            ImageUser(
                name=name,
                uid=int(fields[2]),
                gid=int(fields[3]),
                home=fields[5],
                shell=fields[6],
                groups=tuple(sorted(member_of)),
                password=_password_state(crypt),
                password_max_days=int(max_days) if max_days is not None else None,
                password_hash=crypt if crypt and crypt.startswith("$") else "",
            )
        )
    return tuple(users)


def _sudo_rules(text: str) -> tuple[str, ...]:
    rules = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "Defaults", "@include", "#include")):
            rules.append(" ".join(line.split()))
    return tuple(rules)


def _dpkg_status(
    text: str,
) -> tuple[dict[str, str], dict[str, tuple[str, ...]], tuple[str, ...]]:
    packages: dict[str, str] = {}
    provided: dict[str, list[str]] = {}
    arches: set[str] = set()
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line[:1] not in (" ", "\t") and ": " in line:
                key, value = line.split(": ", 1)
                fields[key] = value.strip()
        name = fields.get("Package")
        if not name or not fields.get("Status", "").endswith(" installed"):
            continue
        if fields.get("Status") != "install ok installed":
            continue
        packages[name] = fields.get("Version", "")
        if fields.get("Architecture") not in (None, "all"):
            arches.add(fields["Architecture"])
        for item in fields.get("Provides", "").split(","):
            virtual = item.strip().split(" ", 1)[0]
            if virtual:
                provided.setdefault(virtual, []).append(name)
    return (
        packages,
        {k: tuple(v) for k, v in provided.items()},
        tuple(sorted(arches)),
    )


def _grub_cmdline(text: str) -> str | None:
    """The arguments of the first ``linux`` line (the default entry), or None."""
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in ("linux", "linuxefi"):
            return " ".join(words[2:])
    return None


def _os_release(text: str) -> dict[str, str]:
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() and not key.startswith("#"):
            values[key.strip()] = value.strip().strip('"').strip("'")
    return values


def _fstab(text: str) -> tuple[FstabEntry, ...]:
    entries = []
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 3 and not words[0].startswith("#"):
            entries.append(
                FstabEntry(words[0], words[1], words[2], words[3] if len(words) > 3 else "")
            )
    return tuple(entries)
