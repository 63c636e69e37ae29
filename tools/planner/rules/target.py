"""Rule: the target (distribution, arch, image type), and renaming packages for it."""

from __future__ import annotations

import re
from collections.abc import Mapping

from oic_ai.stores.targets import load_targets
from oic_ai.tools.planner.reasons import history_beside_a_change
from oic_ai.tools.planner.rules.revisions import revision_between
from oic_ai.tools.planner.state import PlanState, family_of
from oic_ai.tools.retrieval.base_choice import START_PLAIN
from oic_ai.tools.retrieval.query_classifier import TargetMention, detect_target_spans
from oic_ai.tools.retrieval.target_mentions import OLD_RELEASE_AFTER, image_type_beside_img
from oic_ai.tools.target_support import set_aside

# "same arch", "keep the same release as before": a part of the target that stays as it is
# (or, after a refused request, as that request had it: the conversation route carries
# it); nothing for the planner to change
_SAME_TARGET_PART = re.compile(
    r"\b(?:(?:keep|keeping|use|using|with|on|stay\s+on)\s+)?(?:the\s+)?(?:very\s+)?same\s+"
    r"(?:cpu\s+|hardware\s+)?(?:arch(?:itecture)?s?|release|distro|distribution|os|dist|"
    r"version|image\s+type|platform|hardware|base\s+os)(?!\s+of\b)"
    r"(?:\s+as\s+(?:before|that|now|it\s+is|requested|the\s+(?:last|other|first)\s+one|"
    r"i\s+(?:said|asked)))?(?:\s+(?:please|pls|as\s+well|too))?\b",
    re.IGNORECASE,
)


# "start from your real-time variant", "base it on the edge iot one": a base named by its kind
_START_NAMED = re.compile(
    r"\b(?:start(?:ing)?|begin(?:ning)?|base\s+(?:it|this|the\s+image)|build\s+(?:it|this))\s+"
    r"(?:from|with|on)\s+(?:your|the|an?|our)\s+(?P<kind>(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
    r"(?:variant|template|one|flavou?r|edition|build|image|base)\b"
)


def _start_from_named(state: PlanState) -> None:
    """A base named by words its template's name has: retrieval chose it; it asks nothing more.

    A kind the chosen template does not have ("start from your cloud variant" when the
    request picked a minimal one) is left to the report.
    """
    name = re.sub(r"[^a-z0-9]", "", state.facts.image.name.lower())
    for match in state.text.matches(_START_NAMED):
        words = [re.sub(r"[^a-z0-9]", "", w) for w in match["kind"].split()]
        if words and all(w and w in name for w in words):
            state.text.consume(*match.span(), "base")


