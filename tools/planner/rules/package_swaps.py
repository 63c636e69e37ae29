"""Packages swapped for others: "podman instead of docker", "pyqt6 instead of 5", "not X, Y".

A replacement names the old package and the new one. The old one may be said by the part
of its name that differs ("pyqt6 instead of 5" with python3-pyqt5 in the image): the new
one is then the image's package with that part replaced, when the index, the library or
Debian's list knows it (never a name built from the words alone). A correction said as a
negation and a name ("not nginx, caddy", "not nginx but caddy") or as what was meant
("remove tmux, I meant screen") adds the name after it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Literal

from oic_ai.tools.planner.asking import IMPERATIVES
from oic_ai.tools.planner.rules.capability_words import find_capabilities
from oic_ai.tools.planner.rules.package_apply import (
    add_packages,
    apply_capabilities,
    remove_packages,
)
from oic_ai.tools.planner.rules.package_names import known
from oic_ai.tools.planner.rules.package_places import worked_on
from oic_ai.tools.planner.rules.package_sentences import REPLACE
from oic_ai.tools.planner.rules.package_statements import names_software_word
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, Token, tokenize
from oic_ai.tools.planner.words import ADVERBS, FILLER

Resolve = Callable[[PlanState, Item], None]

# a name and the version after it: "pyqt6", "gtk4", "python3.12"
_VERSIONED = re.compile(r"(?P<stem>[a-z][a-z0-9+-]*?[a-z+-])(?P<version>\d+(?:\.\d+)?)")


def _in_the_image(state: PlanState) -> list[str]:
    """The packages the image has now: the template's, less those going, and those added."""
    return [
        *(p for p in state.facts.packages if p not in state.remove),
        *(p for p in state.add if p not in state.facts.packages),
    ]


def swapped_part(state: PlanState, old: str, new: str) -> tuple[str, str] | None:
    """The image's package named by a part of its name, and its sibling with ``new`` there.

    "pyqt6 instead of 5" and "pyqt6 instead of pyqt5" with python3-pyqt5 in the image:
    (python3-pyqt5, python3-pyqt6). Only when neither word is a package of the image or
    known by itself, exactly one package of the image has the old part between its
    dashes, and the name with the new part is known.
    """
    old, new = old.lower(), new.lower()
    if old.replace(".", "").isdigit():
        versioned = _VERSIONED.fullmatch(new)
        if versioned is None:
            return None
        old = versioned.group("stem") + old  # "pyqt6 instead of 5": pyqt5
    image = _in_the_image(state)
    if old == new or old in image or known(state, new):
        return None
    found: list[tuple[str, str]] = []
    for name in image:
        parts = name.split("-")
        if old in parts and len(parts) > 1:
            sibling = "-".join(new if part == old else part for part in parts)
            if known(state, sibling, as_written=False):
                found.append((name, sibling))
    return found[0] if len(found) == 1 else None


def replacements(state: PlanState, resolve: Resolve) -> None:
    """Replace one package with another ("podman instead of docker"): remove one, add one."""
    tokens = tokenize(state.text.work)
    for match in state.text.matches(REPLACE):
        old = next(g for g in ("old", "old2", "old3", "old4") if match.group(g))
        new = next(g for g in ("new", "new2", "new3", "new4") if match.group(g))
        if old == "old4" and not all(
            names_software_word(state, match.group(g)) for g in (old, new)
        ):
            continue  # "change the hostname to gw1": no package on either side
        parts = {
            g: [t for t in tokens if t.kind == "word" and match.start(g) <= t.start < match.end(g)]
            for g in (old, new)
        }
        if (
            parts[old]
            and parts[new]
            and (pair := swapped_part(state, match.group(old), match.group(new)))
        ):
            remove_packages(state, Item("remove", parts[old], "replace"), [pair[0]], pair[0])
            add_packages(state, Item("add", parts[new], "replace"), [pair[1]], pair[1])
            state.text.consume(*match.span())
            state.warn(f"read {match.group(old)!r} as {pair[0]}: {pair[1]} replaces it")
            continue
        pairs: tuple[tuple[str, Literal["remove", "add"]], ...] = ((old, "remove"), (new, "add"))
        before = len(state.text.claims)
        for group, mode in pairs:
            if parts[group]:
                resolve(state, Item(mode, parts[group], "replace"))
        if len(state.text.claims) > before:
            state.text.consume(*match.span())
        # else "the mirror at mirror.corp.local instead of the public one": no package on
        # either side; the words stay for the other rules, and are reported if none reads them


