"""Reading package items: signs, slashed names, companions, descriptions of names, slips.

Split from :mod:`packages` (which walks the request's items) to keep both short.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Literal

from oic_ai.stores.capability_catalog import words
from oic_ai.tools.planner.rules.capability_words import find_capabilities as _find_capabilities
from oic_ai.tools.planner.rules.package_apply import apply_names, remove_packages
from oic_ai.tools.planner.rules.package_names import (
    HEAD_NOUNS,
    SOFTWARE_NOUNS,
    installed_by_capability_word,
    near_known,
)
from oic_ai.tools.planner.rules.package_names import known as _known
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, Token
from oic_ai.tools.planner.words import (
    FILLER,
    NEGATORS,
    NOT_PACKAGES,
    PACKAGE_TOKEN,
    RETRIEVAL_WORDS,
)

# the language named after a code fence's opening backticks ("```yaml")
FENCE = re.compile(r"(?m)^[ \t]*```[ \t]*(?P<lang>[A-Za-z0-9_+-]+)[ \t]*$")

# a YAML key at a line's start ("dist: ubuntu24", "kernel:", "- name: ops"), as a pasted
# template writes it
FIELD_KEY = re.compile(r"(?m)^[ \t]*(?:-[ \t]+)?(?P<key>[A-Za-z_][A-Za-z0-9_]*):(?=[ \t]|$)")


@lru_cache(maxsize=1)
def field_keys() -> frozenset[str]:
    """The template's own field names but "packages" (which heads a list of names)."""
    from oic_ai.tools.template_keys import KEY_ORDER

    keys = {k.lower() for listed in KEY_ORDER.values() for k in listed}
    keys |= {path.rsplit(".", 1)[-1].removesuffix("[]").lower() for path in KEY_ORDER if path}
    return frozenset(keys - {"packages"})


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


def shorthand_updates(state: PlanState, resolve: Callable[[PlanState, Item], None]) -> None:
    """Read the shorthands that update the package list: "pkgs += jq,curl", "s/nano/vim/".

    "pkgs -= nano vim" removes, "+=" adds; sed's substitution replaces its first name with
    its second. The shorthand marks each word as a package: a known name that is also an
    everyday word ("less") is the package here. ``resolve`` reads any other name.
    """
    from oic_ai.tools.planner.rules.package_sentences import PACKAGES_UPDATED, SUBSTITUTE
    from oic_ai.tools.planner.text import tokenize

    tokens = tokenize(state.text.work)
    for match in state.text.matches(PACKAGES_UPDATED):
        way: Literal["add", "remove"] = "add" if match.group("op") == "+=" else "remove"
        start, end = match.span("names")
        for token in (t for t in tokens if t.kind == "word" and start <= t.start < end):
            _marked(state, Item(way, [token], "install" if way == "add" else "remove"), resolve)
        state.text.consume(*match.span())
    for match in state.text.matches(SUBSTITUTE):
        pairs: tuple[tuple[str, Literal["remove", "add"]], ...] = (
            ("old", "remove"),
            ("new", "add"),
        )
        for group, mode in pairs:
            start, end = match.span(group)
            token = Token("word", match.group(group), start, end)
            _marked(state, Item(mode, [token], "replace"), resolve)
        state.text.consume(*match.span())


def _marked(state: PlanState, item: Item, resolve: Callable[[PlanState, Item], None]) -> None:
    token = item.tokens[0]
    written = state.text.raw(token.start, token.end)
    if _known(state, written) and (token.text in NOT_PACKAGES or token.text in FILLER):
        apply_names(state, item, written, [written])
    else:
        resolve(state, item)


