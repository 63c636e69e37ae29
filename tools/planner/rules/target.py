"""Rule: the target (distribution, arch, image type), and renaming packages for it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from oic_ai.stores.vocabulary import TARGET_WORDS
from oic_ai.tools.planner.state import PlanState, family_of
from oic_ai.tools.planner.words import DIST_OS, WORD_END, WORD_START

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
    return [
        (re.compile(rf"{WORD_START}(?:{phrase}){WORD_END}"), value) for phrase, value in phrases
    ]


_DIST_PATTERNS = _phrase_pattern(_DIST_PHRASES)
_ARCH_PATTERNS = _phrase_pattern(_ARCH_PHRASES)
_IMAGE_TYPE_PATTERNS = _phrase_pattern(_IMAGE_TYPE_PHRASES)
_UNSUPPORTED_PATTERNS = _phrase_pattern(_UNSUPPORTED_TARGETS)
_OS_ONLY = re.compile(rf"{WORD_START}ubuntu{WORD_END}")
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:the\s+|an?\s+)?$")


def rule_target(state: PlanState) -> None:
    """Pick the distribution, arch and image type; unsupported targets are reported."""
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


def _apply_target(state: PlanState, chosen: Mapping[str, str]) -> None:
    facts = state.facts
    current = {
        "dist": facts.target.dist,
        "arch": facts.target.arch,
        "image_type": facts.target.image_type,
    }
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
    if "dist" not in state.set_target or not facts.target.dist:
        return
    old_family = family_of(facts.target.os, facts.target.dist)
    new_family = family_of(state.target.os, state.target.dist)
    base = "the closest template" if state.mode == "create" else "the template"
    switch = (
        f"switches the package family from {old_family} to {new_family}"
        if old_family and old_family != new_family
        else "keeps the package family"
    )
    state.warn(
        f"{base} is {facts.target.dist} and the request names {state.target.dist}: the plan "
        f"retargets it and {switch}; package names the catalog cannot map were kept and need "
        "checking"
    )


def translate_for_target(state: PlanState) -> None:
    """On a dist or arch change, rename the base's packages that the catalog can map.

    The applier already swaps architecture words in package names (grub-efi-amd64 to
    grub-efi-arm64); this covers names that differ by distribution (docker.io and
    moby-engine) or by arch without such a word (qemu-system-x86).
    """
    facts = state.facts
    target = state.target
    if not facts.readable or not (state.set_target.get("dist") or state.set_target.get("arch")):
        return
    old_family = family_of(facts.target.os, facts.target.dist)
    new_family = family_of(target.os, target.dist)
    renames: list[tuple[str, str, bool]] = []
    for kernel, names in ((False, facts.packages), (True, facts.kernel.packages)):
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
    if "dist" in state.set_target and facts.kernel.packages and old_family != new_family:
        state.warn(
            "kernel packages ("
            + ", ".join(facts.kernel.packages)
            + f") come from {facts.target.dist}; "
            f"check them for {target.dist}"
        )
