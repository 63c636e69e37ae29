"""What a request's head and headers say: the clause that names the image, a title, a colon.

Split from :mod:`.accounting`: a create request's first clause ("a debian image for a home
NAS") chose the base; an opening noun phrase ("Jump host for the vSphere estate.") says what
the machine is; "lock it down:" or "add something" introduce the clauses after them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from oic_ai.tools.planner.asking import read_clause
from oic_ai.tools.planner.clauses import Clause
from oic_ai.tools.planner.rules.package_names import known
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Token
from oic_ai.tools.planner.words import ADD_VERBS, REMOVE_VERBS, RETRIEVAL_WORDS

# owners that are not operations of their own
NOT_OPERATIONS = frozenset({"rejected", "base", "context", ""})
VERBS = (ADD_VERBS | REMOVE_VERBS) - {"with", "no", "without", "plus"}


@dataclass
class Unread:
    """One clause's words that no rule took."""

    clause: Clause
    tokens: list[Token]
    meaningful: list[Token]
    owners: list[str]


_HEAD_WORDS = frozenset("image images template build create make generate draft".split())


def head_clause(
    state: PlanState,
    item: Unread,
    unread: Sequence[Unread],
    index: int,
    remarks: Collection[int] = (),
) -> bool:
    """True for create mode's first clause naming the image ("a debian image for X").

    ``remarks`` are the indexes of earlier clauses read as remarks: "I run a robotics lab
    and we need an OS image for the robots' PC" names the image after one.
    """
    if state.mode != "create" or any(
        u.clause.sentence != item.clause.sentence and i not in remarks
        for i, u in enumerate(unread[:index])
    ):
        return False  # "hi! we need an image for ...": a greeting before it is a remark
    from oic_ai.tools.planner.lexicon import is_english

    head = [t.text for t in item.tokens]
    before = [
        u
        for i, u in enumerate(unread[:index])
        if u.clause.sentence == item.clause.sentence and i not in remarks
    ]
    # only words that describe: an unknown name ("devboards", "samba") is never absorbed,
    # but a kind word before the machine noun is ("k8s worker node image")
    described = all(
        # "POS", "NAS", "VMs", "PCs": an acronym (or its plural) describes
        re.fullmatch(r"[A-Z][A-Z0-9]+s?", state.text.raw(t.start, t.end)) is not None
        or all(is_english(p, compounds=True) for p in re.split(r"[-_/]", t.text) if p)
        # "the boxes on line 2", "site 14": a number that says which ones
        or (t.text.isdigit() and not _unit_after(state, t))
        or _kind_word(state, item, t)
        for t in item.meaningful
    )
    # the clause names the image ("image", "build"), or its target words chose the base
    # ("prepare an Ubuntu 26.04 raw image for ...": the target read "raw image")
    names_image = bool(_HEAD_WORDS & set(head)) or bool({"base", "target"} & set(item.owners))
    first = all(not u.meaningful for u in before)  # "deb13 raw, telco edge box."
    if not names_image and first and not item.owners and _machine_phrase(state, item):
        return True  # "Jump host for the vSphere estate.": what the machine is, as a title
    return names_image and described and first


def _unit_after(state: PlanState, token: Token) -> bool:
    """True when a unit follows the number ("2 GB", "4 cores"): a value, no label."""
    after = state.text.original[token.end : token.end + 12]
    return _UNIT.match(after) is not None


_UNIT = re.compile(
    r"\s*(?:[kmgtp]i?b|[kmgt]\b|gigs?|megs?|gigabytes?|megabytes?|terabytes?|cores?|cpus?|"
    r"vcpus?|threads?|%|x\b|mhz|ghz|hz|ms|s\b|seconds?|minutes?|hours?|days?)",
    re.IGNORECASE,
)


def _kind_word(state: PlanState, item: Unread, token: Token) -> bool:
    """True for a word before the clause's closing machine noun ("telco edge box").

    The noun is a use-case word or "image"; the word before it says what kind of machine
    it is, unless it is a package name something knows ("nginx edge box").
    """
    last = item.tokens[-1] if item.tokens else None
    if last is None or token.end > last.start or known(state, token.text):
        return False
    if last.text in _MACHINE_NOUNS:
        # "pos terminals", "hmi panels": an acronym written in lower case names the kind
        return re.fullmatch(r"[a-z]{2,4}", token.text) is not None
    machine = last.text.removesuffix("s") in RETRIEVAL_WORDS or last.text in ("image", "images")
    return machine and (
        re.fullmatch(r"[a-z]+[0-9]*[a-z]*", token.text) is not None
        or any(c.isdigit() for c in token.text)
    )


# nouns for the machines an image runs on, besides the use-case words ("box", "device")
_MACHINE_NOUNS = frozenset(
    (
        "terminal terminals unit units machine machines pc pcs tablet tablets laptop laptops "
        "panel panels controller controllers console consoles station stations handheld "
        "handhelds scanner scanners player players computer computers boxes hosts servers "
        "clients screen screens display displays "
        # the abbreviations terse writers use for them ("env monitoring gw")
        "gw gws"
    ).split()
)


