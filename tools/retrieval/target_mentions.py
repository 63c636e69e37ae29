"""Where a request names a target: dist, arch, image type, os, package family.

One detector for the whole agent: routing, search and the builtin planner all read the
target registry (``stores/data/targets.yaml``) through :func:`detect_target_spans`, phrase
by phrase and with offsets; :func:`detect_targets` folds the mentions into one value per
kind. A mention that the request rules out ("not plain Debian", "no debian or ubuntu")
or moves away from ("from ubuntu to debian") names a target, but not the one wanted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from oic_ai.stores.targets import load_targets
from oic_ai.tools.retrieval.spelling import TOOL_AFTER, read_cached

# Boundaries that keep hyphenated and dotted names whole: "emt" must not match inside
# "emt3-x86_64-minimal", nor "arm" inside "arm64".
WORD_START = r"(?<![a-z0-9_.+/=-])"
WORD_END = r"(?![a-z0-9_+/=]|[.-][a-z0-9])"
_BLANK = "\x1f"

TargetKind = Literal["dist", "arch", "image_type", "os", "family", "unsupported"]
_TARGET_KINDS: tuple[Literal["dist", "arch", "image_type"], ...] = ("dist", "arch", "image_type")

# Words right before a mention that rule it out ("not plain Debian", "no ubuntu").
_NEGATED_BEFORE = re.compile(
    r"\b(?:not|no|without|except|excluding|never|other\s+than|rather\s+than|instead\s+of|"
    r"anything\s+but|but\s+not)\s+(?:(?:the|a|an|any|plain|stock|vanilla|regular|upstream|"
    r"standard|pure|just)\s+)*$"
)
# "arm" as the limb of a machine ("the pick arm", "a six-axis robot arm"), not the arch
_ROBOT_ARM = re.compile(
    r"\b(?:robot|robotic|robots|pick|picking|pick-and-place|welding|gripper|mechanical|"
    r"industrial|collaborative|cobot|manipulator|axis|servo|assembly|sorting|packing)"
    r"(?:\s+robot)?\s+arms?$"
)
# A bare "installer" that is someone's program, not the image type: "installed later by
# our own installer", "the vendor's installer", "their installer script"
_INSTALLER_PROGRAM_BEFORE = re.compile(
    r"(?:\b(?:our|their|its|his|her|my|your|whose)\s+(?:own\s+)?(?:[\w-]+\s+)?"
    r"|\b[\w-]+'s\s+(?:own\s+)?(?:[\w-]+\s+)?"
    r"|\bby\s+(?:(?:the|an?|our|their|its)\s+)?(?:own\s+)?"
    r"(?:[\w-]+\s+)?)$"
)
_INSTALLER_PROGRAM_AFTER = re.compile(
    r"[\s-]+(?:script|wizard|program|binary|tool|package|bundle|executable)s?\b"
    r"|\.(?:sh|run|exe|msi|bin)\b"
    r"|\s+(?:will|would|then|later|installs|puts|drops|copies|adds|handles|takes)\b"
)
_IMAGE_WORD_BEFORE = re.compile(r"\b(?:iso|usb|dvd|image|media|boot(?:able)?|live)\s+$")


def _names_an_installer_program(lowered: str, start: int, end: int) -> bool:
    """True when a bare "installer" at ``start:end`` is a program that installs something.

    "installed on top later by our own installer", "the vendor's installer", "their
    installer script" name an application's installer, not an ISO installer image. An
    "installer" after a word of the image ("a bootable installer", "usb installer") or
    before one ("installer iso", matched as a whole phrase) stays the image type.
    """
    if lowered[start:end] != "installer":
        return False
    before = lowered[max(0, start - 40) : start]
    if _IMAGE_WORD_BEFORE.search(before):
        return False
    return bool(
        _INSTALLER_PROGRAM_BEFORE.search(before) or _INSTALLER_PROGRAM_AFTER.match(lowered, end)
    )


# a network-boot word naming the machines that serve it: "from our pxe server", "the PXE
# infrastructure", "netboot hosts"; the image itself is no network-boot image for that
_SERVING_AFTER = re.compile(
    r"(?:[\s-]+boot)?[\s-]+(?:servers?|infra(?:structure)?|environments?|setups?|hosts?)\b"
)


# "ISO 21434", "ISO/IEC 27001", "ISO-26262": a standard by its number, not an installer
_STANDARD_NUMBER_AFTER = re.compile(r"(?:\s*/\s*(?:iec|sae|astm)\b)?[\s/-]*\d{3,5}(?![\w.])")


def _names_a_standard(lowered: str, start: int, end: int) -> bool:
    """True when the "iso" at ``start:end`` is a standard's name ("ISO 21434")."""
    return lowered[start:end] == "iso" and bool(_STANDARD_NUMBER_AFTER.match(lowered, end))


