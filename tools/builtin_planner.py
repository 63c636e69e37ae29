"""The builtin planner: turn a request into an :class:`~oic_ai.tools.edit_plan.EditPlan` by rules.

It is the embedded default planner: no LLM, no network, a few milliseconds. Rules match
spans of the request (disk size, partitions, users, kernel, target ...) and mark them
used; what is left is read as package and capability words through the curated
capability catalog; whatever is still left over is reported in ``not_applied``, so no
part of a request is dropped silently. A password in the request is cut out before
anything else looks at the text and never reaches the plan.

The planner only decides *what* to change. :mod:`tools.plan_applier` decides how the YAML
changes (root partition types on an arch change, carving partitions, placeholders).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import lru_cache
from typing import Any, Literal

from oic_ai.stores.capability_catalog import (
    Capability,
    CapabilityCatalog,
    load_catalog,
    package_family,
    words,
)
from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.vocabulary import (
    CAPABILITY_SYNONYMS,
    NOT_PACKAGE_WORDS,
    OS_DISTS,
    PACKAGE_CAPABILITIES,
    TARGET_WORDS,
)
from oic_ai.stores.yaml_document import YamlSyntaxError, load_data
from oic_ai.tools.edit_plan import (
    AddPackages,
    AddPartition,
    AddRepository,
    AddUser,
    Artifact,
    EditPlan,
    Operation,
    RemovePackages,
    RemovePartition,
    ResizePartition,
    SetArtifacts,
    SetBootloader,
    SetDiskSize,
    SetHostname,
    SetImage,
    SetImmutability,
    SetKernel,
    SetMetadata,
    SetTarget,
    SetValue,
)

Mode = Literal["create", "refine"]

__all__ = ["describe_template", "plan_request"]

# --- vocabulary of the request ----------------------------------------------------------

DIST_OS: dict[str, str] = {dist: os for os, dists in OS_DISTS.items() for dist in dists}
DIST_TITLES: dict[str, str] = {
    "ubuntu24": "Ubuntu 24.04",
    "ubuntu26": "Ubuntu 26.04",
    "debian13": "Debian 13",
    "elxr12": "eLxr 12",
    "azl3": "Azure Linux 3",
    "emt3": "Edge Microvisor Toolkit 3",
    "el10": "RHEL-compatible 10",
}
_IMAGE_TYPE_WORDS = {"raw": "raw disk image", "iso": "ISO installer", "img": "network-boot image"}

# Boundaries that keep hyphenated and dotted names whole: "grub" must not match inside
# "grub-efi-amd64", nor "emt" inside "emt3-x86_64-minimal".
_L = r"(?<![a-z0-9_.+/=-])"
_R = r"(?![a-z0-9_+/=]|[.-][a-z0-9])"
_SIZE = r"(?<![\d.])\d{1,7}(?:\.\d{1,3})?\s*(?:tib|tb|t|gib|gb|g|mib|mb|m|kib|kb|k)(?![a-z0-9])"
_FS = r"ext4|ext3|ext2|xfs|btrfs|fat32|fat16|vfat|f2fs"
_MOUNT = r"/(?:[a-z0-9._-]+(?:/[a-z0-9._-]+)*)?"
_END = r"(?=$|[\s,;.!?)\x1f])"
# A name is the whole next word, checked afterwards, so "hostname -bad-" is reported as
# invalid rather than half-read; a sentence's full stop is not part of it.
_QUOTED_NAME = (
    r"[\"'`]?(?!(?:and|to|with|then|is|as|the|a|an|of|for)(?![a-z0-9_.-]))"
    r"(?P<value>[^\s,;\"'`\x1f]+?)[\"'`]?(?=$|[\s,;\x1f]|[.!?](?:\s|$))"
)

_ADD_VERBS = frozenset(
    (
        "add adding install installing include including with plus enable want need put ship "
        "bundle containing has have use using"
    ).split()
)
_REMOVE_VERBS = frozenset(
    (
        "remove removing drop dropping delete without no exclude excluding uninstall disable "
        "minus sans skip strip lose except purge rid"
    ).split()
)
_SEPARATOR_WORDS = frozenset({"and", "or", "nor", "then", "but", "also"})
_NEGATORS = frozenset({"not", "don't", "dont", "never", "shouldn't", "mustn't"})
# Words that carry no request of their own.
_FILLER = (
    frozenset(
        (
            "a an the some any all of for to on in into at as by from it its it's this that these "
            "those i i'd we me my our us you please pls kindly also too well now then just only "
            "so is are be should would could can will like need want wanted make set change get "
            "give build create generate new image images template os system linux distro "
            "distribution based one package packages pkg pkgs support stuff them there which what "
            "here yes ok okay thanks thank let's lets let same instead out version switch move "
            "port rebase retarget convert turn target targeting go going do does"
        ).split()
    )
    | _ADD_VERBS
    | _REMOVE_VERBS
    | _SEPARATOR_WORDS
    | _NEGATORS
)
# Words that pick the base template in create mode; retrieval already used them.
_RETRIEVAL_WORDS = frozenset(
    (
        "minimal minimalist small smaller tiny lean lightweight light slim base basic bare "
        "metal bare-metal baremetal edge cloud iot iiot server headless embedded appliance "
        "gateway industrial factory robotics robot desktop workstation vm virtual machine "
        "kiosk production prod dev development test testing lab demo general purpose "
        "general-purpose device devices node nodes host box secure security hardened ai "
        "inference vision video analytics signage camera datacenter data center aws azure gcp "
        "openstack vps workload workloads deployment ready optimized friendly simple standard "
        "default generic modern stable lts 64-bit bit"
    ).split()
)
# Plain English that is never a package name even after "add".
_NOT_PACKAGES = frozenset(
    (
        "more less better faster slower bigger smaller everything something anything nothing "
        "things thing features feature performance speed stability security secure "
        "reliability tools tool utilities utils extras apps app software latest updates "
        "update it storage networking network logs partition disk user users kernel boot "
        "hostname size"
    ).split()
) | frozenset(NOT_PACKAGE_WORDS)
_PACKAGE_TOKEN = re.compile(r"^[a-z0-9][a-z0-9+_.:~-]*$")
_TOKEN = re.compile(
    r"(?P<gap>\x1f+)|(?P<sep>[,;&]|[.!?](?![a-z0-9]))|"
    r"(?P<word>[a-z0-9][a-z0-9._+:/=~'-]*[a-z0-9+]|[a-z0-9])"
)


# --- the base template's facts ------------------------------------------------------------


@dataclass(frozen=True)
class _Part:
    id: str
    mount: str
    fs: str
    start: int | None
    end: int | None  # 0 means the rest of the disk

    @property
    def ref(self) -> str:
        return self.id or self.mount

    def size(self, disk_size: int | None) -> int | None:
        if self.start is None or self.end is None:
            return None
        end = disk_size if self.end == 0 else self.end
        return None if end is None else end - self.start


@dataclass(frozen=True)
class _User:
    name: str
    groups: tuple[str, ...]
    sudo: bool
    shell: str


@dataclass(frozen=True)
class _Facts:
    """What the base template already holds; empty when it could not be read."""

    readable: bool = False
    error: str = ""
    os: str = ""
    dist: str = ""
    arch: str = ""
    image_type: str = ""
    image_name: str = ""
    image_version: str = ""
    packages: tuple[str, ...] = ()
    kernel_packages: tuple[str, ...] = ()
    kernel_version: str = ""
    cmdline: str = ""
    has_disk: bool = False
    disk_size: int | None = None
    disk_size_text: str = ""
    partitions: tuple[_Part, ...] = ()
    artifacts: tuple[tuple[str, str | None], ...] = ()
    hostname: str = ""
    users: tuple[_User, ...] = ()
    bootloader: str = ""
    boot_type: str = ""
    immutable: bool | None = None
    secure_boot: bool = False
    repositories: tuple[str, ...] = ()
    description: str = ""


@lru_cache(maxsize=64)
def _read_facts(text: str) -> _Facts:
    """Read the facts once per template text; a conversation plans against the same text."""
    if not text.strip():
        return _Facts(error="no template text")
    try:
        data = load_data(text)
    except YamlSyntaxError as exc:
        return _Facts(error=f"the template is not valid YAML ({exc})")
    if not isinstance(data, Mapping):
        return _Facts(error="the template is not a YAML mapping")
    target = _map(data.get("target"))
    image = _map(data.get("image"))
    disk = data.get("disk")
    system = _map(data.get("systemConfig"))
    kernel = _map(system.get("kernel"))
    bootloader = _map(system.get("bootloader"))
    immutability = system.get("immutability")
    disk_map = _map(disk)
    partitions = tuple(
        _Part(
            id=_str(p.get("id")),
            mount=_str(p.get("mountPoint")),
            fs=_str(p.get("fsType")),
            start=parse_size(_str(p.get("start")) or p.get("start")),
            end=parse_size(_str(p.get("end")) or p.get("end")),
        )
        for p in _maps(disk_map.get("partitions"))
    )
    artifacts = tuple(
        (_str(a.get("type")), _str(a.get("compression")) or None)
        for a in _maps(disk_map.get("artifacts"))
        if _str(a.get("type"))
    )
    users = tuple(
        _User(
            name=_str(u.get("name")),
            groups=_strs(u.get("groups")),
            sudo=u.get("sudo") is True,
            shell=_str(u.get("shell")),
        )
        for u in _maps(system.get("users"))
        if _str(u.get("name"))
    )
    immutable: bool | None = None
    secure_boot = False
    if isinstance(immutability, Mapping):
        enabled = immutability.get("enabled")
        immutable = enabled if isinstance(enabled, bool) else None
        secure_boot = bool(immutability.get("secureBootDBKey"))
    return _Facts(
        readable=True,
        os=_str(target.get("os")),
        dist=_str(target.get("dist")),
        arch=_str(target.get("arch")),
        image_type=_str(target.get("imageType")),
        image_name=_str(image.get("name")),
        image_version=_str(image.get("version")),
        packages=_strs(system.get("packages")),
        kernel_packages=_strs(kernel.get("packages")),
        kernel_version=_str(kernel.get("version")),
        cmdline=_str(kernel.get("cmdline")),
        has_disk=isinstance(disk, Mapping),
        disk_size=parse_size(_str(disk_map.get("size")) or disk_map.get("size")),
        disk_size_text=_str(disk_map.get("size")),
        partitions=partitions,
        artifacts=artifacts,
        hostname=_str(system.get("hostname")),
        users=users,
        bootloader=_str(bootloader.get("provider")),
        boot_type=_str(bootloader.get("bootType")),
        immutable=immutable,
        secure_boot=secure_boot,
        repositories=tuple(
            _str(r.get("url")) or _str(r.get("path"))
            for r in _maps(data.get("packageRepositories"))
        ),
        description=_str(_map(data.get("metadata")).get("description"))
        or _str(system.get("description")),
    )


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _maps(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


def _str(value: Any) -> str:
    if value is None or isinstance(value, (Mapping, list, bool)):
        return ""
    return str(value).strip()


def _strs(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(_str(item) for item in value if _str(item))


# --- the request text -------------------------------------------------------------------


class _Text:
    """The request, lower-cased, with used spans blanked so later rules skip them.

    Offsets stay equal to the original's, so values (names, kernel arguments) can be
    read back with their original case.
    """

    BLANK = "\x1f"

    def __init__(self, text: str) -> None:
        self.original = text
        # lower() can change a string's length for a few characters; keep offsets equal
        self.work = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)

    def consume(self, start: int, end: int) -> None:
        if end > start:
            self.work = self.work[:start] + self.BLANK * (end - start) + self.work[end:]

    def matches(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        return list(pattern.finditer(self.work))

    def raw(self, start: int, end: int) -> str:
        return self.original[start:end]


@dataclass(frozen=True)
class _Token:
    kind: Literal["gap", "sep", "word"]
    text: str
    start: int
    end: int


def _tokens(work: str) -> list[_Token]:
    found: list[_Token] = []
    for match in _TOKEN.finditer(work):
        start, end = match.span()
        if match.lastgroup == "word":
            found.append(_Token("word", match.group().rstrip("'"), start, end))
        elif match.lastgroup == "gap":
            found.append(_Token("gap", match.group(), start, end))
        else:
            found.append(_Token("sep", match.group(), start, end))
    return found


# Passwords are cut before any rule reads the text: "password hunter2",
# "password: 'a b c'", "with the root password is x", "hunter2 as the password".
_SECRET_WORD = (
    r"(?:root\s+|user\s+|login\s+|initial\s+|default\s+|admin\s+)?"
    r"(?:password|passwd|passphrase|pass\s*word|pwd|pw)"
)
# a quoted value counts only when the quote closes at a word boundary, else the whole run
_SECRET_VALUE = r"(?:(?:\"[^\"]*\"|'[^']*'|`[^`]*`)(?=[\s,;.!?]|$)|\S+)"
_PASSWORD_CONNECTOR = (
    r"(?:\s+(?:for|of)\s+\S+?)?"  # "the password for ops is x"
    r"(?:\s*(?:(?:is|=|:|of|to|set\s+to|as|being|(?:should|will|would|must|shall)\s+be)\s*)+"
    r"|\s+)"
)
# "set a password for root": a connecting word is not the password
# (only before another word: "password a." ends in its value, which must still be cut)
_NOT_A_VALUE = r"(?!(?:for|and|with|to|the|a|an|of|on|in|please|too|then)\s+\S)"
_PASSWORD = re.compile(
    rf"(?:\b(?:with|and|using|use|set|having)\s+)?(?:(?:the|a|an|his|her|their|its)\s+)?"
    rf"(?P<value>\b{_SECRET_WORD}\b{_PASSWORD_CONNECTOR}{_NOT_A_VALUE}{_SECRET_VALUE}"
    rf"|(?<!\S){_SECRET_VALUE}\s+(?:as|for)\s+(?:the\s+|a\s+|an\s+|its\s+|his\s+|her\s+)?"
    rf"{_SECRET_WORD}\b)"
    rf"|\b{_SECRET_WORD}\b",
    re.IGNORECASE,
)
_DROPPED_PASSWORD = (
    "a password in the request was dropped: templates must not hold plaintext passwords; "
    "new users get a placeholder to replace with a hash, or use an SSH key"
)
_NO_PASSWORDS = (
    "passwords are not written into templates: new users get a placeholder to replace "
    "with a hash at deploy time, or use an SSH key"
)


def _redact_passwords(request: str) -> tuple[str, str | None]:
    """Return the request without password phrases, and the warning to give, if any."""
    warning: str | None = None

    def cut(match: re.Match[str]) -> str:
        nonlocal warning
        if match.group("value") is not None or warning is None:
            warning = _DROPPED_PASSWORD if match.group("value") is not None else _NO_PASSWORDS
        return " " * len(match.group())

    return _PASSWORD.sub(cut, request), warning


# --- the planner's working state ----------------------------------------------------------


@dataclass
class _Target:
    os: str
    dist: str
    arch: str
    image_type: str

    @property
    def known(self) -> bool:
        """True when the catalog can name packages for this target."""
        return bool(_family(self.os, self.dist))


def _family(os: str, dist: str) -> str:
    try:
        return package_family(os, dist)
    except UserInputError:
        return ""


@dataclass
class _State:
    """Everything one planning run collects before it becomes an EditPlan."""

    mode: Mode
    facts: _Facts
    text: _Text
    catalog: CapabilityCatalog
    target: _Target
    set_target: dict[str, str] = field(default_factory=dict)
    image_name: str | None = None
    image_version: str | None = None
    disk_size: str | None = None
    partition_ops: list[Operation] = field(default_factory=list)
    artifacts: list[Artifact] | None = None
    hostname: str | None = None
    kernel_version: str | None = None
    cmdline: str | None = None
    append_cmdline: list[str] = field(default_factory=list)
    bootloader: dict[str, str] = field(default_factory=dict)
    immutable: bool | None = None
    secure_boot: bool | None = None
    users: list[AddUser] = field(default_factory=list)
    values: list[SetValue] = field(default_factory=list)
    repositories: list[AddRepository] = field(default_factory=list)
    add: list[str] = field(default_factory=list)
    add_kernel: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    features: list[tuple[int, str]] = field(default_factory=list)
    use_case_words: list[tuple[int, str]] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    not_applied: list[str] = field(default_factory=list)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def reject(self, start: int, end: int, reason: str) -> None:
        """Report a span the plan cannot express, and mark it used."""
        quoted = " ".join(self.text.raw(start, end).split()).strip(" ,;.")
        entry = f"'{quoted}' — {reason}"
        if entry not in self.not_applied:
            self.not_applied.append(entry)
        self.text.consume(start, end)

    @property
    def current_cmdline(self) -> str:
        return self.cmdline if self.cmdline is not None else self.facts.cmdline


# --- rules: repositories, image, hostname -------------------------------------------------

_REPOSITORY = re.compile(
    r"(?:\b(?:add|use|with|include)\s+)?(?:the\s+|a\s+|an\s+)?(?:(?:apt|yum|dnf|rpm|deb|package)\s+)?"
    r"(?:repo|repository)\s+(?:at\s+|from\s+)?(?P<url>(?:https?|file)://\S+|/\S+)"
    r"(?:\s+(?:with\s+)?codename\s+(?P<codename>[a-z0-9._-]+))?"
    r"(?:\s+(?:and\s+)?component\s+(?P<component>[a-z0-9._-]+))?"
    r"(?:\s+(?:and\s+|with\s+)?(?:signing\s+|gpg\s+)?key\s+(?P<pkey>(?:https?|file)://\S+|/\S+))?"
)


def _rule_repositories(state: _State) -> None:
    for match in state.text.matches(_REPOSITORY):
        raw = state.text.raw
        url = raw(*match.span("url")).rstrip(".,;")
        if url in state.facts.repositories:
            state.notes.append(f"repository {url} is already listed")
        else:
            state.repositories.append(
                AddRepository(
                    url=url,
                    codename=match.group("codename"),
                    component=match.group("component"),
                    pkey=raw(*match.span("pkey")).rstrip(".,;") if match.group("pkey") else None,
                )
            )
        state.text.consume(*match.span())


_IMAGE_NAME = re.compile(
    r"\b(?:(?:call|name|rename|title)\s+(?:the\s+|this\s+|my\s+)?(?:image|template|it)"
    r"(?:\s+(?:to|as))?|image\s+name(?:\s+(?:to|is|as|should\s+be))?\s*[:=]?"
    r"|(?:rename|renamed)\s+(?:to|as))\s+" + _QUOTED_NAME + _END
)
_IMAGE_NAME_OK = re.compile(r"^[a-zA-Z0-9]([a-zA-Z0-9\-_]*[a-zA-Z0-9])?$")
_HOSTNAME = re.compile(
    r"\b(?:(?:host\s*name|host-name)(?:\s+(?:to|is|as|should\s+be|of))?\s*[:=]?"
    r"|(?:call|name)\s+(?:the\s+)?(?:host|machine|system|device|box|server|node)(?:\s+(?:to|as))?)"
    r"(?:\s*[:=]\s*|\s+)" + _QUOTED_NAME + _END
)
_HOSTNAME_OK = re.compile(
    r"^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$"
)


def _rule_image_name(state: _State) -> None:
    for match in state.text.matches(_IMAGE_NAME):
        name = state.text.raw(*match.span("value"))
        if not _IMAGE_NAME_OK.match(name):
            state.reject(
                *match.span(),
                f"{name!r} is not a valid image name (letters, digits, '-' and '_')",
            )
            continue
        state.text.consume(*match.span())
        if name == state.facts.image_name:
            state.notes.append(f"the image is already called {name}")
        else:
            state.image_name = name


def _rule_hostname(state: _State) -> None:
    for match in state.text.matches(_HOSTNAME):
        name = match.group("value")
        if not _HOSTNAME_OK.match(name):
            state.reject(
                *match.span(),
                f"{name!r} is not a valid hostname (letters, digits and '-' in dot-separated "
                "labels)",
            )
            continue
        state.text.consume(*match.span())
        if name == state.facts.hostname:
            state.notes.append(f"the hostname is already {name}")
        else:
            state.hostname = name


# --- rules: users ---------------------------------------------------------------------------

_USER = re.compile(
    r"\b(?:(?:add|create|with|include|plus|make|new)\s+)?(?:(?:a|an|one)\s+)?(?:new\s+)?"
    r"(?:(?P<admin>sudo|admin|administrator|privileged|sudoer|root-capable)\s+)?"
    r"(?:user|account)(?:\s+account)?(?:\s+(?:called|named|with\s+(?:the\s+)?name))?"
    r"\s+[\"'`]?(?P<name>[^\s,;\"'`\x1f]+?)[\"'`]?(?=$|[\s,;\x1f]|[.!?](?:\s|$))"
)
_NOT_USER_NAMES = frozenset(
    (
        "data account accounts with and the in to for called named group groups password "
        "login space namespaces management session"
    ).split()
)
_GROUP_NAME = (
    r"(?!(?:add|install|remove|with|set|make|then|and|shell|group|groups|as)\b)[a-z_][a-z0-9_-]*"
)
_GROUP_LIST = rf"{_GROUP_NAME}(?:\s*(?:,|\band\b|&)\s*{_GROUP_NAME})*"
_USER_ATTRS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "sudo",
        re.compile(
            r"(?:\s*,)*\s*(?:and\s+)?(?:(?:with|has|having|gets?)\s+)?(?:(?:full\s+)?(?:sudo|root|admin|"
            r"administrator)(?:\s+(?:rights|access|privileges|permissions|powers))?|"
            r"as\s+(?:an?\s+)?(?:admin|administrator|sudoer))" + _END
        ),
    ),
    (
        "groups",
        re.compile(
            r"(?:\s*,)*\s*(?:and\s+)?(?:(?:in|to|into|of)\s+(?:the\s+)?(?P<g1>"
            + _GROUP_LIST
            + r")\s+groups?|(?:(?:in|to|into)\s+(?:the\s+)?|member\s+of\s+(?:the\s+)?|with\s+)?"
            r"groups?\s*[:=]?\s*(?P<g2>"
            + _GROUP_LIST
            + r")|member\s+of\s+(?:the\s+)?(?P<g3>"
            + _GROUP_LIST
            + r"))"
            + _END
        ),
    ),
    (
        "shell",
        re.compile(
            r"(?:\s*,)*\s*(?:and\s+)?(?:(?:with|using)\s+)?(?:(?:the|a)\s+)?(?:(?:login\s+)?shell\s*[:=]?\s*"
            r"(?P<s1>/[a-z0-9/_-]+|bash|zsh|sh|fish|dash|ksh|tcsh)|(?P<s2>/[a-z0-9/_-]+|bash|zsh|sh|"
            r"fish|dash|ksh|tcsh)\s+(?:as\s+(?:the\s+)?)?(?:login\s+)?shell)" + _END
        ),
    ),
)
_USER_NAME_OK = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


def _rule_users(state: _State) -> None:
    for match in state.text.matches(_USER):
        name = match.group("name")
        if name in _NOT_USER_NAMES:
            continue
        end = match.end()
        sudo = match.group("admin") is not None
        groups: list[str] = []
        shell: str | None = None
        progressed = True
        while progressed:
            progressed = False
            for kind, pattern in _USER_ATTRS:
                attr = pattern.match(state.text.work, end)
                if attr is None or attr.end() == end:
                    continue
                if kind == "sudo":
                    sudo = True
                elif kind == "groups":
                    listed = attr.group("g1") or attr.group("g2") or attr.group("g3") or ""
                    groups += [g for g in re.split(r"\s*(?:,|\band\b|&)\s*", listed) if g]
                else:
                    value = attr.group("s1") or attr.group("s2") or ""
                    shell = value if value.startswith("/") else f"/bin/{value}"
                end = attr.end()
                progressed = True
        if any(g in ("sudo", "wheel") for g in groups):
            sudo = True
        groups = list(dict.fromkeys(groups))
        if not _USER_NAME_OK.match(name):
            state.reject(
                match.start(),
                end,
                f"{name!r} is not a valid user name (lower-case letters, digits, '_' or '-')",
            )
            continue
        state.text.consume(match.start(), end)
        _plan_user(state, name, groups, sudo, shell)


def _plan_user(state: _State, name: str, groups: list[str], sudo: bool, shell: str | None) -> None:
    existing = next((u for u in state.facts.users if u.name == name), None)
    if existing is None:
        if any(u.name == name for u in state.users):
            return
        state.users.append(AddUser(name=name, groups=groups, sudo=sudo, shell=shell))
        return
    path = f"systemConfig.users[name={name}]"
    changed = False
    merged = list(dict.fromkeys([*existing.groups, *groups]))
    if len(merged) != len(existing.groups):
        state.values.append(SetValue(path=f"{path}.groups", value=merged))
        changed = True
    if sudo and not existing.sudo:
        state.values.append(SetValue(path=f"{path}.sudo", value=True))
        changed = True
    if shell and shell != existing.shell:
        state.values.append(SetValue(path=f"{path}.shell", value=shell))
        changed = True
    if not changed:
        state.notes.append(f"user {name} already exists as asked")


# --- rules: kernel ------------------------------------------------------------------------

_KERNEL_VERSION = re.compile(
    r"(?:\b(?:use|set|switch\s+to|upgrade\s+to|downgrade\s+to|pin|with|change|bump|move\s+to)\s+)?"
    r"(?:(?:the|a)\s+)?(?:(?:kernel|linux)(?:\s+version)?\s*(?:to\s+|=\s*|:\s*|of\s+|at\s+)?"
    r"v?(?P<v1>\d+\.\d+(?:\.\d+)?)|(?P<v2>\d+\.\d+(?:\.\d+)?)\s+kernel)" + _END
)
_NOT_KERNEL_BEFORE = re.compile(
    r"(?:azure|red\s*hat|rocky|alma|wind\s+river|oracle|ubuntu|debian|elxr|emt|toolkit)\s*$"
)
_CMDLINE_WORDS = (
    r"(?:(?:kernel(?:'s)?\s+)?(?:cmdline|command[\s-]?line|boot\s+(?:args|arguments|parameters|"
    r"params|options)|bootargs)|kernel\s+(?:args|arguments|parameters|params|options))"
)
_ARG = r"[a-z0-9_.-]+(?:=[^\s,;]+)?"
# separators are required between arguments so the repetition cannot backtrack badly
_ARGS = (
    rf"(?:\"[^\"]*\"|'[^']*'|{_ARG}(?:(?:\s*,\s*|\s+(?:and\s+)?)"
    rf"(?!(?:to|from|on|in|into|and)\b){_ARG})*)"
)
_CMDLINE_ADD = re.compile(
    rf"\b(?:add|append|put|include|with|set)\s+(?P<args>{_ARGS})\s+(?:to|on|in|into)\s+"
    rf"(?:the\s+)?{_CMDLINE_WORDS}"
)
_CMDLINE_REMOVE = re.compile(
    rf"\b(?:remove|drop|delete|strip)\s+(?P<args>{_ARGS})\s+from\s+(?:the\s+)?{_CMDLINE_WORDS}"
)
_CMDLINE_SET = re.compile(
    rf"\b(?:set|change|make|replace)\s+(?:the\s+)?{_CMDLINE_WORDS}\s*(?:to|=|:|with)\s*"
    r"(?P<value>\"[^\"]*\"|'[^']*'|[^,;\x1f]+?)(?=$|[,;\x1f]|\s+(?:and|then)\s)"
)
_CMDLINE_INLINE = re.compile(rf"\b{_CMDLINE_WORDS}\s*(?:\+=|:|\+)\s*(?P<args>{_ARGS})")
_QUIET = re.compile(r"\b(?:quiet|silent)(?:\s+boot)?\b|\bboot\s+(?:quietly|silently)\b")
_BARE_ARG = re.compile(r"(?<![a-z0-9_./-])(?P<arg>[a-z_][a-z0-9_.-]*=[^\s,;\x1f]+)")


def _rule_kernel(state: _State) -> None:
    text = state.text
    for match in text.matches(_CMDLINE_SET):
        value = text.raw(*match.span("value")).strip().strip("\"'")
        text.consume(*match.span())
        state.cmdline = " ".join(value.split())
        state.append_cmdline.clear()
    for match in text.matches(_CMDLINE_REMOVE):
        args = _split_args(text.raw(*match.span("args")))
        text.consume(*match.span())
        _remove_cmdline_args(state, args)
    for pattern in (_CMDLINE_ADD, _CMDLINE_INLINE):
        for match in text.matches(pattern):
            args = _split_args(text.raw(*match.span("args")))
            text.consume(*match.span())
            _add_cmdline_args(state, args)
    for match in text.matches(_QUIET):
        text.consume(*match.span())
        _add_cmdline_args(state, ["quiet"])
    for match in text.matches(_KERNEL_VERSION):
        if _NOT_KERNEL_BEFORE.search(text.work, 0, match.start()):
            continue
        version = match.group("v1") or match.group("v2")
        if int(version.split(".")[0]) >= 10:
            continue  # "linux 24.04" is a distribution version, not a kernel
        text.consume(*match.span())
        if version == state.facts.kernel_version:
            state.notes.append(f"the kernel is already {version}")
        else:
            state.kernel_version = version


def _rule_bare_kernel_args(state: _State) -> None:
    """``key=value`` words left over can only be kernel arguments in a template request."""
    for match in state.text.matches(_BARE_ARG):
        arg = state.text.raw(*match.span("arg"))
        state.text.consume(*match.span())
        _add_cmdline_args(state, [arg])


def _split_args(raw: str) -> list[str]:
    raw = raw.strip().strip("\"'")
    return [a for a in re.split(r"\s*(?:,|\band\b|\s)\s*", raw) if a]


def _arg_key(arg: str) -> str:
    return arg.split("=", 1)[0]


def _add_cmdline_args(state: _State, args: Iterable[str]) -> None:
    """Append arguments; the applier replaces an argument with the same key (loglevel=)."""
    current = state.current_cmdline.split()
    for arg in args:
        if arg in current or arg in state.append_cmdline:
            state.notes.append(f"{arg} is already on the kernel command line")
        else:
            state.append_cmdline.append(arg)


def _remove_cmdline_args(state: _State, args: Iterable[str]) -> None:
    current = state.current_cmdline.split()
    keep = list(current)
    for arg in args:
        hits = [old for old in keep if old == arg or ("=" not in arg and _arg_key(old) == arg)]
        if not hits:
            state.notes.append(f"{arg} is not on the kernel command line")
        keep = [old for old in keep if old not in hits]
    if keep != current:
        state.cmdline = " ".join([*keep, *state.append_cmdline])
        state.append_cmdline.clear()


# --- rules: image version ---------------------------------------------------------------------

_IMAGE_VERSION = re.compile(
    r"\b(?:(?:set|bump|change|make)\s+(?:the\s+)?)?(?:image\s+|template\s+)?(?:version|release)"
    r"(?:\s+(?:to|is|as|should\s+be|number))?\s*[:=]?\s*[\"']?v?(?P<value>\d+(?:\.[0-9a-z-]+){0,2}"
    r"(?:\+[0-9a-z.-]+)?)[\"']?" + _END
)
_VERSION_OK = re.compile(
    r"^[0-9]+(\.([0-9]+|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)){0,2}(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$"
)


def _rule_image_version(state: _State) -> None:
    for match in state.text.matches(_IMAGE_VERSION):
        version = state.text.raw(*match.span("value"))
        if not _VERSION_OK.match(version):
            state.reject(*match.span(), f"{version!r} is not a version like 1.2.0")
            continue
        state.text.consume(*match.span())
        if version == state.facts.image_version:
            state.notes.append(f"the image version is already {version}")
        else:
            state.image_version = version


# --- rules: sizes, partitions, disk -------------------------------------------------------------

_UNIT_FACTORS = {
    "k": 1024,
    "kib": 1024,
    "kb": 1024,
    "m": 1024**2,
    "mib": 1024**2,
    "mb": 1024**2,
    "g": 1024**3,
    "gib": 1024**3,
    "gb": 1024**3,
    "t": 1024**4,
    "tib": 1024**4,
    "tb": 1024**4,
}
_SIZE_PARTS = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+)")
_MIB = 1024**2


def _request_size(state: _State, span: tuple[int, int]) -> int:
    """Bytes for a size in the request; decimal units are read as binary, with a warning."""
    raw = state.text.raw(*span)
    size_match = _SIZE_PARTS.match(raw.strip().lower())
    assert size_match is not None  # only called on text that matched _SIZE
    number, unit = size_match.groups()
    size = int(float(number) * _UNIT_FACTORS[unit])
    size = max(_MIB, round(size / _MIB) * _MIB)
    if unit in ("kb", "mb", "gb", "tb"):
        state.warn(
            f"read {raw.strip()} as {format_size(size)}: template sizes use binary units "
            "(the composer counts GB in 1000s)"
        )
    return size


_PARTITION_ADD = re.compile(
    r"\b(?:(?:add|create|with|want|need|include|carve(?:\s+out)?|plus|make|give\s+me)\s+)?"
    r"(?:(?:a|an|one)\s+)?(?:(?:separate|new|dedicated|extra|additional|own|second)\s+)*"
    rf"(?:(?P<size1>{_SIZE})\s+)?(?:(?P<fs1>{_FS})\s+)?"
    rf"(?:(?P<mount1>{_MOUNT})\s+(?:(?P<fs2>{_FS})\s+)?partition\b"
    rf"|partition\s+(?:for|at|on|mounted\s+(?:at|on))\s+(?P<mount2>{_MOUNT}){_END})"
)
_PARTITION_TAIL: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "size",
        re.compile(
            rf"\s*,?\s*(?:(?:of|with|sized?|at|size|that\s+is|which\s+is)\s+(?:size\s+)?)?"
            rf"(?:(?:a|an)\s+)?(?P<size>{_SIZE})(?:\s+(?:in\s+)?size)?(?!\s+(?:total\s+)?disk)"
        ),
    ),
    (
        "fs",
        re.compile(
            r"\s*,?\s*(?:(?:as|formatted(?:\s+as)?|with|using|in|of\s+type|type|fs)\s+)?"
            rf"(?:(?:a|an)\s+)?(?P<fs>{_FS})(?:\s+(?:filesystem|file\s+system|fs))?{_END}"
        ),
    ),
)
_PARTITION_REF = rf"(?:(?P<mount>{_MOUNT})|(?P<word>[a-z][a-z0-9_-]*))"
_PARTITION_RESIZE = re.compile(
    r"\b(?P<verb>grow|resize|shrink|increase|extend|expand|enlarge|reduce|make|set|change|bump)\s+"
    r"(?:the\s+)?(?:size\s+of\s+(?:the\s+)?)?"
    + _PARTITION_REF
    + r"(?P<keyword>\s+partition)?(?:'s\s+size|\s+size)?\s+(?:to\s+|=\s*|(?P<by>by)\s+)?"
    rf"(?P<size>{_SIZE})"
)
_PARTITION_RESIZE_BARE = re.compile(
    rf"(?<![a-z0-9_.-])(?P<mount>{_MOUNT})(?:\s+partition)?\s+(?:to|=|at|should\s+be)\s+"
    rf"(?P<size>{_SIZE})"
)
_PARTITION_REMOVE = re.compile(
    r"\b(?:remove|drop|delete|get\s+rid\s+of|without|no|lose|skip)\s+(?:the\s+|a\s+|any\s+)?"
    r"(?:separate\s+|extra\s+)?(?:"
    + _PARTITION_REF
    + r"\s+partition\b|partition\s+(?:for\s+|at\s+|mounted\s+at\s+)?(?P<mount2>"
    + _MOUNT
    + r"|[a-z][a-z0-9_-]*)"
    + _END
    + r"|(?P<mount3>"
    + _MOUNT
    + r")"
    + _END
    + r")"
)
_FS_NAMES = {"vfat": "fat32", "fat": "fat32"}
_ESSENTIAL_MOUNTS = frozenset({"/", "/boot", "/boot/efi", "/efi"})


def _find_partition(state: _State, ref: str) -> _Part | None:
    parts = state.facts.partitions
    for part in parts:
        if ref in (part.id, part.mount):
            return part
    aliases = {
        "root": "/",
        "rootfs": "/",
        "efi": "/boot/efi",
        "esp": "/boot/efi",
        "boot": "/boot/efi",
    }
    wanted = aliases.get(ref, f"/{ref}")
    for part in parts:
        if part.mount == wanted or (part.mount.rsplit("/", 1)[-1] == ref and ref):
            return part
    return None


def _rule_partitions(state: _State) -> None:
    text = state.text
    for match in text.matches(_PARTITION_REMOVE):
        ref = (
            match.group("mount")
            or match.group("word")
            or match.group("mount2")
            or match.group("mount3")
        )
        assert ref is not None
        part = _find_partition(state, ref)
        if part is None:
            if match.group("mount3"):
                continue  # "without /data" might be something else; leave it to later rules
            state.reject(*match.span(), f"the template has no {ref} partition")
            continue
        if part.mount in _ESSENTIAL_MOUNTS:
            state.reject(*match.span(), f"the {part.mount} partition is needed to boot")
            continue
        text.consume(*match.span())
        state.partition_ops.append(RemovePartition(partition=part.ref))
    for match in text.matches(_PARTITION_RESIZE):
        ref = match.group("mount") or match.group("word")
        assert ref is not None
        part = _find_partition(state, ref)
        if part is None:
            if match.group("mount") or match.group("keyword"):
                state.reject(*match.span(), f"the template has no {ref} partition to resize")
            continue
        _resize(state, match, part)
    for match in text.matches(_PARTITION_RESIZE_BARE):
        part = _find_partition(state, match.group("mount"))
        if part is not None:
            _resize(state, match, part)
    for match in text.matches(_PARTITION_ADD):
        _add_partition(state, match)


def _resize(state: _State, match: re.Match[str], part: _Part) -> None:
    size = _request_size(state, match.span("size"))
    by = "by" in match.groupdict() and match.group("by") is not None
    current = part.size(state.facts.disk_size)
    if by:
        if current is None:
            state.reject(*match.span(), f"the current size of {part.ref} is not known")
            return
        verb = match.groupdict().get("verb") or ""
        size = current - size if verb in ("shrink", "reduce") else current + size
    state.text.consume(*match.span())
    if size <= 0:
        state.reject(*match.span(), "that would leave the partition with no space")
        return
    if current == size:
        state.notes.append(f"{part.ref} is already {format_size(size)}")
        return
    state.partition_ops.append(ResizePartition(partition=part.ref, size=format_size(size)))


def _add_partition(state: _State, match: re.Match[str]) -> None:
    mount = match.group("mount1") or match.group("mount2")
    assert mount is not None
    size_span = match.span("size1") if match.group("size1") else None
    fs = match.group("fs1") or match.group("fs2")
    end = match.end()
    # the size and file system may follow, in either order: "a /data partition, xfs, 2GiB"
    for kind, pattern in (*_PARTITION_TAIL, _PARTITION_TAIL[0]):
        tail = pattern.match(state.text.work, end)
        if tail is None:
            continue
        if kind == "size" and size_span is None:
            size_span, end = tail.span("size"), tail.end()
        elif kind == "fs" and fs is None:
            fs, end = tail.group("fs"), tail.end()
    span = (match.start(), end)
    if mount == "/":
        state.reject(*span, "the root partition already exists; resize it instead")
        return
    existing = _find_partition(state, mount)
    size = _request_size(state, size_span) if size_span else None
    state.text.consume(*span)
    if existing is not None and existing.mount == mount:
        if size is not None and existing.size(state.facts.disk_size) != size:
            state.partition_ops.append(
                ResizePartition(partition=existing.ref, size=format_size(size))
            )
            state.notes.append(f"{mount} already has a partition, so it is resized")
        else:
            state.notes.append(f"{mount} already has a partition")
        return
    if size is None and not _has_free_tail(state):
        size = _DEFAULT_PARTITION_SIZE
        state.warn(
            f"no size was given for {mount}; planned {format_size(size)}, carved from the end "
            "of the disk"
        )
    part_id = _partition_id(state, mount)
    fs_type = _FS_NAMES.get(fs or "ext4", fs or "ext4")
    state.partition_ops.append(
        AddPartition(
            id=part_id,
            mount_point=mount,
            size=format_size(size) if size is not None else None,
            fs_type=fs_type,
        )
    )
    state.features.append((span[0], f"{part_id} partition"))


_DEFAULT_PARTITION_SIZE = 2 * 1024**3


def _has_free_tail(state: _State) -> bool:
    """True when the last partition ends before the disk does, leaving at least 1GiB."""
    parts = [p for p in state.facts.partitions if p.start is not None]
    disk = parse_size(state.disk_size) if state.disk_size else state.facts.disk_size
    if not parts or disk is None:
        return False
    last = max(parts, key=lambda p: p.start or 0)
    return bool(last.end) and disk - (last.end or 0) >= 1024**3


def _partition_id(state: _State, mount: str) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", mount.strip("/")).strip("-") or "part"
    taken = {p.id for p in state.facts.partitions} | {
        op.id for op in state.partition_ops if isinstance(op, AddPartition)
    }
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}{n}", n + 1
    return candidate


_DISK_SIZE = re.compile(
    r"\b(?:(?P<verb>make|set|change|resize|grow|increase|expand|extend|shrink|reduce|bump)\s+)?"
    r"(?:the\s+)?(?:total\s+|whole\s+)?(?:disk(?:\s+image)?|image|drive)(?:\s+size|'s\s+size)?\s*"
    rf"(?:to\s+|=\s*|:\s*|of\s+|at\s+|is\s+|should\s+be\s+|(?P<by>by)\s+)?(?P<size>{_SIZE})"
    rf"|\b(?:(?:a|an|with)\s+)?(?P<size2>{_SIZE})\s+(?:of\s+)?(?:total\s+)?(?:disk|drive)"
    r"(?:\s+(?:size|image))?\b"
    rf"|\b(?:make|set)\s+it\s+(?P<size3>{_SIZE})"
)


def _rule_disk_size(state: _State) -> None:
    for match in state.text.matches(_DISK_SIZE):
        group = next(g for g in ("size", "size2", "size3") if match.group(g))
        size = _request_size(state, match.span(group))
        if match.group("by"):
            if state.facts.disk_size is None:
                state.reject(*match.span(), "the template has no disk size to grow from")
                continue
            shrink = match.group("verb") in ("shrink", "reduce")
            size = state.facts.disk_size + (-size if shrink else size)
        state.text.consume(*match.span())
        if size > 64 * 1024**4 or size < 64 * _MIB:
            state.reject(*match.span(), f"{format_size(size)} is not a plausible disk size")
            continue
        if size == state.facts.disk_size:
            state.notes.append(f"the disk is already {format_size(size)}")
            continue
        state.disk_size = format_size(size)
        fixed_end = max(
            (p.end for p in state.facts.partitions if p.end),
            default=0,
        )
        if fixed_end and size < fixed_end:
            state.warn(
                f"the new disk size {format_size(size)} is smaller than the fixed partitions "
                f"(they end at {format_size(fixed_end)}); shrink or remove partitions too"
            )


# --- rules: artifacts ------------------------------------------------------------------------

_FORMAT = r"raw|qcow2|vhdx|vhd|vmdk|vdi"
_COMPRESSION = r"gzip|gz|xz|zstd|zst|bzip2|bz2"
_COMPRESSIONS = {"gzip": "gz", "gz": "gz", "xz": "xz", "zstd": "zstd", "zst": "zstd"}
_COMPRESSIONS |= {"bzip2": "bz2", "bz2": "bz2"}
_ARTIFACT = re.compile(
    rf"{_L}(?:(?P<c1>{_COMPRESSION})[\s-]+compressed\s+|(?P<compressed>compressed)\s+|"
    rf"(?P<uncompressed>uncompressed)\s+|(?P<c0>{_COMPRESSION})\s+)?(?:(?:a|an)\s+)?"
    rf"(?P<fmt>{_FORMAT})(?:\.(?P<c3>{_COMPRESSION}))?{_R}"
    r"(?:\s+(?:image|artifact|file|disk|format|output))?"
    rf"(?:\s*,?\s*(?:compressed\s+)?(?:with|using|in|as|\+)\s+(?P<c2>{_COMPRESSION})"
    r"(?:\s+compression)?|\s+compressed\b)?"
)
_COMPRESSION_ONLY = re.compile(
    rf"\b(?:(?:compress(?:ed)?|compression)\s+(?:it\s+|them\s+|the\s+image\s+|artifacts?\s+)?"
    rf"(?:with|using|to|in|as|:|=)?\s*(?P<c1>{_COMPRESSION}){_R}|{_L}(?P<c2>{_COMPRESSION})"
    r"(?:\s+compression|\s+compressed|\s+compress)?\b)"
)
_NO_COMPRESSION = re.compile(
    r"\b(?:no|without|disable|drop|remove)\s+(?:the\s+)?compression\b|\buncompressed\b"
    r"|\bdon'?t\s+compress\b"
)
_ARTIFACT_ADD = re.compile(r"\b(?:also|add|additional|extra|plus|as\s+well|too|another)\b")


def _rule_artifacts(state: _State) -> None:
    text = state.text
    found: list[tuple[re.Match[str], Artifact]] = []
    default_compression = next((c for _, c in state.facts.artifacts if c), None) or "zstd"
    for match in text.matches(_ARTIFACT):
        fmt = match.group("fmt")
        comp_word = match.group("c0") or match.group("c1") or match.group("c2") or match.group("c3")
        compression = _COMPRESSIONS[comp_word] if comp_word else None
        if compression is None and (match.group("compressed") or "compressed" in match.group()):
            compression = default_compression
        bare_raw = fmt == "raw" and compression is None and not match.group("uncompressed")
        if bare_raw:
            continue  # a bare "raw" names the image type, handled by the target rule
        found.append((match, Artifact(type=fmt, compression=compression)))
    # "a raw and a qcow2": a bare raw next to other formats is an artifact too
    if found:
        for match in text.matches(re.compile(rf"{_L}(?:uncompressed\s+)?(?:(?:a|an)\s+)?raw{_R}")):
            window = text.work[max(0, match.start() - 12) : match.end() + 12]
            if re.search(r"\b(?:and|or|plus)\b|,", window) and not any(
                m.start() <= match.start() < m.end() for m, _ in found
            ):
                found.append((match, Artifact(type="raw")))
        found.sort(key=lambda item: item[0].start())
    if found:
        start = min(m.start() for m, _ in found)
        before = text.work[max(0, start - 40) : start]
        artifacts = [a for _, a in found]
        if _ARTIFACT_ADD.search(before) and state.facts.artifacts:
            current = [Artifact(type=t, compression=c) for t, c in state.facts.artifacts]
            artifacts = current + [a for a in artifacts if a not in current]
        for match, _ in found:
            text.consume(*match.span())
        _set_artifacts(state, artifacts)
        return
    # compression alone changes every existing artifact
    no_compression = text.matches(_NO_COMPRESSION)
    compressions = text.matches(_COMPRESSION_ONLY)
    if not (no_compression or compressions):
        return
    for match in [*no_compression, *compressions]:
        text.consume(*match.span())
    if not state.facts.artifacts:
        span = (no_compression or compressions)[0].span()
        state.not_applied.append(
            f"'{text.raw(*span).strip()}' — the template has no disk artifacts to compress"
        )
        return
    value: str | None = None
    if compressions:
        last = compressions[-1]
        value = _COMPRESSIONS[last.group("c1") or last.group("c2")]
    _set_artifacts(state, [Artifact(type=t, compression=value) for t, _ in state.facts.artifacts])


def _set_artifacts(state: _State, artifacts: list[Artifact]) -> None:
    unique: list[Artifact] = []
    for artifact in artifacts:
        if all(a.type != artifact.type for a in unique):
            unique.append(artifact)
    current = [Artifact(type=t, compression=c) for t, c in state.facts.artifacts]
    if unique == current:
        state.notes.append("the artifacts are already " + _artifact_words(unique))
        return
    state.artifacts = unique


def _artifact_words(artifacts: Sequence[Artifact]) -> str:
    return ", ".join(f"{a.type}+{a.compression}" if a.compression else a.type for a in artifacts)


# --- rules: bootloader, immutability ------------------------------------------------------------

_BOOTLOADER = re.compile(
    rf"{_L}(?:(?P<from>from)\s+)?(?:(?:the\s+)?(?:use|using|with|switch\s+to|boot\s+with|via)\s+)?"
    rf"(?:(?P<sdboot>systemd-boot|systemd\s+boot|sd-boot)|(?P<grub>grub2?)|"
    rf"(?P<legacy>legacy\s+bios(?:\s+boot)?|legacy\s+boot|bios\s+boot|bios|csm|legacy)|"
    rf"(?P<efi>uefi|efi)(?:\s+boot)?){_R}(?:\s+(?:boot\s*loader|bootloader|mode))?"
)
_NEGATED_BEFORE = re.compile(
    r"(?:\b(?:without|no|not|disable|disabling|turn\s+off|switch\s+off|remove|drop|"
    r"non)\s+(?:the\s+|a\s+|any\s+)?)$"
)


def _rule_bootloader(state: _State) -> None:
    text = state.text
    for match in text.matches(_BOOTLOADER):
        text.consume(*match.span())
        if match.group("from"):
            continue  # "switch from grub to systemd-boot": only the destination counts
        if match.group("sdboot"):
            state.bootloader["provider"] = "systemd-boot"
        elif match.group("grub"):
            state.bootloader["provider"] = "grub"
        elif match.group("legacy"):
            state.bootloader["boot_type"] = "legacy"
        else:
            state.bootloader["boot_type"] = "efi"
    if state.bootloader.get("boot_type") == "legacy":
        if state.bootloader.get("provider") == "systemd-boot":
            state.warn("systemd-boot only boots UEFI; legacy BIOS needs grub, so grub is used")
            state.bootloader["provider"] = "grub"
        elif state.facts.bootloader == "systemd-boot" and "provider" not in state.bootloader:
            state.warn("systemd-boot only boots UEFI; switched the bootloader to grub")
            state.bootloader["provider"] = "grub"
    if state.bootloader.get("provider") == state.facts.bootloader.replace("grub2", "grub"):
        state.notes.append(f"the bootloader is already {state.facts.bootloader}")
        del state.bootloader["provider"]
    if state.bootloader.get("boot_type") == state.facts.boot_type:
        state.notes.append(f"the boot type is already {state.facts.boot_type}")
        del state.bootloader["boot_type"]


_IMMUTABLE = re.compile(
    r"\b(?:(?P<off>mutable|writable\s+root(?:fs)?|read[- ]write\s+root(?:fs)?)|immutable"
    r"(?:\s+(?:root(?:fs)?|root\s+file\s*system|os|image))?|immutability|dm-?verity"
    r"(?:\s+root)?|read[- ]only\s+(?:root(?:fs)?|root\s+file\s*system|root\s+fs|file\s*system|"
    r"system|os|image))\b"
)
_SECURE_BOOT = re.compile(r"\b(?:uefi\s+)?secure[- ]?boot\b")
_ENABLE_WORDS = re.compile(
    r"\b(?:make\s+it|turn\s+on|switch\s+on|enable|with|add|use)\s+(?:the\s+|an?\s+)?$"
)


_LIST_GAP = re.compile(r"[\s\x1f]*(?:,|\band\b|\bor\b|\bnor\b)?[\s\x1f]*$")


def _consume_before(text: _Text, match: re.Match[str], pattern: re.Pattern[str]) -> bool:
    """Mark the words just before ``match`` used when ``pattern`` ends there ("turn off")."""
    start = max(0, match.start() - 30)
    found = pattern.search(text.work[start : match.start()])
    if found is None:
        return False
    text.consume(start + found.start(), match.start())
    return True


def _rule_immutability(state: _State) -> None:
    text = state.text
    mentions = sorted(
        [(m, "secure boot") for m in text.matches(_SECURE_BOOT)]
        + [(m, "immutability") for m in text.matches(_IMMUTABLE)],
        key=lambda item: item[0].start(),
    )
    previous: tuple[int, bool] | None = None  # end and negation of the last mention
    for match, kind in mentions:
        negated = _consume_before(text, match, _NEGATED_BEFORE)
        _consume_before(text, match, _ENABLE_WORDS)
        # "disable secure boot and immutability": the negation covers both
        if previous is not None and _LIST_GAP.match(text.work, previous[0], match.start()):
            negated = negated or previous[1]
        text.consume(*match.span())
        previous = (match.end(), negated)
        if kind == "secure boot":
            state.secure_boot = not negated
            if state.secure_boot == state.facts.secure_boot:
                state.notes.append(f"secure boot is already {'off' if negated else 'on'}")
                state.secure_boot = None
            continue
        off = match.group("off") is not None or negated
        state.immutable = not off
        if state.immutable == (state.facts.immutable is True):
            state.notes.append(f"immutability is already {'off' if off else 'on'}")
            state.immutable = None
    if state.secure_boot and state.facts.immutable is not True:
        if state.immutable is False:
            state.warn("secure boot keys need immutability enabled; kept immutability off as asked")
        else:
            state.warn("secure boot keys live in the immutability settings; turned immutability on")


# --- rules: target ----------------------------------------------------------------------------

_UNSUPPORTED_TARGETS: tuple[tuple[str, str], ...] = (
    (
        r"ubuntu\s*(?:22(?:\.04)?|20(?:\.04)?|18(?:\.04)?|25(?:\.04|\.10)?)|jammy|focal|bionic",
        "Ubuntu 24.04 (ubuntu24) and 26.04 (ubuntu26)",
    ),
    (
        r"debian\s*(?:12|11|10)|bookworm|bullseye|buster",
        "Debian 13 (debian13), or elxr12 for a bookworm base",
    ),
    (
        r"(?:rhel|el|almalinux|alma(?:\s*linux)?|rocky(?:\s*linux)?|centos(?:\s*stream)?)\s*-?[6-9]"
        r"|centos",
        "RHEL-compatible 10 (el10)",
    ),
    (r"azure\s*linux\s*2(?:\.0)?|cbl-mariner\s*2|mariner\s*2", "Azure Linux 3 (azl3)"),
    (r"armv7hl|armv7|armhf|arm32|armv7l", "x86_64 and aarch64 (set_target cannot express armv7hl)"),
    (
        r"fedora|opensuse|suse|arch\s+linux|alpine|gentoo|nixos",
        "ubuntu24, ubuntu26, debian13, elxr12, azl3, emt3 and el10",
    ),
)
_DIST_PHRASES: tuple[tuple[str, str], ...] = (
    (r"ubuntu[\s-]*(?:24(?:\.04)?|noble)|noble(?:\s+numbat)?|24\.04", "ubuntu24"),
    (r"ubuntu[\s-]*26(?:\.04)?|resolute(?:\s+raccoon)?|26\.04", "ubuntu26"),
    (r"debian[\s-]*13|trixie", "debian13"),
    (
        r"(?:wind\s+river\s+)?elxr[\s-]*12|wind\s+river(?:\s+linux)?(?:\s+elxr)?|wind-river-elxr",
        "elxr12",
    ),
    (
        r"azure[\s-]*linux[\s-]*3(?:\.0)?|azure-linux|azure\s*linux|cbl-mariner(?:\s*3)?|azl\s*3",
        "azl3",
    ),
    (r"edge\s+microvisor\s+toolkit(?:\s*3)?|edge-microvisor-toolkit|emt\s*3", "emt3"),
    (
        r"(?:rhel|red\s*hat(?:\s+enterprise\s+linux)?|el|almalinux|alma\s*linux|rocky(?:\s*linux)?"
        r"|rcd)\s*-?10|red\s*hat(?:\s+enterprise\s+linux)?|rocky\s+linux|alma\s*linux|"
        r"redhat-compatible-distro",
        "el10",
    ),
    *((re.escape(word), dist) for word, dist in TARGET_WORDS["dist"].items()),
)
_ARCH_PHRASES: tuple[tuple[str, str], ...] = (
    (r"x86[-_]64|64-bit\s+(?:x86|intel|amd)|intel\s*64|amd\s*64", "x86_64"),
    (r"arm\s*64|armv8|64-bit\s+arm", "aarch64"),
    *((re.escape(word), arch) for word, arch in TARGET_WORDS["arch"].items()),
)
_IMAGE_TYPE_PHRASES: tuple[tuple[str, str], ...] = (
    (
        r"(?:an?\s+)?(?:iso|installer|install)\s+(?:image|media|iso|usb|dvd)|live\s+(?:iso|usb|cd|"
        r"media)|installer|iso",
        "iso",
    ),
    (
        r"pxe(?:\s+boot)?|ipxe|network[\s-]+boot(?:able)?|net[\s-]?boot(?:able)?|initrd|"
        r"diskless|img|ram\s*disk|initramfs\s+image",
        "img",
    ),
    (r"raw(?:\s+disk)?(?:\s+image)?|disk\s+image", "raw"),
)


def _phrase_pattern(phrases: Iterable[tuple[str, str]]) -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(rf"{_L}(?:{phrase}){_R}"), value) for phrase, value in phrases]


_DIST_PATTERNS = _phrase_pattern(_DIST_PHRASES)
_ARCH_PATTERNS = _phrase_pattern(_ARCH_PHRASES)
_IMAGE_TYPE_PATTERNS = _phrase_pattern(_IMAGE_TYPE_PHRASES)
_UNSUPPORTED_PATTERNS = _phrase_pattern(_UNSUPPORTED_TARGETS)
_OS_ONLY = re.compile(rf"{_L}ubuntu{_R}")
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:the\s+|an?\s+)?$")


def _rule_target(state: _State) -> None:
    text = state.text
    for pattern, supported in _UNSUPPORTED_PATTERNS:
        for match in text.matches(pattern):
            state.reject(*match.span(), f"not a target the composer builds; supported: {supported}")
    chosen: dict[str, tuple[int, str]] = {}
    for kind, patterns in (
        ("dist", _DIST_PATTERNS),
        ("arch", _ARCH_PATTERNS),
        ("image_type", _IMAGE_TYPE_PATTERNS),
    ):
        mentions: list[tuple[int, int, str]] = []
        for pattern, value in patterns:
            for match in text.matches(pattern):
                if _FROM_BEFORE.search(text.work, 0, match.start()):
                    text.consume(*match.span())  # "from ubuntu to debian": the source
                    continue
                mentions.append((match.start(), match.end(), value))
                text.consume(*match.span())
        values = list(dict.fromkeys(value for _, _, value in sorted(mentions)))
        if len(values) > 1:
            state.not_applied.append(
                f"'{kind.replace('_', ' ')}' — the request names {' and '.join(values)}; "
                f"kept {values[-1]}, the last one"
            )
        if values:
            chosen[kind] = (mentions[0][0], values[-1])
    if "dist" not in chosen:
        for match in text.matches(_OS_ONLY):
            text.consume(*match.span())
            if not state.target.dist.startswith("ubuntu"):
                chosen["dist"] = (match.start(), "ubuntu24")
    _apply_target(state, {kind: value for kind, (_, value) in chosen.items()})


def _apply_target(state: _State, chosen: Mapping[str, str]) -> None:
    facts = state.facts
    current = {"dist": facts.dist, "arch": facts.arch, "image_type": facts.image_type}
    for kind, value in chosen.items():
        if value == current[kind]:
            if state.mode == "refine":  # in create mode retrieval already matched it
                state.notes.append(f"the target is already {value}")
            continue
        if kind == "dist":
            state.set_target["os"], state.set_target["dist"] = DIST_OS[value], value
            state.target.os, state.target.dist = DIST_OS[value], value
        elif kind == "arch":
            state.set_target["arch"] = state.target.arch = value
        else:
            state.set_target["image_type"] = state.target.image_type = value
    if "dist" not in state.set_target or not facts.dist:
        return
    old_family = _family(facts.os, facts.dist)
    new_family = _family(state.target.os, state.target.dist)
    base = "the closest template" if state.mode == "create" else "the template"
    switch = (
        f"switches the package family from {old_family} to {new_family}"
        if old_family and old_family != new_family
        else "keeps the package family"
    )
    state.warn(
        f"{base} is {facts.dist} and the request names {state.target.dist}: the plan retargets "
        f"it and {switch}; package names the catalog cannot map were kept and need checking"
    )


def _translate_for_target(state: _State) -> None:
    """On a dist or arch change, rename the base's packages that the catalog can map.

    The applier already swaps architecture words in package names (grub-efi-amd64 to
    grub-efi-arm64); this covers names that differ by distribution (docker.io and
    moby-engine) or by arch without such a word (qemu-system-x86).
    """
    facts = state.facts
    target = state.target
    if not facts.readable or not (state.set_target.get("dist") or state.set_target.get("arch")):
        return
    old_family = _family(facts.os, facts.dist)
    new_family = _family(target.os, target.dist)
    renames: list[tuple[str, str, bool]] = []
    for kernel, names in ((False, facts.packages), (True, facts.kernel_packages)):
        for name in names:
            # the applier swaps arch words (amd64 -> arm64) itself; this maps the rest
            aliases = state.catalog.aliases(name, target.os, target.dist, target.arch)
            new = aliases[0] if aliases and name not in aliases else name
            if new != name:
                renames.append((name, new, kernel))
    for old, new, kernel in renames:
        if old not in state.remove:
            state.remove.append(old)
        bucket = state.add_kernel if kernel else state.add
        if new not in bucket:
            bucket.append(new)
    if renames:
        state.warn(
            f"renamed packages for {target.dist}/{target.arch}: "
            + ", ".join(f"{old} → {new}" for old, new, _ in renames)
        )
    if "dist" in state.set_target and facts.kernel_packages and old_family != new_family:
        state.warn(
            "kernel packages (" + ", ".join(facts.kernel_packages) + f") come from {facts.dist}; "
            f"check them for {target.dist}"
        )


# --- packages and capabilities -----------------------------------------------------------------


@dataclass
class _Item:
    mode: Literal["add", "remove", "none"]
    tokens: list[_Token]

    @property
    def words(self) -> list[str]:
        return [t.text for t in self.tokens]

    @property
    def span(self) -> tuple[int, int]:
        return self.tokens[0].start, self.tokens[-1].end


def _items(tokens: Sequence[_Token]) -> Iterator[_Item]:
    """Split the words into list items, each under the add or remove verb before it."""
    mode: Literal["add", "remove", "none"] = "none"
    current: list[_Token] = []
    negated = False  # "do not add docker", "don't install vim"
    for token in tokens:
        word = token.text
        verb: Literal["add", "remove"] | None = None
        if token.kind == "word" and word in _ADD_VERBS:
            verb = "remove" if negated else "add"
        elif token.kind == "word" and word in _REMOVE_VERBS | _NEGATORS:  # "get rid": "rid"
            verb = "remove"
        negated = token.kind == "word" and word in _NEGATORS
        if token.kind != "word" or word in _SEPARATOR_WORDS or verb is not None:
            if current:
                yield _Item(mode, current)
                current = []
            if verb is not None:
                mode = verb
            continue
        current.append(token)
    if current:
        yield _Item(mode, current)


def _rule_packages(state: _State) -> None:
    for item in _items(_tokens(state.text.work)):
        if any(w not in _FILLER for w in item.words):
            _resolve_item(state, item)


def _names_capability(capabilities: Sequence[Capability], token: str) -> bool:
    """True when ``token`` is a capability's name or one of its synonyms (plural allowed)."""
    token_words = words(token)
    for capability in capabilities:
        for phrase in (capability.name, *capability.synonyms):
            phrase_words = words(phrase)
            if len(phrase_words) == len(token_words) and all(
                t in (p, p + "s") for t, p in zip(token_words, phrase_words, strict=True)
            ):
                return True
    return False


