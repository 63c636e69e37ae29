"""The request text: used spans blanked as rules read it, its tokens and list items."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from oic_ai.tools.planner.arrows import read_arrows
from oic_ai.tools.planner.languages import translate
from oic_ai.tools.planner.sizes import read_sizes
from oic_ai.tools.planner.user_lists import join_user_lists
from oic_ai.tools.planner.words import (
    ADD_PAIRS,
    ADD_VERBS,
    COMMAND_WORDS,
    FILLER,
    KEEP_VERBS,
    NAMING_VERBS,
    NEGATORS,
    NOT_PACKAGES,
    REMOVE_PAIRS,
    REMOVE_VERBS,
    RETRIEVAL_WORDS,
    SEPARATOR_WORDS,
)
from oic_ai.tools.retrieval.spelling import (
    Correction,
    PackageNames,
    Reading,
    SpellingVocabulary,
    correct_text,
    read_request,
)

_TOKEN = re.compile(
    r"(?P<gap>\x1f+)|(?P<sign>(?:^|(?<=[\s,;(]))\+(?=[ \t]*[a-z0-9])"
    r"|(?:^|(?<=\n))[ \t]*[-*\u2022](?=[ \t]*[a-z0-9/]))"
    r"|(?P<sep>[,;&\[\]()]|[.!?](?![a-z0-9])|:(?=\s)|(?<=\s)[-–—]+(?=\s))|"
    # a word of any alphabet ("usuário", "çıkar" stay whole: no fragment is a package)
    r"(?P<word>[^\W_](?:[\w.+:/=~'-]*(?:[^\W_]|\+))?)"
)


@lru_cache(maxsize=4)
def planner_vocabulary(packages: PackageNames | None = None) -> SpellingVocabulary:
    """The shipped spelling vocabulary plus the planner's own words (never corrected).

    Args:
        packages: The synced package index, when there is one: a word that is one of its
            package names is never corrected into another word.
    """
    from oic_ai.tools.planner.lexicon import english_words

    # an ordinary English word is never a misspelling ("cores" is not "coreos")
    return SpellingVocabulary.build(
        known=FILLER | RETRIEVAL_WORDS | NOT_PACKAGES | english_words(),
        packages=packages,
        commands=COMMAND_WORDS,
    )


# words a turn's route keys on besides the commands ("undo that last change")
_TURN_WORDS = frozenset("change changes revert previous before again".split())


@lru_cache(maxsize=1)
def _command_vocabulary() -> SpellingVocabulary:
    """Only the command and turn words as candidates; the planner's known words stay."""
    words = COMMAND_WORDS | _TURN_WORDS
    return SpellingVocabulary(tuple(sorted(words)), planner_vocabulary().known | words)


def spell_commands(text: str) -> str:
    """``text`` with its misspelt command words spelt right, before the turn is routed.

    "undo that last cahnge", "remvoe bob", "swicth to 26.04": the words a change, an
    undo or a question is said with, one edit away (two for long words; see
    :func:`~oic_ai.tools.retrieval.spelling.correct_word`). Names, packages and every
    other word stay as written; the planner reads those (and reports its corrections).
    """
    corrected, _ = correct_text(text, _command_vocabulary())
    return corrected


