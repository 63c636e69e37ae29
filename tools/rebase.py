"""Re-base a template on another dist: its customisations replayed as plan operations.

A template's *customisations* are what differs between it and the platform of its own
target (the minimal library template of that dist, arch and image type): packages added
and removed, kernel options, hostname, disk size, partitions, users, repositories,
artifacts, immutability, bootloader, image name, configuration commands and any other
setting. :func:`rebase` turns that difference into :mod:`~oic_ai.tools.edit_plan`
operations on the platform of the new target and applies them with the one applier.
Package names are mapped through the capability catalog; a kernel version, kernel
packages and a repository of another package family are not carried over, and say so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from oic_ai.stores.capability_catalog import CapabilityCatalog
from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.targets import load_targets
from oic_ai.tools.edit_plan import (
    AddPackages,
    AddPartition,
    EditPlan,
    RemovePackages,
    RemovePartition,
    ResizePartition,
    SetDiskSize,
    SetHostname,
    SetImage,
    SetKernel,
    SetValue,
)


@dataclass
class Retargeted:
    """A template re-targeted, with what happened to it.

    Attributes:
        text: The new template text.
        changes: What was done, one line each.
        not_carried: What could not be carried over, each with the reason.
        warnings: Things to check (placeholders, renamed packages).
        base_template: The library template the result was re-based on (another dist), or
            None when it was changed in place.
        base_text: That template's text.
    """

    text: str
    changes: list[str] = field(default_factory=list)
    not_carried: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    base_template: str | None = None
    base_text: str | None = None


@dataclass(frozen=True)
class Platform:
    """The minimal template of a target, from the library.

    Attributes:
        name: The library template it comes from.
        text: Its text, already set to the target (arch, image type) when the library has
            no template of exactly that target.
    """

    name: str
    text: str


def map_package(
    catalog: CapabilityCatalog, name: str, old: Mapping[str, str], new: Mapping[str, str]
) -> tuple[str, ...] | None:
    """The names that mean package ``name`` of the ``old`` target on the ``new`` one.

    The catalog's package aliases first (docker.io <-> moby-engine), then its
    capabilities (a capability's packages on the old target become its packages on the new
    one); a name neither knows is kept within a family.

    Returns:
        The new names (the name itself when nothing changes); an empty tuple when the new
        target does not ship it; None when the families differ and nothing maps it.
    """
    for group in catalog.alias_groups:
        if name not in group.names:
            continue
        names = group.names_for(new["os"], new["dist"], new["arch"])
        if name in names or not names:
            break  # already right there, or the group says nothing for that target
        return names[:1]
    for capability in catalog.capabilities_for_package(name):
        if name not in capability.packages_for(old["os"], old["dist"], old["arch"]):
            continue
        names = capability.packages_for(new["os"], new["dist"], new["arch"])
        return names if name not in names else (name,)
    targets = load_targets()
    if targets.family_of(old["dist"]) == targets.family_of(new["dist"]):
        return (name,)
    return None


# systemConfig keys the rebase handles one by one; any other key that differs is copied
_SYSTEM_HANDLED = frozenset(
    {"name", "description", "hostname", "packages", "kernel", "users", "immutability",
     "bootloader"}
)  # fmt: skip
# keys that describe the base, not the image the user built
_BASE_ONLY = frozenset({"metadata"})


def parse(text: str | None) -> dict[str, Any]:
    """A template text as plain data ({} when it is not a mapping)."""
    import yaml

    try:
        data = yaml.load(text or "", Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def section(doc: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    """The mapping at ``keys`` inside ``doc`` ({} when there is none)."""
    node: Any = doc
    for key in keys:
        node = node.get(key) if isinstance(node, Mapping) else None
    return dict(node) if isinstance(node, Mapping) else {}


def packages_of(doc: Mapping[str, Any]) -> list[str]:
    """``systemConfig.packages`` as strings."""
    return [str(p) for p in section(doc, "systemConfig").get("packages") or [] if p]


def _kernel_packages(doc: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in section(doc, "systemConfig", "kernel").get("packages") or [] if p]


def _option_key(token: str) -> str:
    # a console is keyed by its device: console=ttyS0 and console=tty0 are two options
    if token.startswith("console="):
        return token.split(",", 1)[0]
    return token.split("=", 1)[0]


def _cmdline(doc: Mapping[str, Any]) -> list[str]:
    return str(section(doc, "systemConfig", "kernel").get("cmdline") or "").split()


def _partitions(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    parts = section(doc, "disk").get("partitions") or []
    return [dict(p) for p in parts if isinstance(p, Mapping)]


def _is_platform_partition(part: Mapping[str, Any]) -> bool:
    """The ESP and the root filesystem come from the platform of each target."""
    return part.get("mountPoint") in ("/", "/boot/efi") or part.get("type") == "esp"


def _extent(part: Mapping[str, Any], disk_size: int | None = None) -> int | None:
    """A partition's size; one that takes the rest of the disk has what is left of it."""
    start, end = parse_size(part.get("start")), parse_size(part.get("end"))
    if start is None:
        return None
    if not end:
        return disk_size - start if disk_size and disk_size > start else None
    return end - start