def split_slashed(state: PlanState, item: Item) -> list[Item]:
    """``item`` with "kubelet/kubeadm" (or "git+vim") read as names when each is a known one.

    A "+" joins names only when the whole is no known name ("libstdc++6", "gcc-c++" stay
    whole). An item that is nothing but one such word becomes one item per name
    ("htop/jq/curl"); otherwise its names stay in the one item.
    """
    tokens: list[Token] = []
    split: list[list[Token]] = []
    for token in item.tokens:
        sign = "/" if "/" in token.text else "+"
        parts = token.text.split(sign)
        written = state.text.raw(token.start, token.end).split(sign)
        if (
            token.kind != "word"
            or len(parts) < 2
            or not all(parts)
            or not all(_known(state, w) for w in written)
            or (sign == "+" and _known(state, state.text.raw(token.start, token.end)))
        ):
            tokens.append(token)
            continue
        at = token.start
        names: list[Token] = []
        for part in parts:
            names.append(Token("word", part, at, at + len(part)))
            at += len(part) + 1
        tokens.extend(names)
        split.append(names)
    if len(tokens) == len(item.tokens):
        return [item]
    if len(split) == 1 and len(item.tokens) == 1:
        return [Item(item.mode, [name], item.verb, item.aside_by) for name in split[0]]
    return [Item(item.mode, tokens, item.verb, item.aside_by)]


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
    if not content or len(content) > 3 or len(head.tokens) != 1:
        return False
    # "mosquitto + clients", "redis plus tools": one word tied to the name by a plus or
    # "with" is said of it as well as "the cli clients" is
    glue = state.text.original[head.span[1] : item.span[0]]
    tied = len(content) == 1 and _TIED.fullmatch(glue) is not None
    if item.words[0] not in ("the", "its", "their") and not tied:
        return False
    owner = state.text.raw(*head.span)
    if not _known(state, owner):
        return False
    for word in reversed(content):
        for suffix in dict.fromkeys((word, word.removesuffix("s"), f"{word}s")):
            name = f"{owner}-{suffix}"
            if _known(state, name, as_written=False):
                apply_names(state, item, name, [name])
                return True
    return False


_TIED = re.compile(r"\s*(?:\+|&|\bplus\b|\bwith\b)\s*", re.IGNORECASE)


def suffix_sibling(state: PlanState, items: Sequence[Item], index: int) -> bool:
    """Add or remove a sibling of the name before, written as its new last part.

    "gstreamer1.0-plugins-bad and -ugly", "python3-serial, -usb": the item is one word
    written right after a dash, the item before it under the same verb is one name with
    dashes, and swapping that name's last part for the word gives a name the index, the
    catalog, the library or Debian's list knows (gstreamer1.0-plugins-ugly). That name is
    read; anything else is left to the other readings.
    """
    item = items[index]
    if index == 0 or len(item.tokens) != 1 or item.mode not in ("add", "remove", "none"):
        return False
    token = item.tokens[0]
    original = state.text.original
    if not _written_as_suffix(state, item):
        return False
    back = index - 1
    while back > 0 and _written_as_suffix(state, items[back]):
        back -= 1  # "-base, -good and -bad": each sibling is of the first full name
    previous = items[back]
    if previous.mode != item.mode or previous.verb != item.verb or len(previous.tokens) != 1:
        return False
    owner = state.text.raw(*previous.span)
    last = items[index - 1]
    if "-" not in owner.strip("-") or not _LIST_GLUE_AND.match(
        original[last.span[1] : token.start - 1]
    ):
        return False
    name = f"{owner.rsplit('-', 1)[0]}-{state.text.raw(token.start, token.end)}"
    if not _known(state, name, as_written=False):
        return False
    apply_names(
        state,
        Item(item.mode, [Token("word", name, token.start - 1, token.end)], item.verb),
        name,
        [name],
    )
    return True


def _written_as_suffix(state: PlanState, item: Item) -> bool:
    """Whether ``item`` is one word written right after a dash ("and -ugly")."""
    if len(item.tokens) != 1 or item.tokens[0].start < 2:
        return False
    at = item.tokens[0].start
    return state.text.original[at - 1] == "-" and state.text.original[at - 2].isspace()