# ("non-free" is Debian's archive component, not "without non")
_FREE_OF = re.compile(r"(?<![\w.+-])(?![Nn]on-free\b)([A-Za-z0-9][\w.+]*)-free\b")
# the shorthand people type for "with" and "without" ("a user w/ sudo", "w/o docker")
# and a lone lower-case "w" between words, as typed in a hurry ("add user oncall w sudo")
_WITH_SHORT = re.compile(r"(?<![\w/])([Ww])/([Oo](?![\w/])|(?=\s))|(?<=[a-z] )(w)(?= [a-z])")
# a negation typed without its apostrophe ("ops shouldnt be in adm", "it doesnt need sudo")
_NO_APOSTROPHE = re.compile(
    r"\b(should|would|could|must|need|does|do|did|is|are|was|were|has|have|had)nt\b", re.I
)
# "it's" typed without its apostrophe after "make sure" or "ensure", before a value or a
# judgement: "make sure its 4GB not more" ("its 4GB disk" stays a possessive)
_ITS_IS = re.compile(
    r"\b((?:make\s+sure|ensure|check\s+(?:that\s+)?|so)\s+)its\b(?=\s+(?:\d[\d.]*\s*[a-z]*"
    r"(?:\s*[,.;!?]|\s+(?:not|and|or|max|at\s+most|only|please)\b|$)|not\b|still\b|only\b|"
    r"just\b|already\b|enough\b|fine\b|ok(?:ay)?\b))",
    re.IGNORECASE,
)
# sudo named in a clause, then a user who "needs it" in the next one of the same sentence:
# "svc must not have sudo, qa_audit needs it" reads "qa_audit needs sudo"
_SUDO_IT = re.compile(
    r"(\bsudo\b[^.;!?\n]*?,\s*(?:and\s+|but\s+)?[a-z_][\w.-]*\s+"
    r"(?:needs?|gets?|has|wants?|keeps?|(?:should|must|can|will)\s+(?:get|have|keep)))\s+it\b",
    re.IGNORECASE,
)
# a two-part verb around its object: "take it out", "rip cups out", "leave the GUI out",
# "take splash back out", "take the printing stuff back out"
_SPLIT_OUT = re.compile(
    r"\b(?:take|takes|taking|rip|pull|throw|kick|yank|cut|leave|strip|chuck)\s+"
    r"((?:the\s+|that\s+|those\s+|these\s+|this\s+|all\s+the\s+)[\w.+-]+(?:\s+[\w.+-]+){0,2}|"
    r"[\w.+-]+(?:\s*(?:,|and)\s*[\w.+-]+){0,3})(?:\s+back)?\s+out\b"
    r"(?!\s+(?:of\s+)?(?:the\s+)?(?:box|there|loud))(\s+of\b)?",
    re.IGNORECASE,
)
# the same with "off", for names alone ("take htop and jq off", not "take the day off")
_SPLIT_OFF = re.compile(
    r"\b(?:take|takes|taking|pull|strip|yank)\s+"
    r"((?!(?:the|a|an|this|that|some|any|time|it)\b)[\w.+-]+(?:\s*(?:,|and)\s*[\w.+-]+){0,3})"
    # off the image, or nothing after it ("take zsh off devops-admin" is a user's shell)
    r"(?:\s+back)?\s+off\b(?=\s*(?:$|[,.;!?)]|(?:of\s+)?(?:the\s+)?(?:image|template|box|build"
    r"|it|there)\b|(?:please|pls|too|as\s+well)\b))",
    re.IGNORECASE,
)
# "take off htop": the verb's two parts before the object
_TAKE_OFF = re.compile(
    r"\btake\s+off\s+(?=[a-z0-9])(?!(?:the\s+|a\s+)?(?:day|week|time|work)\b)", re.IGNORECASE
)
# a two-part verb that puts its object in: "throw tpm2-tools on there too", "toss htop in
# there", "stick jq and curl onto the image" ("toss htop" alone takes it out)
_SPLIT_IN = re.compile(
    r"\b(?:throw|throws|toss|tosses|stick|sticks|chuck|chucks|slap|slaps|pop|pops|bung|shove)\s+"
    r"((?:the\s+|that\s+|those\s+|these\s+|this\s+)?[\w.+-]+(?:\s*(?:,|and|\+)\s*[\w.+-]+){0,3})"
    r"\s+(?:in|on|onto|into)"
    r"(?:\s+(?:there|here|it|that|this(?:\s+one)?|top|the\s+(?:image|template|box|build)))?"
    r"(?=\s+(?:too|as\s+well|and|also|please)\b|\s*(?:[,.;!?\n]|$))",
    re.IGNORECASE,
)
# "do the needful for docker", "kindly do the necessary for nginx": an idiom (Indian
# English) for setting the thing up; read as "set up docker"
_DO_THE_NEEDFUL = re.compile(
    r"\bdo\s+the\s+(?:needful|necessary|needed)\s+(?:for|with|about|regarding|on)\s+"
    r"(?=(?:the\s+)?[\w.+-])",
    re.IGNORECASE,
)
# a name and "out" (or "gone") as a clause of its own: "parted out, gdisk is enough"
_NAME_OUT = re.compile(
    # (a disk format and "out" is the output: "qcow2 out" — the artifact rule reads it)
    r"(?:^|(?<=[.;,!?]\s)|(?<=\n))(?!(?:qcow2|vhdx?|vmdk|vdi|raw|iso)\s)"
    r"([a-z][\w.+-]*[a-z0-9])\s+(?:out|gone)(?=\s*(?:[,.;!]|$))",
    re.MULTILINE,
)
# "the docker command line tool", "podman's command-line client": the name people give
# such a package ("docker cli"); "the kernel command line" stays the cmdline
_COMMAND_LINE_TOOL = re.compile(
    r"(?:(?<=\w)'s)?(\s+)command[\s-]line\s+(?:tool|client|utility|interface|program|app)(s?)\b",
    re.IGNORECASE,
)
# the planner reads a request up to 2,000 characters (builtin.py); notices follow it
_READ_CHARS = 2000


