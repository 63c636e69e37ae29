"""A question that offers a change, and the answer that accepts it.

"would chrony make sense here?", "should we add fail2ban?", "is it worth adding htop?"
ask for advice about a package the template lacks: the turn changes nothing, the answer
says what the package is for and that "yes" adds it. The next turn's "yes do it" (or
"sure", "go ahead", "ok add it") then asks for exactly that change, as if the user had
written "add chrony". Any other next turn drops the offer.

Only a name something knows (the catalog, the library, a synced index) is offered: a
question about a word nobody knows offers nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oic_ai.tools.courtesy import ACK_WORDS
from oic_ai.tools.planner.asking import words_of

# a question that asks whether something is worth having
ADVICE = re.compile(
    r"\b(?:makes?\s+sense|worth\s+(?:it|adding|having|installing|including)|worth\s+it|"
    r"(?:a\s+)?good\s+idea|recommend(?:ed)?|would\s+(?:it|that)\s+help)\b",
    re.IGNORECASE,
)
# a question that offers to add something: "should we add X?", "what about adding X?"
_OFFER = re.compile(
    r"^\W*(?:(?:so|and|ok|hmm|also)\W+)*(?:should\s+(?:we|i)\s+(?:also\s+)?"
    r"(?:add|install|include|put\s+in)|(?:what|how)\s+about(?:\s+(?:adding|installing))?)\b",
    re.IGNORECASE,
)
# words a reply that accepts an offer is made of, and those of them that accept
_ACCEPTING = frozenset(
    "yes yeah yep yup ya sure ok okay k alright absolutely definitely please pls plz "
    "do go add install include it that ahead sounds good great perfect fine let's lets "
    "then thanks thank you thx ty why not course of".split()
)
_ACCEPTS = frozenset(
    "yes yeah yep yup ya sure ok okay alright absolutely definitely do go add install "
    "include".split()
)


# a question whether the image comes with something, as a product does: "does it come
# with cloud-init?", "does the image ship with htop?"; what it lacks is what a "then add
# it" asks for ("is chrony in the image?" only asks what is there)
_HAS = re.compile(
    r"\b(?:does|do|will|would)\s+(?:it|this|that|the\s+(?:image|template|build))\s+"
    r"(?:come\s+with|include|ship(?:\s+with)?|bring)\b",
    re.IGNORECASE,
)


def offered_packages(question: str, is_known: Callable[[str], bool]) -> list[str]:
    """The known package names a question offers to add, in the order written, or ``[]``."""
    has = _HAS.search(question)
    if has is not None:
        after = question[has.end() :].split("?")[0]
        return list(dict.fromkeys(w for w in words_of(after) if is_known(w)))
    if not (ADVICE.search(question) or _OFFER.search(question)):
        return []
    # the words that ask ("make sense", "add") are no names, even where a package is
    # called so ("make")
    rest = _OFFER.sub(" ", ADVICE.sub(" ", question))
    return list(dict.fromkeys(w for w in words_of(rest) if is_known(w)))


# a question whether something is needed or already there: "do I also need the docker
# command line tool separately or is it included already?", "does the box need something
# to talk MQTT?", "is an NTP client included?"; what it names is what "yes, add it" adds
_NEEDS = re.compile(
    r"\b(?:do|does|would|will|should|shall)\s+(?:i|we|you|they|it|this|that|the\s+"
    r"(?:image|box|template|system|device|board|machine|gateway|server))\s+(?:also\s+|still\s+|"
    r"then\s+|even\s+|really\s+|actually\s+)*(?:need|require)\s+(?:to\s+(?:add|install|have|"
    r"include|get|put\s+in)\s+)?(?P<subject>[^?.!;]+)"
    r"|\b(?:is|are)\s+(?:there\s+)?(?P<there>(?!it\b|this\b|that\b|there\b)[^?.!;]+?)\s+"
    r"(?:already\s+)?(?:included|installed|there|in\s+(?:it|there|the\s+(?:image|template)))\b",
    re.IGNORECASE,
)
# what follows the thing asked about and only qualifies the question
_QUALIFIERS = re.compile(
    r"\s+(?:or\s+(?:not|is|are|does|do|will|would|should|can)\b.*|(?:separately|too|as\s+well|"
    r"already|anyway|for\s+(?:that|this|it)|on\s+(?:it|there|the\s+image)|in\s+(?:it|there|"
    r"the\s+image)|at\s+all|then)\b.*)$",
    re.IGNORECASE,
)


def needed_subject(question: str) -> str:
    """What a question asks is needed or included ("the docker command line tool"), or ""."""
    found = _NEEDS.search(question)
    if found is None:
        return ""
    subject = found.group("subject") or found.group("there") or ""
    subject = _QUALIFIERS.sub("", subject.strip())
    words = words_of(subject)
    if not words or len(words) > 10 or words[0] in ("it", "this", "that", "them", "anything"):
        return ""
    return subject.strip(" ,")


# "if so, please add whatever is the normal thing", "if not, install it": a change on the
# condition of the question before it, whose subject it stands for
_IF_SO = re.compile(
    r"(?:^|(?<=[.?!,;])|(?<=[.?!,;]\s))\s*(?:and\s+|but\s+|ok\s+)?if\s+(?:so|yes|it\s+does|we\s+do|"
    r"i\s+do|(?:it\s+is\s+)?needed|necessary|required|not|it'?s\s+not(?:\s+there)?|missing|"
    r"it\s+isn'?t(?:\s+there)?)\b[\s,]*(?:then\s+)?(?:(?:please|pls|just|go\s+ahead\s+and)\s+)*"
    r"(?P<verb>add|install|include|put\s+in)\s+(?P<object>it|that|them|one|those|whatever\b[^.?!;,]*"
    r"|what(?:'s|\s+is)\s+(?:needed|required|usual|normal|standard)\b[^.?!;,]*"
    r"|the\s+(?:normal|usual|standard|typical|default|right|common|recommended)\s+"
    r"(?:thing|one|package|packages|client|tool|option)s?)(?:\s+(?:please|pls|then|too))?"
    r"(?=\s*(?:$|[.,;!]))",
    re.IGNORECASE,
)


def resolve_if_so(request: str) -> str:
    """``request`` with "if so, add it" naming what its question asked about, or as is.

    "Do I need something so the box can talk MQTT? if so please add whatever is the
    normal thing" asks for "add something so the box can talk MQTT": the change comes
    first, so the request reads as a change whose question is answered after it.
    """
    match = _IF_SO.search(request)
    if match is None:
        return request
    subject = needed_subject(request[: match.start()])
    if not subject:
        return request
    rest = f"{request[: match.start()]}{request[match.end() :]}".strip(" ,;")
    return f"{match.group('verb')} {subject}. {rest}"


def accepts(reply: str) -> bool:
    """True when ``reply`` only accepts what was offered ("yes do it", "sure, go ahead").

    A reason after the acceptance asks nothing more: "yes do it, we need that for the
    pilot", "sure, because the night shift asked".
    """
    words = words_of(reply)
    if words and len(words) <= 8 and all(w in _ACCEPTING for w in words):
        return any(w in _ACCEPTS for w in words)
    said = _REASON_AFTER.match(reply)
    if said is None:
        return False
    return accepts(said.group("accept")) and not _ASKS_MORE.search(said.group(2))


# an acceptance, then a clause that says why ("..., we need that for the pilot")
_REASON_AFTER = re.compile(
    r"^(?P<accept>[^,;.!]+)[,;.!-]+\s*((?:because|since|as|we|they|it|our|the|that)\b.*)$",
    re.IGNORECASE | re.DOTALL,
)
# what would make the clause after it ask for more: a value, a verb of change, "also"
_ASKS_MORE = re.compile(
    r"[\d=/:]|\b(?:add|remove|drop|set|make|install|also|and\s+(?:add|remove|set))\b",
    re.IGNORECASE,
)


# "add it if it's not there", "install that too": what the offer named, by a pronoun
_ADD_IT = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|yes|yeah|sure|then|so|please|pls)\W+)*(?:add|install|include)\s+"
    r"(?P<it>it|that|them|those)\b",
    re.IGNORECASE,
)


def resolve_offered(reply: str, offered: str) -> str:
    """``reply`` with "add it" naming what the turn before offered ("add cloud-init"), or as is."""
    match = _ADD_IT.match(reply) if offered.startswith("add ") else None
    if match is None:
        return reply
    names = offered.removeprefix("add ")
    return reply[: match.start("it")] + names + reply[match.end("it") :]


def proposal(names: list[str]) -> str:
    """The change an accepted offer asks for ("add chrony")."""
    return "add " + " and ".join(names)


# a question that weighs output formats against each other: "what's the difference between
# raw and qcow2 output?", "vhd or vhdx, which one?"
def compared_formats(question: str) -> list[str]:
    """The two disk formats a question weighs against each other, or ``[]``."""
    from oic_ai.stores.targets import load_targets

    words = load_targets().request_words("image_type")
    formats = {w for w, kind in words.items() if kind == "raw"}  # raw, qcow2, vhd, vhdx
    named = list(dict.fromkeys(w for w in words_of(question) if w in formats))
    return named if len(named) == 2 else []


# "give me both then", "both, please": the two things the turn before weighed
_BOTH = re.compile(
    r"\bboth(?:\s+of\s+them)?(?=\s*(?:$|[,.;:!?]|then\b|please\b|pls\b|too\b|as\s+well\b|"
    r"formats?\b|outputs?\b|artifacts?\b))",
    re.IGNORECASE,
)


def choose_both(reply: str, compared: list[str]) -> str:
    """``reply`` with "both" spelled out as the two formats ``compared`` named, or as is."""
    match = _BOTH.search(reply) if len(compared) == 2 else None
    if match is None:
        return reply
    said = f"{compared[0]} and {compared[1]} outputs"
    return reply[: match.start()] + said + reply[match.end() :]


# a template setting a question asks about: "what does immutability mean? should I turn it
# on?"; the next turn's "no, leave it off" / "yes, turn it on" is about that setting
_SETTINGS = (
    ("immutability", re.compile(r"\bimmutab(?:le|ility)\b|\bread[- ]only\s+root", re.I)),
    ("secure boot", re.compile(r"\bsecure[- ]?boot\b", re.I)),
)
_SET_IT = re.compile(
    # the acknowledgements before it: "ok, fair, leave it on", "got it, turn it off"
    rf"^\W*(?:(?:no|nope|nah|yes|yeah|yep|sure|then|so|please|pls|hmm|fine|in\s+that\s+case|"
    rf"{ACK_WORDS})\W+)*"
    r"(?:leave|keep|turn|switch|set|have|make)\s+(?P<it>it|that|this)\s+"
    r"(?=(?:on|off|enabled|disabled)\b)",
    re.IGNORECASE,
)


def asked_setting(questions: list[str]) -> str:
    """The one template setting the questions name ("immutability"), or ""."""
    named = [name for name, words in _SETTINGS if any(words.search(q) for q in questions)]
    return named[0] if len(named) == 1 else ""


def resolve_setting(reply: str, setting: str) -> str:
    """``reply`` with "it" in "leave it off" naming the setting asked about, or as is."""
    match = _SET_IT.match(reply) if setting else None
    if match is None:
        return reply
    return reply[: match.start("it")] + setting + reply[match.end("it") :]