def rule_target(state: PlanState) -> None:
    """Pick the distribution, arch and image type; unsupported targets are reported.

    The mentions come from :func:`~oic_ai.tools.retrieval.query_classifier.detect_target_spans`,
    the one target detector; a mention after "from" names the source and is only used up.
    """
    text = state.text
    for match in text.matches(_SAME_TARGET_PART):
        text.consume(*match.span(), "context")
    if state.mode == "create":
        for match in text.matches(START_PLAIN):
            text.consume(*match.span(), "base")  # "start from the minimal one": the base
        _start_from_named(state)
    targets = load_targets()
    mentions: dict[str, list[tuple[int, int, str]]] = {}
    os_mentions: list[tuple[int, int, str]] = []
    for mention in detect_target_spans(text.work):
        if mention.kind == "unsupported" and (
            mention.source
            or set_aside(text.original, mention.start)
            or in_a_statement(text.original, mention.start, mention.end)
        ):
            # what the user has, moves off or sets aside ("forget bookworm"), or what a
            # statement says something else runs on ("the sdk is certified on jammy"): context
            text.consume(*mention.span)
            continue
        if mention.kind == "unsupported":
            state.reject(
                mention.start,
                mention.end,
                f"not a target the composer builds; supported: {mention.value}",
            )
            continue
        if state.mode == "refine" and history_beside_a_change(
            text.original, mention.start, mention.end
        ):
            text.consume(*mention.span, "context")
            continue  # "add htop, it runs fine on arm too": what it runs on, no request
        text.consume(*mention.span)
        if mention.kind == "dist":
            _consume_old_release(state, mention)  # "26.04 instead of 24"
        if mention.source or set_aside(text.original, mention.start):
            continue  # "from ubuntu to debian": the source; "forget arm": set aside
        if mention.kind == "os":
            os_mentions.append((mention.start, mention.end, mention.value))
        else:
            mentions.setdefault(mention.kind, []).append(
                (mention.start, mention.end, mention.value)
            )
    kinds = mentions.get("image_type", [])
    if len({value for _, _, value in kinds}) > 1:
        # "a raw img": beside another image type, the word "img" is only short for image
        mentions["image_type"] = [m for m in kinds if text.original[m[0] : m[1]].lower() != "img"]
    elif kinds and all(text.original[m[0] : m[1]].lower() == "img" for m in kinds):
        # "cloud img -> qcow2": a disk format said elsewhere (perhaps read already as an
        # artifact) makes "img" the word image; the base's image type stays
        spans = [(start, end) for start, end, _ in kinds]
        if image_type_beside_img(text.original, spans):
            del mentions["image_type"]
    chosen: dict[str, tuple[int, str]] = {}
    for kind in ("dist", "arch", "image_type"):
        found = sorted(mentions.get(kind, []))
        # "an iso, no, raw image": a value revised in the same breath leaves no trace
        found = [
            mention
            for mention, after in zip(found, [*found[1:], None], strict=False)
            if after is None or not revision_between(text.work, mention[1], after[0])
        ]
        values = list(dict.fromkeys(value for _, _, value in found))
        if len(values) > 1:
            # "keep it x86, the arm gateways are a different project": beside a value asked
            # for, one named in a statement describes something else
            asked = _asked_mentions(text.original, found)
            if asked and len({value for _, _, value in asked}) == 1:
                found, values = asked, [asked[0][2]]
        if len(values) > 1:
            state.not_applied.append(
                f"'{kind.replace('_', ' ')}' — the request names {' and '.join(values)}; "
                f"kept {values[-1]}, the last one"
            )
        if values:
            chosen[kind] = (found[0][0], values[-1])
    for start, _, os_name in os_mentions:
        if targets.os_of(state.target.dist) != os_name:
            chosen["dist"] = (start, targets.oses[os_name].default_dist)
    if "dist" not in chosen:
        # (in create mode the base's release: "fine, do the 10 one" after the offer)
        stays_on_release(state)
    _apply_target(state, {kind: value for kind, (_, value) in chosen.items()})


def _consume_old_release(state: PlanState, mention: TargetMention) -> None:
    """Use up "instead of 24" after a dist's mention: the number is the release left."""
    found = OLD_RELEASE_AFTER.match(state.text.work, mention.end)
    if found is not None:
        state.text.consume(found.start(), found.end(), "context")


# a release named by its number alone, as the one to stay on: "stay on 10", "nvm, keep
# 13", "ok 10 then", "fine, version 10 is fine"
_STAY_VERB = r"(?:stay(?:s|ing)?|remain(?:s|ing)?|stick(?:ing)?(?:\s+with)?|keep(?:ing)?)"
_AGREEING = (
    r"(?:ok(?:ay)?|fine|sure|alright|right|yes|yeah|yep|no|nah|nope|nvm|never\s*mind|then|so|"
    r"well|hm+|actually|sorry|let'?s|we'?ll)"
)
# a release picked among those offered: "do the 10 one", "go with the 10 one", "take 10"
_PICK_VERB = r"(?:do|take|use|pick|choose|go\s+(?:with|for)|let'?s\s+(?:do|go\s+with))"
_RELEASE_ALONE = re.compile(
    rf"(?:^|[,.;:!?]\s*|(?<=\s))(?:(?:{_AGREEING})[\s,]+)*"
    rf"(?:(?:{_STAY_VERB}|{_PICK_VERB})\s+(?:(?:on|with|at)\s+)?)?"
    r"(?:the\s+)?(?:(?:version|release|v)\s*)?"
    r"(?P<number>\d+(?:\.\d+)?)(?:\s+one\b)?"
    r"(?=\s*(?:$|[,.;:!?)]|then\b|please\b|pls\b|for\s+now\b|(?:is|it\s+is|'s)\s+"
    r"(?:fine|ok(?:ay)?|good)\b|it\s+is\b|works\b|will\s+do\b))"
)