# what joins two items of one list: a comma, "and", "or", "&" or "+"
_LIST_GLUE_AND = re.compile(r"^\s*(?:,|,?\s*(?:and|or|plus)|&|\+)\s*$")


def purpose_of_a_partition(state: PlanState, items: Sequence[Item], index: int) -> int:
    """How many items from ``index`` say what something another rule read is for.

    "add a /data partition, 20 GiB, ext4, for logs and rosbags": the partition rule read
    the partition; "for logs" and "rosbags" (joined by "and" or a comma, with no verb of
    their own) say what it holds, not packages to install. The first item starts with
    "for" right after text the partition rule read, with only commas between; 0
    otherwise (what an image is for may ask for software: "ubuntu raw, for docker").
    """
    item = items[index]
    if item.mode != "none" or item.verb or item.words[0] != "for":
        return 0
    before = state.text.work[: item.span[0]].rstrip(" \t,;")
    if not before.endswith(state.text.BLANK):
        return 0
    owners = {owner for start, end, owner in state.text.claims if start < len(before) <= end}
    if "partition" not in owners:
        return 0  # "ubuntu 24.04 raw, for docker": what the image is for asks for docker
    count = 1
    for following in items[index + 1 :]:
        between = state.text.work[items[index + count - 1].span[1] : following.span[0]]
        if following.mode != "none" or not _LIST_GLUE_AND.match(between):
            break
        count += 1
    return count


def negation_scope(items: Sequence[Item]) -> list[Item]:
    """``items`` with a negation's reach ended where the sentence moves on.

    "arm64 for the pis, or no not pis, theyre the rockchip boards, anyway aarch64, ssh
    server, python3": "not" takes back "pis"; a clause of its own ("theyre the rockchip
    boards") or a word that resumes ("anyway") ends what it negates, so the names after
    it are listed, not removed. "no docker, podman or lxc" keeps its negation throughout.
    """
    marked: list[Item] = []
    ended = ""
    for item in items:
        negated = item.mode == "remove" and item.verb in NEGATORS | {"no", "without"}
        if not negated or item.verb != ended:
            ended = ""
        if negated and not ended and item.words[0] in _RESUMING | _CLAUSE_OPENERS:
            ended = item.verb
            if item.words[0] in _CLAUSE_OPENERS:
                marked.append(item)
                continue
        if negated and ended:
            tokens = list(item.tokens)
            while tokens and tokens[0].text in _RESUMING:
                del tokens[0]  # "anyway python3": the name after the word that resumes
            if tokens:
                marked.append(Item("none", tokens, ",", item.aside_by))
            continue
        marked.append(item)
    return marked


# words that resume after an aside ("..., anyway aarch64"), and the openings of a clause
# of its own ("theyre the rockchip boards", "it's for the lab")
_RESUMING = frozenset("anyway anyways anyhow regardless whatever".split())
_CLAUSE_OPENERS = frozenset(
    "theyre they're thats that's its it's we're were i'm im these those".split()
)


def instead_of_the_last(state: PlanState, items: Sequence[Item], index: int) -> Item:
    """``items[index]`` as an addition when it names what replaces the removal before it.

    "rm node exporter, collectd instead": the item inherits the removal verb of the list,
    but "instead" after it says it is the replacement, so it is added. The item before it
    must be under the same verb, with nothing but a comma between them ("remove a and b
    instead" removes both). "drop docker, ssh only" says in the same way which one stays:
    it is kept (added when missing).
    """
    item = items[index]
    said = " ".join(item.words)
    if item.mode != "remove" or index == 0:
        return item
    replacing = _REPLACING_END.search(said)
    # "drop docker, ssh only", "remove consul, just vault": the one that stays
    keeping = _KEEPING.search(said)
    if not replacing and not keeping:
        return item
    previous = items[index - 1]
    between = state.text.work[previous.span[1] : item.span[0]]
    if previous.mode != "remove" or previous.verb != item.verb or not _LIST_GLUE.match(between):
        return item
    if keeping:
        tokens = [t for t in item.tokens if t.text not in ("only", "just", "alone")]
        return Item("add", tokens, "only", item.aside_by) if tokens else item
    return Item("add", item.tokens, "instead", item.aside_by)