def _size_text(size: int) -> str:
    for unit, factor in (("GB", 1000**3), ("MB", 1000**2)):
        if size % factor == 0 and size % (1024**2) != 0:
            return f"{size // factor}{unit}"  # a decimal size stays decimal
    return format_size(size)


class _Replay:
    """Collects the operations that carry one template's customisations to another."""

    def __init__(
        self,
        current: dict[str, Any],
        platform: dict[str, Any],
        new_base: dict[str, Any],
        old: Mapping[str, str],
        new: Mapping[str, str],
        session_base: dict[str, Any],
        catalog: CapabilityCatalog,
        asked: Sequence[str] = (),
    ) -> None:
        self.current, self.platform, self.new_base = current, platform, new_base
        self.old, self.new, self.session_base, self.catalog = old, new, session_base, catalog
        self.asked = asked
        self.operations: list[Any] = []
        self.not_carried: list[str] = []
        self.renamed: list[str] = []
        self.unchecked: list[str] = []

    def _customised(self, value: Any, *path: str) -> bool:
        """``value`` differs from the platform's and from the session base's own value."""
        from_platform = section(self.platform, *path[:-1]).get(path[-1])
        from_base = section(self.session_base, *path[:-1]).get(path[-1])
        return value is not None and value != from_platform and value != from_base

    def _asked(self, word: str) -> bool:
        """True when a request of the session named ``word`` as written ("add ip=dhcp").

        What the user asked for is theirs even when the old base happened to have it too:
        it is carried over like any customisation.
        """
        found = re.compile(rf"(?<![\w.=/+-]){re.escape(word)}(?![\w=/+-]|\.\w)", re.IGNORECASE)
        return any(found.search(request) for request in self.asked)

    def _removed(self, platform: set[Any], current: set[Any], base: set[Any]) -> set[Any]:
        """What the user took out: in the platform and the session's base, not in the template.

        Nothing when the session's base is not known.
        """
        return (platform & base) - current if self.session_base else set()

    def packages(self) -> None:
        current, platform = packages_of(self.current), set(packages_of(self.platform))
        present = set(packages_of(self.new_base))
        add: list[str] = []
        for name in current:
            if name in platform and (name in present or not self._asked(name)):
                continue
            mapped = map_package(self.catalog, name, self.old, self.new)
            if mapped is None:  # nothing maps it: the user's name is kept, and said to be so
                self.unchecked.append(name)
                mapped = (name,)
            if not mapped:
                self.not_carried.append(f"package {name}: {self.new['dist']} does not ship it")
                continue
            if mapped != (name,):
                self.renamed.append(f"{name} -> {', '.join(mapped)}")
            add.extend(n for n in mapped if n not in present and n not in add)
        remove: list[str] = []
        for name in sorted(
            self._removed(platform, set(current), set(packages_of(self.session_base)))
        ):
            # a name nothing maps is taken out under the same name, if the new base has it
            for other in map_package(self.catalog, name, self.old, self.new) or (name,):
                if other in present and other not in add and other not in remove:
                    remove.append(other)
        if add:
            self.operations.append(AddPackages(packages=add))
        if remove:
            self.operations.append(RemovePackages(packages=remove))
        kernel = _kernel_packages(self.current)
        if kernel != _kernel_packages(self.platform) and kernel != _kernel_packages(
            self.session_base
        ):
            self.not_carried.append(
                f"kernel packages {', '.join(kernel)}: they belong to {self.old['dist']}; "
                f"kept {self.new['dist']}'s"
            )

    def kernel(self) -> None:
        version = section(self.current, "systemConfig", "kernel").get("version")
        if self._customised(version, "systemConfig", "kernel", "version"):
            self.not_carried.append(
                f"kernel version {version}: it is {self.old['dist']}'s; kept {self.new['dist']}'s"
            )
        current, platform = _cmdline(self.current), _cmdline(self.platform)
        result = _cmdline(self.new_base)
        if current == platform:
            return
        removed = self._removed(
            {_option_key(t) for t in platform},
            {_option_key(t) for t in current},
            {_option_key(t) for t in _cmdline(self.session_base)},
        )
        result = [t for t in result if _option_key(t) not in removed]
        for token in current:
            if token in platform and (token in result or not self._asked(token)):
                continue
            device = token.split("=", 1)[1].split(",", 1)[0] if token.startswith("console=") else ""
            if device and not load_targets().has_serial_device(self.new["arch"], device):
                kind = device.rstrip("0123456789")
                self.not_carried.append(
                    f"kernel option {token}: {self.new['arch']} has no {kind} serial devices"
                )
                continue
            key = _option_key(token)
            at = next((i for i, t in enumerate(result) if _option_key(t) == key), None)
            if at is None:
                result.append(token)
            else:
                result[at] = token
        if result != _cmdline(self.new_base):
            self.operations.append(SetKernel(cmdline=" ".join(result)))

    def system(self) -> None:
        system = section(self.current, "systemConfig")
        hostname = system.get("hostname")
        if (
            isinstance(hostname, str)
            and self._customised(hostname, "systemConfig", "hostname")
            and not _named_after_image(hostname, self.current)
        ):
            self.operations.append(SetHostname(hostname=hostname))
        for key in ("immutability", "bootloader"):
            value = system.get(key)
            if self._customised(value, "systemConfig", key):
                self.operations.append(SetValue(path=f"systemConfig.{key}", value=value))
        self._users(system.get("users"))
        new_system = section(self.new_base, "systemConfig")
        for key, value in system.items():
            if key in _SYSTEM_HANDLED or not self._customised(value, "systemConfig", key):
                continue
            if key == "configurations" and isinstance(value, list):
                platform = section(self.platform, "systemConfig").get(key) or []
                added = [item for item in value if item not in platform]
                value = [*(new_system.get(key) or []), *added]
            self.operations.append(SetValue(path=f"systemConfig.{key}", value=value))

    def _users(self, users: Any) -> None:
        if not isinstance(users, list) or not self._customised(users, "systemConfig", "users"):
            return
        groups = load_targets().admin_groups
        old_admin = groups.get(load_targets().family_of(self.old["dist"]) or "")
        new_admin = groups.get(load_targets().family_of(self.new["dist"]) or "")
        carried = []
        for user in users:
            if not isinstance(user, Mapping):
                continue
            user = dict(user)
            if old_admin and new_admin and isinstance(user.get("groups"), list):
                user["groups"] = [new_admin if g == old_admin else g for g in user["groups"]]
            carried.append(user)
        self.operations.append(SetValue(path="systemConfig.users", value=carried))

    def disk(self) -> None:
        disk, new_disk = section(self.current, "disk"), section(self.new_base, "disk")
        if not disk or not new_disk:
            if disk and _partitions(self.current) != _partitions(self.platform):
                self.not_carried.append(
                    f"the disk layout: a {self.new['imageType']} image of {self.new['dist']} "
                    "has none"
                )
            return
        size = disk.get("size")
        if self._customised(size, "disk", "size") or (parse_size(size) or 0) > (
            parse_size(new_disk.get("size")) or 0
        ):
            self.operations.append(SetDiskSize(size=str(size)))
        artifacts = disk.get("artifacts")
        asked = isinstance(artifacts, list) and any(
            isinstance(a, Mapping) and self._asked(str(a.get("type"))) for a in artifacts
        )  # "qcow2 output" on a base that had qcow2 already
        if self._customised(artifacts, "disk", "artifacts") or (
            asked and artifacts != new_disk.get("artifacts")
        ):
            self.operations.append(SetValue(path="disk.artifacts", value=artifacts))
        platform = {p.get("mountPoint"): p for p in _partitions(self.platform)}
        present = {p.get("mountPoint"): p for p in _partitions(self.new_base)}
        kept = set()
        for part in _partitions(self.current):
            mount = part.get("mountPoint")
            kept.add(mount)
            if not isinstance(mount, str):
                continue
            if _is_platform_partition(part):
                # the ESP and the root come from the new platform, with the size the user
                # gave them ("/ 20 GiB"); a root that takes the rest stays so
                fixed = _extent(part) if parse_size(part.get("end")) else None
                own = platform.get(mount)
                if fixed and mount in present and own is not None and _extent(own) != fixed:
                    if _extent(present[mount]) != fixed:
                        resize = ResizePartition(partition=mount, size=_size_text(fixed))
                        self.operations.append(resize)
                continue
            if not parse_size(part.get("end")):
                # one that takes the rest of the disk keeps doing so: its extent in bytes on
                # a decimal disk ("50GB") is no whole MiB, and carving it would grow the disk
                size_bytes, size_text = None, None
            else:
                size_bytes = _extent(part)
                size_text = _size_text(size_bytes) if size_bytes else None
            if mount in present:
                if size_text and _extent(present[mount]) != size_bytes:
                    self.operations.append(ResizePartition(partition=mount, size=size_text))
                continue
            self.operations.append(
                AddPartition(
                    id=str(part.get("id") or mount.strip("/").replace("/", "-") or "data"),
                    mount_point=mount,
                    size=size_text,
                    fs_type=str(part.get("fsType") or "ext4"),
                    type=str(part.get("type") or "linux"),
                )
            )
        base = {p.get("mountPoint") for p in _partitions(self.session_base)}
        for mount in self._removed(set(platform), kept, base):
            if mount in present and isinstance(mount, str):
                self.operations.append(RemovePartition(partition=mount))

    def repositories(self) -> None:
        repos = self.current.get("packageRepositories")
        if not isinstance(repos, list) or not self._customised(repos, "packageRepositories"):
            return
        platform = self.platform.get("packageRepositories") or []
        added = [r for r in repos if r not in platform]
        if not added:
            return
        targets = load_targets()
        if targets.family_of(self.old["dist"]) != targets.family_of(self.new["dist"]):
            for repo in added:
                url = repo.get("url") if isinstance(repo, Mapping) else repo
                self.not_carried.append(
                    f"repository {url}: it serves {targets.family_of(self.old['dist'])} "
                    f"packages, {self.new['dist']} uses {targets.family_of(self.new['dist'])}"
                )
            return
        existing = self.new_base.get("packageRepositories") or []
        self.operations.append(SetValue(path="packageRepositories", value=[*existing, *added]))

    def image(self) -> None:
        image = section(self.current, "image")
        name = image.get("name")
        if isinstance(name, str) and self._customised(name, "image", "name"):
            # a name made of the target's words follows the target
            renamed = re.sub(
                rf"(?<![A-Za-z0-9]){re.escape(self.old['dist'])}(?![A-Za-z0-9])",
                self.new["dist"],
                name,
            )
            self.operations.append(SetImage(name=renamed))
        for key, value in self.current.items():
            if key in ("image", "target", "disk", "systemConfig", "packageRepositories"):
                continue
            if key in _BASE_ONLY or not self._customised(value, key):
                continue
            self.operations.append(SetValue(path=key, value=value))