def _covered(capabilities: Sequence[Capability], item_words: Sequence[str]) -> list[bool]:
    """Which of ``item_words`` a capability's name or synonyms account for."""
    taken = [False] * len(item_words)
    phrases = sorted(
        {words(p) for c in capabilities for p in (c.name, *c.synonyms)},
        key=lambda phrase: (-len(phrase), phrase),
    )
    for phrase in phrases:
        size = len(phrase)
        for start in range(len(item_words) - size + 1):
            if any(taken[start : start + size]):
                continue
            if all(item_words[start + k] in (phrase[k], phrase[k] + "s") for k in range(size)):
                taken[start : start + size] = [True] * size
    return taken


@lru_cache(maxsize=256)
def _for_use_case(catalog: CapabilityCatalog, text: str) -> tuple[Capability, ...]:
    return catalog.for_use_case(text)


@lru_cache(maxsize=4)
def _catalog_words(catalog: CapabilityCatalog) -> frozenset[str]:
    # filler words ("a", "the", "image") never carry a phrase on their own
    return frozenset(
        word
        for capability in catalog.capabilities.values()
        for phrase in (capability.name, *capability.synonyms)
        for word in words(phrase)
        if word not in _FILLER
    )


@lru_cache(maxsize=1024)
def _find_capabilities_cached(catalog: CapabilityCatalog, text: str) -> tuple[Capability, ...]:
    return tuple(catalog.find(text))


