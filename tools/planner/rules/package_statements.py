"""What a statement of the machine says it comes with: "a home server ... with samba".

A sentence that says what the machine is ("It will be a little home server with samba")
or what it is for ("for sharing the photos with samba") is a statement, read as context;
the software it names after its last "with" is still asked for, when that is a known
package name or a capability's phrase.
"""

from __future__ import annotations

import re

from oic_ai.stores.capability_catalog import words
from oic_ai.tools.planner.clauses import sentence_at, split_clauses
from oic_ai.tools.planner.rules.capability_words import covered_words, find_capabilities
from oic_ai.tools.planner.rules.package_known import known
from oic_ai.tools.planner.rules.package_sentences import from_repository
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, tokenize
from oic_ai.tools.planner.words import FILLER, NOT_PACKAGES, RETRIEVAL_WORDS

# what the machine is or will be: "it will be a ...", "this is a ...", "it's going to be a"
_IS_A_MACHINE = re.compile(
    r"(?:it|this|that|the\s+\w+)\s+(?:is|'s|will\s+be|would\s+be|should\s+be|"
    r"is\s+going\s+to\s+be|becomes|will\s+become)\s+(?:a|an|our|my|the)\b"
)


_SOURCE_WORDS = frozenset("from straight directly via out".split())
# a choice said of oneself: "we're going with", "I'll go with", "let's go with"
_CHOOSING = re.compile(
    r"(?:(?:ok|okay|so|then|now|well)\s+)*(?:we|i|we're|i'm|we'll|i'll|let's|lets)"
    r"(?:\s+(?:are|am|will|shall|'ll|just|then|now|probably|rather))*"
    r"\s+(?:go|going|gonna\s+go)"
)


def with_what(state: PlanState, item: Item) -> Item | None:
    """What a statement of what the machine is says it comes with, as an item to add.

    "It will be a little home server with samba", "(a server) for sharing the photos with
    samba", "we're going with node exporter": a choice said of oneself, a statement of
    what the machine is or will be, naming a machine, or the
    purpose it is for; the words after its last "with" are a known name or a capability's
    phrase (every word of them). Anything else ("it is a box with two nics", "it was a
    mess with ansible") leaves the statement whole.
    """
    tokens = [t for t in item.tokens if t.kind == "word"]
    at = max((i for i, t in enumerate(tokens) if t.text == "with"), default=-1)
    opening = " ".join(t.text for t in tokens[:at])
    if item.aside_by == "":
        machine = _IS_A_MACHINE.match(opening) and {t.text for t in tokens[:at]} & RETRIEVAL_WORDS
        if not machine and not _CHOOSING.fullmatch(opening):
            return None
    elif item.aside_by != "for" or not tokens or not tokens[0].text.endswith("ing"):
        return None
    tail = tokens[at + 1 :] if at > 0 else []
    # "node exporter straight from debian": where it comes from is not part of the name
    cut = next((i for i, t in enumerate(tail) if t.text in _SOURCE_WORDS), len(tail))
    tail = tail[:cut]
    said = [t.text for t in tail if t.text not in FILLER]
    if not said or len(said) > 3:
        return None
    if len(said) == 1 and known(state, state.text.raw(tail[-1].start, tail[-1].end)):
        return Item("add", tail, "with")
    capabilities = find_capabilities(state.catalog, " ".join(said))
    covered = covered_words(capabilities, words(" ".join(said))) if capabilities else []
    return Item("add", tail, "with") if covered and all(covered) else None


# "from that repo", "out of our mirror", "from it": a repository as the source of a name
_FROM_A_SOURCE = re.compile(
    r"\b(?:from|out\s+of|via)\s+(?:it|there|(?:that|the|our|this|their|its)\s+(?:[\w.-]+\s+)?"
    r"(?:repo|repos|repository|mirror|feed|channel))\b"
)


