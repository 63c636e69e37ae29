"""Rule: a package asked for by what it should do ("something to export node metrics").

People often do not know a package's name and say what it is for instead: "plus something
to monitor the node for prometheus", "a tool that lets us sync the clock", "something for
disk health (SMART)". Such a phrase is a placeholder ("something", "a tool", "an agent")
followed by what it should do. The description is read against the capability catalog:

1. a capability phrase in it ("prometheus", "mqtt") names the capability;
2. otherwise the description is compared, as a MiniLM sentence embedding, with each
   capability's name, synonyms and note; the nearest one is taken when it is close
   (:data:`SURE`) and clearly nearer than the next (:data:`MARGIN`), and the answer says
   which capability it read;
3. otherwise the phrase is reported, with the nearest capabilities as suggestions: a
   package is never guessed from a vague description.

The package rule (:mod:`.packages`) adds the capability's packages for the template's
target, as it does for a capability named outright.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from oic_ai.stores.capability_catalog import Capability, CapabilityCatalog
from oic_ai.stores.capability_vectors import capability_texts, load_vectors
from oic_ai.tools.planner.rules.capability_words import find_capabilities
from oic_ai.tools.planner.state import PlanState

# cosine similarity a description must reach, and how far it must beat the next capability;
# a less similar one is taken only when nothing else comes near (FAIR, FAR)
SURE = 0.45
MARGIN = 0.08
FAIR = 0.35
FAR = 0.2
# below this, no capability is near enough to be worth suggesting
_SUGGEST = 0.25
# a capability the description names must still be at least this near to it
_NAMED = 0.35

_PLACEHOLDER = re.compile(
    r"\b(?:(?:some|any)thing|stuff|whatever(?=\s+(?:lets?|allows?|makes?|helps?)\b)"
    # "whatever package gives me jstest", "the package that provides lsusb": a package by a
    # tool it ships
    # "whatever package does automatic updates": a package by the job it does
    r"|(?:whatever|whichever|the)\s+package"
    r"(?=\s+(?:that\s+)?(?:gives|provides|ships|has|does|handles)\b)"
    r"|(?:a|an|some|any)\s+(?:(?:small|simple|lightweight|good|decent)\s+)?"
    r"(?:tool|package|agent|daemon|utility|program|service|software|app|way|means)s?)"
    r"\s+(?:(?:that\s+)?(?:gives|provides|ships|has|does|handles)(?:\s+(?:me|us|you))?"
    r"|(?:that|which)(?:\s+(?:can|will|lets?\s+us|allows?\s+us\s+to))?"
    # "whatever lets python talk to serial ports": what it lets, said right after it
    r"|(?:lets?|allows?|makes?|helps?)(?=\s+\w+\s+\w)"
    r"|so\s+(?:that\s+)?(?:[\w'-]+\s+){1,3}?(?:can|could|will)|to|for"
    # "something so it hands out IP addresses": what the machine then does, by it
    r"|so\s+(?:that\s+)?(?:it|the\s+(?:box|machine|server|computer))"
    r"(?!\s+(?:is|was|has|does|needs|gets)\b)(?=\s+[a-z]+s\s)"
    # "something our Zabbix server can poll", "a tool we can script": a relative clause
    # without "that", its subject kept as part of what the package is for
    r"|(?:our|their|the|your|my|we|i|they|you)"
    # (what it can do for them: "they should be going through ..." says how people work)
    r"(?=\s+(?:[\w'-]+\s+){0,3}?(?:can|could)\s+(?!be\b|not\b)))\s+"
    r"(?P<what>[^,.;:!?\n()]+?)"
    r"(?:\s*\((?P<aside>[^()\n]{1,40})\))?"
    r"(?=\s*(?:[,.;:!?\n]|\(|$|\s+(?:and|plus|also|but)\s+(?!that\b)))"
)
# "the computer behind it must show our web page", "a box that shares a folder with the
# Windows PCs", "our shop PCs need to print receipts": a machine said to do something, as
# people new to images describe what they need; read only when a capability is sure
_MACHINES = "computer|machine|pc|box|board|device|server|gateway|workstation|laptop|terminal"
_DOES = re.compile(
    r"\b(?:(?:the|a|an|our|one|this|each|every|all)\s+(?:[\w-]+\s+){0,2}?)?"
    rf"(?:{_MACHINES})(?:e?s)?"
    r"(?:\s+(?:behind|in|at|on|of)\s+(?:it|(?:the|our)\s+[\w-]+|[\w-]+))?"
    r"\s+(?:(?:that|which)\s+(?:(?:must|should|can|will)\s+)?"
    r"|(?:must|should|needs?\s+to|has\s+to|have\s+to|is\s+to)\s+)"
    r"(?!(?:not|never|only|be|is|are|have|has|get|carry|include|contain|come)\b)"
    r"(?P<what>[^,.;:\n()]+?)"
    r"(?:\s*\((?P<aside>[^()\n]{1,40})\))?"
    r"(?=\s*(?:[,.;:\n]|\(|$|\s+(?:and|plus|also|but)\s+(?!that\b)))"
)
_AND_DOES = re.compile(
    r"\s+and\s+(?!(?:not|never|only|be|is|are|have|has|get|it|we|i|they|you)\b)"
    r"(?P<what>[^,.;:\n()]+?)"
    r"(?:\s*\((?P<aside>[^()\n]{1,40})\))?"
    r"(?=\s*(?:[,.;:\n]|\(|$|\s+(?:and|plus|also|but)\s+))"
)
# a negation in the clause before the placeholder: nothing is asked for
_NEGATED = re.compile(r"\b(?:don'?t|do\s+not|no\s+need\s+to|never|nor|not)\b[^,.;:\n]*$")
# "is that ...", "would this be ...": the placeholder is what was just asked for
_THE_REQUEST = re.compile(
    r"\b(?:is|isn'?t|was|would|could|will)\s+(?:that|this|it)(?:\s+(?:be|really))?\s+$",
    re.IGNORECASE,
)
# "a way to read the temperature sensors" asks for what does it; "is there a way to ..."
# and "whether there's a way to ..." ask whether it can be done
_A_WAY = re.compile(r"(?:a|an|some|any)\s+(?:[a-z]+\s+)?(?:way|means)", re.IGNORECASE)
_WHETHER = re.compile(r"\b(?:there(?:'s|\s+is|\s+are|\s+was)?|whether|if|any)\s+$", re.IGNORECASE)
# words that open a description but say nothing of what the package does
_OPENING = re.compile(
    r"^(?:(?:we|i|us|you)\s+(?:can\s+|could\s+)?|can\s+|to\s+|helps?\s+(?:us\s+)?"
    r"|lets?\s+us\s+|allows?\s+us\s+(?:to\s+)?)+"
)


# a placeholder the user (not the machine) gets: "so I have something to look at", "so
# that we've got something to play with"
_HAVING_IT = re.compile(
    r"\bso\s+(?:that\s+)?(?:i|we|you|they)(?:['’](?:ve|ll))?\s+(?:(?:can|will)\s+)?"
    r"(?:have|got|get)\s+$",
    re.IGNORECASE,
)
# a relative clause that says only that someone uses it, not what for
_ONLY_USE = re.compile(
    r"(?:(?:[\w'-]+\s+){0,3}?(?:can|could|will|would|may|should)\s+)?(?:use|run|have|get|try|do)"
    r"(?:\s+(?:it|them))?"
)


@dataclass(frozen=True)
class Described:
    """One "something to X" phrase and what it was read as.

    Attributes:
        start: Where the phrase starts in the request.
        end: Where it ends.
        capability: The capability it describes, or None when unsure.
        advice: What to say when it is None (the nearest capabilities, if any).
    """

    start: int
    end: int
    capability: Capability | None
    advice: str


def read_described(state: PlanState) -> list[Described]:
    """Each "something to X" phrase of the request with the capability it describes."""
    if not state.target.known:
        return []
    found: list[Described] = []
    for match in state.text.matches(_PLACEHOLDER):
        before = state.text.work[max(0, match.start() - 40) : match.start()]
        if _NEGATED.search(before) or _THE_REQUEST.search(before):
            # "don't install anything for it", "no need to add something for that"; "is
            # that something you can do?": the request itself, asked about
            state.text.consume(*match.span(), "context")
            continue
        if _A_WAY.match(match.group()) and _WHETHER.search(before):
            continue  # "is there a way to put a banner in": a question, left to be asked
        what, end = match.group("what"), match.end()
        quote = state.text.work[match.start() - 1 : match.start()] if match.start() else ""
        if quote in ("'", '"') and f"{quote} " in f"{what} ":
            # "'something to remote into the desktop' from the office": the quote ends it
            what = what[: f"{what} ".index(f"{quote} ")]
            end = match.start("what") + len(what)
        what = _OPENING.sub("", what.strip())
        if not what or _ONLY_USE.fullmatch(what):
            continue  # "something they can use (to sync the clock)": the purpose says it
        what = _resolved(state, what, match.start())
        described = " ".join(filter(None, (what, match.group("aside"))))
        capability, nearest = pick(state.catalog, described)
        if capability is None and _HAVING_IT.search(before):
            # "start me a minimal image so I have something to look at": what the user
            # gets out of the request, no package; a capability it names is still added
            state.text.consume(match.start(), end, "context")
            continue
        found.append(Described(match.start(), end, capability, _advice(nearest)))
    for match in state.text.matches(_DOES):
        if any(f.start < match.end() and match.start() < f.end for f in found):
            continue
        before = state.text.work[max(0, match.start() - 40) : match.start()]
        if _NEGATED.search(before):
            continue
        # "... must read sensors over serial and send the values by MQTT": each verb's
        # phrase says one thing the machine does
        phrases = [match]
        while then := _AND_DOES.match(state.text.work, phrases[-1].end()):
            phrases.append(then)
        for phrase in phrases:
            described = " ".join(filter(None, (phrase.group("what"), phrase.group("aside"))))
            capability, _ = pick(state.catalog, described)
            if capability is not None:  # unsure: it may say how the machine is used
                found.append(Described(phrase.start("what"), phrase.end(), capability, ""))
    return found


# a pronoun in a description ("a package for testing it") and the noun phrases before it
# that may be what it stands for ("for the joystick - is there a package for testing it?")
_PRONOUN = re.compile(r"\b(?:it|them)\b")
_NOUN_PHRASE = re.compile(
    r"\b(?:the|a|an|our|this|that|my|your|its|their)\s+([\w-]+(?:\s+[\w-]+)?)"
)


def _resolved(state: PlanState, what: str, start: int) -> str:
    """``what`` with its pronoun replaced by the capability it stands for, when one is near.

    The nearest noun phrase before the description (in its sentence, up to 120 characters
    back) that names a catalog capability is the antecedent: "for the joystick - is there a
    package for testing/calibrating it?" describes testing the joystick. A pronoun with no
    such phrase before it is left as it is, and the description stays vague.
    """
    pronoun = _PRONOUN.search(what)
    if pronoun is None:
        return what
    before = state.text.original[max(0, start - 120) : start]
    before = re.split(r"[.!?\n]\s", before)[-1]  # its own sentence only
    for phrase in reversed([m.group(1) for m in _NOUN_PHRASE.finditer(before)]):
        for words in (phrase, phrase.split()[0]):
            if find_capabilities(state.catalog, words):
                return what[: pronoun.start()] + words + what[pronoun.end() :]
    return what


def pick(
    catalog: CapabilityCatalog, described: str
) -> tuple[Capability | None, list[tuple[float, Capability]]]:
    """The capability ``described`` asks for (None when unsure) and the nearest ones."""
    named = find_capabilities(catalog, described)
    scored = _scores(catalog, described)
    if not scored:
        return (named[0] if len(named) == 1 else None), []
    if named:
        # a capability phrase counts when the whole description is also near it:
        # "view the desktop remotely" names the desktop, but does not ask for one
        best = scored[0][0]
        floor = max(_NAMED, min(SURE, best) - MARGIN)
        near = [(s, c) for s, c in scored if c in named and s >= floor]
        if len(near) == 1:
            return near[0][1], scored
        if (
            len(named) == 1
            and scored[0][1] is named[0]
            and scored[0][0] >= _SUGGEST
            and scored[0][0] - (scored[1][0] if len(scored) > 1 else -1.0) >= MARGIN
        ):
            # "a way to get on wifi": the one capability it names is also the nearest, by
            # a clear margin, though a short description is near nothing by much
            return named[0], scored
        if near:
            scored = near
    best, second = scored[0][0], (scored[1][0] if len(scored) > 1 else -1.0)
    if (best >= SURE and best - second >= MARGIN) or (best >= FAIR and best - second >= FAR):
        return scored[0][1], scored
    return None, scored


def _advice(nearest: list[tuple[float, Capability]]) -> str:
    close = [c.name for s, c in nearest[:3] if s >= _SUGGEST]
    if not close:
        return (
            "says what a package should do, but no capability the catalog knows does that; "
            "name the package"
        )
    return (
        "says what a package should do, not which one; name it, or ask for one of these "
        "capabilities: " + ", ".join(close)
    )


def _scores(catalog: CapabilityCatalog, described: str) -> list[tuple[float, Capability]]:
    """Every capability with its similarity to ``described``, nearest first.

    Empty without the model.
    """
    table = _vectors(catalog)
    if table is None:
        return []
    embed, names, vectors = table
    query = embed([described])[0]
    scores = (vectors @ query).tolist()
    ranked = sorted(zip(scores, names, strict=True), key=lambda pair: -pair[0])
    return [(float(s), catalog.capabilities[n]) for s, n in ranked]


@lru_cache(maxsize=2)
def _vectors(catalog: CapabilityCatalog) -> tuple[Any, tuple[str, ...], Any] | None:
    """The embedder, the capability names and one unit vector per capability."""
    from oic_ai.stores.embeddings.minilm import shared_embedder
    from oic_ai.stores.embeddings.weights import verification_cache
    from oic_ai.stores.errors import UserInputError

    names, texts = capability_texts(catalog)
    try:
        embedder = shared_embedder(verification_cache())
        vectors = load_vectors(texts, embedder.model_id)
        if vectors is None:  # the catalog changed since `make vectors`: embed it now
            vectors = embedder.embed_array(list(texts))
    except UserInputError:
        return None  # the model is not installed: descriptions are reported, not guessed
    return (lambda texts: embedder.embed_array(list(texts))), names, vectors