def _find_capabilities(catalog: CapabilityCatalog, text: str) -> tuple[Capability, ...]:
    """``catalog.find``, skipped when no word of ``text`` occurs in any capability phrase."""
    known = _catalog_words(catalog)
    if not any(w in known or w.removesuffix("s") in known for w in words(text)):
        return ()
    return _find_capabilities_cached(catalog, text)


_MAX_ITEM_WORDS = 8
# Requests are sentences; a longer text (a pasted file) is read up to here.
_MAX_REQUEST_CHARS = 2000


def _resolve_item(state: _State, item: _Item) -> None:
    """Read one list item ("docker", "node monitoring", "htop") as packages to add or remove."""
    content = [w for w in item.words if w not in _FILLER]
    text = " ".join(item.words)
    target = state.target
    if len(content) > _MAX_ITEM_WORDS:
        return  # a run-on phrase is not a package list; the leftover report quotes it
    capabilities = _find_capabilities(state.catalog, text)
    token = content[0] if len(content) == 1 else ""
    is_name = (
        bool(token)
        and _PACKAGE_TOKEN.match(token) is not None
        and token not in _NOT_PACKAGES
        and token not in _RETRIEVAL_WORDS
        and not token.replace(".", "").isdigit()
    )
    # A package spelling that differs on this target ("docker-ce" on elxr12 is docker.io)
    # is mapped; a capability's own name ("docker") means the capability.
    # package names keep the case they were written in (NetworkManager, PackageKit)
    written = next((state.text.raw(t.start, t.end) for t in item.tokens if t.text == token), "")
    if is_name and target.known and token not in {c.name for c in capabilities}:
        aliases = state.catalog.aliases(token, target.os, target.dist, target.arch)
        if aliases:
            names = [written] if written in aliases else list(aliases)
            _apply_names(state, item, written, names)
            return
    if capabilities and token and not _names_capability(capabilities, token):
        capabilities = ()  # "python3-pip" names a package, not the python capability
    if capabilities:
        item_words = words(text)
        covered = _covered(capabilities, item_words)
        leftover = [
            w for w, done in zip(item_words, covered, strict=True) if not done and w not in _FILLER
        ]
        if not leftover or all(w in _RETRIEVAL_WORDS for w in leftover):
            _apply_capabilities(state, item, capabilities)
            return
        if not is_name:
            return  # part of it is unclear ("docker swarm magic"): report the whole item
    if item.mode == "none":
        if state.mode == "create" and content and all(w in _RETRIEVAL_WORDS for w in content):
            for token_ in item.tokens:
                if token_.text in _RETRIEVAL_WORDS:
                    state.use_case_words.append((token_.start, token_.text))
            state.text.consume(*item.span)
        return  # a bare unknown word: the leftover report names it
    # a broad word from the vocabulary ("gui", "networking"): remove what matches it, but
    # do not guess what to add
    group = token if token in PACKAGE_CAPABILITIES else CAPABILITY_SYNONYMS.get(token)
    if group is not None:
        if item.mode == "remove":
            _remove_by_patterns(state, item, token, PACKAGE_CAPABILITIES.get(group, ()))
            return
        options = [c.name for c in state.catalog.capabilities.values() if c.group == group]
        state.reject(
            *item.span,
            "too general to pick packages; ask for "
            + (" or ".join(options) if options else "the packages by name"),
        )
        return
    if is_name:
        _apply_names(state, item, written, [written])
        return
    if content and all(w in _RETRIEVAL_WORDS or w in _NOT_PACKAGES for w in content):
        suggestions = [c.name for c in state.catalog.for_use_case(text)][:4]
        if suggestions and item.mode == "add":
            state.reject(
                *item.span,
                "names a use case, not packages; ask for capabilities such as "
                + ", ".join(suggestions),
            )