def from_a_repository(state: PlanState, item: Item) -> bool:
    """Whether ``item`` comes from a repository: one the request adds, or "from that repo"."""
    if from_repository(state, item):
        return True
    span = sentence_at(split_clauses(state.text.original), item.span[0])
    sentence = state.text.original[span[0] : span[1]] if span else state.text.original
    return _FROM_A_SOURCE.search(sentence.lower()) is not None


def names_software_word(state: PlanState, word: str) -> bool:
    """Whether ``word`` names software: a known package, a capability or a package alias."""
    if word in FILLER or word in NOT_PACKAGES:
        return False
    target = state.target
    return (
        known(state, word)
        or bool(find_capabilities(state.catalog, word))
        or bool(target.known and state.catalog.aliases(word, target.os, target.dist, target.arch))
    )


# the part of a client/server pair a role noun names: the server side ("server" alone is
# too wide: a web, ssh or print server)
_SERVER_ROLES = frozenset("broker brokers daemon daemons".split())
_CLIENT_SIDE = re.compile(r"-(?:clients?|cli|tools|utils)$")


def server_side(state: PlanState, item: Item) -> list[str]:
    """The installed server half a removal names by its role ("no broker", "drop the server").

    "only mosquitto-clients, no broker": the broker is the package of an installed
    capability whose phrases name that role ("message broker"), less its client side
    ("mosquitto-clients"). Empty when the item is not a role alone, or no capability the
    template or the request has plays it, or several do.
    """
    said = [w for w in item.words if w not in FILLER]
    if item.mode != "remove" or len(said) != 1 or said[0] not in _SERVER_ROLES:
        return []
    role = said[0].removesuffix("s")
    target = state.target
    have = {*state.facts.packages, *state.add}
    playing: list[list[str]] = []
    for capability in state.catalog.capabilities.values():
        if not any(p.split()[-1] == role for p in capability.synonyms):
            continue
        listed = capability.packages_for(target.os, target.dist, target.arch)
        names = [n for n in listed if n in have and not _CLIENT_SIDE.search(n)]
        if names and names not in playing:
            playing.append(names)
    # one capability plays the role, or the role names nothing ("no server" beside an ssh
    # server and a web server is for the other rules to read or report)
    return playing[0] if len(playing) == 1 else []


# "take docker-ce from there", "grab vault out of their repo", "get acme-agent from it": a
# verb of fetching, names, and the repository they come from
_FETCHED = re.compile(
    r"\b(?:take|takes|get|grab|fetch|pull|use)\s+(?:the\s+)?(?P<names>"
    r"[a-z0-9][a-z0-9+_.:~-]*(?:\s*(?:,|\band\b|&)\s*[a-z0-9][a-z0-9+_.:~-]*)*)"
    r"\s+(?:packages?\s+)?(?:from|out\s+of|off)\s+(?:there|it|that|them|"
    r"(?:the|that|their|our|this|its|[a-z]+'s)\s+(?:[\w.-]+\s+)?(?:repo|repos|repository|mirror|one))\b"
)


def fetched_from_a_repository(state: PlanState) -> list[tuple[Item, str]]:
    """The names a request takes from a repository it adds or the template has, as items.

    "then take docker-ce from there", "grab vault out of their repo": each name, written as
    it is, is asked for from that repository. Only while a repository is there to take from.
    """
    if not state.repositories and not state.facts.repositories:
        return []
    found: list[tuple[Item, str]] = []
    tokens = tokenize(state.text.work)
    said = state.text.original.lower()  # where from may be read already ("that repo")
    for match in _FETCHED.finditer(said):
        start, end = match.span("names")
        if state.text.work[match.start() : end] != said[match.start() : end]:
            continue  # the verb or a name is read already
        for token in (t for t in tokens if t.kind == "word" and start <= t.start < end):
            if token.text in FILLER or token.text == "and":
                continue
            found.append((Item("add", [token], "install"), state.text.raw(token.start, token.end)))
        state.text.consume(match.start(), start, "context")  # the verb
        if state.text.work[end : match.end()] == said[end : match.end()]:
            state.text.consume(end, match.end(), "context")  # where from
    return found
