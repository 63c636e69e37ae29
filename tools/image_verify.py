"""Compare a built image with the template it was built from, one row per check.

:func:`verify_contents` takes what :mod:`oic_ai.stores.image_contents` read from the image
and the template text, and answers with rows ``{what, expected, found, ok}``: the image
name, os and arch, the partition table, each partition (size, type, file system, mount
point), the disk size, the hostname, each user (groups, sudo, password, shell, home),
each listed package, and the kernel (command line, root device, version). A row that
differs is explained (``known``) when a known composer behaviour
(``stores/data/composer_behaviour.yaml``) covers it. What cannot be checked is listed in
``not_checked``, never passed silently.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from oic_ai.stores.disk_image import ImagePartition
from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.image_contents import ImageContents, ImageUser
from oic_ai.stores.targets import load_targets
from oic_ai.tools.composer_fit import PREDICATES

# Row kinds a behaviour's `check` may name (a test keeps the data file to these).
CHECK_KINDS = frozenset(
    {
        "image-name",
        "os",
        "arch",
        "partition-table",
        "partition-count",
        "partition-size",
        "partition-type",
        "partition-fs",
        "partition-mount",
        "partition-label",
        "partition-mount-options",
        "disk-size",
        "hostname",
        "user",
        "user-groups",
        "user-sudo",
        "user-password",
        "user-password-max-age",
        "user-shell",
        "user-home",
        "package",
        "kernel-cmdline",
        "kernel-cmdline-root",
        "kernel-version",
    }
)
_PIN = re.compile(r"^\s*([^\s<>=!~()]+)")
_SUDO_GROUPS = ("sudo", "wheel", "admin")


@dataclass(frozen=True)
class Check:
    """One row: what was checked, what the template asks, what the image holds."""

    what: str
    expected: str
    found: str
    ok: bool
    kind: str
    known: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"what", "expected", "found", "ok"}``, plus ``kind`` and ``known`` (or null)."""
        return asdict(self)