def _names_the_servers(lowered: str, start: int, end: int) -> bool:
    """True when the network-boot word at ``start:end`` names what serves it, not the image."""
    word = lowered[start:end]
    return word in (
        "pxe",
        "pxe boot",
        "pxe-boot",
        "netboot",
        "network boot",
        "network-boot",
    ) and bool(_SERVING_AFTER.match(lowered, end))


# the release left behind, by its number alone, right after the one asked for: "go with
# 26.04 instead of 24", "debian 13 rather than 12"
OLD_RELEASE_AFTER = re.compile(
    r"[\s,]*(?:instead\s+of|rather\s+than|in\s+place\s+of|not|over)\s+(?:the\s+)?"
    r"(?:(?:version|release|v)\s*)?\d{1,2}(?:\.\d{1,2})?(?![\w.-]*\w)"
    r"(?=\s*(?:$|[,.;:!?)]|and\b|but\b|then\b|please\b|pls\b))"
)


def _no_image_type(lowered: str, start: int, end: int) -> bool:
    """True when an image-type word names a program, the servers or a standard instead."""
    return (
        _names_an_installer_program(lowered, start, end)
        or _names_the_servers(lowered, start, end)
        or _names_a_standard(lowered, start, end)
    )


# What may stand between two ruled-out mentions of one list ("no debian or ubuntu").
_LIST_JOIN = re.compile(r"\s*,?\s*(?:/|\bor\b|\bnor\b|\band\b)\s*(?:(?:the|a|an|plain)\s+)*$")


@dataclass(frozen=True)
class TargetMention:
    """One place where a request names a target.

    Attributes:
        kind: ``dist``, ``arch``, ``image_type``; ``os`` for a bare os word ("ubuntu")
            when no dist is named; ``family`` for a package family ("RPM-based", value
            ``rpm``); ``unsupported`` for a target the composer does not build.
        value: The dist, arch, image type, os or family named; for ``unsupported``, what
            the composer supports instead.
        start: Offset of the mention in the text.
        end: Offset just past the mention.
        source: True when the mention names what not to start from: it follows "from"
            ("from ubuntu to debian"), or the request rules it out (see ``negated``).
        negated: True when the request rules the target out ("not plain Debian", "no
            debian or ubuntu please"); ``source`` is then True too.
    """

    kind: TargetKind
    value: str
    start: int
    end: int
    source: bool = False
    negated: bool = False

    @property
    def span(self) -> tuple[int, int]:
        """The mention's ``(start, end)`` offsets."""
        return (self.start, self.end)


@dataclass(frozen=True)
class _SpanPatterns:
    unsupported: tuple[tuple[re.Pattern[str], str], ...]
    hardware: frozenset[re.Pattern[str]]
    families: tuple[tuple[re.Pattern[str], str], ...]
    kinds: tuple[tuple[TargetKind, tuple[tuple[re.Pattern[str], str], ...]], ...]
    os_words: tuple[tuple[re.Pattern[str], str], ...]
    from_before: re.Pattern[str]


def _bounded(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"{WORD_START}(?:{phrase}){WORD_END}")


