"""Apply what the package rule read: add or remove names and capabilities' packages.

Split from :mod:`packages` (which reads the request's items) to keep both short.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase

from oic_ai.stores.capability_catalog import Capability
from oic_ai.stores.vocabulary import PACKAGE_CAPABILITIES
from oic_ai.tools.planner.rules.capability_words import find_capabilities
from oic_ai.tools.planner.rules.package_names import family_names, known, removal_aliases
from oic_ai.tools.planner.rules.withdrawn import withdraws_addition
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, tokenize
from oic_ai.tools.planner.words import FILLER


def apply_names(state: PlanState, item: Item, asked: str, names: list[str]) -> None:
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
            candidates |= set(removal_aliases(state, asked, asked))
        if asked not in (*state.facts.packages, *state.facts.kernel.packages):
            candidates |= set(family_names(state, asked))  # "moby": moby-engine, moby-cli
        remove_packages(state, item, sorted(candidates), asked)
    else:
        add_packages(state, item, names, asked)


# a repository's noun right after a capability's word: "our cuda mirror", "the cuda rpm repo"
_NAMES_A_SOURCE = re.compile(
    r"\s+(?:(?:rpm|deb|apt|yum|dnf|internal|private|local)\s+)?"
    r"(?:mirror|mirrors|repo|repos|repository|repositories|feed|channel|ppa)\b",
    re.IGNORECASE,
)


def told_of(state: PlanState, item: Item) -> bool:
    """Whether the item's sentence tells of it, asking nothing.

    A statement with a subject ("we stream with plex", "Plex, Sonarr and Radarr ran on the
    old one"), or a sentence that names no change and says more than the item ("Plex on
    the old machine kept crashing"); "also node-red" or "VS Code too" still asks.
    """
    from oic_ai.tools.planner.asking import read_clause

    said = state.text.original
    start, end = item.span
    begin = max(said.rfind(c, 0, start) for c in ".!?\n") + 1
    stops = [i for i in (said.find(c, end) for c in ".!?\n") if i >= 0]
    sentence = said[begin : min(stops, default=len(said))]
    why = read_clause(sentence).why
    rest = set(
        re.findall(
            r"[\w.+-]+", (said[begin:start] + " " + said[end : begin + len(sentence)]).lower()
        )
    )
    # the other names of a list ("and firefox and Slack") say no more than the item
    rest = {w for w in rest - _TAGS if w not in FILLER and not known(state, w)}
    return why.startswith("statement") or (why == "names no change" and bool(rest))


# the words a sentence may add to a name and still ask for it ("also node-red", "VS Code too")
_TAGS = frozenset("and also plus too please pls as well oh ok okay then the a an".split())


# the words before what a swap replaces: "instead of plex", "rather than node-red"
_REPLACED = ("instead of ", "rather than ", "in place of ")


def apply_capabilities(
    state: PlanState, item: Item, capabilities: Sequence[Capability], *, extra: bool = False
) -> None:
    """Add a capability's packages for the target, or remove whichever of them are there.

    ``extra`` marks capabilities a paraphrase named beside the one it was read as.
    """
    target = state.target
    if not target.known:
        state.reject(*item.span, "the template has no target distribution to pick packages for")
        return
    names: list[str] = []
    for capability in capabilities:
        packages = capability.packages_for(target.os, target.dist, target.arch)
        if not packages and item.mode != "remove":
            if _NAMES_A_SOURCE.match(state.text.original, item.span[1]):
                return  # "our cuda mirror": the name of a repository, read by its own rule
            if " ".join(item.words[:3]).startswith(_REPLACED) or told_of(state, item):
                # "instead of plex put minidlna": what is replaced, which the image never
                # had (no package of it exists), asks nothing; nor does "I mostly use VS
                # Code for editing": what somebody uses, said
                state.text.consume(*item.span, "context")
                return
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
    label = " ".join(w for w in item.words if w not in FILLER)
    if item.mode == "remove":
        candidates = set(names)
        for name in names:
            candidates |= set(state.catalog.aliases(name, target.os, target.dist))
            # "forget docker" also removes docker-ce from the user's own repository
            candidates |= {
                n for g in state.catalog.alias_groups if name in g.names for n in g.names
            }
        present = present_names(state, candidates)
        if not present:
            # "let's not do xfce" on a template with xfce4: what its own names spell, not
            # its whole group (firefox is a desktop package too)
            own = [
                f"{w}*"
                for c in capabilities
                if c.name != c.group
                for w in (c.name, *c.synonyms)
                if re.fullmatch(r"[a-z][a-z0-9-]{2,}", w)
            ]
            if own and present_names(state, _matching(state, own)):
                remove_by_patterns(state, item, label, own)
                return
            groups = {c.group for c in capabilities}
            patterns = [p for g in groups for p in PACKAGE_CAPABILITIES.get(g, ())]
            # "not the realsense stuff" on a ROS image without it: a capability of its own
            # with its own packages, none there, takes nothing else of its group
            exact = all(c.name != c.group and names for c in capabilities)
            if patterns and not exact and not any(g == "container" for g in groups):
                remove_by_patterns(state, item, label, patterns)
                return
        remove_packages(state, item, sorted(candidates), label)
        return
    add_packages(state, item, names, label)
    if not extra:
        _paraphrase_extras(state, item, capabilities)


def _paraphrase_extras(state: PlanState, item: Item, applied: Sequence[Capability]) -> None:
    """Add what a paraphrase said beside the capability it was read as.

    "boot straight into a full-screen browser" is read as the kiosk capability (the
    paraphrase table), but its own words also name a browser: each other capability
    they name is added with it.
    """
    said = " ".join(w for w in item.words if w not in FILLER)
    names = {c.name for c in applied}
    for correction in state.text.corrections:
        if correction.kind != "paraphrase" or correction.read_as.lower() != said:
            continue
        more = [
            c for c in find_capabilities(state.catalog, correction.written) if c.name not in names
        ]
        if more:
            apply_capabilities(state, item, more, extra=True)
            names |= {c.name for c in more}


# notes worth repeating: the packages come from elsewhere or stand in for what was asked
_NOTE_MATTERS = re.compile(r"repositor|EPEL|upstream|Ubuntu Pro|Podman|releases")


_PLURAL = frozenset("them those these ones".split())
# "drop those two", "remove both", "take all three out": how many the pointer points at
_PIECE = re.compile(r"[.?!:;\n]+(?:\s|$)")
COUNTS = {"both": 2, "two": 2, "three": 3, "four": 4, "five": 5}


def named_before(state: PlanState, item: Item) -> bool:
    """Remove what "it" points back to: the template's packages named before the pointer.

    "it" needs exactly one such package; "them" takes each of them, and "those two" (or
    "both") exactly that many. The words before the pointer in the request come first;
    when they name none, what was said just before the request (``state.earlier``: the
    turn before, a question cut from this one) does: "why is cloud-init in there?" then
    "take it out". Nothing named (or two names for "it") leaves the clause to be reported.
    """
    # the text as read (offsets of the item), not as written, and not blanked by rules
    before = state.text.original[: item.span[0]].lower()
    counts = [COUNTS[w] for w in item.words if w in COUNTS]
    plural = bool(_PLURAL & set(item.words)) or bool(counts)
    # the nearest sentence that names one: "Audit finding AF-12: why is rsyslog in the
    # image? Take it out" points at rsyslog, not at the audit package
    pieces = [(said, -1) for said in _PIECE.split(state.earlier.lower())]
    start = 0
    for end in [m.end() for m in _PIECE.finditer(before)] + [len(before)]:
        pieces.append((before[start:end], start))
        start = end
    for said, at in reversed(pieces):
        if at >= 0 and withdraws_addition(state, item, said, at, _names_in):
            return True  # "add the zebra printer stuff - nah, skip it": taken back
        named, things = _pointed_at(state, said)
        if not named and at >= 0 and _names_accounts(state, said):
            return False  # "if there are admin / testuser entries, remove them": accounts
        if not named:
            continue
        if (things > 1 and not plural) or (counts and things != counts[0]):
            return False
        remove_packages(state, item, named, named[0])
        # "why X and Y belong in a production image - drop those two": the sentence that
        # names what is pointed at is the reason for the removal, not a request of its own
        for token in tokenize(said) if at >= 0 else ():
            begin, end = at + token.start, at + token.end
            if state.text.work[begin:end].strip(state.text.BLANK):
                state.text.consume(begin, end, "context")
        return True
    return False


# nouns for accounts: "remove them" after them points at accounts, never at packages
_ACCOUNT_NOUNS = frozenset("user users account accounts entries entry login logins".split())


def _names_accounts(state: PlanState, said: str) -> bool:
    """True when ``said`` names accounts (the template's users, or a noun for them)."""
    words = {t.text for t in tokenize(said)}
    return bool(words & _ACCOUNT_NOUNS or words & {u.name for u in state.facts.users})


def _names_in(state: PlanState, said: str) -> list[str]:
    return _pointed_at(state, said)[0]


def _pointed_at(state: PlanState, said: str) -> tuple[list[str], int]:
    """The template's packages ``said`` names, else those of the one capability it names.

    "nav2 pulls half the internet, rip it out": one capability named, whose packages the
    template has, is the one thing "it" can be. With neither, the names the template
    lacks ("why is cloud-init in there?" when it is not), so the removal says so.
    Returns the names and how many things they are (a capability's packages are one).
    """
    words = [t.text for t in tokenize(said)]
    # "add nginx and remove cloud-init, we don't use it": never what the request adds
    words = [w for w in words if w not in state.add]
    named = present_names(state, words)
    if named or not said.strip():
        return named, len(named)
    target = state.target
    held = [
        present
        for capability in find_capabilities(state.catalog, said)
        if (
            present := present_names(
                state, capability.packages_for(target.os, target.dist, target.arch)
            )
        )
    ]
    asked = {*state.add, *state.present}
    held = [names for names in held if not asked & set(names)]
    if len(held) == 1:
        return held[0], 1
    # "why is cloud-init in there?" when it is not: the packages named, to say so
    absent = list(dict.fromkeys(w for w in words if _spelled_as_package(state, w)))
    return absent, len(absent)


# "selinux-policy-devel": a name of words joined by hyphens ("AF-12", "edge-gw-01" are not)
_HYPHENED = re.compile(r"[a-z][a-z0-9+.]*[a-z](?:-[a-z][a-z0-9+.]*[a-z0-9+]){1,5}")


def _spelled_as_package(state: PlanState, word: str) -> bool:
    """True for a word the catalog or the library knows as a package, or spelled as one."""
    if word in FILLER or word == state.facts.hostname or word in state.user_names:
        return False
    if any(word == user.name for user in state.facts.users):
        return False
    return word in state.known_names() or bool(_HYPHENED.fullmatch(word))


def present_names(state: PlanState, candidates: Iterable[str]) -> list[str]:
    """The ``candidates`` the template has or the request already adds, in that order."""
    wanted = set(candidates)
    installed = (*state.facts.packages, *state.facts.kernel.packages, *state.add)
    return [name for name in installed if name in wanted]


def _matching(state: PlanState, patterns: Sequence[str]) -> list[str]:
    installed = (*state.facts.packages, *state.facts.kernel.packages)
    return [n for n in installed if any(fnmatchcase(n, p) for p in patterns)]


def remove_by_patterns(state: PlanState, item: Item, label: str, patterns: Iterable[str]) -> None:
    """Remove the template's packages whose names match one of the glob ``patterns``."""
    pattern_list = list(patterns)
    matched = [
        name
        for name in (*state.facts.packages, *state.facts.kernel.packages)
        if any(fnmatchcase(name, p) for p in pattern_list)
    ]
    remove_packages(state, item, matched, label)


def remove_packages(state: PlanState, item: Item, candidates: Sequence[str], label: str) -> None:
    """Remove whichever ``candidates`` are there; none there notes ``label`` as absent."""
    state.text.consume(*item.span)
    present = present_names(state, candidates)
    if not present:
        state.absent.append(label)
        return
    for name in present:
        if name in state.add:
            state.add.remove(name)
        elif name not in state.remove:
            state.remove.append(name)


def add_packages(state: PlanState, item: Item, names: Sequence[str], label: str) -> None:
    """Add ``names`` (asked for as ``label``); one being removed is kept instead."""
    state.text.consume(*item.span)
    installed = {*state.facts.packages, *state.facts.kernel.packages}
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


def vendor_served(state: PlanState, name: str) -> bool:
    """Whether ``name``, a vendor's spelling of a package, is served by the template's repository.

    "also docker-ce-cli, containerd.io and docker-compose-plugin" on a template that has a
    repository of its own and a vendor's spelling from it already (docker-ce beside
    download.docker.com): the vendor's names come from there, as written, not as the
    distro's docker.io, containerd and docker-compose-v2.
    """
    target = state.target
    if not state.facts.repositories or not target.known:
        return False
    if not _vendor_spelling(state, name):
        return False
    return any(_vendor_spelling(state, have) for have in state.facts.packages)


def _vendor_spelling(state: PlanState, name: str) -> bool:
    """Whether ``name`` is a package's spelling that is not the target's own name for it."""
    target = state.target
    if "-" not in name and "." not in name:
        return False  # "docker", "moby": a word for the thing, not a vendor's package
    for group in state.catalog.alias_groups:
        if name in group.names:
            own = group.names_for(target.os, target.dist, target.arch)
            return bool(own) and name not in own
    return False


def prefer_vendor_spellings(state: PlanState) -> None:
    """Drop the distro's name of a package the request installs from its vendor's repository.

    "add docker from their repo: ... apt-get install docker-ce docker-ce-cli": the vendor's
    names come from the repository the request adds, and the distro's docker.io, which
    the word "docker" would add, conflicts with them, and so does the base template's.
    """
    target = state.target
    served = any(vendor_served(state, n) for n in state.add)
    if not (state.repositories or served) or not target.known:
        return
    for group in state.catalog.alias_groups:
        distro = set(group.names_for(target.os, target.dist, target.arch))
        vendor = [n for n in state.add if n in group.names and n not in distro]
        if vendor and distro & set(state.add):
            state.add = [n for n in state.add if n not in distro]
        # the base's docker.io beside the vendor's docker-ce: the same conflict
        for name in sorted(distro & set(state.facts.packages)) if vendor else ():
            if name not in state.remove:
                state.present = [n for n in state.present if n != name]
                state.remove.append(name)
                state.warn(f"removed {name}: {vendor[0]} from the vendor's repository replaces it")
