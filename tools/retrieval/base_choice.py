"""Which base a request means: a specialised template only when its purpose is asked.

A library holds, per distribution, a plain base (the minimal raw image) and specialised
templates built on it (a web server, a virtualization host, a kiosk, an installer). A
request that names no purpose ("a headless debian server", "an eLxr 12 appliance", "a
debian desktop image") should start from the plain base: a specialised template brings
packages, partitions and services nobody asked for. So search ranks a specialised
template below its distribution's plain base unless the request gives *evidence* for
it, something it has and the plain base lacks:

- a capability of the catalog the request mentions ("web server" -> nginx, "kiosk" ->
  cage) whose packages the template installs;
- a word of its own keywords ("gateway", "hmi", "edge"), not a role word ("server",
  "headless", "box", :mod:`oic_ai.stores.base_words`), a target name or a capability
  word the catalog decides;
- a package the request names that only it has;
- the image type the request names (an installer, a network-boot image);
- a semantic match clearly closer than the plain base's.

A request that asks for a plain base ("minimal", "bare", "nothing fancy") reads only the
words before its additions ("eLxr 12 minimal for a line-side PC, add node monitoring":
the monitoring is added to the minimal base, not a reason for the monitoring template).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from oic_ai.stores.base_words import load_base_words
from oic_ai.stores.vocabulary import alias_group

if TYPE_CHECKING:
    from oic_ai.stores.capability_catalog import Capability
    from oic_ai.stores.template_index import IndexedTemplate

# A specialised template without evidence ranks this much lower (below its plain base).
UNASKED_PENALTY = 0.25
# A plain base said outright ranks every specialised template after it, whatever they share.
OUTRIGHT_PENALTY = 1.0
# A semantic similarity this much above the plain base's counts as evidence by itself.
SEMANTIC_MARGIN = 0.15

_WORD = re.compile(r"[a-z0-9][a-z0-9._+-]*[a-z0-9+]|[a-z0-9]")


def package_matches(wanted: str, available: Iterable[str]) -> bool:
    """True when ``wanted`` names one of ``available`` exactly, by alias, or by prefix."""
    names = {n.lower() for n in available}
    for candidate in alias_group(wanted):
        lowered = candidate.lower()
        if lowered in names:
            return True
        for name in names:
            rest = name[len(lowered) :]
            if name.startswith(lowered) and (rest[:1] in ("-", ".", "_", ":") or rest.isdigit()):
                return True
    return False


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


_ENDING = re.compile(r"(?:ers|er|ing|ed|es|s)$")


def _stem(word: str) -> str:
    """A rough stem, so "install" meets "installer" and "gateways" meets "gateway"."""
    return _ENDING.sub("", word) if len(word) >= 5 else word


def _with_parts(words: Iterable[str]) -> set[str]:
    """Stems of words and of the parts of hyphenated ones ("web-server" gives "web")."""
    out: set[str] = set()
    for word in words:
        out.add(_stem(word))
        out.update(_stem(p) for p in re.split(r"[-._]", word) if p)
    return out


@dataclass(frozen=True)
class AskedPurpose:
    """What a request asks of its base beyond the target.

    Attributes:
        plain: The request asks for a plain base ("minimal", "nothing fancy").
        words: Words that may name a template's purpose (not role, target or
            capability words).
        capabilities: Catalog capabilities the request mentions.
        packages: Package names the request asks for.
        image_type: The image type the request names, if any.
        outright: The plain base is said outright ("start from the minimal one", "the
            template was the minimal eLxr 12 one"): no other evidence outweighs it.
    """

    plain: bool
    words: frozenset[str]
    capabilities: tuple[Capability, ...]
    packages: tuple[str, ...]
    image_type: str | None
    outright: bool = False

    def to_json(self) -> dict[str, Any]:
        """The purpose as plain JSON (for a replay)."""
        return {
            "plain": self.plain,
            "words": sorted(self.words),
            "capabilities": [c.name for c in self.capabilities],
            "packages": list(self.packages),
            "image_type": self.image_type,
            "outright": self.outright,
        }


def _is_plain(words: Sequence[str]) -> bool:
    base = load_base_words()
    if any(w in base.plain_words for w in words):
        return True
    joined = f" {' '.join(words)} "
    return any(f" {' '.join(p)} " in joined for p in base.plain_phrases)


def _before_additions(text: str) -> str:
    """The request up to its first addition word ("with", "add", ":")."""
    base = load_base_words()
    marks = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in base.addition_words)
    found = re.search(rf"\b(?:{marks})\b|[:+]", text)
    return text[: found.start()] if found else text


def _plain_sentence(text: str, words: Sequence[str]) -> str:
    """``text`` up to the end of the sentence that asks for a plain base.

    "emt3 minimal raw x86_64. openssh-server tpm2-tools. hostname edge-node": the sentence
    with "minimal" says what the base is; the sentences after it list what to add to it.
    """
    base = load_base_words()
    plain = [w for w in words if w in base.plain_words]
    at = re.search(rf"\b{re.escape(plain[0])}\b", text) if plain else None
    if at is None:
        return text
    end = re.compile(r"[.;!?\n](?=\s|$)").search(text, at.end())
    return text[: end.start()] if end else text


# the base said outright: "start from a minimal raw image", "base it on a bare one"
START_PLAIN = re.compile(
    r"\b(?:(?:start(?:ing)?|begin(?:ning)?|base\s+(?:it|this|the\s+image)|build\s+(?:it|this))\s+"
    r"(?:from|with|on)\s+(?:an?\s+|the\s+)?(?:[\w.-]+\s+){0,3}?"
    r"(?:minimal|plain|bare|barebones|bare-bones|vanilla|stock)\b"
    # the template used before, named as the plain one: "the template they used was the
    # minimal eLxr 12 one"
    r"|\b(?:template|base|image)\s+(?:\w+\s+){0,2}?(?:was|is)\s+the\s+"
    r"(?:minimal|plain|bare|barebones|bare-bones|vanilla|stock)\s+(?:[\w.-]+\s+){0,3}?"
    r"(?:one|template|image|base)\b)"
)


# a field and its value: "hostname elxr-edge", "host name: gw-01", "users ops and deploy"
_FIELD_VALUE = re.compile(
    r"\b(?:host\s*name|hostname|fqdn|users?|accounts?|logins?)\s*(?:[:=]|is|to|should\s+be)?\s*"
    r"['\"`]?[\w.-]+"
)


def read_purpose(
    text: str,
    *,
    packages: Sequence[str],
    image_type: str | None,
    ignore: Iterable[str] = (),
) -> AskedPurpose:
    """Read what ``text`` asks of its base.

    Args:
        text: The request as search reads it, without what it rules out.
        packages: The package names the request asks for.
        image_type: The image type it names, if any.
        ignore: Words that name targets (they say which template, not what for).

    Returns:
        The asked purpose.
    """
    from oic_ai.stores.capability_catalog import load_catalog
    from oic_ai.tools.retrieval.target_mentions import detect_target_spans

    # "hostname elxr-edge", "user kiosk": a field's value names the machine, not its purpose
    lowered = _FIELD_VALUE.sub(" ", text.lower())
    for mention in detect_target_spans(lowered):  # "edge microvisor toolkit" names a target
        lowered = (
            lowered[: mention.start] + " " * (mention.end - mention.start) + lowered[mention.end :]
        )
    words = _words(lowered)
    plain = _is_plain(words)
    part = _plain_sentence(_before_additions(lowered), words) if plain else lowered
    started = START_PLAIN.search(lowered)
    if started is not None:
        # "a kiosk image. Start from a minimal raw image": the base is said outright; the
        # product's words elsewhere are what gets added to it, not a reason for another base
        plain, part = True, started.group(0)
    part_words = _words(part)
    catalog = load_catalog()
    # a capability named, and the first one of a use case named ("a cloud image": cloud-init)
    found = [*catalog.find(part), *_use_case_leads(part)]
    capabilities = tuple(
        c for i, c in enumerate(found) if c.name not in {f.name for f in found[:i]}
    )
    decided = _with_parts(
        w for c in capabilities for phrase in (c.name, *c.synonyms) for w in _words(phrase)
    )
    base = load_base_words()
    skip = _with_parts(base.role_words | base.plain_words) | {_stem(w) for w in ignore} | decided
    asked_packages = tuple(p for p in packages if not plain or p in part_words)
    kind_words = frozenset(
        _stem(w)
        for w in part_words
        if _stem(w) not in skip and w not in asked_packages and len(w) > 1
    )
    return AskedPurpose(
        plain, kind_words, capabilities, asked_packages, image_type, outright=started is not None
    )


def _use_case_leads(text: str) -> list[Capability]:
    """The first capability of each use case ``text`` names (what that use case is for)."""
    from oic_ai.stores.capability_catalog import load_catalog

    catalog = load_catalog()
    leads = []
    for use_case in catalog.use_cases.values():
        if use_case.capabilities and any(
            re.search(rf"\b{re.escape(phrase)}\b", text)
            for phrase in (use_case.name, *use_case.synonyms)
        ):
            leads.append(catalog.get(use_case.capabilities[0]))
    return leads


def _keywords(item: IndexedTemplate) -> frozenset[str]:
    return _keyword_stems(tuple(item.values("keywords")))


@lru_cache(maxsize=4096)
def _keyword_stems(keywords: tuple[str, ...]) -> frozenset[str]:
    return frozenset(_with_parts(w for k in keywords for w in _words(k)))


def _own_words(item: IndexedTemplate) -> frozenset[str]:
    """Keywords that say what ``item`` is for: not target, plain, role or capability words."""
    return _own_stems(tuple(item.values("keywords")), tuple(item.values("capabilities")))


@lru_cache(maxsize=4096)
def _own_stems(keywords: tuple[str, ...], capabilities: tuple[str, ...]) -> frozenset[str]:
    return _keyword_stems(keywords) - _common_words() - _with_parts(capabilities)


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    from oic_ai.tools.retrieval.query_classifier import target_names

    base = load_base_words()
    common = _with_parts(base.plain_words | base.role_words | target_names())
    return frozenset(
        common | {"raw", "disk", "image", "lts", "lightweight", "cloud", "development"}
    )


def is_plain_base_like(item: IndexedTemplate, base: IndexedTemplate) -> bool:
    """True when ``item`` is a plain base itself.

    It is minimal, of the base's image type, with no capability and no purpose word of
    its own beyond the base's (the arm64 twin of an x86_64 minimal image is one; a
    "minimal" UKI or DKMS demo variant is not).
    """
    if item.id == base.id:
        return True
    minimal = "minimal" in _keywords(item)
    same_kind = item.metadata.get("image_type") == base.metadata.get("image_type")
    extra = set(item.values("capabilities")) - set(base.values("capabilities"))
    return minimal and same_kind and not extra and _own_words(item) <= _own_words(base)


def plain_bases(corpus: Sequence[IndexedTemplate], default_arch: str) -> dict[tuple[str, str], int]:
    """Each dist's plain base: its raw minimal template with the fewest packages.

    Args:
        corpus: The indexed library.
        default_arch: The arch of the base each dist falls back to.

    Returns:
        ``(dist, arch)`` -> the position of that plain base in ``corpus``, plus
        ``(dist, "")`` -> the dist's plain base for any other arch (the default arch's
        when there is one). Dists without a minimal raw template are left out: nothing
        ranks below a base that is not there.
    """
    best: dict[tuple[str, str], tuple[tuple[bool, int, int, str], int]] = {}
    for position, item in enumerate(corpus):
        dist = str(item.metadata.get("dist") or "")
        if not dist or item.metadata.get("image_type") not in (None, "", "raw"):
            continue
        keywords = _keywords(item)
        if "minimal" not in keywords:
            continue
        arch = str(item.metadata.get("arch") or "")
        # the plainest: fewest words of a purpose of its own (a "uki" or "dkms" variant
        # is not the plain base), then fewest packages
        own = len(_own_words(item))
        key = (arch != default_arch, own, len(item.values("packages")), item.id)
        for slot in ((dist, arch), (dist, "")):
            if slot not in best or key < best[slot][0]:
                best[slot] = (key, position)
    return {slot: position for slot, (_, position) in best.items()}


def plain_base_of(bases: Mapping[tuple[str, str], int], item: IndexedTemplate) -> int | None:
    """The position of ``item``'s plain base: same dist, its arch when there is one."""
    dist = str(item.metadata.get("dist") or "")
    arch = str(item.metadata.get("arch") or "")
    found = bases.get((dist, arch))
    return found if found is not None else bases.get((dist, ""))