@lru_cache(maxsize=1)
def _span_patterns() -> _SpanPatterns:
    targets = load_targets()
    phrases: dict[str, list[tuple[str, str]]] = {
        "dist": [(dist.phrase, dist.id) for dist in targets.dists.values() if dist.phrase]
        # a dist's own title names it too ("RHEL-compatible 10", "Azure Linux 3")
        + [(_title_phrase(dist.title), dist.id) for dist in targets.dists.values() if dist.title],
        "arch": [(arch.phrase, arch.name) for arch in targets.arches.values() if arch.phrase],
        "image_type": [
            (kind.phrase, kind.name) for kind in targets.image_types.values() if kind.phrase
        ],
    }
    # a release written short, the os's first letters glued to its version ("deb13",
    # "u26.04", "ubu24"), after the longer phrases
    phrases["dist"] += [
        (pattern, dist.id)
        for dist in targets.dists.values()
        if (pattern := _shorthand_phrase(dist.os_release))
    ]
    # Single words follow the phrases. Image type words are left to the phrases: the
    # extra words (qcow2, vhd) are disk formats, which an edit request means as artifacts.
    for kind in ("dist", "arch"):
        phrases[kind] += [(re.escape(w), v) for w, v in targets.request_words(kind).items()]
    kinds = tuple(
        (kind, tuple((_bounded(phrase), value) for phrase, value in phrases[kind]))
        for kind in _TARGET_KINDS
    )
    # a build system (Yocto) names no target: only a request for an image of it is refused
    # (:func:`~oic_ai.tools.target_support.find_unsupported`), talk of it is no mention
    systems = [u for u in targets.unsupported if u.kind != "build system"]
    unsupported = tuple((_bounded(u.phrase), u.supported) for u in systems)
    return _SpanPatterns(
        unsupported=unsupported,
        hardware=frozenset(p for (p, _), u in zip(unsupported, systems) if u.kind == "arch"),
        families=tuple((_bounded(p), family) for family, p in targets.family_phrases.items()),
        kinds=kinds,
        os_words=tuple((_bounded(re.escape(w)), os) for w, os in targets.os_words.items()),
        from_before=re.compile(targets.from_before),
    )


def _shorthand_phrase(os_release: Mapping[str, str]) -> str:
    """A pattern for a release written short: "deb13", "u26.04", "ubu 24", "deb-13".

    The os-release ``ID`` may be cut to any of its first letters; a cut of one or two
    letters is glued to the version ("u24", "d13"), a longer one may stand a space or a
    hyphen apart ("deb 13"). The version is the ``VERSION_ID``, its ".04" optional.
    """
    name, version = os_release.get("id", ""), os_release.get("version_id", "")
    if not name or not version:
        return ""
    major, _, minor = version.partition(".")
    number = re.escape(major) + (rf"(?:\.{re.escape(minor)})?" if minor else "")
    short = "|".join(re.escape(name[:n]) for n in range(1, min(3, len(name))))
    longer = "|".join(re.escape(name[:n]) for n in range(len(name), 2, -1))
    return rf"(?:{longer})[\s-]?{number}(?![\d.]\d)|(?:{short}){number}(?![\d.]\d)"


def _title_phrase(title: str) -> str:
    """A pattern for a title as people write it: any case, spaces or hyphens between words."""
    return r"[\s-]*".join(re.escape(part) for part in re.split(r"[\s-]+", title.lower()))


