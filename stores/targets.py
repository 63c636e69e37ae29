"""The build targets the composer supports, read from ``stores/data/targets.yaml``.

One typed registry answers every question about targets: which dists an os owns, the
package family of a dist, its display name and codename, how people name it, the
canonical spelling of an arch, its serial console, and its root partition type and
GPT type GUID. Request vocabulary about targets (unsupported targets, two-word names)
and the shapes of constrained template fields (hostname, user name) live there too.

The file is read on first use and cached. Modules on the ``validate`` start-up path
import this module lazily (see ``oic_ai.stores.vocabulary.RegistryView``).

Example:
    >>> from oic_ai.stores.targets import load_targets
    >>> load_targets().family_of("ubuntu24")
    'deb'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from oic_ai.stores.data_files import load_mapping

TARGETS_PATH = Path(__file__).parent / "data" / "targets.yaml"


@dataclass(frozen=True)
class RootPartition:
    """The root partition of one arch (Discoverable Partitions Specification).

    Attributes:
        type: The composer's partition type name, e.g. ``linux-root-amd64``.
        guid: The GPT partition type GUID, lower case.
        also: Other type names the composer accepts for the same arch.
    """

    type: str
    guid: str
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Arch:
    """One ``target.arch`` value and the words that go with it.

    Attributes:
        name: The composer's name, e.g. ``x86_64``.
        spellings: Other names for it in configs and repositories (``amd64``).
        keywords: Words that describe a template of this arch, for retrieval.
        words: Single words that name it in a request.
        phrase: A regular expression for longer ways a request names it ("" for none).
        name_words: Arch words inside image, disk and config names.
        package_words: Arch words inside package names (``grub-efi-amd64``).
        name_word: The word a new image name uses for the arch (``amd64``).
        console: Serial console device prefix on the kernel command line, or "".
        serial: The serial device prefixes the arch has (``ttyS``, ``ttyAMA``).
        deb_name: Debian's name for it in repositories (``amd64``).
        root: The root partition type and GUID.
    """

    name: str
    spellings: tuple[str, ...]
    keywords: tuple[str, ...]
    words: tuple[str, ...]
    phrase: str
    name_words: tuple[str, ...]
    package_words: tuple[str, ...]
    name_word: str
    console: str
    deb_name: str
    root: RootPartition
    serial: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dist:
    """One ``target.dist`` value.

    Attributes:
        id: The dist as templates write it, e.g. ``ubuntu24``.
        os: The ``target.os`` that owns it.
        family: Its package family, ``deb`` or ``rpm``.
        title: Its display name, e.g. ``Ubuntu 24.04``.
        codename: Its release codename (``noble``), or "" when it has none.
        repository_codename: Whether a new package repository without a codename gets
            this one (false where the codename has not been checked against its archive).
        keywords: Words that describe a template of this dist, for retrieval.
        words: Single words that name it in a request.
        phrase: A regular expression for longer ways a request names it.
        builds: Image type -> the arches the composer has OS defaults for; any other
            combination of this dist cannot be built.
        os_release: What a built image's ``os-release`` says (``ID``, ``VERSION_ID``),
            where known; empty otherwise.
    """

    id: str
    os: str
    family: str
    title: str
    codename: str
    keywords: tuple[str, ...]
    words: tuple[str, ...]
    phrase: str
    repository_codename: bool = True
    builds: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    os_release: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class OperatingSystem:
    """One ``target.os`` value.

    Attributes:
        name: The os as templates write it, e.g. ``azure-linux``.
        dists: Its dists; the first is the default.
        spellings: Other spellings that mean it (``azurelinux``).
    """

    name: str
    dists: tuple[str, ...]
    spellings: tuple[str, ...] = ()

    @property
    def default_dist(self) -> str:
        """The dist to use when only the os is known."""
        return self.dists[0]


@dataclass(frozen=True)
class ImageType:
    """One ``target.imageType`` value.

    Attributes:
        name: ``raw``, ``img`` or ``iso``.
        title: How a summary names it ("raw disk image").
        context: What it implies about deployment, for retrieval.
        words: Single words that name it in a request.
        phrase: A regular expression for longer ways a request names it.
        name_word: The word a new image name uses for it ("" for none).
        about: What it is, in one line, for an answer ("" for none).
    """

    name: str
    title: str
    context: tuple[str, ...]
    words: tuple[str, ...]
    phrase: str
    name_word: str = ""
    about: str = ""


@dataclass(frozen=True)
class UnsupportedTarget:
    """A target people ask for that the composer does not build.

    Attributes:
        phrase: A regular expression that names it in a request.
        supported: What to suggest instead.
        name: What a refusal calls it ("Windows", "Ubuntu 22.04 or older"): a request for
            it is refused. Empty for a word the planner reports without refusing.
        nearest: The dist offered instead of a refused system ("" for none).
        kind: ``system`` (an OS: a supported dist named beside it wins), ``arch`` (an
            arch no dist builds: refused whatever dist is named) or ``build system`` (a
            system refused only when an image of it is asked for: "a Yocto build").
        os: The os it is a release of ("ubuntu" for Ubuntu 22.04), "" for another system.
        arch: The schema's name for the arch it is ("armv7hl"), "" for none.
    """

    phrase: str
    supported: str
    name: str = ""
    nearest: str = ""
    kind: str = "system"
    os: str = ""
    arch: str = ""


@dataclass(frozen=True)
class TargetRegistry:
    """Every target fact, loaded from ``stores/data/targets.yaml``.

    Attributes:
        oses: Operating systems by name, in the composer's order.
        dists: Dists by id, in family order (``families``).
        families: Family name -> its dists, in order.
        arches: Arches by name, in the composer's order.
        image_types: Image types by name, in the order their request phrases are tried.
        unsupported: Targets the composer does not build.
        os_words: Words that name an os but no dist -> that os.
        family_phrases: Package family -> a regular expression for the words that name
            the family rather than one dist ("RPM-based").
        joined_words: Two-word names -> the single word that means the same.
        name_parts: Words that are parts of target names.
        from_before: Regular expression for the words before a source target ("from").
        field_patterns: Template field -> the regular expression its value must match.
        admin_groups: Family -> the group that gives an account admin rights.
        partition_types: Partition type name -> GPT type GUID (lower case), root types
            of every arch included.
        default_arch: The arch a template without one means.
        default_image_type: The image type a template without one means.
    """

    oses: Mapping[str, OperatingSystem]
    dists: Mapping[str, Dist]
    families: Mapping[str, tuple[str, ...]]
    arches: Mapping[str, Arch]
    image_types: Mapping[str, ImageType]
    unsupported: tuple[UnsupportedTarget, ...]
    os_words: Mapping[str, str]
    joined_words: Mapping[str, str]
    name_parts: tuple[str, ...]
    from_before: str
    field_patterns: Mapping[str, str]
    admin_groups: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    family_phrases: Mapping[str, str] = field(default_factory=dict)
    partition_types: Mapping[str, str] = field(default_factory=dict)
    default_arch: str = "x86_64"
    default_image_type: str = "raw"

    # --- os and dist --------------------------------------------------------------------

    def os_dists(self) -> dict[str, tuple[str, ...]]:
        """Return os -> its dists, in the composer's order."""
        return {name: os.dists for name, os in self.oses.items()}

    def dist(self, dist: str) -> Dist:
        """Return a dist by id.

        Raises:
            KeyError: the composer has no such dist.
        """
        return self.dists[dist]

    def os_of(self, dist: object) -> str | None:
        """Return the os that owns ``dist``, or None for an unknown dist."""
        found = self.dists.get(dist) if isinstance(dist, str) else None
        return found.os if found else None

    def family_of(self, dist: object) -> str | None:
        """Return ``deb`` or ``rpm`` for a dist, or None for an unknown dist."""
        found = self.dists.get(dist) if isinstance(dist, str) else None
        return found.family if found else None

    def os_family(self, os: object) -> str | None:
        """Return ``deb`` or ``rpm`` for a ``target.os``, or None for an unknown os."""
        found = self.oses.get(os) if isinstance(os, str) else None
        return self.dists[found.default_dist].family if found else None

    def title(self, dist: str) -> str:
        """Return a dist's display name ("eLxr 12"); the id itself when unknown."""
        found = self.dists.get(dist)
        return found.title if found else dist

    def image_type_title(self, image_type: str, default: str) -> str:
        """Return how a summary names an image type ("raw disk image"), or ``default``."""
        found = self.image_types.get(image_type)
        return found.title if found else default

    def codename(self, dist: object) -> str:
        """Return a dist's release codename ("noble"), or "" when it has none or is unknown."""
        found = self.dists.get(dist) if isinstance(dist, str) else None
        return found.codename if found else ""

    def repository_codename(self, dist: object) -> str:
        """Return the codename a new repository of ``dist`` is assumed to have, or ""."""
        found = self.dists.get(dist) if isinstance(dist, str) else None
        return found.codename if found and found.repository_codename else ""

    def os_for_spelling(self, word: str) -> str | None:
        """Return the os a spelling means (``azurelinux`` -> ``azure-linux``), or None."""
        for os in self.oses.values():
            if word == os.name or word in os.spellings:
                return os.name
        return None

    # --- what the composer can build ----------------------------------------------------

    def buildable(self, dist: object, arch: object, image_type: object) -> bool:
        """Return whether the composer has OS defaults for this dist, arch and image type."""
        found = self.dists.get(dist) if isinstance(dist, str) else None
        return found is not None and arch in found.builds.get(str(image_type), ())

    def combinations(self) -> list[tuple[str, str, str, str]]:
        """Return every ``(os, dist, arch, imageType)`` the schema allows, buildable or not."""
        return [
            (dist.os, dist.id, arch, image_type)
            for dist in self.dists.values()
            for arch in self.arches
            for image_type in self.image_types
        ]

    def nearest_buildable(
        self, dist: str, arch: str, image_type: str
    ) -> tuple[tuple[str, str, str], ...]:
        """Return the buildable ``(dist, arch, imageType)`` closest to an unbuildable one.

        First the same image type on another arch (the default arch first), then the same
        arch with another image type (the default image type first); empty for an unknown
        dist. A buildable combination is its own nearest.
        """
        found = self.dists.get(dist)
        if found is None:
            return ()
        if self.buildable(dist, arch, image_type):
            return ((dist, arch, image_type),)

        def first_default(names: tuple[str, ...], default: str) -> list[str]:
            return sorted(names, key=lambda name: name != default)

        options = [
            (dist, other, image_type)
            for other in first_default(found.builds.get(image_type, ()), self.default_arch)
        ]
        kinds = tuple(kind for kind, arches in found.builds.items() if arch in arches)
        options += [(dist, arch, kind) for kind in first_default(kinds, self.default_image_type)]
        return tuple(options)

    # --- arch ---------------------------------------------------------------------------

    def arch_for_spelling(self, word: str) -> str | None:
        """Return the arch a name or spelling means (``amd64`` -> ``x86_64``), or None."""
        if word in self.arches:
            return word
        for arch in self.arches.values():
            if word in arch.spellings:
                return arch.name
        return None

    def canonical_arch(self, arch: str) -> str:
        """Return the composer's name for ``arch``; an unknown arch is returned unchanged."""
        return self.arch_for_spelling(arch) or arch

    def has_serial_device(self, arch: str, device: str) -> bool:
        """Return whether ``device`` (``ttyS1``) is a serial device ``arch`` has.

        A device no arch lists as serial (``tty0``, a virtual terminal) counts as present.
        """
        prefix = device.rstrip("0123456789")
        known = {p for a in self.arches.values() for p in a.serial}
        found = self.arches.get(arch)
        return prefix not in known or (found is not None and prefix in found.serial)

    def consoles(self) -> dict[str, str]:
        """Return arch -> serial console prefix, for the arches that have one."""
        return {name: arch.console for name, arch in self.arches.items() if arch.console}

    def follow_consoles(self, cmdline: str, arch: str) -> str:
        """Return ``cmdline`` with every arch's default serial console as ``arch``'s.

        Device 0 is each arch's default serial console (``console=ttyS0`` becomes
        ``console=ttyAMA0`` for aarch64); another device is the user's own and stays.
        """
        consoles = self.consoles()
        console = consoles.get(arch)
        others = "|".join(t for a, t in consoles.items() if a != arch)
        if not console or not others:
            return cmdline
        return re.sub(rf"(?<=console=)(?:{others})(?=0(?![0-9]))", console, cmdline)

    # --- root partitions ----------------------------------------------------------------

    def root_type(self, arch: str) -> str:
        """Return the root partition type name for an arch.

        Raises:
            KeyError: unknown arch.
        """
        return self.arches[arch].root.type

    def root_guid(self, arch: str) -> str:
        """Return the root partition GPT type GUID for an arch (lower case).

        Raises:
            KeyError: unknown arch.
        """
        return self.arches[arch].root.guid

    def arch_of_root_type(self, type_name: object) -> str | None:
        """Return the arch a root partition type name is for, or None."""
        for arch in self.arches.values():
            if type_name == arch.root.type or type_name in arch.root.also:
                return arch.name
        return None

    def arch_of_root_guid(self, guid: object) -> str | None:
        """Return the arch a root partition type GUID is for (any case), or None."""
        if not isinstance(guid, str):
            return None
        lowered = guid.lower()
        for arch in self.arches.values():
            if lowered == arch.root.guid:
                return arch.name
        return None

    def root_types(self) -> dict[str, str]:
        """Return every root partition type name -> its arch."""
        table: dict[str, str] = {}
        for arch in self.arches.values():
            table[arch.root.type] = arch.name
            for other in arch.root.also:
                table[other] = arch.name
        return table

    def root_guids(self) -> dict[str, str]:
        """Return every root partition type GUID (lower case) -> its arch."""
        return {arch.root.guid: arch.name for arch in self.arches.values()}

    # --- request words and field patterns -----------------------------------------------

    def request_words(self, kind: str) -> dict[str, str]:
        """Return the single words that name a target in a request, word -> value.

        Args:
            kind: ``dist``, ``arch`` or ``image_type``.

        Raises:
            KeyError: another kind.
        """
        words: dict[str, tuple[str, ...]]
        if kind == "dist":
            words = {name: dist.words for name, dist in self.dists.items()}
        elif kind == "arch":
            words = {name: arch.words for name, arch in self.arches.items()}
        elif kind == "image_type":
            words = {name: image.words for name, image in self.image_types.items()}
        else:
            raise KeyError(kind)
        return {word: value for value, names in words.items() for word in names}

    def newest_dist(self, os_name: str) -> str | None:
        """The dist of ``os_name`` with the highest release number ("newest Ubuntu")."""
        os = self.oses.get(os_name)
        return max(os.dists, key=lambda d: _major(self.dists[d])) if os and os.dists else None

    def pattern(self, field: str) -> re.Pattern[str]:
        """Return the compiled pattern a template field must match (``hostname``, ...).

        Raises:
            KeyError: no pattern for that field.
        """
        return _compiled(self.field_patterns[field])