def _capability_packages(capability: Capability, metadata: Mapping[str, Any]) -> tuple[str, ...]:
    from oic_ai.stores.errors import UserInputError

    try:
        return capability.packages_for(
            str(metadata.get("os") or ""),
            str(metadata.get("dist") or ""),
            str(metadata.get("arch") or "") or None,
        )
    except (UserInputError, KeyError):
        return ()


def _has_capability(capability: Capability, item: IndexedTemplate) -> bool:
    """True when ``item`` installs one of the capability's packages for its target."""
    wanted = set(_capability_packages(capability, item.metadata))
    return bool(wanted & set(item.values("packages")))


@lru_cache(maxsize=256)
def _synonym_stems(capability: str) -> frozenset[str]:
    from oic_ai.stores.capability_catalog import load_catalog

    synonyms = load_catalog().get(capability).synonyms
    return frozenset(_with_parts(_words(" ".join(synonyms))))


def _sibling(capability: Capability, item: IndexedTemplate) -> bool:
    """True when ``item`` has another capability of the same group (a kiosk is no desktop)."""
    from oic_ai.stores.capability_catalog import load_catalog

    return any(
        other.group == capability.group
        and other.name != capability.name
        and _has_capability(other, item)
        for other in load_catalog().capabilities.values()
    )