def _apply_names(state: _State, item: _Item, asked: str, names: list[str]) -> None:
    """Add or remove packages named in the request (``names`` may be the target's spelling)."""
    if not state.target.known and item.mode != "remove":
        state.reject(*item.span, "the template has no target distribution to name packages for")
        return
    if names != [asked]:
        state.warn(
            f"{asked!r} is packaged as {', '.join(names)} on {state.target.dist}; used that name"
        )
    if item.mode == "remove":
        candidates = {asked, *names}
        if state.target.known:
            candidates |= set(state.catalog.aliases(asked, state.target.os, state.target.dist))
        _remove(state, item, sorted(candidates), asked)
    else:
        _add(state, item, names, asked)


def _apply_capabilities(state: _State, item: _Item, capabilities: Sequence[Capability]) -> None:
    """Add a capability's packages for the target, or remove whichever of them are there."""
    target = state.target
    if not target.known:
        state.reject(*item.span, "the template has no target distribution to pick packages for")
        return
    names: list[str] = []
    for capability in capabilities:
        packages = capability.packages_for(target.os, target.dist, target.arch)
        if not packages and item.mode != "remove":
            state.reject(
                *item.span,
                f"{capability.name} has no packages on {target.dist}: {capability.note}",
            )
            return
        names += [p for p in packages if p not in names]
        unverified = set(packages) & capability.unverified_for(target.os, target.dist, target.arch)
        # say so when the names could not be checked or stand in for what was asked (k3s)
        stand_in = not any(capability.name.split("-")[0] in p for p in packages)
        if (unverified or stand_in) and item.mode != "remove":
            if _NOTE_MATTERS.search(capability.note):
                state.warn(f"{capability.name} on {target.dist}: {capability.note}")
    label = " ".join(w for w in item.words if w not in _FILLER)
    if item.mode == "remove":
        candidates = set(names)
        for name in names:
            candidates |= set(state.catalog.aliases(name, target.os, target.dist))
        present = _present_names(state, candidates)
        if not present:
            groups = {c.group for c in capabilities}
            patterns = [p for g in groups for p in PACKAGE_CAPABILITIES.get(g, ())]
            if patterns and not any(g == "container" for g in groups):
                _remove_by_patterns(state, item, label, patterns)
                return
        _remove(state, item, sorted(candidates), label)
        return
    _add(state, item, names, label)