# "replace it please", "swap that": the old one points back, the new one is named elsewhere
_REPLACE_POINTING = re.compile(
    r"\b(?:replace|swap|substitute)\s+(?:it|that|this)\b(?!\s+(?:with|by|for|out)\b)"
)


def replace_pointing(state: PlanState) -> None:
    """Replace the one package the request takes out with the one other name it mentions.

    "tmux is not needed, colleague uses screen. Replace it please": "it" is tmux, which
    the request already removes; the new one is the only other known package name the
    request says (screen). One of each, or the clause is left to be reported.
    """
    for match in state.text.matches(_REPLACE_POINTING):
        old = [*state.remove, *state.absent]
        if len(old) != 1:
            continue
        others = {
            state.text.raw(t.start, t.end)
            for t in tokenize(state.text.work)
            if t.kind == "word"
            and not (match.start() <= t.start < match.end())
            and t.text not in FILLER
            and known(state, state.text.raw(t.start, t.end))
            and state.text.raw(t.start, t.end) not in old
        }
        if len(others) != 1:
            continue
        new = others.pop()
        part = [t for t in tokenize(state.text.work) if t.kind == "word" and t.text == new]
        add_packages(state, Item("add", part[:1], "replace"), [new], new)
        state.text.consume(*match.span())
        state.warn(f"read 'replace it' as: {old[0]} out, {new} in")


# what joins the negated name and the one meant instead: "not nginx, caddy", "not nginx but
# caddy"
_CORRECTING_GLUE = re.compile(r"^\s*(?:,\s*(?:but\s+)?|but\s+|;\s*)$")
# what opens the negation's clause: the start, a punctuation mark or an interjection
_BEFORE_NOT = re.compile(
    r"(?:^|[.,;:!?(\n]|\b(?:no|nah|actually|sorry|wait|oops|hmm|ok|okay|oh))\s*$"
)
# words that make the second name one more thing not wanted ("not nginx, caddy either")
_ALSO_NOT = frozenset("either neither nor too also".split())
# "I meant screen", "meant screen", "I mean screen": the name that was meant
_MEANT = (("i", "meant"), ("i", "mean"), ("meant",))
# a line of a list said as the thing to take out: "scratch the nftables line"
_LIST_PARTS = frozenset("line entry item bullet row".split())


def _negation_opens(state: PlanState, item: Item) -> bool:
    """Whether ``item`` is a name right after a "not" that opens its clause ("not nginx")."""
    before = state.text.work[: item.span[0]]
    said = re.search(r"\bnot\s+$", before)
    return said is not None and _BEFORE_NOT.search(before[: said.start()]) is not None