_REPLACING_END = re.compile(r"\binstead$")
_KEEPING = re.compile(r"^(?:only|just)\s+\S+$|^\S+\s+(?:only|alone)$")
_LIST_GLUE = re.compile(r"^\s*[,;]\s*$")


def spelled_out(state: PlanState, head: Item, item: Item) -> bool:
    """Whether ``item`` is the name right after the description ``head`` ("a vpn, wireguard").

    The description is an indefinite article and a word or two that took nothing, or a
    definite one and a vague noun ("the printer stuff please, cups"); the name follows it
    after a comma alone. A word that only asks ("please", "too") may close the description.
    """
    said = list(head.words)
    while len(said) > 1 and said[-1] in _ASKING_WORDS:
        said.pop()
    if head.mode not in ("add", "none") or len(said) > 3 or len(item.tokens) != 1:
        return False
    if said[0] not in ("a", "an") and not (
        said[0] in ("the", "some") and len(said) > 2 and said[-1] in _VAGUE_NOUNS
    ):
        return False
    return state.text.original[head.span[1] : item.span[0]].strip() == ","


# the words that only ask, closing a description ("the printer stuff please")
_ASKING_WORDS = frozenset("please pls plz too also".split())
# nouns that only point at what a thing needs ("the printer stuff", "the vpn bits")
_VAGUE_NOUNS = frozenset("stuff things bits pieces side".split())


def described_removal(state: PlanState, item: Item) -> bool:
    """Remove the one template package a description or short name names.

    "drop the exporter": "the" and one word that is the last part of exactly one package
    of the template (prometheus-node-exporter). "lose ninja", "drop alertmanager", "drop
    buildx": one word nothing knows as a package that is a part of the names that carry
    it (ninja-build, prometheus-alertmanager; docker-buildx with its docker-buildx-plugin,
    never two names of their own such as ninja-build and ninja-tools). Anything else is not
    read here.
    """
    content = [w for w in item.words if w not in FILLER]
    if item.mode == "remove" and len(content) > 1:
        return _removal_by_parts(state, item, content)
    if item.mode != "remove" or len(content) != 1:
        return False
    word = content[0]
    if word in PART_WORDS or _known(state, word) or _find_capabilities(state.catalog, word):
        return False  # "the server": a part many package names share, not a description
    installed = (*state.facts.packages, *state.facts.kernel.packages)
    described = "the" in item.words[:2]
    if not described:
        # "drop buildx": a product's own word, whatever its place in the names that carry
        # it (docker-buildx and docker-buildx-plugin are both buildx)
        matches = [n for n in installed if len(n.split("-")) > 1 and word in n.split("-")]
        stem = min(matches, key=len, default="")
        if not matches or any(n != stem and not n.startswith(f"{stem}-") for n in matches):
            return False  # ninja-build and ninja-tools: two things, neither is meant
    else:
        matches = [n for n in installed if len(n.split("-")) > 1 and n.split("-")[-1] == word]
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
    heads = [w for w in content if w in HEAD_NOUNS]
    if not wanted or any(not PACKAGE_TOKEN.match(w) for w in wanted):
        return False
    installed = (*state.facts.packages, *state.facts.kernel.packages)

    def has(name: str, word: str) -> bool:
        parts = name.split("-")
        return word in parts or f"{word}s" in parts or word.removesuffix("s") in parts

    if len(wanted) < 2:
        # "the buildx plugin": one word and a head noun, both parts of exactly one name
        if not heads or _known(state, wanted[0]):
            return False
        wanted = [*wanted, *heads]
        matches = [n for n in installed if all(has(n, w) for w in wanted)]
        if len(matches) != 1:
            return False
    matches = [n for n in installed if all(has(n, w) for w in wanted)]
    if not matches:
        return False
    remove_packages(state, item, matches, " ".join(wanted))
    return True