# notes worth repeating: the packages come from elsewhere or stand in for what was asked
_NOTE_MATTERS = re.compile(r"repositor|EPEL|upstream|Ubuntu Pro|Podman|releases")


def _present_names(state: _State, candidates: Iterable[str]) -> list[str]:
    wanted = set(candidates)
    installed = (*state.facts.packages, *state.facts.kernel_packages, *state.add)
    return [name for name in installed if name in wanted]


def _remove_by_patterns(state: _State, item: _Item, label: str, patterns: Iterable[str]) -> None:
    pattern_list = list(patterns)
    matched = [
        name
        for name in (*state.facts.packages, *state.facts.kernel_packages)
        if any(fnmatchcase(name, p) for p in pattern_list)
    ]
    _remove(state, item, matched, label)


def _remove(state: _State, item: _Item, candidates: Sequence[str], label: str) -> None:
    state.text.consume(*item.span)
    present = _present_names(state, candidates)
    if not present:
        state.absent.append(label)
        return
    for name in present:
        if name in state.add:
            state.add.remove(name)
        elif name not in state.remove:
            state.remove.append(name)


def _add(state: _State, item: _Item, names: Sequence[str], label: str) -> None:
    state.text.consume(*item.span)
    installed = {*state.facts.packages, *state.facts.kernel_packages}
    new = []
    for name in names:
        if name in installed and name not in state.remove:
            state.present.append(name)
        elif name in state.remove:
            state.remove.remove(name)
        elif name not in state.add:
            new.append(name)
    state.add += new
    state.features.append((item.span[0], label))