def release_number(title: str) -> str:
    """The major release number a dist's title ends with ("RHEL-compatible 10" gives "10")."""
    found = re.search(r"(\d+)(?:\.\d+)*\s*(?:lts)?\s*$", title.lower())
    return found.group(1) if found else ""


def stays_on_release(state: PlanState) -> None:
    """Read "stay on 10" as the current dist when 10 is its release: nothing to change.

    After a refused "RHEL 9 instead?", "nvm, stay on 10" keeps el10; the number names the
    template's own release only when it stands alone (with a verb of staying or words of
    agreement before it, the clause's end after it), so "disk 10" or "10 users" are not it,
    and "release 10 is fine" is the release, not the image's version ("image version 10").
    The image version rule calls this first.
    """
    dist = state.facts.target.dist
    if not dist or dist not in load_targets().dists:
        return
    version = release_number(load_targets().title(dist))
    if not version:
        return
    text = state.text
    for match in _RELEASE_ALONE.finditer(text.work):
        number = match.group("number")
        if number != version or (match.start() and not _opens(match.group())):
            continue
        if re.search(r"\b(?:image|template|its|the\s+image'?s)\s*$", text.work[: match.start()]):
            continue  # "image version 10": the image's own version
        start = match.start() + len(match.group()) - len(match.group().lstrip(" ,.;:!?"))
        text.consume(start, match.end())
        state.notes.append(f"the target is already {dist}")


def _opens(said: str) -> bool:
    """True when a match of :data:`_RELEASE_ALONE` has a verb or agreement before its number."""
    return (
        re.match(rf"\W*(?:{_AGREEING}|{_STAY_VERB}|{_PICK_VERB}|version|release|v\b)", said)
        is not None
    )


# where a clause ends: a sentence's end (not the dot inside "22.04"), a comma or a semicolon
_CLAUSE_MARK = re.compile(r"[,;!?\n]|\.(?=\s|$)|\s(?:and|but|so)\s")


def in_a_statement(original: str, start: int, end: int, *, keeps: bool = False) -> bool:
    """True when the clause around ``start:end`` is a statement that asks for nothing.

    "our vendor sdk is only certified on jammy" says what something else runs on; a
    system the composer does not build named there is no request for it. With ``keeps``,
    a clause saying what stays ("keep it x86") asks for that value.
    """
    from oic_ai.tools.planner.asking import read_clause

    begin = max((m.end() for m in _CLAUSE_MARK.finditer(original, 0, start)), default=0)
    stop = _CLAUSE_MARK.search(original, end)
    clause = original[begin : stop.start() if stop else len(original)].strip()
    reading = read_clause(clause)
    return reading.asking == "context" and not (keeps and reading.why.startswith("says what stays"))


def asked_over_described(request: str, mentions: list[TargetMention]) -> dict[str, str]:
    """Where two values of a kind are named, the one asked for when only one is.

    "make it arm, our x86 boxes are retired": the arch named in a statement describes
    other machines.
    """
    chosen: dict[str, str] = {}
    for kind in {m.kind for m in mentions}:
        said = [(*m.span, m.value) for m in mentions if m.kind == kind]
        if len({value for _, _, value in said}) < 2:
            continue
        asked = {value for _, _, value in _asked_mentions(request, said)}
        if len(asked) == 1:
            chosen[kind] = asked.pop()
    return chosen


def _asked_mentions(original: str, said: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The mentions (start, end, value) not named in a statement ("keep it x86" counts)."""
    return [m for m in said if not in_a_statement(original, m[0], m[1], keeps=True)]


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
            os_name = load_targets().dists[value].os
            state.set_target["os"], state.set_target["dist"] = os_name, value
            state.target.os, state.target.dist = os_name, value
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
    # an arch change keeps the template's own repositories, and the vendor's names they
    # serve ("docker-ce" beside download.docker.com) stay as they are
    kept_repositories = bool(facts.repositories) and target.dist == facts.target.dist
    for kernel, names in ((False, facts.packages), (True, facts.kernel.packages)):
        for name in names:
            if kept_repositories and name not in state.catalog.aliases(
                name, facts.target.os, facts.target.dist, facts.target.arch
            ):
                continue
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