@lru_cache(maxsize=256)
def read_for_planner(text: str, packages: PackageNames | None = None) -> Reading:
    """The planner's reading of ``text`` (cached: notices and the rules ask for it)."""
    return read_request(text, planner_vocabulary(packages))


def reading_notices(request: str, packages: PackageNames | None = None) -> list[str]:
    """What the builtin planner read differently from what ``request`` says, one line each.

    The request is read as :func:`~oic_ai.tools.planner.plan_request` reads it: passwords
    cut out first, so a notice never repeats one.
    """
    from oic_ai.tools.planner.redact import redact_passwords

    redacted, _ = redact_passwords(request)
    reading = read_for_planner(translate(redacted[:_READ_CHARS]), packages)
    return [*reading.notices, *read_sizes(reading.rewritten)[1]]


class RequestText:
    """The request as read, lower-cased, with used spans blanked so later rules skip them.

    The rules read the request after :func:`~oic_ai.tools.retrieval.spelling.read_request`:
    misspellings corrected ("dokcer" as "docker") and paraphrases named ("serves web
    pages" as "web server"); :attr:`corrections` says what was read how. Offsets are
    those of that reading (:attr:`original`), so values (names, kernel arguments) are
    read back with their original case.

    Args:
        text: The request as written.
        understand: False reads the text exactly as written.
        packages: The synced package index, when there is one (its names stay as written).
    """

    BLANK = "\x1f"

    def __init__(
        self, text: str, *, understand: bool = True, packages: PackageNames | None = None
    ) -> None:
        self.written = text
        self.corrections: tuple[Correction, ...] = ()
        if understand:
            # "usuario ops sin sudo" is read as "user ops without sudo"
            text = translate(text)
            reading = read_for_planner(text, packages)
            # "docker-free" is "without docker"
            text = _FREE_OF.sub(r"without \1", reading.rewritten)
            text = _WITH_SHORT.sub(
                lambda m: (m.group(1) or m.group(3)) + ("ithout" if m.group(2) else "ith"), text
            )
            text = _NO_APOSTROPHE.sub(r"\1n't", text)
            text = _ITS_IS.sub(r"\1it's", text)
            text = join_user_lists(text)
            text = read_arrows(text)  # "hostname -> gw-2"
            text = _SUDO_IT.sub(r"\1 sudo", text)
            text = _SPLIT_OUT.sub(lambda m: f"remove {m[1]}{' from' if m[2] else ''}", text)
            text = _SPLIT_OFF.sub(r"remove \1", text)
            text = _TAKE_OFF.sub("remove ", text)
            text = _NAME_OUT.sub(r"remove \1", text)
            text = _SPLIT_IN.sub(r"add \1", text)
            text = _DO_THE_NEEDFUL.sub("set up ", text)
            text = _COMMAND_LINE_TOOL.sub(r"\1cli\2", text)
            self.corrections = reading.corrections
            # "half a gig", "16 gig", "thirty-two GiB": one canonical token each
            text, _ = read_sizes(text)
        self.original = text
        # lower() can change a string's length for a few characters; keep offsets equal
        self.work = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
        self.owner = ""
        self.claims: list[tuple[int, int, str]] = []
        # a run of text holding control characters is read by no rule (unreadable_chunks)
        for start, end in unreadable_spans(self.work):
            self.consume(start, end, owner="rejected")

    def consume(self, start: int, end: int, owner: str | None = None) -> None:
        """Blank ``start:end`` so later rules skip it, and note who read it.

        Args:
            start: Where the span starts.
            end: Where it ends.
            owner: What read it (an operation family, ``rejected``, ``base``); the rule
                that is running (:attr:`owner`) when None.
        """
        if end > start:
            self.work = self.work[:start] + self.BLANK * (end - start) + self.work[end:]
            self.claims.append((start, end, self.owner if owner is None else owner))

    def disown(self, owner: str, reason_owner: str = "rejected") -> None:
        """Mark what ``owner`` read as ``reason_owner`` (its operation was dropped after all)."""
        self.claims = [(s, e, reason_owner if o == owner else o) for s, e, o in self.claims]

    def matches(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """Every match of ``pattern`` in what is not used yet."""
        return list(pattern.finditer(self.work))

    def raw(self, start: int, end: int) -> str:
        """The original text of ``start:end``, in its original case."""
        return self.original[start:end]


@dataclass(frozen=True)
class Token:
    """One word, separator or run of used text, with its offsets."""

    kind: Literal["gap", "sep", "word", "sign", "bullet"]
    text: str
    start: int
    end: int


# a bulleted line: also one whose text an earlier rule used (blanked with \x1f) and a
# checklist item ("- [ ] ...")
_BULLET_LINE = re.compile(r"(?m)^[ \t]*[-*\u2022][ \t]*[a-z0-9/\[\x1f]")


def _bullet_list(work: str) -> bool:
    """True when ``work`` is laid out as a bulleted list (several "- " lines, or a header:).

    Then a line's leading "-" is a bullet; in a one-line "- jq" it is a minus sign.
    """
    lines = _BULLET_LINE.findall(work)
    return len(lines) >= 2 or re.search(r":[ \t]*\n[ \t]*[-*\u2022]", work) is not None


def _list_ends(work: str) -> list[Token]:
    """A sentence end at each newline that closes a bulleted list's last line."""
    ends = []
    for match in re.finditer(r"\n", work):
        line_start = work.rfind("\n", 0, match.start()) + 1
        this_line = work[line_start : match.start()]
        rest = work[match.end() :]
        if _BULLET_LINE.match(this_line) and not _BULLET_LINE.match(rest):
            ends.append(Token("sep", ".", match.start(), match.end()))
    return ends


# control characters (C0 and C1 but tab, newline and the read-marker \x1f) and invisible
# format characters (bidi overrides, zero-width ones): escapes and tricks, never typed text
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1e\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


UNREADABLE = (
    "holds characters that are not text (terminal escapes or invisible controls), so "
    "nothing in it was read; type it again without them"
)


def unreadable_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds control characters.

    Each run of non-space text around one, and from a bidi override or isolate to the end
    of its line (it reorders everything after it).
    """
    spans = [m.span() for m in re.finditer(r"\S+", text) if CONTROL.search(m.group())]
    for bidi in re.finditer(r"[\u202a-\u202e\u2066-\u2069]", text):
        start = text.rfind(" ", 0, bidi.start()) + 1
        end = text.find("\n", bidi.start())
        spans.append((start, len(text) if end < 0 else end))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def unreadable_chunks(text: RequestText) -> list[str]:
    """The parts of the request that hold control characters (:func:`unreadable_spans`)."""
    return [text.original[s:e].strip() for s, e in unreadable_spans(text.original)]


def tokenize(work: str) -> list[Token]:
    """Split the working text into tokens; a word's trailing apostrophe is dropped.

    A leading "+" is a sign (add what follows); a line's leading "-" is a sign too
    (remove what follows) unless the text is a bulleted list, where "-", "*" and "•" are
    bullets and the list ends at the first line without one.
    """
    found: list[Token] = []
    bullets = "\n" in work and _bullet_list(work)
    for match in _TOKEN.finditer(work):
        start, end = match.span()
        if match.lastgroup == "sign":
            mark = match.group().strip()
            start = end - 1
            if mark == "+" or (mark == "-" and not bullets):
                found.append(Token("sign", mark, start, end))
            else:
                found.append(Token("bullet", mark, start, end))
        elif match.lastgroup == "word":
            found.append(Token("word", match.group().rstrip("'"), start, end))
        elif match.lastgroup == "gap":
            found.append(Token("gap", match.group(), start, end))
        else:
            found.append(Token("sep", match.group(), start, end))
    if bullets:
        found = sorted([*found, *_list_ends(work)], key=lambda t: t.start)
    return found


@dataclass
class Item:
    """One list item ("node monitoring") under the add or remove verb before it.

    Attributes:
        mode: ``add`` or ``remove`` under a verb, ``none`` without one, ``aside`` for words
            that are not a list of things ("for monitoring", "we are offline").
        tokens: The item's words.
        verb: The word that set the mode ("install", "with", "drop"), if any.
    """

    mode: Literal["add", "remove", "none", "aside"]
    tokens: list[Token]
    verb: str = ""
    aside_by: str = ""  # the word that started an aside ("for" in "chrony for time")

    @property
    def words(self) -> list[str]:
        """The item's words."""
        return [t.text for t in self.tokens]

    @property
    def span(self) -> tuple[int, int]:
        """Where the item starts and ends in the request."""
        return self.tokens[0].start, self.tokens[-1].end


# After a thing is named, these start what it is for or where, not another thing
# ("chrony for time", "cryptsetup in the live environment", "docker on it").
_ASIDE_WORDS = frozenset(
    "for in on from inside via at as because since so if unless when whenever while".split()
)
# A comparison after a named thing says where it is like that, not another thing: "php
# like our old LAMP boxes", "redis as on the old fleet", "nginx just like before"
_COMPARING = frozenset("like unlike".split())
_COMPARED = frozenset(
    "our the their those these we they on in at before earlier last previously my your it "
    "what how".split()
)
# ... but after a word that asks for an example, "like" gives it: "something like the htop
# package", "a tool like the one we had"
_EXAMPLE_HEADS = frozenset(
    "something anything stuff things thing tool tools utility utilities package packages "
    "software app apps program programs one ones editor editors".split()
)
# after a negator, these pass it on to the verb that follows: "don't bother with docker",
# "don't even install vim"
_NEGATION_CARRIERS = frozenset("bother bothering even really worry".split())
# A word that makes an item a statement, not a list of things ("our boxes are offline").
_STATEMENT_WORDS = frozenset(
    (
        "we're we'll we've i'm i'll it's they're you're are is was were been will "
        "doesn't isn't aren't won't can't cannot didn't hasn't haven't wasn't weren't"
    ).split()
)
# verbs whose item before them is their subject, not a thing to add
_SUBJECT_VERBS = frozenset(
    "needs requires wants uses used runs ran has had ships shipped mandates demands".split()
)
# subjects that say nobody does what follows ("nobody runs rviz there"): a statement
_NOBODY = frozenset("nobody noone".split())
# "we can do without nano", "you could drop nano": a modal after them proposes a change
_PROPOSING = frozenset("we you i let's".split())
# verbs that say what is, after a subject ("we use vim here"), unlike "we need vim"
_HAVING = frozenset("use uses using run runs running has have having ship ships".split())
# (not "that": "an image that runs docker")
_SUBJECTS = frozenset(
    "we i they you it he she nobody noone everyone everybody someone somebody".split()
)
_INTENDING = frozenset("we'll i'll".split())
# a future before a need: "we'll need jq", "they will want htop"
_FUTURE = frozenset("will we'll i'll you'll they'll".split())
_NEEDING = frozenset("need needs want wants require requires".split())
_NOUN_BEFORE = frozenset("the a an our their my this that".split())
# verbs that are nouns after an article ("a fresh install", "the install")
_NOUN_TOO = frozenset("install installs".split())
# what "install" names before a noun: "the ROS install docs", "their install page says"
_WRITTEN_STEPS = frozenset(
    "docs doc documentation guide guides page pages instructions steps notes script "
    "scripts manual howto tutorial process media".split()
)
# a noun phrase with one of these at its head can be a subject: "the rescue flows use scp"
_DEFINITE = frozenset("the our their my his her its these those".split())
# modals that make a statement unless they ask ("can you add", "could we have")
# words that open a rule or a change after a header, which is then its topic, not a thing
# to add ("firewall: only allow ssh from the lab", "monitoring: drop collectd")
_RULE_HEADS = frozenset("only allow deny block permit open close drop reject accept limit".split())
_MODALS = frozenset("can could would should might may must".split())
_ASKED = frozenset("you u we i it this that".split())  # "can u add"


def _list_follows(tokens: Sequence[Token], at: int) -> bool:
    """True when a list of several things follows (up to the sentence end): "x, y and z"."""
    joins = 0
    for token in tokens[at:]:
        if token.kind == "sep" and token.text[0] in ".!?":
            break
        if (token.kind == "sep" and token.text == ",") or token.text in ("and", "&"):
            joins += 1
    return joins > 0


# What a list after a colon holds, by the words before the colon ("packages: a, b").
_PACKAGE_HEADERS = frozenset(
    "package packages pkg pkgs components component software install installs".split()
)
# Headers whose list names something else: accounts, hosts, groups, partitions...
_OTHER_HEADERS = frozenset(
    (
        "user users account accounts login logins hostname hostnames host hosts group groups "
        "partition partitions repo repos repository repositories kernel cmdline option options "
        "disk disks storage layout console consoles target name names"
    ).split()
)
# Conjunctions that start a new clause: the statement before them ends there
# ("the screens play video so please put vlc").
_NEW_CLAUSE = frozenset("so because since although though whereas please".split())
# Right after a verb, these start where or how, not a thing: "install on site".
_PLACE_WORDS = frozenset("on in at from into onto via inside".split())


# a hedge on how much is asked, never a place: "at least", "at the very least", "at minimum"
_HEDGES = (
    ("at", "least"),
    ("at", "the", "very", "least"),
    ("at", "a", "minimum"),
    ("at", "minimum"),
)


def _without_hedges(tokens: Sequence[Token]) -> list[Token]:
    """``tokens`` without the words of a hedge ("add at least htop" is "add htop")."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        words = [t.text for t in tokens[index : index + 4]]
        hedge = next((h for h in _HEDGES if tuple(words[: len(h)]) == h), None)
        if hedge is not None and all(t.kind == "word" for t in tokens[index : index + len(hedge)]):
            index += len(hedge)
            continue
        kept.append(tokens[index])
        index += 1
    return kept


def split_items(tokens: Sequence[Token], breaks: Sequence[int] = ()) -> Iterator[Item]:
    """Split the words into list items, each under the add or remove verb before it.

    A sentence end forgets the verb; what follows "for", "in", "on" ... after a named
    thing, and statements, are ``aside``. A sign ("+ htop", "- jq") is a verb; a
    colon's list takes its role from the words before the colon ("packages:" adds,
    "users:" names no package); a verb inside parentheses governs its own items.
    ``breaks`` are where lines end: an item never runs on into the next line ("docker and
    git" then "2) Tom wants htop"), and a line that ended on an item forgets its verb.
    """
    tokens = _without_hedges(tokens)  # "add at least the nfs client": add the nfs client
    mode: Literal["add", "remove", "none"] = "none"
    verb_word = ""
    current: list[Token] = []
    aside = ""
    joined_aside = ""  # the aside word before "and": "for apt and for the browsers"
    negated = False  # "do not add docker", "don't install vim", "no need for docker"
    previous = ""
    outside: list[tuple[Literal["add", "remove", "none"], str]] = []  # before "(" and "["
    paren_verb = False  # a verb said inside the parentheses: "(install zsh too)"
    other_role = False  # "users: admin, tech1": the list names no package

    statement = False  # "the team can ship their containers": a statement to its clause's end

    listed = False  # after a list separator: "debian trixie, arm64, mosquitto"
    after_verb = False  # the previous word set the mode ("install on site")
    list_mode: tuple[Literal["add", "remove", "none"], str] | None = None  # "packages:\n- a"
    phrase: list[str] = []  # "an old Debian install": the words since a stop or a verb

    def item() -> Item:
        said = statement
        kind = "aside" if aside or said or other_role or (outside and not paren_verb) else mode
        # an item of a list is weakly marked as one of the things asked for
        verb = verb_word or ("," if listed and mode == "none" and len(current) == 1 else "")
        by = aside or ("(" if outside else "") or ("role" if other_role else "")
        return Item(kind, list(current), verb, by)

    for index, token in enumerate(tokens):
        word = token.text
        before_that = tokens[index - 2].text if index >= 2 else ""
        before = previous  # the word before this one
        verb: Literal["add", "remove", "none"] | None = None
        if token.kind == "sign":
            verb = "add" if word == "+" else "remove"
        elif token.kind == "word" and (previous, word) in REMOVE_PAIRS:  # "leave out"
            verb = "remove"
            word = f"{previous} {word}"  # the verb is the pair: "do without" is no negator
        elif token.kind == "word" and (previous, word) in ADD_PAIRS:  # "switch to"
            verb = "add"
        elif (
            token.kind == "word"
            and word in _NOUN_TOO
            and (
                (phrase[-1:] and phrase[-1] in _NOUN_BEFORE)
                or phrase[:1] in (["a"], ["an"])
                or (index + 1 < len(tokens) and tokens[index + 1].text in _WRITTEN_STEPS)
            )
        ):
            verb = None  # "an old Debian install somebody set up", "the install": a noun
        elif token.kind == "word" and word in ADD_VERBS:
            verb = "remove" if negated else "add"
        elif token.kind == "word" and word in REMOVE_VERBS | NEGATORS:  # "get rid": "rid"
            verb = "remove"
        elif token.kind == "word" and word in NAMING_VERBS | KEEP_VERBS:
            verb = "none"  # "create svc-backup", "keep socat": what follows is no package
        elif (
            token.kind == "word"
            and word in ("just", "only")
            and mode == "remove"
            and not current
            and index
            and tokens[index - 1].text in (",", ";")
        ):
            verb = "add"  # "no desktop, just qemu and virtinst": what is wanted instead
        # the words of the noun phrase so far, across a gap a rule read ("an old <debian>")
        if token.kind == "sep" or verb is not None:
            phrase = []
        elif token.kind == "word":
            phrase.append(word)
        negated = token.kind == "word" and (
            word in NEGATORS or word == "no" or (negated and word in _NEGATION_CARRIERS)
        )
        previous = word if token.kind == "word" else ""
        following = tokens[index + 1].text if index + 1 < len(tokens) else ""
        if token.kind == "word" and word in _NEW_CLAUSE:
            statement = False
        # "we will use X", "we'll run X": the user's own plan names what the image has
        intends = (word == "will" and before in _PROPOSING or word in _INTENDING) and (
            following in _HAVING
        )
        if (
            token.kind == "word"
            and not intends
            and (
                word in _STATEMENT_WORDS
                or (
                    word in _MODALS
                    and following not in _ASKED
                    and before not in _PROPOSING
                    and before not in _NOUN_BEFORE  # "the can bus": a noun, not a modal
                )
            )
        ):
            statement = True
        subject = (
            before in _SUBJECTS
            or (before in NEGATORS and before_that in _SUBJECTS)
            or before in _INTENDING
            or (before == "will" and before_that in _PROPOSING)
        )
        # "the lab boxes run X": a definite noun phrase before the verb is its subject
        definite = len(current) >= 2 and current[0].text in _DEFINITE
        said = verb is not None and word in _HAVING and (subject or definite)
        if said and before in _NOBODY:
            statement = True  # "nobody runs rviz on the robots": what is not used, no wish
        if said:
            word = "said"  # "they run ROS 2", "we don't use snaps": only what is known counts
        if statement and verb is not None and word in _NEEDING and before in _FUTURE:
            statement = False  # "we'll need jq", "I will need htop": a future need asks
        if statement and verb is not None and token.kind == "word":
            verb = None  # "can ship", "won't use": the statement's own verb
        was_after_verb, after_verb = after_verb, False
        if (
            token.kind == "word"
            and verb is None
            and (
                (word in _ASIDE_WORDS and current)
                # "a proxy for apt and for the browsers": the aside goes on past "and"
                or (word in _ASIDE_WORDS and not current and joined_aside == word)
                # "the proxy (host:3128) for apt": after the parenthesis, what it is for
                or (word == "for" and not current and index and tokens[index - 1].text in ")]")
                or (word in _PLACE_WORDS and was_after_verb and not current)
                # "php like our old LAMP boxes": a comparison, unlike "tools like htop"
                or (
                    word in _COMPARING
                    and current
                    and following in _COMPARED
                    and current[-1].text not in _EXAMPLE_HEADS
                )
            )
        ):
            if current:
                yield item()
            current = []
            aside = word
            continue
        if token.kind != "word" or word in SEPARATOR_WORDS or verb is not None:
            subject_verb = word in _SUBJECT_VERBS or (
                word in ("also", "still", "really") and following in _SUBJECT_VERBS
            )  # "security also mandates X"
            if current and verb is not None and subject_verb and mode == "none":
                # "the monitoring agent needs audit=1", "ops needs an account": a subject
                yield Item("aside", list(current), "", word)
                current = []
            if token.kind == "sep" and token.text == ":" and current and mode == "none":
                header = {t.text for t in current}
                if header & _PACKAGE_HEADERS:
                    yield Item("aside", list(current), "", ":")  # "Required packages:"
                    current = []
                    mode, verb_word = "add", "packages"
                    list_mode = (mode, verb_word)
                    continue
                if header & _OTHER_HEADERS:
                    other_role = True  # "users: admin, tech1 and tech2"
                elif following in _RULE_HEADS:
                    yield Item("aside", list(current), "", ":")  # "firewall: only allow ssh"
                    current = []
            if current:
                said = item().mode == "aside" and not aside and not outside and not other_role
                yield item()
                current = []
                if said:
                    mode, verb_word = "none", ""  # "our boxes are offline, htop": no verb
            if token.kind not in ("word", "bullet") or word in SEPARATOR_WORDS:
                statement = False
            listed = (token.kind == "sep" and token.text == ",") or word in ("and", "&")
            joined_aside = aside if word in ("and", "or") else ""
            aside = ""
            if token.kind == "sep" and token.text in "([":
                outside.append((mode, verb_word))  # a parenthesis is a remark
                paren_verb = False
            elif token.kind == "sep" and token.text in ")]" and outside:
                mode, verb_word = outside.pop()
                paren_verb = False
            elif token.kind == "bullet":
                # a bullet continues the list its header opened; other bullets start afresh
                mode, verb_word = list_mode or ("none", "")
            elif token.kind == "sep" and token.text[0] in ".!?-–—":
                mode, verb_word = "none", ""  # a new sentence, or a dash's elaboration
                other_role = False
                list_mode = None
                if token.text[0] in ".!?":
                    outside.clear()
            elif token.kind == "sep" and token.text == ":" and mode == "none" and not other_role:
                if _list_follows(tokens, index + 1):
                    mode, verb_word = "add", ":"  # "... please: ssh, chrony and htop"
            if token.kind == "sep" and token.text == ":":
                list_mode = (mode, verb_word) if mode != "none" else None
            if verb == "none":
                mode, verb_word = "none", ""
            elif verb is not None:
                mode, verb_word = verb, word
                other_role = False
                after_verb = True
                if outside:
                    paren_verb = True
            continue
        if current and token.kind == "word" and _crosses(breaks, current[-1].end, token.start):
            yield item()
            current = []
            mode, verb_word = list_mode or ("none", "")
            statement, listed, aside = False, False, ""
        current.append(token)
    if current:
        yield item()


def line_breaks(work: str) -> list[int]:
    """Where the lines of ``work`` end (for :func:`split_items`)."""
    return [m.start() for m in re.finditer(r"\n", work)]


def _crosses(breaks: Sequence[int], start: int, end: int) -> bool:
    """True when a line ends between ``start`` and ``end``."""
    at = bisect.bisect_left(breaks, start)
    return at < len(breaks) and breaks[at] < end