# --- what is left over ------------------------------------------------------------------------


def _report_leftovers(state: _State) -> None:
    """Every remaining word that means something becomes a not-applied entry."""
    segment: list[_Token] = []

    def flush() -> None:
        meaningful = [
            t
            for t in segment
            if t.text not in _FILLER and not (state.mode == "create" and t.text in _RETRIEVAL_WORDS)
        ]
        if meaningful:
            start, end = segment[0].start, segment[-1].end
            clause = " ".join(state.text.raw(start, end).split())
            state.not_applied.append(
                f"'{clause}' — no rule for this; try a concrete change such as "
                "'add htop', 'make the disk 8GiB' or 'hostname edge-01'"
            )
        elif state.mode == "create":
            for token in segment:
                if token.text in _RETRIEVAL_WORDS:
                    state.use_case_words.append((token.start, token.text))
        segment.clear()

    for token in _tokens(state.text.work):
        if token.kind != "word" or token.text in ("and", "then", "but", "with", "plus"):
            flush()
            continue
        segment.append(token)
    flush()


# --- assembling the plan --------------------------------------------------------------------


def _slug(parts: Iterable[str], limit: int = 60) -> str:
    words: list[str] = []
    for part in parts:
        for word in re.sub(r"[^a-z0-9]+", "-", part.lower()).strip("-").split("-"):
            if word and word not in words:
                words.append(word)
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > limit:
            break
        slug = candidate
    return slug or "image"


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _name_and_describe(state: _State) -> SetMetadata:
    """Create mode: name the image after the request (unless it was named) and describe it."""
    target = state.target
    use_cases = list(dict.fromkeys(word for _, word in sorted(state.use_case_words)))
    features = list(dict.fromkeys(label for _, label in sorted(state.features)))
    if state.image_name is None:
        type_word = {"iso": "installer", "img": "netboot"}.get(target.image_type, "")
        # amd64/aarch64 are the arch words the applier swaps in names on an arch change
        arch = {"x86_64": "amd64"}.get(target.arch, target.arch)
        name = _slug([target.dist or "image", arch, *use_cases, *features, type_word])
        if name != state.facts.image_name:
            state.image_name = name
    title = DIST_TITLES.get(target.dist, target.dist or "Linux")
    description = f"{title} {target.arch or ''} {_IMAGE_TYPE_WORDS.get(target.image_type, 'image')}"
    description = " ".join(description.split())
    if use_cases:
        description += f" ({', '.join(use_cases)})"
    if features:
        description += f" with {_join(features)}"
    return SetMetadata(description=description + ".")