def _machine_phrase(state: PlanState, item: Unread) -> bool:
    """True for a request's opening noun phrase that says what the machine is.

    No verb, wish or value in it, and its words are English, names written with capitals
    ("vSphere", "Cobalt"), acronyms, names with digits ("k8s") or kind words before the
    machine noun ("amr robot"); it ends its sentence or its line, or ends with the machine
    noun. An unknown lower-case word ("foobarctl for the boxes") is never absorbed.
    """
    from oic_ai.tools.planner.lexicon import is_english

    reading = read_clause(item.clause.text)
    machine_field = re.fullmatch(r"field '([\w-]+)'", reading.why)
    if machine_field is not None and machine_field.group(1) in RETRIEVAL_WORDS:
        pass  # "Substation gateway.": the field noun is the machine noun that closes it
    elif not reading.why.startswith(("unknown word", "names no change")):
        return False
    end = state.text.original[item.clause.end : item.clause.end + 3]
    ends = re.search(r"[.:]\s*$", item.clause.text) or re.match(r"\s*(?:[.:(\n]|$)", end)
    kinds = [t for t in item.meaningful if _kind_word(state, item, t)]
    closes = bool(item.meaningful) and item.meaningful[-1].text in _MACHINE_NOUNS
    if not ends and not kinds and not closes:
        return False
    for token in item.meaningful:
        if token in kinds or (token is item.meaningful[-1] and token.text in _MACHINE_NOUNS):
            continue  # the machine noun that closes it, though abbreviated ("gw")
        written = state.text.raw(token.start, token.end)
        parts = [p for p in re.split(r"[-_/]", written) if p]
        if not all(
            is_english(p.lower(), compounds=True)
            or p[0].isupper()
            or any(c.isupper() for c in p)
            or (any(c.isdigit() for c in p) and any(c.isalpha() for c in p))
            or p.isdigit()
            for p in parts
        ):
            return False
    return True


# "add something", "a tool": a placeholder whose clause says no more than that
_PLACEHOLDERS = frozenset(
    "something anything stuff tool tools package packages agent daemon utility program "
    "software app a an some any".split()
)
_PLACEHOLDER_HEADS = frozenset("something anything stuff tool agent package".split())


# prepositions, and the verb "be", a clause cannot end on unless what completes it
# follows ("should boot into" + "the kiosk", "I need to be" + "able to log in")
_DANGLING = frozenset("into onto to with for on of from at by as be able".split())


def introduces_applied(item: Unread, unread: Sequence[Unread], index: int) -> bool:
    """True for "lock it down:" when the clauses after the colon were applied.

    Also for "add something" when the next clause of its sentence, which says what that
    something is for ("so we can sync the clock"), was read as packages.
    """
    after = [u for u in unread[index + 1 :] if u.clause.sentence == item.clause.sentence]
    last = item.clause.text.split()[-1].lower() if item.clause.text.split() else ""
    if last in _DANGLING and after and any(o not in NOT_OPERATIONS for o in after[0].owners):
        # "should boot into" + "a fullscreen browser" (read as the kiosk): a clause that
        # ends on a preposition has its object in the next one, which was applied
        return True
    if not item.clause.ends_with_colon:
        words = [t.text for t in item.meaningful]
        return (
            bool(_PLACEHOLDER_HEADS & set(words))
            and set(words) <= _PLACEHOLDERS | VERBS
            and bool(after)
            and any("packages" in u.owners for u in after[:2])
        )
    # "make the console quieter: add quiet, drop ..." : what follows says how; a header
    # that ends its sentence ("items from the security review:" and a numbered list)
    # introduces the next clauses, whichever sentence they are in
    after = list(unread[index + 1 : index + 5])
    return any(any(o not in NOT_OPERATIONS for o in u.owners) for u in after)


# a list item's marker, and the words of a header over checks rather than changes
_ITEM = re.compile(r"\s*(?:[-*\u2022+]|\d{1,2}[.)]|[a-z][.)])\s+\S")
_MARKER_ONLY = re.compile(r"\s*(?:[-*\u2022+]|\d{1,2}[.)]|[a-z][.)])?\s*")
_CHECK_WORDS = frozenset(
    "acceptance criteria ac test tests testing verification validation qa checks dod done".split()
)


def checks_item(text: str, position: int) -> bool:
    """True when ``position`` is on a list item under a header of checks.

    "Acceptance criteria:" (or "### AC", "Test plan:") followed by list lines: each item
    says how the image will be checked ("boots on the NUC13 test rig"). The header is the
    nearest line above that is not an item.
    """
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    line = text[start : len(text) if end < 0 else end]
    if _checks_header(line):
        # the header itself, when an item follows it
        return end >= 0 and _ITEM.match(text[end + 1 :]) is not None
    if start == 0 or not _MARKER_ONLY.fullmatch(text[start:position]):
        return False
    for above in reversed(text[: start - 1].split("\n")):
        if not above.strip() or _ITEM.match(above):
            continue
        return _checks_header(above)
    return False


def _checks_header(line: str) -> bool:
    header = line.strip()
    if not (header.endswith(":") or header.startswith("#")):
        return False
    return bool(set(re.findall(r"[a-z]+", header.lower())) & _CHECK_WORDS)


def tells_what_it_does(state: PlanState, item: Unread) -> bool:
    """True for a subject and its present verb whose only packages are ones the image has.

    "LoRa concentrator on SPI forwards readings to a local mosquitto broker": what the
    machine does, naming a package the template has (or the request added); nothing is
    lost by reading it as context. A package it does not have keeps the clause reported.
    """
    from oic_ai.tools.planner.asking import states

    had = {*state.add, *state.present, *state.facts.packages}
    named = [t.text for t in item.meaningful if known(state, t.text, upstream=False)]
    return bool(named) and set(named) <= had and bool(states(item.clause.text))