# Words around a mention that make it context, not what the request asks for: the system
# the user has today, had before, or moves off ("our current CBL-Mariner 2.0 hosts",
# "old CentOS boxes had docker", "migrating off CentOS 7"). Only a target asked FOR is
# built or refused; a context mention is a source, like one after "from".
_CONTEXT_BEFORE = re.compile(
    r"(?:\b(?:old|older|current|existing|legacy|previous|former|aging|ageing|outgoing|"
    r"retired|today's|present-day)\s+"
    r"|\b(?:off|off\s+of|away\s+from|still\s+(?:on|running)|currently\s+(?:on|running)"
    # a clause that says what goes on meanwhile or why: "while 26.04 bakes in staging"
    r"|while|whilst|until|till|because|since"
    # a comparison with a system, or what ran where: "sudo like on raspbian", "as we had it
    # on centos", "the root filesystem xfs, that's what we had on CentOS", "unlike fedora"
    r"|(?:just\s+|exactly\s+)?(?:like|as)\s+(?:(?:we|i|you|it|they)\s+(?:had|did|do|have|"
    r"was|were|ran)(?:\s+it)?\s+)?(?:on|in|with|under)"
    r"|(?:same\s+as|similar\s+to|the\s+way\s+(?:it\s+(?:is|was)|we\s+had\s+it))\s+"
    r"(?:on|in|with|under)|unlike|same\s+as|similar\s+to"
    r"|(?:had|ran|used|run|use)\s+(?:it\s+|them\s+)?(?:on|in|with))\s+"
    r"(?:(?:the|our|those|these|all)\s+)?"
    # what the user had or did on it: "that's what we had on CentOS", "like we ran it on
    # SLES", "the layout I used with Rocky"
    r"|\b(?:we|i|they)\s+(?:(?:used\s+to|always)\s+)?(?:had|have|used|use|ran|run|did|do|got|"
    r"were\s+using|were\s+running)\s+(?:[a-z]+\s+){0,2}?(?:on|in|with|under)\s+"
    r"(?:(?:the|our|those|these|all)\s+)?"
    # a firmware setting names a way to boot, not the image: "set the boot order to PXE first"
    r"|\bboot\s+(?:order|sequence|priority|device|menu)\s*(?:(?:to|is|=|:|->|with)\s*)?"
    r"(?:(?:the|a)\s+)?)$"
)
_FLEET = (
    r"(?:boxes|box|hosts?|machines?|servers?|nodes?|fleet|systems?|workstations?|devices?|"
    r"vms?|installs?|installations?|deployments?|builds?|images?)"
)
# (an adverb may stand before the verb: "the Yocto build also had ...")
_STILL = r"(?:(?:also|still|already|even|always|just|only|never)\s+)?"
_CONTEXT_AFTER = re.compile(
    rf"[\s-]+(?:{_FLEET}\s+)?{_STILL}(?:had|ran|used|were|was|shipped|came\s+with)\b"
    rf"|[\s-]+{_FLEET}\s+{_STILL}(?:have|has|show|shows|run|runs|use|uses|today)\b"
)


# Words right after a system's name that make it the name of a program for it, not the
# system: "the Azure Linux agent (walinuxagent)", "Ubuntu Pro client", "debian tools".
_PRODUCT_AFTER = re.compile(
    r"[\s-]+(?:guest[\s-]+)?(?:agents?|tools|utilities|sdk|cli|client|extensions?|daemon|"
    r"plugin|provider"
    # a vendor's management products: "our Red Hat Satellite", "Ubuntu Landscape"
    r"|satellite|insights|subscription(?:[\s-]+manager)?|landscape|openshift|ansible)\b"
)


def is_context(lowered: str, start: int, end: int) -> bool:
    """True when the mention at ``start:end`` is what the user has or had, not asks for.

    Args:
        lowered: The request in lower case.
        start: Offset of the mention.
        end: Offset just past it.
    """
    before = lowered[max(0, start - 40) : start]
    if _ON_OUR.search(before) and _HOSTS_AFTER.match(lowered, end):
        return True  # "a Hyper-V VM on our Windows Server 2022 hosts": where it runs
    return (
        _CONTEXT_BEFORE.search(before) is not None
        or _CONTEXT_AFTER.match(lowered, end) is not None
        or _ARCHIVE_AFTER.match(lowered, end) is not None
    )


# A system named as where packages come from, not as the image: "prometheus from the
# ubuntu archive", "podman from the official debian repositories", "the eLxr mirror"
_ARCHIVE_AFTER = re.compile(
    r"(?:'s)?[\s-]+(?:(?:own|official|stock|default|standard|upstream|main|public|local)\s+)*"
    r"(?:archives?|repos?|repositor(?:y|ies)|mirrors?|universe|multiverse|ppas?|"
    r"package\s+(?:archives?|repos?|repositor(?:y|ies)|pools?|feeds?|sources?)|"
    r"apt\s+(?:archives?|repos?|repositor(?:y|ies)|sources?)|sources\.list)\b"
)