# Last parts of package names that say what kind of part it is, not what it is.
PART_WORDS = (
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


# words that join phrases, never half of a name: "a top" is no atop, "to do" no todo
_FUNCTION_WORDS = frozenset(
    (
        "a an the some any our their its your my this that these those it them and or nor "
        "but to for in on at by of off with without from into onto via as is are be no not "
        "add install remove drop delete purge uninstall plus also then please pls "
        # texting shorthand: "can u set it" is no canu
        "u r n ur ya"
    ).split()
)


def join_split_names(state: PlanState, tokens: list[Token]) -> list[Token]:
    """``tokens`` with a package name split into words read as that name ("tcp dump").

    Dictation, phone keyboards and people who read a name aloud split it: "h top", "t mux",
    "can utils", "open vm tools", "fonts noto color emoji". A run of two to four
    neighbouring words, written with only spaces between them, is one name when its join
    (as one word, or with "-") is exactly one name the index, the catalog, the library or
    Debian's list knows; the longest such run wins ("prometheus nginx exporter" is one
    name, not prometheus and an nginx exporter). Two words that are both names by
    themselves stay two ("vim tmux" lists two). A capability phrase across the words keeps
    them as that phrase unless the join is one of its packages ("docker compose" stays the
    compose capability); a phrase reaching past them ("open ssh server") keeps them apart.
    The joined token spans the words; its text is the name.
    """
    joined: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        for size in range(min(_MOST_PARTS, len(tokens) - index), 1, -1):
            name = _joined_name(state, tokens, index, size)
            if name is not None:
                joined.append(Token("word", name, token.start, tokens[index + size - 1].end))
                index += size
                break
        else:
            joined.append(token)
            index += 1
    return joined


# a known name in parentheses right after words that describe it: "slurm client (slurmd)"
_SPELT_OUT = re.compile(r"\s*\(\s*(?P<name>[a-z0-9][a-z0-9+._-]*)\s*\)")
# the most words one split name is read from ("fonts noto color emoji")
_MOST_PARTS = 4


def _joined_name(
    state: PlanState, tokens: Sequence[Token], index: int, size: int = 2
) -> str | None:
    run = tokens[index : index + size]
    if any(t.kind != "word" for t in run) or not state.target.known:
        return None
    if any(state.text.original[a.end : b.start] not in (" ", "  ") for a, b in zip(run, run[1:])):
        return None
    if any(t.text in _FUNCTION_WORDS for t in run):
        return None
    if not all(PACKAGE_TOKEN.match(t.text) for t in run):
        return None
    spelt = _SPELT_OUT.match(state.text.original, run[-1].end)
    if spelt and _known(state, spelt.group("name")):
        return None  # "slurm client (slurmd)": the name in parentheses is the one meant
    written = [state.text.raw(t.start, t.end) for t in run]
    if size == 2 and all(_known(state, w) for w in written):
        return None  # "vim tmux": two names side by side
    opening = not state.text.original[: run[0].start].strip() or re.search(
        r"[.!?\n]\s*$", state.text.original[: run[0].start]
    )
    as_said = all(w == t.text for w, t in zip(written[1:], run[1:])) and (
        written[0] == run[0].text or opening
    )
    # "Open VM Tools", "Docker Buildx": a product's name with every word capitalised, read
    # aloud; two words only when the first is a name itself ("a Cinder Volume" is a noun)
    titled = all(w[:1].isupper() for w in written) and (
        size > 2 or _known(state, run[0].text, as_written=False)
    )
    if not (as_said or titled):
        return None  # "a Cinder volume": a product's name with a noun, not a split name
    parts = [t.text for t in run]
    spellings = ["-".join(parts)] if size > 2 else ["".join(parts), "-".join(parts)]
    found = [n for n in dict.fromkeys(spellings) if _known(state, n, as_written=False)]
    if len(found) != 1:
        return None
    name = found[0]
    if not _phrase_allows(state, tokens, index, name, size):
        return None
    return name


def _phrase_allows(
    state: PlanState, tokens: Sequence[Token], index: int, name: str, size: int = 2
) -> bool:
    """Whether no capability phrase keeps the ``size`` words at ``index`` apart."""
    words_at = [t.text if t.kind == "word" else "" for t in tokens]
    text = " ".join(w for w in words_at[max(0, index - 3) : index + size + 3] if w)
    target = state.target
    for capability in _find_capabilities(state.catalog, text):
        for phrase in (capability.name, *capability.synonyms):
            length = len(phrase_words := words(phrase))
            if length < 2:
                continue
            for start in range(max(0, index - length + 1), index + size):
                found = words_at[start : start + length]
                if [w.removesuffix("s") for w in found] != [
                    p.removesuffix("s") for p in phrase_words
                ]:
                    continue
                if start < index or start + length > index + size:
                    return False  # "open ssh server": the phrase takes "ssh" with "server"
                if length < size:
                    continue  # "prometheus nginx exporter": the longer name holds the phrase
                listed = capability.packages_for(target.os, target.dist, target.arch)
                if name not in listed:
                    return False  # "docker compose" is the compose capability
    return True


def read_joined(state: PlanState, items: list[Item], tokens: Sequence[Token]) -> list[Item]:
    """Add or remove each joined name (:func:`join_split_names`); the items without them.

    A joined name is read where its item adds or removes, or where it is all its item
    says ("tcp dump." alone); elsewhere its words (from ``tokens``, the tokens before the
    join) stay as written for the other readings.
    """
    kept: list[Item] = []
    for item in items:
        joined = [t for t in item.tokens if t.kind == "word" and " " in _written(state, t)]
        content = [t for t in item.tokens if t.text not in FILLER]
        # "tcp dump." alone is the name; "for the health check" names what something is for
        alone = (
            item.mode == "none"
            and content == joined
            and len(joined) == 1
            and not (item.words and item.words[0] in _PURPOSE_HEADS)
        )
        if not joined:
            kept.append(item)
            continue
        if item.mode in ("add", "remove") or alone:
            mode: Literal["add", "remove"] = "remove" if item.mode == "remove" else "add"
            for token in joined:
                _apply_joined(state, Item(mode, [token], item.verb or "joined"), token)
            rest = [t for t in item.tokens if t not in joined]
        else:  # the words as written: "a Cinder volume" stays a phrase
            rest = [u for t in item.tokens for u in tokens if t.start <= u.start < t.end]
        if any(t.text not in FILLER for t in rest):
            kept.append(Item(item.mode, rest, item.verb, item.aside_by))
    return kept


# prepositions that open a phrase of what a thing is for or about, not a thing to install
_PURPOSE_HEADS = frozenset("for of to from about at on by in".split())


def _written(state: PlanState, token: Token) -> str:
    return state.text.raw(token.start, token.end)


def _apply_joined(state: PlanState, item: Item, token: Token) -> None:
    """Add or remove the joined name ``token`` names, in the target's spelling."""
    name = token.text
    target = state.target
    aliases = state.catalog.aliases(name, target.os, target.dist, target.arch)
    names = [name] if item.mode == "remove" or not aliases or name in aliases else list(aliases)
    apply_names(state, item, name, names)
    written = " ".join(state.text.raw(token.start, token.end).split())
    state.warn(f"read '{written}' as {name}")


# "gstreamer1.0-tools plus the good and bad plugins": one noun shared by the words before
# it, each naming a sibling of the name before them
_SHARED_NOUN = re.compile(
    r"(?<![\w.+-])(?P<head>[a-z0-9][a-z0-9+_.~]*-[a-z0-9+_.~-]*[a-z0-9+])"
    r"\s*(?:,|\+|&|\bplus\b|\band\b|\bwith\b)\s*(?:(?:also|then)\s+)?(?:the\s+)?"
    r"(?P<mods>[a-z0-9]+(?:\s*(?:,|\band\b|&|\+|\bor\b)\s*(?:the\s+)?[a-z0-9]+){0,4})"
    r"\s+(?P<noun>[a-z]{3,})(?![\w-])"
)  # "the usb one": "one" stands for the noun of the name before
_KIND_WORDS = frozenset("binding module plugin extension package library".split())
_MODS = re.compile(r"\s*(?:,|\band\b|&|\+|\bor\b)\s*(?:the\s+)?")


def shared_noun_siblings(state: PlanState) -> list[tuple[str, int, int, list[str]]]:
    """Siblings of a name described by words sharing one noun ("the good and bad plugins").

    "gstreamer1.0-tools plus the good and bad plugins": each word before the shared noun,
    with the noun, names a sibling of the name before them, spelt with the name's stem
    (gstreamer1.0) as a known name spells it: gstreamer1.0-plugins-good,
    gstreamer1.0-plugins-bad. Every word must give exactly one known name, else nothing is
    read. Returns ``(head, start, end, names)`` for :func:`apply_shared_noun_siblings`,
    which adds or removes them as the head is.
    """
    found = []
    for match in state.text.matches(_SHARED_NOUN):
        head, noun = match.group("head"), match.group("noun")
        mods = [m for m in _MODS.split(match.group("mods")) if m]
        stems = [head.rsplit("-", k)[0] for k in range(1, head.count("-") + 1)]
        names = []
        for mod in mods:
            spelled = {
                f"{stem}-{part}"
                for stem in stems
                for form in dict.fromkeys((noun, noun.removesuffix("s")))
                for part in (f"{form}-{mod}", f"{mod}-{form}")
            }
            hits = sorted(n for n in spelled if _known(state, n, as_written=False))
            if not hits and (
                noun in SOFTWARE_NOUNS or noun.removesuffix("s") in _KIND_WORDS | {"one"}
            ):
                # "python3-serial and the usb and yaml bindings": the noun says what kind
                hits = sorted(
                    n for n in (f"{s}-{mod}" for s in stems) if _known(state, n, as_written=False)
                )
            if len(hits) != 1:
                break
            names.append(hits[0])
        else:
            if names:
                found.append((head, match.start("mods"), match.end("noun"), names))
    return found


def apply_shared_noun_siblings(
    state: PlanState, found: Sequence[tuple[str, int, int, list[str]]]
) -> None:
    """Add or remove the siblings :func:`shared_noun_siblings` found, as their head went."""
    for head, start, end, names in found:
        if head in state.remove:
            mode: Literal["add", "remove"] = "remove"
        elif head in state.add or head in state.present:
            mode = "add"
        else:
            continue  # the name before them was not read as a package: neither are they
        item = Item(mode, [Token("word", names[0], start, end)], "and")
        if mode == "remove":
            remove_packages(state, item, names, " ".join(names))
        else:
            apply_names(state, item, names[0], names)


def described_before(state: PlanState, items: Sequence[Item], index: int) -> list[Item]:
    """The items of the list ``items[index]`` ends that nothing read, before the names.

    "add nav2 bringup and slam toolbox (ros-jazzy-nav2-bringup, ros-jazzy-slam-toolbox)":
    the names in parentheses spell out the whole list, so "nav2 bringup", which names no
    package by itself, is described by them too. Only items under the same verb, joined
    by commas and "and", that no rule read.
    """
    head = items[index]
    found: list[Item] = []
    for k in range(index - 1, -1, -1):
        item, after = items[k], items[k + 1]
        between = state.text.work[item.span[1] : after.span[0]]
        if item.mode != head.mode or not _LIST_JOIN.match(between):
            break
        if any(s < item.span[1] and item.span[0] < e for s, e, _ in state.text.claims):
            break
        found.append(item)
    return found


_LIST_JOIN = re.compile(r"^\s*(?:,|\band\b|&)?\s*(?:and\s+)?$")