def corrected(state: PlanState, items: Sequence[Item]) -> list[Item]:
    """``items`` with corrections read: what was meant is added, a list's line is its name.

    "not nginx, caddy" and "not nginx but caddy": the name after the negated one is added
    (the negation opens the clause, nothing but a comma or "but" between, and the second
    is one word with no "either"). "remove tmux, I meant screen": screen is added.
    "scratch the nftables line": the line of the pasted list is the package on it.
    """
    result: list[Item] = []
    for index, item in enumerate(items):
        if (named := _spelt_out(state, items, index) or _means(state, items, index)) is not None:
            state.text.consume(*item.span, "context")  # "slurm client (slurmd)": slurmd
            result.append(named)
            continue
        if index > 0 and (_spelt_out(state, items, index - 1) or _means(state, items, index - 1)):
            continue
        if _label(state, items, index):
            state.text.consume(*item.span, "context")  # "compliance: no compilers"
            continue
        words = item.words
        said = list(item.tokens)
        while said and said[-1].text in ADVERBS:
            said.pop()  # "remove the nftables row please"
        if item.mode == "remove" and len(said) >= 2 and said[-1].text in _LIST_PARTS:
            on_it = [t for t in said[:-1] if t.text not in FILLER]
            if len(on_it) == 1 and known(state, state.text.raw(on_it[0].start, on_it[0].end)):
                item = Item(item.mode, on_it, item.verb, item.aside_by)
        if _stated_wanted(state, item):
            item = Item("add", item.tokens[:-1], "required", item.aside_by)
            words = item.words
        meant = next((m for m in _MEANT if tuple(words[: len(m)]) == m), None)
        if meant is not None and len(words) == len(meant) + 1:
            item = Item("add", item.tokens[len(meant) :], "meant", item.aside_by)
        elif index > 0 and _corrects(state, items, index):
            item = Item("add", item.tokens, "instead", item.aside_by)
        result.append(item)
    return result


def _corrects(state: PlanState, items: Sequence[Item], index: int) -> bool:
    """Whether ``items[index]`` is the name after a negated one ("not nginx, caddy")."""
    item, previous = items[index], items[index - 1]
    if item.mode != "remove" or previous.mode != "remove" or previous.verb != "not":
        return False
    if item.verb != "not" or len(item.tokens) != 1 or set(item.words) & _ALSO_NOT:
        return False
    between = state.text.work[previous.span[1] : item.span[0]]
    if not _CORRECTING_GLUE.match(between) or not _negation_opens(state, previous):
        return False
    after = state.text.work[item.span[1] :]
    if re.match(r"\s*(?:either|too|also|neither|nor|or)\b", after):
        return False  # "not nginx, caddy either": one more that is not wanted
    token: Token = item.tokens[0]
    return known(state, state.text.raw(token.start, token.end))


# one name alone in parentheses: "(slurmd)" (several are read with their description by
# the package rule's own reading of parentheses)
_ONLY_NAMES = re.compile(r"\(\s*[a-z0-9][\w+.-]*\s*\)")


def _spelt_out(state: PlanState, items: Sequence[Item], index: int) -> Item | None:
    """The names in parentheses that spell out the words of ``items[index]``, as an item.

    "slurm client (slurmd), munge": the words describe what the name in parentheses is;
    slurmd is what is asked for, never a name built from the words. Only one known name,
    nothing else in the parentheses, and a description of one to three words that is not
    a known name itself ("htop (btop)" is left as it is).
    """
    if index + 1 >= len(items):
        return None
    item, aside = items[index], items[index + 1]
    if item.mode not in ("add", "remove", "none") or aside.aside_by != "(":
        return None
    said = [t for t in item.tokens if t.text not in FILLER]
    if not 1 <= len(said) <= 3 or (
        len(said) == 1 and known(state, state.text.raw(said[0].start, said[0].end))
    ):
        return None
    if not _ONLY_NAMES.match(state.text.work, item.span[1] + _spaces(state, item.span[1])):
        return None
    names = [t for t in aside.tokens if t.kind == "word"]
    if not names or not all(known(state, state.text.raw(t.start, t.end)) for t in names):
        return None
    mode = item.mode if item.mode in ("add", "remove") else "none"
    return Item(mode, aside.tokens, item.verb or ",")


def _spaces(state: PlanState, at: int) -> int:
    """How many spaces stand at ``at`` in the request."""
    rest = state.text.work[at:]
    return len(rest) - len(rest.lstrip(" \t"))


# what a thing is done through: "modbus over RS-485 via python3-pymodbus"
_MEANS = frozenset("via through".split())