@dataclass(frozen=True)
class VerifyReport:
    """The comparison of one image with its template."""

    image: str
    template: str
    checks: tuple[Check, ...]
    not_checked: tuple[str, ...] = ()
    known: Mapping[str, str] = field(default_factory=dict)

    @property
    def matches(self) -> bool:
        """Every row is as the template asks."""
        return all(check.ok for check in self.checks)

    @property
    def explained(self) -> bool:
        """Every row that differs is a known composer behaviour."""
        return all(check.ok or check.known for check in self.checks)

    @property
    def unexplained(self) -> tuple[Check, ...]:
        """The rows that differ with no known behaviour to explain them."""
        return tuple(c for c in self.checks if not c.ok and not c.known)

    def to_json(self) -> dict[str, Any]:
        """The ``verify --json`` shape."""
        return {
            "image": self.image,
            "template": self.template,
            "matches": self.matches,
            "explained": self.explained,
            "checks": [check.to_json() for check in self.checks],
            "not_checked": list(self.not_checked),
            "known": dict(self.known),
        }


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _items(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


class _Rows:
    """Collects rows and decides which known behaviour explains a differing one."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        from oic_ai.stores.composer_behaviour import load_behaviours

        self.data = data
        self.catalog = load_behaviours()
        self.rows: list[Check] = []
        self.not_checked: list[str] = []

    def add(
        self,
        kind: str,
        what: str,
        expected: str,
        found: str,
        ok: bool,
        *,
        subject: str = "",
        explainable: bool = True,
    ) -> None:
        known = None if ok or not explainable else self._known(kind, subject)
        self.rows.append(Check(what, expected, found, ok, kind, known))

    def _known(self, kind: str, subject: str) -> str | None:
        for behaviour in self.catalog.for_check(kind):
            places = PREDICATES[behaviour.when](self.data)
            if any(not subject or who == subject for _path, who in places):
                return behaviour.id
        return None

    def skip(self, line: str) -> None:
        self.not_checked.append(line)


def template_data(text: str) -> dict[str, Any]:
    """The template's YAML as a mapping.

    Raises:
        UserInputError: the text is not valid YAML, or not a mapping.
    """
    from oic_ai.stores.errors import UserInputError
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    try:
        data = load_data(text)
    except YamlSyntaxError as exc:
        raise UserInputError(f"the template is not valid YAML ({exc})", fix="fix it") from None
    if not isinstance(data, dict):
        raise UserInputError("the template is not a YAML mapping", fix="give a template file")
    return data


def verify_contents(
    template_text: str, contents: ImageContents, *, image_name: str = ""
) -> VerifyReport:
    """Compare the image's contents with the template.

    Args:
        template_text: The template YAML the image was built from.
        contents: What :func:`oic_ai.stores.image_contents.read_image` read.
        image_name: The artifact's file name (for the image name row), or "".

    Raises:
        UserInputError: the template is not a readable YAML mapping.
    """
    data = template_data(template_text)
    rows = _Rows(data)
    _identity(rows, contents, image_name)
    _partitions(rows, contents)
    _hostname(rows, contents)
    _users(rows, contents)
    _packages(rows, contents)
    _kernel(rows, contents)
    rows.not_checked.extend(contents.notes)
    explained = {
        check.known: rows.catalog.get(check.known).composer for check in rows.rows if check.known
    }
    return VerifyReport(
        image=image_name,
        template=str(_mapping(data.get("image")).get("name") or ""),
        checks=tuple(rows.rows),
        not_checked=tuple(dict.fromkeys(rows.not_checked)),
        known=explained,
    )


def _identity(rows: _Rows, contents: ImageContents, image_name: str) -> None:
    data = rows.data
    image = _mapping(data.get("image"))
    name, version = image.get("name"), image.get("version")
    if isinstance(name, str) and name and image_name:
        expected = f"{name}-{version}" if version not in (None, "") else name
        ok = image_name == expected or image_name.startswith(expected + ".")
        rows.add("image-name", "image name", f"{expected}.*", image_name, ok)
    target = _mapping(data.get("target"))
    targets = load_targets()
    dist = targets.dists.get(str(target.get("dist", "")))
    release = contents.os_release
    if dist is not None and dist.os_release:
        want_id, want_version = dist.os_release.get("id", ""), dist.os_release.get("version_id", "")
        found = release.get("PRETTY_NAME") or release.get("ID") or "no os-release"
        ok = release.get("ID") == want_id and release.get("VERSION_ID", "").startswith(want_version)
        rows.add("os", "os", f"{dist.title} (ID={want_id}, VERSION_ID={want_version})", found, ok)
    elif dist is not None:
        rows.skip(f"os: what {dist.title}'s os-release says is not known yet")
    arch = targets.arches.get(str(target.get("arch", "")))
    if arch is not None and contents.package_db == "dpkg":
        found = ", ".join(contents.package_arches) or "no packages"
        rows.add(
            "arch", "architecture", arch.deb_name, found, arch.deb_name in contents.package_arches
        )


def _size_text(size: int) -> str:
    """Exact in the largest binary unit when a whole MiB, else GiB to two places."""
    if size % (1024 * 1024) == 0:
        return format_size(size)
    return f"{size / 1024**3:.2f}GiB ({size} bytes)"


def _type_name(guid: str, wanted: str) -> str:
    """The composer's name for a GPT type GUID (the template's own name first), else it."""
    names = [n for n, g in load_targets().partition_types.items() if g == guid]
    if wanted in names:
        return wanted
    return names[0] if names else guid


def _expected_type(part: Mapping[str, Any]) -> str | None:
    guid = part.get("typeUUID")
    if isinstance(guid, str) and guid:
        return guid.lower()
    kind = part.get("type")
    return load_targets().partition_types.get(kind) if isinstance(kind, str) else None


def _fs_matches(wanted: str, found: str | None) -> bool:
    wanted = wanted.lower()
    if found is None:
        return False
    if wanted in ("vfat", "fat"):
        return found.startswith("fat")
    if wanted in ("linux-swap", "swap"):
        return found == "swap"
    return wanted == found


def _pair_partitions(
    wanted: list[Mapping[str, Any]], found: tuple[ImagePartition, ...]
) -> list[tuple[int, Mapping[str, Any], ImagePartition | None]]:
    """Each template partition with the image partition of the same GPT name, else position."""
    by_name = {p.name: p for p in found if p.name}
    pairs = []
    for index, part in enumerate(wanted):
        pid = part.get("id") or part.get("name")
        match = by_name.get(str(pid)) if pid else None
        if match is None and index < len(found):
            match = found[index]
        pairs.append((index, part, match))
    return pairs


def _partitions(rows: _Rows, contents: ImageContents) -> None:
    disk = _mapping(rows.data.get("disk"))
    table = contents.table
    size = parse_size(disk.get("size"))
    if size:
        rows.add(
            "disk-size",
            "disk size",
            _size_text(size),
            _size_text(table.image_size),
            size == table.image_size,
        )
    kind = disk.get("partitionTableType")
    if isinstance(kind, str) and kind:
        label = {"gpt": "gpt", "mbr": "dos"}.get(kind.lower(), kind)
        rows.add("partition-table", "partition table", kind, table.label, label == table.label)
    wanted = _items(disk.get("partitions"))
    if not wanted:
        rows.skip("partitions: the template leaves the layout to the composer's defaults")
        return
    rows.add(
        "partition-count",
        "partitions",
        str(len(wanted)),
        str(len(table.partitions)),
        len(wanted) == len(table.partitions),
    )
    for index, part, image_part in _pair_partitions(wanted, table.partitions):
        label = str(part.get("id") or part.get("mountPoint") or f"#{index + 1}")
        if image_part is None:
            rows.add("partition-size", f"partition {label}", "present", "missing", False)
            continue
        _partition_size(rows, label, part, image_part, table.image_size, table.sector_size)
        guid = _expected_type(part)
        if guid is not None and table.label == "gpt":
            wanted_name = str(part.get("type") or guid)
            rows.add(
                "partition-type",
                f"partition {label} type",
                wanted_name,
                _type_name(image_part.type, wanted_name),
                guid == image_part.type,
            )
        fs = part.get("fsType")
        if isinstance(fs, str) and fs:
            rows.add(
                "partition-fs",
                f"partition {label} file system",
                fs,
                image_part.fs or "none recognised",
                _fs_matches(fs, image_part.fs),
            )
        label_wanted = part.get("fsLabel")
        if isinstance(label_wanted, str) and label_wanted:
            rows.add(
                "partition-label", f"partition {label} file system label", label_wanted,
                image_part.fs_label or "none", label_wanted == image_part.fs_label,
            )  # fmt: skip
        _mount_options(rows, contents, label, part, image_part)
        mount = part.get("mountPoint")
        if isinstance(mount, str) and mount.startswith("/") and contents.root is not None:
            found_mount = next(
                (m for m, p in contents.mounts.items() if p.number == image_part.number),
                "not in /etc/fstab",
            )
            rows.add(
                "partition-mount",
                f"partition {label} mount point",
                mount,
                found_mount,
                (mount.rstrip("/") or "/") == found_mount,
            )


def _mount_options(
    rows: _Rows,
    contents: ImageContents,
    label: str,
    part: Mapping[str, Any],
    found: ImagePartition,
) -> None:
    """The options ``/etc/fstab`` mounts the partition with, against ``mountOptions``."""
    from oic_ai.stores.image_contents import partition_for

    wanted = part.get("mountOptions")
    if not isinstance(wanted, str) or not wanted or contents.root is None:
        return
    entry = next(
        (
            e
            for e in contents.fstab
            if (p := partition_for(e.spec, contents.table)) is not None and p.number == found.number
        ),
        None,
    )
    options = entry.options if entry is not None else "not in /etc/fstab"
    rows.add(
        "partition-mount-options", f"partition {label} mount options", wanted, options,
        entry is not None and set(wanted.split(",")) == set(options.split(",")),
    )  # fmt: skip


def _partition_size(
    rows: _Rows,
    label: str,
    part: Mapping[str, Any],
    found: ImagePartition,
    disk_size: int,
    sector: int,
) -> None:
    start, end = parse_size(part.get("start")), parse_size(part.get("end"))
    if start is None or end is None:
        rows.skip(f"partition {label} size: start/end are not sizes")
        return
    found_text = f"{_size_text(found.size)} at {_size_text(found.start)}"
    if end == 0:
        # the rest of the disk: up to the backup GPT (33 sectors) or the last MiB
        ends_at = found.start + found.size
        ok = found.start == start and disk_size - ends_at <= max(34 * sector, 1024 * 1024)
        rows.add(
            "partition-size",
            f"partition {label} size",
            f"from {format_size(start)} to the end of the disk",
            found_text,
            ok,
        )
        return
    expected = end - start
    ok = found.start == start and found.size == expected
    rows.add(
        "partition-size",
        f"partition {label} size",
        f"{format_size(expected)} at {format_size(start)}",
        found_text,
        ok,
    )


def _hostname(rows: _Rows, contents: ImageContents) -> None:
    wanted = _mapping(rows.data.get("systemConfig")).get("hostname")
    found = contents.hostname if contents.hostname is not None else "no /etc/hostname"
    if isinstance(wanted, str) and wanted.strip():
        ok = found.lower() == wanted.strip().lower()
        rows.add("hostname", "hostname", wanted.strip(), found, ok, explainable=False)
    else:
        rows.add("hostname", "hostname", "not set by the template", found, False)


def _users(rows: _Rows, contents: ImageContents) -> None:
    users = _items(_mapping(rows.data.get("systemConfig")).get("users"))
    for user in users:
        name = user.get("name")
        if not isinstance(name, str) or not name:
            continue
        account = contents.user(name)
        if account is None:
            rows.add("user", f"user {name}", "exists", "missing", False, subject=name)
            continue
        rows.add("user", f"user {name}", "exists", f"uid {account.uid}", True)
        groups = [g for g in user.get("groups") or [] if isinstance(g, str)]
        sudo = user.get("sudo") is True or any(g in _SUDO_GROUPS for g in groups)
        if user.get("sudo") is True and not any(g in _SUDO_GROUPS for g in groups):
            groups.append("sudo")
        if groups:
            missing = [g for g in groups if g not in account.groups]
            rows.add(
                "user-groups",
                f"user {name} groups",
                ", ".join(sorted(groups)),
                ", ".join(account.groups) or "none",
                not missing,
                subject=name,
            )
        if sudo:
            rows.add(
                "user-sudo",
                f"user {name} sudo",
                "may run sudo",
                *_sudo(contents, account),
                subject=name,
            )
        _password(rows, user, account)
        for key, kind, value in (
            ("shell", "user-shell", account.shell),
            ("home", "user-home", account.home),
        ):
            wanted = user.get(key)
            if isinstance(wanted, str) and wanted:
                rows.add(kind, f"user {name} {key}", wanted, value, wanted == value, subject=name)
        max_age = user.get("passwordMaxAge")
        if isinstance(max_age, int) and not isinstance(max_age, bool) and max_age > 0:
            found = str(account.password_max_days) if account.password_max_days else "not set"
            rows.add(
                "user-password-max-age",
                f"user {name} password max age",
                f"{max_age} days",
                found if found == "not set" else f"{found} days",
                account.password_max_days == max_age,
                subject=name,
            )


def _sudo(contents: ImageContents, account: ImageUser) -> tuple[str, bool]:
    if contents.package_db == "dpkg" and "sudo" not in contents.packages:
        return "sudo is not installed", False
    for rule in contents.sudo_rules:
        who = rule.split()[0]
        if who == account.name or (who.startswith("%") and who[1:] in account.groups):
            return f"yes ({rule})", True
    return "no sudoers rule for the user or its groups", False


def _password(rows: _Rows, user: Mapping[str, Any], account: ImageUser) -> None:
    name = account.name
    password = user.get("password")
    described = {
        "hash": "a password hash",
        "empty": "empty (logs in without a password)",
        "locked": "locked (no password logs in)",
        "missing": "no /etc/shadow entry",
    }[account.password]
    if isinstance(password, str) and password.startswith("$"):
        ok = account.password_is(password)
        found = "the template's hash" if ok else described
        rows.add(
            "user-password", f"user {name} password", "the template's hash", found, ok, subject=name
        )
    elif isinstance(password, str) and password:
        rows.add(
            "user-password",
            f"user {name} password",
            "set (from the template)",
            described,
            account.password == "hash",
            subject=name,
        )
    else:
        rows.add(
            "user-password",
            f"user {name} password",
            "locked (the template sets none)",
            described,
            account.password == "locked",
            subject=name,
        )


def _listed_packages(data: Mapping[str, Any]) -> list[str]:
    system = _mapping(data.get("systemConfig"))
    names: list[str] = []
    for value in (system.get("packages"), _mapping(system.get("kernel")).get("packages")):
        for item in value if isinstance(value, list) else []:
            if isinstance(item, str) and (match := _PIN.match(item)):
                names.append(match.group(1).split("=", 1)[0])
    return list(dict.fromkeys(names))


def _packages(rows: _Rows, contents: ImageContents) -> None:
    names = _listed_packages(rows.data)
    if not names:
        return
    if contents.package_db != "dpkg":
        rows.skip(
            f"packages ({len(names)} listed): "
            + (
                "an RPM image's package database is not read yet"
                if contents.package_db == "rpm"
                else "no package database in the image"
            )
        )
        return
    for name in names:
        rows.add(
            "package", f"package {name}", "installed", *_installed(name, contents), subject=name
        )


def _installed(name: str, contents: ImageContents) -> tuple[str, bool]:
    if any(ch in name for ch in "*?["):
        matched = fnmatch.filter(contents.packages, name)
        return (", ".join(matched[:3]) or "none matches", bool(matched))
    if name in contents.packages:
        return contents.packages[name], True
    if name in contents.provided:
        return "provided by " + ", ".join(contents.provided[name]), True
    return "not installed", False


def _root_words(cmdline: str) -> list[str]:
    return [word for word in cmdline.split() if word.startswith("root=")]


def _points_at(value: str, part: ImagePartition) -> bool:
    key, _, ident = value.partition("=")
    ident = ident.lower()
    return (key == "PARTUUID" and ident == part.uuid) or (
        key == "UUID" and ident.replace("-", "") == part.fs_uuid.replace("-", "")
    )


def _root_device(rows: _Rows, contents: ImageContents, cmdline: str, asked: str | None) -> None:
    """The root= the kernel boots with: the template's own, else the / partition's PARTUUID.

    The kernel takes the last root=; earlier ones that name the build host's loop device
    are the known stray (``cmdline-stray-loop-root``).
    """
    root = contents.root
    if root is None:
        return
    roots = _root_words(cmdline)

    def right(word: str) -> bool:
        return word == asked if asked else _points_at(word[5:], root)

    if asked:
        expected = asked
    else:
        expected = f"root=PARTUUID={root.uuid}" if root.uuid else "root= of the root partition"
    rows.add(
        "kernel-cmdline-root",
        "kernel root device",
        expected,
        " ".join(roots) or "no root=",
        len(roots) == 1 and right(roots[0]),
        explainable=bool(roots)
        and right(roots[-1])
        and all(r.startswith("root=/dev/loop") for r in roots[:-1]),
    )


def _kernel(rows: _Rows, contents: ImageContents) -> None:
    kernel = _mapping(_mapping(rows.data.get("systemConfig")).get("kernel"))
    cmdline = contents.kernel_cmdline
    wanted = kernel.get("cmdline")
    asked_roots = _root_words(wanted) if isinstance(wanted, str) else []
    if cmdline is not None:
        if isinstance(wanted, str) and wanted.strip():
            words = [w for w in wanted.split() if not w.startswith("root=")]
            missing = [w for w in words if w not in cmdline.split()]
            rows.add("kernel-cmdline", "kernel command line", " ".join(words), cmdline, not missing)
        _root_device(rows, contents, cmdline, asked_roots[-1] if asked_roots else None)
    version = kernel.get("version")
    if isinstance(version, str | int | float) and str(version).strip():
        want = str(version).strip()
        boundary = re.compile(re.escape(want) + r"(?![0-9])")
        found = ", ".join(contents.kernels) or "no /boot/vmlinuz-*"
        ok = any(boundary.match(k) for k in contents.kernels)
        rows.add("kernel-version", "kernel version", want, found, ok)


def describe_rows(checks: Iterable[Check]) -> dict[str, int]:
    """Counts: rows, ok, explained, unexplained."""
    checks = list(checks)
    return {
        "rows": len(checks),
        "ok": sum(c.ok for c in checks),
        "explained": sum(bool(not c.ok and c.known) for c in checks),
        "unexplained": sum(bool(not c.ok and not c.known) for c in checks),
    }