@lru_cache(maxsize=32)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def string_list(value: Any, where: str, *, items: str = "strings") -> tuple[str, ...]:
    """Read an optional YAML list of strings (None reads as empty).

    Raises:
        ValueError: ``value`` is not a list of strings; ``where`` and ``items`` name it.
    """
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"{where} must be a list of {items}")
    return tuple(value)


def _map(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a mapping")
    return value


def _builds(value: Any, where: str) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType(
        {
            str(kind): string_list(arches, f"{where}.{kind}")
            for kind, arches in _map(value, where).items()
        }
    )


def _arch(name: str, raw: Mapping[str, Any]) -> Arch:
    root = _map(raw.get("root"), f"arches.{name}.root")
    if not root.get("type") or not root.get("guid"):
        raise ValueError(f"arches.{name}.root needs a type and a guid")
    return Arch(
        name=name,
        spellings=string_list(raw.get("spellings"), f"arches.{name}.spellings"),
        keywords=string_list(raw.get("keywords"), f"arches.{name}.keywords"),
        words=string_list(raw.get("words"), f"arches.{name}.words"),
        phrase=str(raw.get("phrase", "")),
        name_words=string_list(raw.get("name_words"), f"arches.{name}.name_words"),
        package_words=string_list(raw.get("package_words"), f"arches.{name}.package_words"),
        name_word=str(raw.get("name_word", name)),
        console=str(raw.get("console", "")),
        deb_name=str(raw.get("deb", name)),
        serial=string_list(raw.get("serial"), f"arches.{name}.serial"),
        root=RootPartition(
            type=str(root["type"]),
            guid=str(root["guid"]).lower(),
            also=string_list(root.get("also"), f"arches.{name}.root.also"),
        ),
    )


def parse_targets(data: Mapping[str, Any]) -> TargetRegistry:
    """Build the registry from the parsed YAML document.

    Raises:
        ValueError: the document is malformed (a bug in the shipped data).
    """
    families = {
        str(name): string_list(dists, f"families.{name}")
        for name, dists in _map(data.get("families"), "families").items()
    }
    family_of = {dist: family for family, dists in families.items() for dist in dists}
    oses: dict[str, OperatingSystem] = {}
    found: dict[str, Dist] = {}
    for os_name, raw_os in _map(data.get("oses"), "oses").items():
        raw_dists = _map(_map(raw_os, f"oses.{os_name}").get("dists"), f"oses.{os_name}.dists")
        if not raw_dists:
            raise ValueError(f"os {os_name!r} needs at least one dist")
        for dist_id, raw in raw_dists.items():
            where = f"oses.{os_name}.dists.{dist_id}"
            raw = _map(raw, where)
            if dist_id not in family_of:
                raise ValueError(f"{where}: no family lists it")
            found[str(dist_id)] = Dist(
                id=str(dist_id),
                os=str(os_name),
                family=family_of[dist_id],
                title=str(raw.get("title") or dist_id),
                codename=str(raw.get("codename", "")),
                keywords=string_list(raw.get("keywords"), f"{where}.keywords"),
                words=string_list(raw.get("words"), f"{where}.words"),
                phrase=str(raw.get("phrase", "")),
                repository_codename=bool(raw.get("repository_codename", True)),
                builds=_builds(raw.get("builds"), f"{where}.builds"),
                os_release=MappingProxyType(
                    {str(k): str(v) for k, v in _map(raw.get("os_release"), where).items()}
                ),
            )
        oses[str(os_name)] = OperatingSystem(
            name=str(os_name),
            dists=tuple(str(d) for d in raw_dists),
            spellings=string_list(raw_os.get("spellings"), f"oses.{os_name}.spellings"),
        )
    unlisted = set(family_of) - set(found)
    if unlisted:
        raise ValueError(f"families name dists no os owns: {sorted(unlisted)}")
    dists = {dist: found[dist] for dist in family_of}
    arches = {
        str(name): _arch(str(name), _map(raw, f"arches.{name}"))
        for name, raw in _map(data.get("arches"), "arches").items()
    }
    image_types = {
        str(name): ImageType(
            name=str(name),
            title=str(raw.get("title", name)),
            context=string_list(raw.get("context"), f"image_types.{name}.context"),
            words=string_list(raw.get("words"), f"image_types.{name}.words"),
            phrase=str(raw.get("phrase", "")),
            name_word=str(raw.get("name_word", "")),
            about=str(raw.get("about", "")),
        )
        for name, raw in _map(data.get("image_types"), "image_types").items()
    }
    for dist in dists.values():
        for image_type, built in dist.builds.items():
            unknown = [arch for arch in built if arch not in arches]
            if image_type not in image_types or unknown:
                raise ValueError(
                    f"dist {dist.id} builds: unknown image type or arch "
                    f"{image_type!r} {unknown or ''}".rstrip()
                )
    defaults = _map(data.get("defaults"), "defaults")
    request = _map(data.get("request"), "request")
    for word, os_name in _map(request.get("os_words"), "request.os_words").items():
        if os_name not in oses:
            raise ValueError(f"request.os_words.{word}: unknown os {os_name!r}")
    every_dist = ", ".join(list(dists)[:-1]) + f" and {list(dists)[-1]}" if dists else ""
    unsupported = tuple(
        UnsupportedTarget(
            str(entry["phrase"]),
            str(entry.get("supported") or every_dist),
            name=str(entry.get("name") or ""),
            nearest=str(entry.get("nearest") or ""),
            kind=str(entry.get("kind") or "system"),
            os=str(entry.get("os") or ""),
            arch=str(entry.get("arch") or ""),
        )
        for entry in request.get("unsupported") or []
    )
    # after the named ones: a release of a built os that the composer has not got
    # ("eLxr 13", "Debian 14", "Ubuntu 28.04", "RHEL 11")
    unsupported += other_releases(oses, dists)
    family_phrases = {
        str(k): str(v) for k, v in _map(request.get("family_phrases"), "family_phrases").items()
    }
    for name in family_phrases:
        if name not in families:
            raise ValueError(f"request.family_phrases.{name}: unknown family")
    for entry in unsupported:
        if entry.kind not in ("system", "arch", "build system"):
            raise ValueError(f"request.unsupported {entry.name}: unknown kind {entry.kind!r}")
        if entry.nearest and entry.nearest not in dists:
            raise ValueError(f"request.unsupported {entry.name}: unknown dist {entry.nearest!r}")
        if entry.os and entry.os not in oses:
            raise ValueError(f"request.unsupported {entry.name}: unknown os {entry.os!r}")
    return TargetRegistry(
        oses=MappingProxyType(oses),
        dists=MappingProxyType(dists),
        families=MappingProxyType(families),
        arches=MappingProxyType(arches),
        image_types=MappingProxyType(image_types),
        unsupported=unsupported,
        os_words=MappingProxyType(
            {str(k): str(v) for k, v in _map(request.get("os_words"), "os_words").items()}
        ),
        joined_words=MappingProxyType(
            {str(k): str(v) for k, v in _map(request.get("joined_words"), "joined").items()}
        ),
        name_parts=string_list(request.get("name_parts"), "request.name_parts"),
        from_before=str(request.get("from_before", "")),
        field_patterns=MappingProxyType(
            {str(k): str(v) for k, v in _map(data.get("field_patterns"), "field_patterns").items()}
        ),
        admin_groups=MappingProxyType(
            {str(k): str(v) for k, v in _map(data.get("admin_groups"), "admin_groups").items()}
        ),
        family_phrases=MappingProxyType(family_phrases),
        partition_types=MappingProxyType(_partition_types(data, arches)),
        default_arch=str(defaults.get("arch", "x86_64")),
        default_image_type=str(defaults.get("image_type", "raw")),
    )


# what may follow a release number that makes it a count or an amount, not a release:
# "debian 2 nodes", "ubuntu 16 GB", "emt 4 x" (a plural: "debian 14 server" is a release)
_NOT_A_RELEASE_AFTER = (
    r"(?!\s*(?:[kmgt]i?b\b|gigs?\b|megs?\b|%|x\b|times\b|cores\b|cpus\b|nodes\b|"
    r"hosts\b|machines\b|boxes\b|servers\b|vms\b|users\b|devices\b|units\b|"
    r"gateways\b|sites\b|stores\b|of\b))"
)


def _release_names(os: OperatingSystem, dists: Mapping[str, Dist]) -> tuple[set[str], set[int]]:
    """The names that go before a release number of ``os``, and its releases' majors.

    The names come from its dists' titles and words with the version cut off ("eLxr 12"
    -> elxr, "rhel10" -> rhel) and its spellings; codenames and names under three
    letters ("el") are left out. A major is a title's, an ``os-release`` version's or a
    dist id's number.
    """
    names: set[str] = set()
    majors: set[int] = set()
    for dist_id in os.dists:
        dist = dists[dist_id]
        title = re.match(r"(.*?)[\s-]*(\d+)(?:\.\d+)?$", dist.title)
        if title:
            names.add(title.group(1).lower())
            majors.add(int(title.group(2)))
        for source in (dist.id, dist.os_release.get("version_id", "")):
            number = re.search(r"(\d+)(?:\.\d+)?$", source)
            if number:
                majors.add(int(number.group(1)))
        for word in (*dist.words, *os.spellings, dist.os_release.get("id", "")):
            stem = re.sub(r"\d+$", "", word.lower())
            if stem.isalpha() and stem != dist.codename:
                names.add(stem)
    return {n for n in names if len(n) >= 3}, majors


def other_releases(
    oses: Mapping[str, OperatingSystem], dists: Mapping[str, Dist]
) -> tuple[UnsupportedTarget, ...]:
    """One refused target per os: any release number of it the composer does not build.

    "eLxr 13" or "Debian 14" names a built os but no dist of it; a request for one is
    refused like "Ubuntu 22.04", with the os's newest built dist offered instead.
    """
    found: list[UnsupportedTarget] = []
    for os in oses.values():
        names, majors = _release_names(os, dists)
        if not names or not majors:
            continue
        spelled = "|".join(
            r"[\s-]*".join(re.escape(part) for part in re.split(r"[\s-]+", name))
            for name in sorted(names, key=len, reverse=True)
        )
        known = "|".join(str(m) for m in sorted(majors))
        phrase = (
            rf"(?:{spelled})[\s-]*v?(?!(?:{known})(?![\d]))(?!0)\d{{1,2}}(?:\.\d{{1,2}})?"
            rf"(?![\d.]*\d){_NOT_A_RELEASE_AFTER}"
        )
        newest = max(os.dists, key=lambda d: _major(dists[d]))
        title = re.sub(r"[\s-]*\d+(?:\.\d+)?$", "", dists[newest].title)
        found.append(
            UnsupportedTarget(
                phrase,
                ", ".join(f"{dists[d].title} ({d})" for d in os.dists),
                name=f"{title} releases other than "
                + " or ".join(
                    re.sub(r"^.*?(\d+(?:\.\d+)?)$", r"\1", dists[d].title) for d in os.dists
                ),
                nearest=newest,
                os=os.name,
            )
        )
    return tuple(found)


def _major(dist: Dist) -> int:
    number = re.search(r"(\d+)(?:\.\d+)?$", dist.title)
    return int(number.group(1)) if number else 0


def _partition_types(data: Mapping[str, Any], arches: Mapping[str, Arch]) -> dict[str, str]:
    """Partition type name -> GUID: ``partition_types`` plus every arch's root types."""
    table = {
        str(name): str(guid).lower()
        for name, guid in _map(data.get("partition_types"), "partition_types").items()
    }
    for arch in arches.values():
        for name in (arch.root.type, *arch.root.also):
            table[name] = arch.root.guid
    return table


@lru_cache(maxsize=4)
def load_targets(path: Path | None = None) -> TargetRegistry:
    """Load (once) and return the registry shipped in ``stores/data/targets.yaml``.

    Args:
        path: Another targets file, for tests; ``None`` means the shipped one.
    """
    return parse_targets(load_mapping(path or TARGETS_PATH))