def _means(state: PlanState, items: Sequence[Item], index: int) -> Item | None:
    """The one known name a wanted thing is said to come through, as an item to add.

    "Needs: modbus over RS-485 via python3-pymodbus": what is needed is described first,
    the package that does it after "via" or "through". Only under a verb that asks for
    it, a description of one to four words with no verb of its own ("we deploy via
    ansible", "logs shipped via rsyslog" are how something is done), and one known name.
    """
    if index + 1 >= len(items):
        return None
    item, aside = items[index], items[index + 1]
    if item.mode != "add" or not item.verb or aside.aside_by not in _MEANS:
        return None
    said = [t for t in item.tokens if t.text not in FILLER]
    if not 1 <= len(said) <= 4 or any(_verb_like(t.text) for t in said):
        return None
    names = [t for t in aside.tokens if t.kind == "word"]
    if len(names) != 1 or not known(state, state.text.raw(names[0].start, names[0].end)):
        return None
    if worked_on(state, names[0]):
        return None
    return Item("add", names, item.verb, item.aside_by)


def _verb_like(word: str) -> bool:
    """Whether ``word`` is a verb or a verb's form ("deploy", "shipped", "logging")."""
    return word in IMPERATIVES or (len(word) > 4 and word.endswith(("ed", "ing")))


# the state a listed thing is wanted in, said after it: "auditd required", "audit logging
# enabled", "ssh mandatory"
_WANTED_STATES = frozenset("enabled required mandatory needed wanted".split())
_NEGATION_BEFORE = re.compile(r"\b(?:no|not|without|never|nor)\s+$")


def _stated_wanted(state: PlanState, item: Item) -> bool:
    """Whether ``item`` is a list item said to be wanted ("auditd required").

    In a list of constraints a negation before an earlier item does not reach it: "no
    compilers, audit logging enabled" asks for audit logging. Only after a comma or a
    semicolon (never right after "no": "no compilers required" wants none), and the words
    before the state must be a known name or a capability phrase.
    """
    if len(item.tokens) < 2 or item.words[-1] not in _WANTED_STATES:
        return False
    if item.mode not in ("none", "remove"):
        return False
    before = state.text.work[: item.span[0]]
    if not re.search(r"[,;:]\s*$", before) or _NEGATION_BEFORE.search(before):
        return False
    said = [t for t in item.tokens[:-1] if t.text not in FILLER]
    if not said or len(said) > 3:
        return False
    text = " ".join(t.text for t in said)
    return (len(said) == 1 and known(state, state.text.raw(said[0].start, said[0].end))) or bool(
        find_capabilities(state.catalog, text)
    )


# a verb of its own after a label's colon: "compliance: no compilers", "security: add X"
_OWN_VERB = re.compile(r"\s*:\s*(?:please\s+)?(?:no|not|never|without|add|install|remove|drop)\b")


def _label(state: PlanState, items: Sequence[Item], index: int) -> bool:
    """Whether ``items[index]`` is a word or two labelling the request after its colon.

    "compliance: no compilers, no debugger", "security: add fail2ban": the label says
    what the list is about; a capability that shares its word ("compliance" is one of the
    audit daemon's words) is not asked for. Only at a clause's start, never a known
    package's name, and only when a verb of its own follows the colon.
    """
    item = items[index]
    if item.mode != "none" or not 1 <= len(item.tokens) <= 2:
        return False
    before = state.text.work[: item.span[0]].rstrip(" \t" + state.text.BLANK)
    if before and before[-1] not in ".!?;\n":
        return False
    if not _OWN_VERB.match(state.text.work, item.span[1]):
        return False
    return not any(known(state, state.text.raw(t.start, t.end)) for t in item.tokens)