def purpose_evidence(
    item: IndexedTemplate,
    base: IndexedTemplate,
    purpose: AskedPurpose,
    semantic_gap: float,
) -> list[str]:
    """What the request asks that ``item`` has and its plain ``base`` lacks.

    Args:
        item: A candidate template.
        base: The plain base of its dist.
        purpose: What the request asks (:func:`read_purpose`).
        semantic_gap: ``item``'s semantic similarity minus ``base``'s.

    Returns:
        One short reason per piece of evidence; empty when the request does not ask for
        what makes ``item`` special.
    """
    reasons: list[str] = []
    kind = item.metadata.get("image_type")
    if purpose.image_type and kind == purpose.image_type != base.metadata.get("image_type"):
        reasons.append(f"image type {kind}")
    own = _keywords(item) - _keywords(base)
    reasons += [f"keyword {w}" for w in sorted(purpose.words & own)]
    packages = item.values("packages")
    base_packages = base.values("packages")
    reasons += [
        f"package {p}"
        for p in purpose.packages
        if package_matches(p, packages) and not package_matches(p, base_packages)
    ]
    for capability in purpose.capabilities:
        if _has_capability(capability, base):
            continue
        if _has_capability(capability, item):
            reasons.append(f"capability {capability.name}")
        elif own & _synonym_stems(capability.name) and not _sibling(capability, item):
            # it says it is one ("docker" among its keywords) and is no other kind of it
            reasons.append(f"says {capability.name}")
    if semantic_gap >= SEMANTIC_MARGIN and not purpose.plain:
        reasons.append("reads like it")
    return reasons