_ON_OUR = re.compile(r"\b(?:on|onto|across|in)\s+(?:our|the|their|those|these)\s+$")
_HOSTS_AFTER = re.compile(rf"[\s-]+(?:[a-z][\w-]*\s+)?{_FLEET}\b")


def names_a_program(lowered: str, end: int) -> bool:
    """True when the system named just before ``end`` names a program for it.

    "the Azure Linux agent (walinuxagent)" asks for the agent, not for Azure Linux: such a
    name is no target mention at all, its words are left to the package reader.
    """
    return _PRODUCT_AFTER.match(lowered, end) is not None


# a release named as a repository's field is no target: "codename noble", "suite: trixie",
# "https://example.com/debian bookworm main", "https://example.com/apt, noble, main"
_REPOSITORY_FIELD = re.compile(
    r"(?:\b(?:suite|codename|code\s+name|distribution)(?:\s+(?:there|here|then|now|for\s+it))?"
    r"\s*[:=]?\s*(?:(?:is|should\s+be|becomes?|to|will\s+be)\s+)?(?:(?:now|then)\s+)?"
    r"|(?:https?|file)://[^\s,;]+\s*,?\s*)$"
)


_FIELD_NAME = (
    r"(?<![\w.-])((?:target[._])?(?:arch|architecture|dist|distro|distribution|image[_-]?type))"
)
_TARGET_FIELD = re.compile(rf"{_FIELD_NAME}\s*=(?=\s*[a-z0-9])")
_TARGET_FIELD_BEFORE = re.compile(rf"{_FIELD_NAME}\s*=\s*$")


def detect_target_spans(text: str) -> list[TargetMention]:
    r"""Find every place ``text`` names a target, phrase by phrase, with offsets.

    Unsupported targets ("ubuntu 22.04") are found first, then package families
    ("RPM-based", so the "debian" of "Debian-based" names no dist), then dists, arches
    and image types: longer phrases ("ubuntu 24.04") before single words ("noble"). Each
    mention blanks its span, so a shorter phrase never matches inside a longer one. A
    bare os word ("ubuntu") is reported only when no dist is named other than as a
    source, or when it is ruled out. A mention the request rules out, or one in the
    same list right after it ("no debian or ubuntu"), is ``negated`` (and so a
    ``source``). Offsets are those of ``text``; spans already blanked with ``\x1f`` are
    skipped.

    Args:
        text: The request (any case).

    Returns:
        The mentions in the order they were found (by kind, then by phrase).
    """
    patterns = _span_patterns()
    lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    # a target field written as a setting ("arch=arm64", "dist=deb13") names its value
    work = _TARGET_FIELD.sub(
        lambda m: m.group(1) + " " * (len(m.group()) - len(m.group(1))), lowered
    )
    mentions: list[TargetMention] = []

    def blank(start: int, end: int) -> None:
        nonlocal work
        work = work[:start] + _BLANK * (end - start) + work[end:]

    def find(kind: TargetKind, table: tuple[tuple[re.Pattern[str], str], ...]) -> None:
        for pattern, value in table:
            for match in list(pattern.finditer(work)):
                if (
                    kind in ("dist", "os", "unsupported")
                    and pattern not in patterns.hardware
                    and names_a_program(lowered, match.end())
                ):
                    blank(*match.span())  # "the Azure Linux agent": a program, no target
                    continue
                if kind == "arch" and TOOL_AFTER.match(lowered, match.end()):
                    blank(*match.span())  # "the raspberry pi imager": a program, no arch
                    continue
                if kind == "arch" and _ROBOT_ARM.search(work, 0, match.end()):
                    blank(*match.span())  # "for the pick arm": a robot's arm, no arch
                    continue
                if kind == "image_type" and _no_image_type(lowered, *match.span()):
                    blank(*match.span())  # "by our own installer", "our pxe server"
                    continue
                source = (
                    patterns.from_before.search(work, 0, match.start()) is not None
                    # an arch is the hardware the image is for, whatever it ran before
                    or (
                        kind != "arch"
                        and pattern not in patterns.hardware
                        and is_context(lowered, *match.span())
                    )
                ) or (
                    kind == "dist" and _REPOSITORY_FIELD.search(work, 0, match.start()) is not None
                )
                start = match.start()
                field = _TARGET_FIELD_BEFORE.search(lowered, 0, start)
                if field is not None and kind in _TARGET_KINDS:
                    start = field.start()  # "arch=arm64": the setting's name is part of it
                mentions.append(TargetMention(kind, value, start, match.end(), source=source))
                blank(start, match.end())

    find("unsupported", patterns.unsupported)
    find("family", patterns.families)
    for kind, table in patterns.kinds:
        find(kind, table)
    find("os", patterns.os_words)
    mentions = [_newest_of(m, lowered) for m in mentions]
    mentions = _img_after_a_type(mentions, lowered)
    mentions = _mark_negated(mentions, lowered)
    if any(m.kind == "dist" and not m.source for m in mentions):
        mentions = [m for m in mentions if m.kind != "os" or m.negated]
    return mentions