def _suggestions(state: _State) -> list[str]:
    """Capabilities the request's use case usually wants and the plan does not have yet."""
    if state.mode != "create" or not state.target.known:
        return []
    # only the use-case and feature words: matching the whole request costs milliseconds
    use_case = " ".join(word for _, word in sorted([*state.use_case_words, *state.features]))
    if not use_case:
        return []
    have = {*state.facts.packages, *state.add} - set(state.remove)
    names: list[str] = []
    for capability in _for_use_case(state.catalog, use_case):
        packages = capability.packages_for(state.target.os, state.target.dist, state.target.arch)
        if packages and not set(packages) <= have:
            names.append(capability.name)
    return names[:5]


def _operations(state: _State) -> list[Operation]:
    """The plan's operations, in the order the applier needs them.

    The target comes first (an arch change fixes the root partition type), the disk size
    before partitions (they are carved from the end of the disk), removals before
    additions.
    """
    ops: list[Operation] = []
    if state.set_target:
        wanted = state.set_target
        ops.append(
            SetTarget(
                os=wanted.get("os"),
                dist=wanted.get("dist"),
                arch=_arch_literal(wanted.get("arch")),
                image_type=_image_type_literal(wanted.get("image_type")),
            )
        )
    metadata = _name_and_describe(state) if state.mode == "create" else None
    if state.image_name is not None or state.image_version is not None:
        ops.append(SetImage(name=state.image_name, version=state.image_version))
    if metadata is not None:
        ops.append(metadata)
    if state.disk_size is not None:
        ops.append(SetDiskSize(size=state.disk_size))
    order = {"remove_partition": 0, "resize_partition": 1, "add_partition": 2}
    ops += sorted(state.partition_ops, key=lambda op: order[op.op])
    if state.artifacts is not None:
        ops.append(SetArtifacts(artifacts=state.artifacts))
    if state.bootloader:
        provider = state.bootloader.get("provider")
        boot_type = state.bootloader.get("boot_type")
        ops.append(
            SetBootloader(
                provider="grub" if provider == "grub" else "systemd-boot" if provider else None,
                boot_type="legacy" if boot_type == "legacy" else "efi" if boot_type else None,
            )
        )
    if state.immutable is not None or state.secure_boot is not None:
        enabled = state.immutable
        if enabled is None:
            enabled = state.facts.immutable is True or bool(state.secure_boot)
        ops.append(SetImmutability(enabled=enabled, secure_boot=state.secure_boot))
    if state.kernel_version is not None or state.cmdline is not None or state.append_cmdline:
        ops.append(
            SetKernel(
                version=state.kernel_version,
                cmdline=state.cmdline,
                append_cmdline=list(state.append_cmdline),
            )
        )
    if state.hostname is not None:
        ops.append(SetHostname(hostname=state.hostname))
    ops += state.users
    ops += state.values
    ops += state.repositories
    if state.remove:
        ops.append(RemovePackages(packages=list(state.remove)))
    if state.add:
        ops.append(AddPackages(packages=list(state.add)))
    if state.add_kernel:
        ops.append(AddPackages(packages=list(state.add_kernel), kernel=True))
    return ops


def _arch_literal(value: str | None) -> Literal["x86_64", "aarch64"] | None:
    return "x86_64" if value == "x86_64" else "aarch64" if value == "aarch64" else None


def _image_type_literal(value: str | None) -> Literal["raw", "iso", "img"] | None:
    kinds: dict[str | None, Literal["raw", "iso", "img"]] = {
        "raw": "raw",
        "iso": "iso",
        "img": "img",
    }
    return kinds.get(value)


