"""Clauses that say why a change is asked, not what: they are context, never reported.

Split from :mod:`.accounting`. A reason stands beside the change it explains:

* before "so <change>" ("the layer cache eats everything, so bump the disk");
* after a change in the same sentence, as a statement with a subject of its own ("drop
  strace, security review flagged it", "remove cloud-init, the hubs never see a metadata
  service", "scrap irqaffinity, last time it broke the lidar driver") or as somebody
  else's wish that names no package and no value ("no node exporter after all, corporate
  wants their own monitoring agent");
* as a refusal of a kind after a removal ("remove vim. no editors on a jump box").

A clause with a value (a size, a path, ``key=value``), a package nobody changed, or a verb
in the imperative at its head still asks, and so does a wish that the operation bank
reads as a thing no template holds ("add docker, we also need the timezone set").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from oic_ai.tools.planner.asking import FIELD_NOUNS, IMPERATIVES, inflected, states, words_of
from oic_ai.tools.planner.heads import NOT_OPERATIONS, VERBS, Unread

IsPackage = Callable[[str], bool]


def reason_before_so(item: Unread, unread: Sequence[Unread], index: int) -> bool:
    """True for a clause without values right before "so <a change that was read>".

    Or before any change that was read, when the clause is a statement ("the layer cache
    eats everything, bump the disk to 100 gig").
    """
    if index + 1 >= len(unread) or re.search(r"[\d/=]", _MEASURE.sub("", item.clause.text)):
        return False
    after = unread[index + 1]
    words = after.clause.text.lower().split()
    changed = after.clause.sentence == item.clause.sentence and any(
        o not in NOT_OPERATIONS for o in after.owners
    )
    if changed and not item.owners and states(item.clause.text):
        return True
    return changed and bool(words) and words[0] == "so" and words[1:2] != ["that"]


# a measurement a reason states ("the radios want sub-50us latency", "under 2 ms jitter",
# "at 60 fps"): no value of a template field
_MEASURE = re.compile(
    r"(?<![\w.=/-])(?:sub-|under\s+|below\s+|<\s*)?\d+(?:\.\d+)?\s*"
    r"(?:us|µs|ms|ns|usec|msec|hz|khz|mhz|fps|mbps|gbps|kbps|pps|rpm)(?![\w/=-])",
    re.IGNORECASE,
)
# words that open a reason ("because it broke", "since we have our own", "- nobody uses it")
_BECAUSE = frozenset("because since as cause cuz coz bc".split())
# words a reason's subject starts with: a person or a thing, said or pointed at
_SUBJECTS = frozenset(
    "we they it he she i nobody noone everyone everybody someone somebody people folks this "
    "that these those the our their his her my its some most all both corporate management "
    "security legal compliance ops it's that's there".split()
)
# time and hedge words a reason may open with ("last time it broke", "apparently it leaks")
_OPENERS = frozenset(
    "last previously apparently otherwise honestly frankly turns basically currently "
    "anyway actually already".split()
)
_LEADS = frozenset("and but also plus just oh ok okay well".split())
_WISHES = frozenset("need needs want wants require requires should must".split())
_VALUE = re.compile(r"[\d/=:@`\"]|https?://")


def reason_after_change(
    original: str,
    item: Unread,
    unread: Sequence[Unread],
    index: int,
    is_package: IsPackage,
    changed: set[str],
    reported_kind: bool,
) -> bool:
    """True for a clause that says why the change right before it in its sentence is made.

    Args:
        original: The request as written.
        item: The clause, none of it read.
        unread: Every clause of the request.
        index: ``item``'s index in ``unread``.
        is_package: Whether a word is a package name the planner knows.
        changed: The package names the request changed (said again, they tell why).
        reported_kind: The operation bank reads the clause as a thing no template holds.
    """
    if index == 0 or _VALUE.search(item.clause.text):
        return False
    if any(owner != "context" for owner in item.owners):
        return False  # something was read from it
    before = unread[index - 1]
    if "\n" in original[before.clause.end : item.clause.end]:
        return False  # a line of its own is an item of a list, not an aside
    if before.clause.sentence != item.clause.sentence or not any(
        o not in NOT_OPERATIONS for o in before.owners
    ):
        return False
    words = words_of(item.clause.text)
    while words and words[0] in _LEADS:
        words = words[1:]
    if _room_for_a_size(before, words):
        return True  # "bump the disk to 40 GB, runners need room for docker layers"
    because = bool(words) and words[0] in _BECAUSE
    if because:
        words = words[1:]
    if len(words) < 2 or words[0] in IMPERATIVES or words[0] in VERBS:
        return False  # "drop quiet, add splash": a change of its own
    if not (because or words[0] in _SUBJECTS or words[0] in _OPENERS or _subject_noun(words)):
        return False
    if not any(_finite(words, at) for at in range(1, len(words))):
        return False  # "install htop, and the Zorblax suite": a thing, no statement
    if any(
        is_package(w) and w not in changed and not _spoken_of(words, at)
        for at, w in enumerate(words)
    ):
        return False  # "remove chrony, we need ntpsec": a package asked for
    wish = next((w for w in words if w in _WISHES), "")
    # a field the change before names is what the reason is about ("drop rd.shell=0, techs
    # need the dracut shell"); another field is asked for
    said = set(re.findall(r"[a-z][a-z0-9-]*", before.clause.text.lower()))
    fields = FIELD_NOUNS & set(words) - said
    if wish and (reported_kind or fields):
        return False  # "add docker, we also need the timezone set": asked, and reported
    return True


# words of a wish that say nothing of what is wished ("wants X gone entirely from ...")
_WISH_FILLER = frozenset(
    "the a an it its our their this that from in on of for to be is are gone removed out away "
    "off entirely completely all totally team wants want needs need asks asked says said "
    "variant version image build production prod".split()
)


def wish_then_change(item: Unread, unread: Sequence[Unread], index: int) -> bool:
    """True for somebody's wish said just before the change that grants it.

    "security team wants SSH gone entirely from the production variant. remove the ssh
    server.": the next clause, opening the next sentence, changed something, and it says
    again a word of what the wish is about ("ssh"); the wish tells why the change is made.
    """
    if index + 1 >= len(unread) or item.owners or _VALUE.search(item.clause.text):
        return False
    words = words_of(item.clause.text)
    wish = next((at for at, w in enumerate(words) if w in _WISHES), None)
    if wish is None or wish == 0 or words[0] in IMPERATIVES:
        return False  # "need X" with no one who needs it asks for X itself
    after = unread[index + 1]
    if after.clause.sentence != item.clause.sentence + 1 or not any(
        o not in NOT_OPERATIONS for o in after.owners
    ):
        return False
    wished = {w for w in words[wish + 1 :] if w not in _WISH_FILLER and len(w) > 2}
    return bool(wished & set(words_of(after.clause.text)))


def wish_before_change(
    item: Unread,
    unread: Sequence[Unread],
    index: int,
    is_package: IsPackage,
    reported_kind: bool,
) -> bool:
    """True for a wish about how the machine behaves, said right before the change for it.

    "screen must never go to sleep - add consoleblank=0", "the image doesn't need to be
    that big, make it 64 gig": a subject, then a wish (or a need denied) that names no
    value, no field and no package; the next clause of the same sentence was read as a
    change, which is how the wish is met. "docker must be there - add htop" still asks (a
    package is named), and so does a wish the bank reads as a thing no template holds.
    """
    if reported_kind or index + 1 >= len(unread) or _VALUE.search(item.clause.text):
        return False
    if any(owner != "context" for owner in item.owners):
        return False
    words = words_of(item.clause.text)
    while words and words[0] in _LEADS | {"but", "so"}:
        words = words[1:]
    wish = next((at for at, w in enumerate(words) if w in _WISHES), None)
    if wish is None or wish == 0 or words[0] in IMPERATIVES or words[0] in VERBS:
        return False  # "need X": no subject, so it asks for X itself
    if FIELD_NOUNS & set(words) or any(is_package(w) and not _english(w) for w in words):
        return False
    after = unread[index + 1]
    return after.clause.sentence == item.clause.sentence and any(
        o not in NOT_OPERATIONS for o in after.owners
    )


def _english(word: str) -> bool:
    from oic_ai.tools.planner.lexicon import is_english

    return is_english(word)


# "flagged it on the audit", "found it in the logs": a word after a preposition and an
# article is where or when something happened, not a package asked for
_PLACES = frozenset("on in at from during after since by of".split())
_THE = frozenset("the an a our their this that".split())


def _spoken_of(words: list[str], at: int) -> bool:
    """True when ``words[at]`` follows a preposition and an article ("on the audit")."""
    return at >= 2 and words[at - 1] in _THE and words[at - 2] in _PLACES


# what a size is for: "room", "space", "headroom" wanted for something
_ROOM = frozenset("room space headroom capacity".split())
_SIZED = frozenset(("disk size", "partition"))


def _room_for_a_size(before: Unread, words: list[str]) -> bool:
    """True for a clause that says what the room a size change gives is for.

    "bump the disk to 40 GB, runners need room for docker layers", "/var 20 GiB, the logs
    need the space": right after a disk or partition size, a wish for room names no
    change of its own (no imperative at its head).
    """
    if not _SIZED & set(before.owners) or len(words) < 2 or words[0] in IMPERATIVES:
        return False
    wish = next((at for at, w in enumerate(words) if w in _WISHES), None)
    return wish is not None and bool(_ROOM & set(words[wish + 1 : wish + 4]))


def _subject_noun(words: list[str]) -> bool:
    """True for "techs hate it", "legal flagged it": a noun, then a verb form.

    Or people in the plural, then what they need ("operators want the console", "techs
    need the shell").
    """
    verb = words[1]
    if verb in _WISHES and not verb.endswith("s"):
        noun = words[0]
        return len(noun) > 3 and noun.endswith("s") and not noun.endswith("ss")
    return len(verb) > 3 and verb.endswith(("s", "ed")) and not verb.endswith("ss")


# the verb forms a statement shows: auxiliaries, negations and common irregular pasts
_FINITE = frozenset(
    "is are was were be been has have had do does did don't doesn't didn't can can't cannot "
    "could will won't would may might never isn't aren't wasn't weren't hasn't haven't "
    "broke broken saw took made got went came ran left kept said told found knew lost fell "
    "hate hates like likes use uses see sees know knows run runs keep keeps get gets".split()
)


def _finite(words: list[str], at: int) -> bool:
    """True for a word that makes a statement of its clause ("broke", "flagged", "never").

    A form in -s must have words after it and no article before it: "renames them" is a
    verb, "the usual tools" a plural.
    """
    word = words[at]
    if word in _FINITE or word in _WISHES:
        return True
    if word.endswith("s") and words[at + 1 : at + 2] in (["it"], ["them"], ["us"], ["me"]):
        return True  # "renames them": a word with a pronoun for its object is a verb
    if len(word) <= 4 or word.endswith("ss") or not inflected(word):
        return False
    if word.endswith("ed"):
        return True
    return word.endswith("s") and at + 1 < len(words) and words[at - 1] not in _ARTICLES


_ARTICLES = frozenset("the a an our their his her my its your some all usual".split())


def refuses_a_kind(item: Unread) -> bool:
    """True for "we don't want anything ...", "doesn't need anyone ...": a kind, not a name."""
    words = [t.text for t in item.tokens]
    for index, word in enumerate(words[:-1]):
        if word in ("want", "need", "needs", "wants") and index > 0:
            before = words[max(0, index - 2) : index]
            refused = bool({"not", "don't", "dont", "doesn't", "never"} & set(before))
            if refused and words[index + 1] in _KINDS:
                return True
    return False


_KINDS = frozenset("anything anyone anybody any something nothing".split())


def no_kind(item: Unread, is_package: IsPackage) -> bool:
    """True for "no editors on a jump box": a kind of thing refused, no name or field."""
    words = [t.text for t in item.tokens]
    return (
        len(words) >= 2
        and words[0] == "no"
        and words[1].endswith("s")
        and words[1] not in FIELD_NOUNS
        and not is_package(words[1])
        and not is_package(words[1].removesuffix("s"))
    )


# where a clause ends: a sentence's end (not the dot inside "22.04"), a comma or a semicolon
_CLAUSE_END = re.compile(r"[,;!?\n]|\.(?=\s|$)|\s(?:and|but|so|because|since)\s")
# words that put a statement in the past or on something that was ("our old images")
_HISTORY = frozenset(
    "was were had used ran worked broke old older previous previously earlier before "
    "legacy last".split()
)
_POINTERS = frozenset("it that this they which".split())
# verbs in the past that make a clause about what was, even alone ("the last ones were isos")
_WAS = frozenset("was were had used ran worked broke shipped built came".split())


def history_beside_a_change(original: str, start: int, end: int) -> bool:
    """True when the clause around ``start:end`` tells what was (or, beside another clause, how).

    Or how the thing it points at behaves: "add htop, it runs fine on arm too", "remove
    less, it was slow on the old ubuntu boxes", "add htop. our old images were qcow2": a
    target or format named there is no request for it. "make it arm", "the boards are
    arm64", "we need qcow2 as well" still ask.
    """
    begin = max((m.end() for m in _CLAUSE_END.finditer(original, 0, start)), default=0)
    stop = _CLAUSE_END.search(original, end)
    words = words_of(original[begin : stop.start() if stop else len(original)])
    while words and (words[0] in _LEADS or words[0] in _OPENERS):
        words = words[1:]
    if len(words) < 3 or words[0] in IMPERATIVES or words[0] in VERBS:
        return False
    if any(w in _WISHES for w in words) or words[0] in ("i", "we") and "need" in words:
        return False
    if bool(_HISTORY & set(words)) and words[0] in _SUBJECTS and bool(_WAS & set(words)):
        return True  # "our old images were qcow2": what was, even said alone
    if not original[:begin].strip(" ,;.\n"):
        return False  # the clause is the whole request: it says what is wanted
    past = bool(_HISTORY & set(words)) and words[0] in _SUBJECTS
    pointed = words[0] in _POINTERS and any(_finite(words, at) for at in range(1, len(words)))
    return past or pointed


def exclamation_before_a_reply(original: str, start: int, end: int, is_package: IsPackage) -> bool:
    """True for a lone lower-case word opening the request before a reply word.

    "jeez. fine, 24.04 then", "sheesh! ok, add podman", "welp, alright: drop nginx": a
    reaction before the answer, which asks nothing. A name said there is no reaction
    ("nginx. ok and a 16GiB disk"), nor is a word in the middle of a request.
    """
    if original[:start].strip() or not _REACTION.fullmatch(original[start:end].strip()):
        return False
    reply = _REPLY.match(original, end)
    return reply is not None and not is_package(original[start:end].strip())


_REACTION = re.compile(r"[a-z]{2,12}")
# the words a reply opens with ("fine", "ok"), after the reaction and a stop or a comma
_REPLY = re.compile(
    r"\s*[.!,;:]+\s*(?:ok|okay|fine|alright|sure|well|right|yes|yeah|yep|whatever|"
    r"understood|noted|gotcha|got\s+it)\b",
    re.IGNORECASE,
)


# verbs that edit an image, besides the package verbs (``VERBS``): "and set the hostname"
_EDITS = frozenset(
    "set make change turn configure create name call rename resize grow shrink bump increase "
    "decrease switch replace swap mount partition format enable disable give keep leave "
    "update upgrade pin".split()
)
# a relative clause and its verb: "boxes that collect data", "a daemon which reads it"
_RELATIVE = re.compile(r"\b(?:that|which|who)\s+(?:also\s+|then\s+|just\s+|only\s+)?([a-z]+)\b")


def _joined_on(
    item: Unread, unread: Sequence[Unread], index: int, joiners: tuple[str, ...]
) -> tuple[list[str], Unread] | None:
    """A clause tied by a joiner ("and ...") to the one before it in the same sentence.

    Returns its words and that clause; None for a first clause, a value, or no such tie.
    """
    if index == 0 or _VALUE.search(item.clause.text):
        return None
    words = words_of(item.clause.text)
    if len(words) < 2 or words[0] not in joiners:
        return None
    before = unread[index - 1]
    if before.clause.sentence != item.clause.sentence:
        return None
    return words, before


def continues_relative(
    item: Unread, unread: Sequence[Unread], index: int, is_package: IsPackage
) -> bool:
    """True for "and push it upstream" after "boxes that collect data": the second verb.

    The clause before, in the same sentence, describes a thing with a relative clause;
    "and" and a verb of the same form go on describing it, and ask for nothing. A verb that
    edits the image ("and install htop"), a value, a field or a package still asks.
    """
    joined = _joined_on(item, unread, index, ("and", "or"))
    if joined is None:
        return False
    words, before = joined
    verb = words[1]
    if verb in VERBS or verb in _EDITS or FIELD_NOUNS & set(words):
        return False
    if any(is_package(w) for w in words[2:]):
        return False
    found = list(_RELATIVE.finditer(before.clause.text.lower()))
    if not found:
        return False
    first = found[-1].group(1)
    if first in _SUBJECTS or first in _ARTICLES or first in _WISHES or len(first) < 3:
        return False  # "that the ...", "that we ...": no verb of the relative clause
    return first.endswith("s") == verb.endswith("s") and inflected(verb)


# a statement of what the user will do themselves: "I'll do network", "we'll set that up"
_OWN_LATER = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|then|fine|understood)\W+)*(?:i|we)(?:'ll|\s+will|\s+can|'d|\s+would"
    r"|\s+(?:am|are)\s+going\s+to|'m\s+going\s+to|'re\s+going\s+to)\s+\w+",
    re.IGNORECASE,
)


def continues_own_task(
    item: Unread, unread: Sequence[Unread], index: int, is_package: IsPackage
) -> bool:
    """True for "and firewall after first boot" after "I'll do network": one task, two parts.

    The clause before, in the same sentence, says what the user will do themselves; "and"
    and what else they will do (no verb of its own, no value, no package) goes on saying so
    and asks for nothing. "I'll do network and add htop" still asks for htop.
    """
    joined = _joined_on(item, unread, index, ("and", "or", "plus"))
    if joined is None:
        return False
    words, before = joined
    if words[1] in VERBS or words[1] in _EDITS or words[1] in IMPERATIVES:
        return False
    if any(is_package(w) for w in words[1:]):
        return False
    return _OWN_LATER.match(before.clause.text) is not None