# "the newest ubuntu", "latest version of debian": the os's highest release
_NEWEST_BEFORE = re.compile(
    r"\b(?:newest|latest|most\s+recent)\s+(?:(?:version|release)\s+of\s+)?$"
)


def _newest_of(mention: TargetMention, lowered: str) -> TargetMention:
    """A bare os said as its newest release is a mention of that dist."""
    if (
        mention.kind != "os"
        or mention.source
        or not _NEWEST_BEFORE.search(lowered, 0, mention.start)
    ):
        return mention
    newest = load_targets().newest_dist(mention.value)
    return replace(mention, kind="dist", value=newest) if newest else mention


def _img_after_a_type(mentions: list[TargetMention], lowered: str) -> list[TargetMention]:
    """After another image type, "img" only says "image": "raw img", "a raw disk img".

    It is then a mention of that type, not of network-boot images.
    """
    types = sorted((m for m in mentions if m.kind == "image_type"), key=lambda m: m.start)
    values: dict[int, str] = {}
    for before, mention in zip(types, types[1:], strict=False):
        if (
            lowered[mention.start : mention.end] == "img"
            and before.value != mention.value
            and not lowered[before.end : mention.start].strip(" -")
        ):
            values[id(mention)] = before.value
    # "cloud img amd64 -> qcow2": a disk format named in the same request makes "img" the
    # word image too, unless a network-boot word ("pxe", "initrd") says otherwise
    img = [m for m in types if lowered[m.start : m.end] == "img" and id(m) not in values]
    netboot = [m for m in types if m.value == "img" and lowered[m.start : m.end] != "img"]
    if img and not netboot:
        spans = [m.span for m in mentions if m.kind != "image_type" or m in img]
        other = image_type_beside_img(lowered, spans)
        values.update({id(m): other for m in img if other})
    # "vision node img", "an ubuntu 24.04 img for our robots": with no network-boot word,
    # an "img" that ends a noun phrase is the word image; the type is named as a value
    # ("make it img", "iso or img?", "the img type", "'img'")
    # (kept as a source, so the words are read but ask for no image type)
    plain = {
        id(m) for m in img if not netboot and id(m) not in values and _img_is_image(lowered, m)
    }
    return [
        replace(m, value=values[id(m)])
        if id(m) in values
        else replace(m, source=True)
        if id(m) in plain
        else m
        for m in mentions
    ]


# words before "img" after which it names the image type, not the word image
_IMG_AS_VALUE_BEFORE = re.compile(
    r"(?:^|[(\"'`:=/]|\b(?:a|an|the|it|to|as|or|and|use|make|be|is|one|an?\s+\w+\s+or))\s*$"
)
_IMG_AS_VALUE_AFTER = re.compile(r"\s*(?:[)\"'`]|(?:type|image|format|kind)\b)")


def _img_is_image(lowered: str, mention: TargetMention) -> bool:
    """True when a bare "img" ends a noun phrase ("vision node img"): the word image."""
    before = lowered[max(0, mention.start - 30) : mention.start]
    if not re.search(r"[\w.]\s+$", before):
        return False
    if _IMG_AS_VALUE_BEFORE.search(before) or _IMG_AS_VALUE_AFTER.match(lowered, mention.end):
        return False
    return True