def rebase(
    text: str,
    old: Mapping[str, str],
    new: Mapping[str, str],
    *,
    old_platform: str | None,
    new_platform: Platform,
    session_base: str | None,
    catalog: CapabilityCatalog,
    asked: Sequence[str] = (),
) -> Retargeted:
    """Carry ``text``'s customisations from the ``old`` target onto ``new_platform``.

    Args:
        text: The current template.
        old: Its full target.
        new: The new full target.
        old_platform: The platform of the old target (None: the session base stands in).
        new_platform: The platform of the new target, the new base.
        session_base: The text the session started from, if known.
        catalog: The capability catalog (package names across families).
        asked: The user's requests of the session: a package or kernel option of the
            current template named in one is carried over even when the old platform had
            it too.
    """
    from oic_ai.tools.applier import apply_plan

    current = parse(text)
    base = parse(session_base)
    replay = _Replay(
        current,
        parse(old_platform) if old_platform else base,
        parse(new_platform.text),
        old,
        new,
        base,
        catalog,
        asked,
    )
    replay.packages()
    replay.kernel()
    replay.system()
    replay.disk()
    replay.repositories()
    replay.image()
    applied = apply_plan(
        new_platform.text,
        EditPlan(summary=f"the same image for {new['dist']}", operations=replay.operations),
    )
    changes = [f"started from {new_platform.name} ({new['dist']}, {new['arch']}, "
               f"{new['imageType']}) and carried the customisations over"]  # fmt: skip
    changes += applied.applied
    if replay.renamed:
        changes.append(f"renamed packages for {new['dist']}: " + "; ".join(replay.renamed))
    warnings = list(applied.warnings)
    if replay.unchecked:
        warnings.append(
            f"carried by name to {new['dist']}, which the catalog cannot map from "
            f"{old['dist']}: {', '.join(replay.unchecked)}; check that "
            f"{'it exists' if len(replay.unchecked) == 1 else 'they exist'} there "
            "(oic-ai packages sync, then the package check says)"
        )
    not_carried = list(replay.not_carried)
    not_carried += [line.removeprefix("not applied: ") for line in applied.not_applied]
    return Retargeted(
        text=applied.text,
        changes=changes,
        not_carried=not_carried,
        warnings=warnings,
        base_template=new_platform.name,
        base_text=new_platform.text,
    )


def _named_after_image(hostname: str, template: Mapping[str, Any]) -> bool:
    """True when ``hostname`` is the one the agent gives a template named after its image.

    That name is the agent's, not the user's: it follows the image to the new target (the
    composer-fit step names the new template after its own image), so it is not carried.
    """
    from oic_ai.tools.composer_fit import hostname_for

    return hostname == hostname_for(template)