def _an(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _describe_op(op: Operation) -> str:
    """One short clause per operation, for the summary."""
    match op:
        case SetTarget():
            fields = {"os": op.os, "dist": op.dist, "arch": op.arch, "image type": op.image_type}
            return "retarget to " + ", ".join(f"{k} {v}" for k, v in fields.items() if v)
        case SetImage():
            parts = [f"name it {op.name}" if op.name else ""]
            parts.append(f"set version {op.version}" if op.version else "")
            return " and ".join(p for p in parts if p)
        case SetDiskSize():
            return f"set the disk to {op.size}"
        case AddPartition():
            return f"add {_an(op.fs_type)} {op.mount_point} partition ({op.size or 'rest of disk'})"
        case ResizePartition():
            return f"resize partition {op.partition} to {op.size}"
        case RemovePartition():
            return f"remove partition {op.partition}"
        case SetArtifacts():
            return "write " + _artifact_words(op.artifacts)
        case SetBootloader():
            parts = [f"boot with {op.provider}" if op.provider else ""]
            parts.append(f"{op.boot_type} boot" if op.boot_type else "")
            return ", ".join(p for p in parts if p)
        case SetImmutability():
            words = ["immutability " + ("on" if op.enabled else "off")]
            if op.secure_boot is not None:
                words.append("secure boot " + ("on" if op.secure_boot else "off"))
            return "turn " + ", ".join(words)
        case SetKernel():
            parts = [f"use kernel {op.version}" if op.version else ""]
            if op.cmdline is not None:
                parts.append(f"set the kernel cmdline to '{op.cmdline}'")
            if op.append_cmdline:
                parts.append("append " + " ".join(op.append_cmdline) + " to the kernel cmdline")
            return ", ".join(p for p in parts if p)
        case SetHostname():
            return f"set the hostname to {op.hostname}"
        case AddUser():
            extra = [
                f"groups {', '.join(op.groups)}" if op.groups else "",
                "sudo" if op.sudo else "",
            ]
            detail = ", ".join(e for e in extra if e)
            return f"add user {op.name}" + (f" ({detail})" if detail else "")
        case SetValue():
            return f"set {op.path} to {op.value}"
        case AddRepository():
            return f"add repository {op.url}"
        case RemovePackages():
            return "remove " + ", ".join(op.packages)
        case AddPackages():
            return ("add kernel packages " if op.kernel else "add ") + ", ".join(op.packages)
        case _:
            return op.op


def _summary(state: _State, ops: Sequence[Operation], suggestions: Sequence[str]) -> str:
    described = _join([_describe_op(op) for op in ops if not isinstance(op, SetMetadata)])
    summary = f"{described[:1].upper()}{described[1:]}." if described else "No changes."
    present = list(dict.fromkeys(state.present))
    if present:
        summary += f" Already present: {', '.join(present)}."
    absent = list(dict.fromkeys(state.absent))
    if absent:
        summary += f" Not in the template, nothing to remove: {', '.join(absent)}."
    notes = list(dict.fromkeys(state.notes))
    if notes:
        summary += " " + "; ".join(n[:1].upper() + n[1:] for n in notes) + "."
    if suggestions:
        summary += f" Worth considering for this use case (not added): {', '.join(suggestions)}."
    return summary


def _check_disk_layout(state: _State) -> None:
    """Artifacts make the image raw; disk sizes and partitions need a raw image."""
    kind = state.target.image_type
    if state.artifacts and kind in ("iso", "img") and "image_type" not in state.set_target:
        state.warn(
            f"disk artifacts exist only for raw disk images, so the image type changes from "
            f"{kind} to raw"
        )
        state.set_target["image_type"] = state.target.image_type = "raw"
        return
    if kind not in ("iso", "img"):
        return
    reason = f"{_an(_IMAGE_TYPE_WORDS[kind])} has no disk layout; ask for a raw image to set one"
    if state.disk_size is not None:
        state.not_applied.append(f"'disk size {state.disk_size}' — {reason}")
        state.disk_size = None
    for op in state.partition_ops:
        state.not_applied.append(f"'{_describe_op(op)}' — {reason}")
    state.partition_ops.clear()
    if state.artifacts:
        state.not_applied.append(f"'{_artifact_words(state.artifacts)}' — {reason}")
        state.artifacts = None


def plan_request(request: str, template_text: str, *, mode: Mode) -> EditPlan:
    """Turn a request into an edit plan for ``template_text``, by rules alone.

    Args:
        request: What the user asked for, in plain words.
        template_text: The current template (refine) or the retrieved base (create).
        mode: ``"create"`` also names and describes the new image; ``"refine"`` changes
            only what was asked.

    Returns:
        The plan. Parts of the request it cannot express are listed in ``not_applied``;
        a password in the request is dropped and a warning says so.
    """
    redacted, password_warning = _redact_passwords(request)
    if len(redacted) > _MAX_REQUEST_CHARS:
        cut = redacted.rfind(" ", 0, _MAX_REQUEST_CHARS)
        redacted = redacted[: cut if cut > 0 else _MAX_REQUEST_CHARS]
        too_long = (
            f"the request is longer than {_MAX_REQUEST_CHARS} characters; only its beginning "
            "was read — send the rest as a follow-up"
        )
    else:
        too_long = ""
    facts = _read_facts(template_text)
    state = _State(
        mode=mode,
        facts=facts,
        text=_Text(redacted),
        catalog=load_catalog(),
        target=_Target(facts.os, facts.dist, facts.arch, facts.image_type),
    )
    if password_warning:
        state.warn(password_warning)
    if too_long:
        state.not_applied.append(too_long)
    if not facts.readable:
        state.warn(f"the base template could not be read ({facts.error}); planned without it")
    for rule in (
        _rule_repositories,
        _rule_image_name,
        _rule_hostname,
        _rule_users,
        _rule_kernel,
        _rule_image_version,
        _rule_disk_size,
        _rule_partitions,
        _rule_artifacts,
        _rule_bootloader,
        _rule_immutability,
        _rule_target,
        _rule_bare_kernel_args,
    ):
        rule(state)
    _check_disk_layout(state)
    if state.target.known:
        _translate_for_target(state)
    _rule_packages(state)
    _report_leftovers(state)
    suggestions = _suggestions(state)
    ops = _operations(state)
    return EditPlan(
        summary=_summary(state, ops, suggestions),
        operations=ops,
        not_applied=state.not_applied,
        warnings=state.warnings,
    )


# --- explaining a template --------------------------------------------------------------------

_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("packages", re.compile(r"\b(?:packages?|installed|software|included|includes?|contain)")),
    ("disk", re.compile(r"\b(?:disk|partitions?|layout|storage|size|mounts?|artifacts?|format)")),
    ("kernel", re.compile(r"\b(?:kernel|cmdline|command\s*line|boot\s+args)")),
    ("users", re.compile(r"\b(?:users?|accounts?|logins?|sudo)")),
    ("boot", re.compile(r"\b(?:boot(?:loader)?|grub|systemd-boot|efi|bios|secure\s*boot|immutab)")),
    ("target", re.compile(r"\b(?:target|distro|distribution|arch(?:itecture)?|os|version|type)\b")),
    ("hostname", re.compile(r"\b(?:host\s*name|host)\b")),
    ("repositories", re.compile(r"\b(?:repo(?:sitor(?:y|ies))?s?|sources?)\b")),
)
_SUMMARY_WORDS = re.compile(r"\b(?:summar|overview|describe|explain|what\s+is\s+(?:this|it)|tell)")
_HAS_QUESTION = re.compile(
    r"\b(?:does|do|is|are|has)\b.*?\b(?:have|has|include|includes|contain|installed|there|got)"
    r"\b\s+(?P<what>.+?)\s*\??$"
    r"|^\s*(?:is|are)\s+(?P<subject>.+?)\s+(?:installed|included|there|present|in\s+it)\s*\??\s*$"
)


def describe_template(template_text: str, question: str) -> str:
    """Answer a question about a template in plain language, without changing it.

    Args:
        template_text: The current template.
        question: "what packages are included?", "summarise it", "what is the disk
            layout?", "which kernel?", "what users?", "does it have docker?" ...

    Returns:
        A short paragraph or bullet list. Questions it does not recognise get the
        whole summary.
    """
    facts = _read_facts(template_text)
    if not facts.readable:
        return f"The current template could not be read: {facts.error}."
    asked = question.lower()
    has = _HAS_QUESTION.search(asked)
    if has is not None and not _SUMMARY_WORDS.search(asked):
        answer = _answer_has(facts, has.group("what") or has.group("subject"))
        if answer:
            return answer
    topics = [name for name, pattern in _TOPICS if pattern.search(asked)]
    if not topics or _SUMMARY_WORDS.search(asked):
        topics = ["about", "target", "packages", "disk", "boot", "kernel", "users", "hostname"]
        return "Here is a summary of the template:\n" + "\n".join(
            f"- {line}" for topic in topics if (line := _describe_topic(facts, topic, brief=True))
        )
    lines = [_describe_topic(facts, topic, brief=False) for topic in topics]
    return "\n".join(line for line in lines if line) or "The template does not say."


def _answer_has(facts: _Facts, what: str) -> str:
    """Answer "does it have X?" from the package list, through the catalog's names for X."""
    catalog = load_catalog()
    asked = [w for w in re.findall(r"[a-z0-9][a-z0-9._+-]*", what) if w not in _FILLER]
    if not asked:
        return ""
    installed = (*facts.packages, *facts.kernel_packages)
    names: set[str] = set(asked)
    if _family(facts.os, facts.dist):
        for capability in catalog.find(" ".join(asked)):
            names |= set(capability.packages_for(facts.os, facts.dist, facts.arch))
        for word in asked:
            names |= set(catalog.aliases(word, facts.os, facts.dist, facts.arch))
    found = [name for name in installed if name in names]
    subject = " ".join(what.strip(" ?.!").split())
    if found:
        return f"Yes: {subject} is covered by {', '.join(found)} in the package list."
    return f"No: nothing in the package list provides {subject}."


def _describe_topic(facts: _Facts, topic: str, *, brief: bool) -> str:
    if topic == "about":
        return f"About: {facts.description}" if facts.description else ""
    if topic == "target":
        title = DIST_TITLES.get(facts.dist, facts.dist or "an unknown distribution")
        kind = _IMAGE_TYPE_WORDS.get(facts.image_type, facts.image_type or "image")
        name = f"{facts.image_name} {facts.image_version}".strip()
        return f"Target: {title} ({facts.os}/{facts.dist}), {facts.arch}, {kind}" + (
            f"; image {name}" if name else ""
        )
    if topic == "packages":
        if not facts.packages and not facts.kernel_packages:
            return "Packages: none listed."
        shown = facts.packages if not brief else facts.packages[:8]
        more = len(facts.packages) - len(shown)
        text = f"Packages: {len(facts.packages)} — " + ", ".join(shown)
        text += f" and {more} more" if more > 0 else ""
        if facts.kernel_packages:
            text += f"; kernel packages: {', '.join(facts.kernel_packages)}"
        return text
    if topic == "disk":
        if not facts.has_disk:
            kind = _IMAGE_TYPE_WORDS.get(facts.image_type, "image of this type")
            return f"Disk: none ({_an(kind)} has no disk layout)."
        parts = []
        for part in facts.partitions:
            size = part.size(facts.disk_size)
            size_text = format_size(size) if size is not None else "?"
            if part.end == 0:
                size_text += ", rest of disk"
            parts.append(f"{part.id or '?'} {part.mount or '-'} {part.fs or '?'} ({size_text})")
        artifacts = ", ".join(
            f"{kind}+{compression}" if compression else kind
            for kind, compression in facts.artifacts
        )
        text = f"Disk: {facts.disk_size_text or 'size not set'}"
        text += (
            f" with {len(parts)} partitions: " + "; ".join(parts) if parts else ", no partitions"
        )
        if artifacts:
            text += f". Output: {artifacts}"
        return text
    if topic == "kernel":
        text = f"Kernel: {facts.kernel_version or 'distribution default'}"
        if facts.cmdline:
            text += f", cmdline '{facts.cmdline}'"
        return text
    if topic == "users":
        if not facts.users:
            return "Users: none defined beyond the defaults."
        described = []
        for user in facts.users:
            extra = ["sudo"] if user.sudo else []
            if user.groups:
                extra.append("groups " + ", ".join(user.groups))
            described.append(user.name + (f" ({'; '.join(extra)})" if extra else ""))
        return "Users: " + "; ".join(described)
    if topic == "boot":
        loader = facts.bootloader or "the default bootloader"
        text = f"Bootloader: {loader}" + (f" ({facts.boot_type})" if facts.boot_type else "")
        if facts.immutable is not None:
            text += ", immutable root" if facts.immutable else ", writable root"
        if facts.secure_boot:
            text += ", secure boot keys set"
        return text
    if topic == "hostname":
        return (
            f"Hostname: {facts.hostname}"
            if facts.hostname
            else ("" if brief else "Hostname: not set.")
        )
    if topic == "repositories":
        if not facts.repositories:
            return "Repositories: only the distribution's defaults."
        return "Repositories: " + ", ".join(facts.repositories)
    return ""