def image_type_beside_img(text: str, spans: list[tuple[int, int]]) -> str | None:
    """The image type another word of ``text`` names, outside ``spans``: "img" is then image.

    "cloud img amd64 -> qcow2" names a disk format, so its "img" is the word image, not
    a network-boot image. Network-boot words do not count.
    """
    words = {
        word: kind
        for word, kind in load_targets().request_words("image_type").items()
        if kind != "img"
    }
    for match in re.finditer(r"[a-z0-9]+", text.lower()):
        inside = any(s <= match.start() < e for s, e in spans)
        if not inside and match.group() in words:
            return words[match.group()]
    return None


def _mark_negated(mentions: list[TargetMention], lowered: str) -> list[TargetMention]:
    """Mark the mentions the request rules out, reading them in text order."""
    negated: set[int] = set()
    previous: TargetMention | None = None
    for mention in sorted(mentions, key=lambda m: m.start):
        if mention.kind == "unsupported":
            continue
        before = lowered[max(0, mention.start - 60) : mention.start]
        chained = (
            previous is not None
            and id(previous) in negated
            and _LIST_JOIN.match(lowered, previous.end, mention.start) is not None
        )
        if _NEGATED_BEFORE.search(before) or chained:
            negated.add(id(mention))
        previous = mention
    return [replace(m, source=True, negated=True) if id(m) in negated else m for m in mentions]


def detect_targets(tokens: list[str], query: str) -> dict[str, str]:
    """The dist, arch, image type, os and family a query asks for, one value per kind.

    The query is read first (:func:`~oic_ai.tools.retrieval.spelling.read_cached`): a
    misspelt name ("debina") or a paraphrase ("an enterprise Linux rebuild") names its
    target too. Then the first mention of each kind in the text wins
    (:func:`detect_target_spans`); mentions that are ruled out or moved away from do not
    count. ``os`` is given only when no dist is named, ``family`` ("RPM-based") is given
    as well as any dist. Disk-format words (qcow2, vhd) name the raw image type when no
    phrase names one.

    Args:
        tokens: ``tokenize(query)`` (kept for callers; the text is what is read).
        query: The query text.

    Returns:
        Kind (``dist``, ``arch``, ``image_type``, ``os``, ``family``) -> value.
    """
    reading = read_cached(query)
    text = reading.expanded if reading.expanded != query else query
    mentions = detect_target_spans(text)
    found: dict[str, str] = {}
    for mention in sorted(mentions, key=lambda m: m.start):
        if mention.kind != "unsupported" and not mention.source:
            found.setdefault(mention.kind, mention.value)
    if "dist" not in found and "os" not in found:
        # "ubuntu 22.04" is not built, but it still says which os to start from
        found.update(_unsupported_os(text, mentions))
    if "dist" in found:
        found.pop("os", None)
    if "image_type" not in found:
        words = load_targets().request_words("image_type")
        spans = [m.span for m in mentions]
        lowered = text.lower()
        for match in re.finditer(r"[a-z0-9]+", lowered):
            inside = any(s <= match.start() < e for s, e in spans)
            if not inside and match.group() in words and not _no_image_type(lowered, *match.span()):
                found["image_type"] = words[match.group()]
                break
    return found


def _unsupported_os(text: str, mentions: list[TargetMention]) -> dict[str, str]:
    targets = load_targets()
    dists = targets.request_words("dist")
    for mention in sorted(mentions, key=lambda m: m.start):
        if mention.kind != "unsupported":
            continue
        for word in re.findall(r"[a-z0-9]+", text[mention.start : mention.end].lower()):
            if word in targets.os_words:
                return {"os": targets.os_words[word]}
            if word in dists:
                return {"os": targets.dists[dists[word]].os}
    return {}


def ruled_out_targets(query: str) -> list[TargetMention]:
    """The targets ``query`` rules out ("not plain Debian", "no debian or ubuntu")."""
    reading = read_cached(query)
    text = reading.expanded if reading.expanded != query else query
    return [m for m in detect_target_spans(text) if m.negated]