# "make sure it does", "yes, make sure it has it": the answer to the question before
_MAKE_SURE = re.compile(
    r"\b(?:make\s+sure|ensure|be\s+sure)\s+(?:that\s+)?(?P<rest>(?:it|the\s+image)\s+"
    r"(?:does|do|has(?:\s+(?:it|that|one))?|is|includes?\s+(?:it|that)))\b"
    r"(?!\s+(?:not|n't)\b)"
)
# "does it have docker?", "will it come with a firewall?", "is chrony in there?"
_ASKED_FOR = re.compile(
    r"\b(?:does|do|will|would|can)\s+(?:it|the\s+image|this(?:\s+image)?)\s+"
    r"(?:have|include|contain|ship(?:\s+with)?|come\s+with)\s+(?:an?\s+|the\s+|any\s+)?"
    r"(?P<what>[a-z0-9][\w.+-]*(?:\s+[a-z0-9][\w.+-]*)?)\s*\?"
)


def made_sure(state: PlanState) -> None:
    """Add what the question before asked about, when the request says to make sure of it.

    "does it have docker?" then "make sure it does": docker is asked for. Only a question
    of the turn before that names one known package or capability; "make sure it does
    not" and a question about anything else leave the words to be reported.
    """
    # ("make sure" may already be read as a polite opening: the rest must be unread)
    said = [
        m
        for m in _MAKE_SURE.finditer(state.text.original.lower())
        if state.text.work[m.start("rest") : m.end()]
        == state.text.original[m.start("rest") : m.end()].lower()
    ]
    asked = list(_ASKED_FOR.finditer(state.earlier.lower()))
    if not said or len(asked) != 1:
        return
    what = asked[0].group("what")
    tokens = [
        t
        for t in tokenize(state.text.work)
        if t.kind == "word" and said[0].start() <= t.start < said[0].end()
    ]
    item = Item("add", tokens, "sure")
    capabilities = find_capabilities(state.catalog, what)
    if len(capabilities) == 1:
        apply_capabilities(state, item, capabilities)  # "docker": the capability's packages
    elif not capabilities and known(state, what):
        add_packages(state, item, [what], what)
    else:
        return
    state.text.consume(said[0].start("rest"), said[0].end())
    state.warn(f"read 'make sure it does' as: add {what}, as the question before asked")


# the languages people say they write, and the capability that builds or runs each
_LANGUAGES = {"python": "python", "python3": "python", "c": "c-compiler", "c++": "c-compiler"}
_LANGUAGE = r"(?:python3?|c\+\+|c)"
_SOME = r"(?:(?:a\s+(?:bit|little)\s+of|some|also)\s+)?"
# "Students write Python and a bit of C", "we code in python", "they program in C++"
_WRITE_IN = re.compile(
    r"\b(?:write|writes|writing|code|codes|coding|program|programs|programming)\s+"
    rf"(?:in\s+)?{_SOME}(?P<langs>{_LANGUAGE}(?:\s*(?:,|\band\b|&|\+|\bplus\b)\s*{_SOME}"
    rf"{_LANGUAGE})*)(?=\s*(?:$|[,.;!?)\n]))",
    re.IGNORECASE,
)


def written_languages(state: PlanState) -> None:
    """Add what the languages people say they write need: "students write Python and C".

    Each language named right after "write", "code" or "program" (in) stands for its
    capability (python: python3 and pip; C and C++: the compilers). Only those languages,
    each a capability of the catalog, and only ending the clause ("write Python scripts
    for ..." says what is written, not which toolchain).
    """
    for match in state.text.matches(_WRITE_IN):
        langs = re.findall(_LANGUAGE, match.group("langs"), re.IGNORECASE)
        capabilities = [
            state.catalog.capabilities[_LANGUAGES[lang.lower()]]
            for lang in dict.fromkeys(lang.lower() for lang in langs)
            if _LANGUAGES[lang.lower()] in state.catalog.capabilities
        ]
        if not capabilities:
            continue
        tokens = [
            t
            for t in tokenize(state.text.work)
            if t.kind == "word" and match.start() <= t.start < match.end()
        ]
        apply_capabilities(state, Item("add", tokens, "write"), capabilities)
        state.text.consume(*match.span())
