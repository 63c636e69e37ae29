"""Reading package items: signs, slashed names, companions, descriptions of names, slips.

Split from :mod:`packages` (which walks the request's items) to keep both short.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from oic_ai.tools.planner.rules.capability_words import find_capabilities as _find_capabilities
from oic_ai.tools.planner.rules.package_apply import apply_names, remove_packages
from oic_ai.tools.planner.rules.package_names import (
    HEAD_NOUNS,
    installed_by_capability_word,
    near_known,
)
from oic_ai.tools.planner.rules.package_names import known as _known
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, Token
from oic_ai.tools.planner.words import FILLER, NOT_PACKAGES, PACKAGE_TOKEN, RETRIEVAL_WORDS

# the language named after a code fence's opening backticks ("```yaml")
FENCE = re.compile(r"(?m)^[ \t]*```[ \t]*(?P<lang>[A-Za-z0-9_+-]+)[ \t]*$")


def minus_signs(work: str, tokens: list[Token]) -> list[Token]:
    """``tokens`` with "-name" inside a line of signs ("+tmux +jq -nano") read as a minus sign.

    The tokenizer reads a "-" as a sign only at a line's start; inside a line whose names
    carry "+" signs, a "-" written right before a name (after a space) removes it too. A
    line without a "+" sign keeps its dashes ("install -y git": a flag, not a removal).
    """
    signed: list[Token] = []
    for token in tokens:
        at = token.start
        if (
            token.kind == "word"
            and at >= 2
            and work[at - 1] == "-"
            and work[at - 2] in " \t,;"
            and _line_has_plus(work, tokens, at)
        ):
            signed.append(Token("sign", "-", at - 1, at))
        signed.append(token)
    return signed


def _line_has_plus(work: str, tokens: Sequence[Token], at: int) -> bool:
    """Whether the line around offset ``at`` holds a "+" sign token."""
    start = work.rfind("\n", 0, at) + 1
    end = work.find("\n", at)
    end = len(work) if end < 0 else end
    return any(t.kind == "sign" and t.text == "+" and start <= t.start < end for t in tokens)


def split_slashed(state: PlanState, item: Item) -> Item:
    """``item`` with "kubelet/kubeadm" read as two names when both are known ones."""
    tokens: list[Token] = []
    for token in item.tokens:
        parts = token.text.split("/")
        written = state.text.raw(token.start, token.end).split("/")
        if (
            token.kind != "word"
            or len(parts) < 2
            or not all(parts)
            or not all(_known(state, w) for w in written)
        ):
            tokens.append(token)
            continue
        at = token.start
        for part in parts:
            tokens.append(Token("word", part, at, at + len(part)))
            at += len(part) + 1
    if len(tokens) == len(item.tokens):
        return item
    return Item(item.mode, tokens, item.verb, item.aside_by)


def only_known(state: PlanState, item: Item) -> bool:
    """Whether every word of ``item`` (but filler) is a name the index, catalog or library knows."""
    content = [t for t in item.tokens if t.text not in FILLER]
    return bool(content) and all(_known(state, state.text.raw(t.start, t.end)) for t in content)


def companion(state: PlanState, head: Item, item: Item) -> bool:
    """Add or remove a named package's companion described by its role ("the cli clients").

    ``head`` is one package name just read (mosquitto); ``item`` is "the" and a few
    words, one of which ends a known name that starts with the head's name
    (mosquitto-clients). Nothing else is read here.
    """
    content = [w for w in item.words if w not in FILLER]
    if item.words[0] != "the" or not content or len(content) > 3 or len(head.tokens) != 1:
        return False
    owner = state.text.raw(*head.span)
    if not _known(state, owner):
        return False
    for word in reversed(content):
        for suffix in dict.fromkeys((word, word.removesuffix("s"), f"{word}s")):
            name = f"{owner}-{suffix}"
            if _known(state, name):
                apply_names(state, item, name, [name])
                return True
    return False


def spelled_out(state: PlanState, head: Item, item: Item) -> bool:
    """Whether ``item`` is the name right after the description ``head`` ("a vpn, wireguard").

    The description is an indefinite article and a word or two that took nothing; the
    name follows it after a comma alone.
    """
    if head.mode not in ("add", "none") or head.words[0] not in ("a", "an"):
        return False
    if len(head.words) > 3 or len(item.tokens) != 1:
        return False
    return state.text.original[head.span[1] : item.span[0]].strip() == ","


def described_removal(state: PlanState, item: Item) -> bool:
    """Remove the one template package a description or short name names.

    "drop the exporter": "the" and one word that is the last part of exactly one package
    of the template (prometheus-node-exporter). "lose ninja", "drop alertmanager": one
    word nothing knows as a package that is the first or the last part of exactly one
    (ninja-build, prometheus-alertmanager). Anything else is not read here.
    """
    content = [w for w in item.words if w not in FILLER]
    if item.mode == "remove" and len(content) > 1:
        return _removal_by_parts(state, item, content)
    if item.mode != "remove" or len(content) != 1:
        return False
    word = content[0]
    if word in _PART_WORDS or _known(state, word) or _find_capabilities(state.catalog, word):
        return False  # "the server": a part many package names share, not a description
    installed = (*state.facts.packages, *state.facts.kernel.packages)
    described = "the" in item.words[:2]
    matches = [
        n
        for n in installed
        if len(n.split("-")) > 1
        and (n.split("-")[-1] == word or (not described and n.split("-")[0] == word))
    ]
    if len(matches) != 1 and not described:
        return False
    if len(matches) != 1:
        matches = installed_by_capability_word(state, word)
    if not matches:
        return False
    remove_packages(state, item, matches, word)
    return True


def _removal_by_parts(state: PlanState, item: Item, content: list[str]) -> bool:
    """Remove the template's packages a phrase of their name's parts describes.

    "remove the ROS demo node packages": every word but a word for packages ("packages",
    "tools") is a part of each name removed (ros-jazzy-demo-nodes-cpp and -py: "node"
    for "nodes"), and at least two words are.
    """
    wanted = [w for w in content if w not in HEAD_NOUNS]
    if len(wanted) < 2 or any(not PACKAGE_TOKEN.match(w) for w in wanted):
        return False
    installed = (*state.facts.packages, *state.facts.kernel.packages)

    def has(name: str, word: str) -> bool:
        parts = name.split("-")
        return word in parts or f"{word}s" in parts or word.removesuffix("s") in parts

    matches = [n for n in installed if all(has(n, w) for w in wanted)]
    if not matches:
        return False
    remove_packages(state, item, matches, " ".join(wanted))
    return True


# Last parts of package names that say what kind of part it is, not what it is.
_PART_WORDS = (
    RETRIEVAL_WORDS
    | NOT_PACKAGES
    | HEAD_NOUNS
    | frozenset("server common core data bin dev doc docs libs lib utils full minimal".split())
)


def slip(state: PlanState, item: Item, name: str) -> bool:
    """Read or report an unknown name one letter from a known one; True when handled.

    "mosquito" is reported with "did you mean mosquitto?", never added in its place,
    unless the request itself spells the known name as the start of another of its names
    ("mosquito broker + mosquitto-clients"): then the slip is plain, the known name is
    added and the answer says so.
    """
    original = state.text.original.lower()
    if item.mode == "remove" or f"package {name}" in original or f"`{name}`" in original:
        return False  # "install the package acme-agnt", `acme-agnt`: marked as written
    meant = near_known(state, name)
    if meant is None:
        return False
    if any(w.startswith(f"{meant}-") for w in re.findall(r"[a-z0-9][a-z0-9.+-]*", original)):
        apply_names(state, item, meant, [meant])
        state.warn(f"read {name!r} as {meant}, as the request spells it elsewhere")
        return True
    state.reject(
        *item.span,
        f"no package the catalog, the library or a synced index knows is called {name!r}; "
        f"did you mean {meant}? Say 'add {meant}', or 'install the package {name}' if it "
        "comes from your own repository",
    )
    return True
