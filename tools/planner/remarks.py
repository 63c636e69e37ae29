"""Whether a clause no rule read is a remark: a statement about the world, not a request.

Split from :mod:`.accounting`. The operation bank gives each unread clause its nearest
labels; a statement ("the devices are deployed without network access", "we use vim
here") is read as context even when the bank leans to it by less than its threshold, and
only when the clause's words are words (":func:`has_words`": "bbbbbb wmxbgm" is no
remark).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from oic_ai.stores.operation_bank import BankLabel
from oic_ai.tools.planner.bank import BankMatch
from oic_ai.tools.planner.text import Token

if TYPE_CHECKING:
    from oic_ai.tools.planner.state import PlanState

# words that join a clause to the one before it
CONNECTORS = frozenset("and then also plus but so or".split())
_SUBJECTS = frozenset(
    "we we're we'll we've our they they're their these those it it's its this that there "
    "i i'm i've my the".split()
)
# words that make a clause a statement wherever they stand ("podman doesn't use it")
_STATING = frozenset(
    "is are was were doesn't don't isn't aren't won't can't cannot didn't hasn't haven't "
    "we'll we're they're it's would might".split()
)
_PEOPLE = frozenset("we i they our my their".split())
_REQUESTING = frozenset("need needs want wants would like require requires 'd".split())
_ASKING = frozenset("should must need needs want wants please".split())
# words that carry no meaning of their own: "the bbghhh" is no remark
_FUNCTION_WORDS = frozenset(
    "a an the of to in on at for with and or but then so by from as is be it this that".split()
)
_REMARK_FLOOR = 0.33
_STATED_FLOOR = 0.25


def remark_label(match: BankMatch) -> BankLabel:
    """The context (or use) label a remark is read as."""
    if match.nearest.outcome in ("context", "use"):
        return match.nearest
    use = match.by_outcome.get("use", -1.0) > match.by_outcome.get("context", -1.0)
    return BankLabel("use" if use else "context", "use" if use else "context")


def has_words(tokens: Sequence[Token]) -> bool:
    """True when some meaningful word among ``tokens`` is an ordinary English word."""
    from oic_ai.tools.planner.lexicon import english_words, is_english

    if not english_words():
        return True  # no lexicon without the model: do not second-guess the bank
    return any(
        is_english(part, compounds=True)
        for t in tokens
        if t.text not in _FUNCTION_WORDS
        for part in re.split(r"[-_]", t.text)
        if part
    )


def mostly_english(tokens: Sequence[Token]) -> bool:
    """True when most meaningful words are English words ("the joints sync over ptp")."""
    from oic_ai.tools.planner.lexicon import english_words, is_english

    words = [t.text for t in tokens if t.text not in _FUNCTION_WORDS]
    if not english_words() or not words:
        return False
    return 2 * sum(is_english(w, compounds=True) for w in words) > len(words)


def is_remark(tokens: Sequence[Token], match: BankMatch) -> bool:
    """A statement about the world the bank leans towards reading as context.

    "the devices are deployed without network access": it starts with its subject, asks
    nothing ("should", "must", "please" would), and its nearest label is context or use,
    if not by the threshold's margin.
    """
    words = [t.text for t in tokens if t.text not in CONNECTORS]
    if not words or any(w in _ASKING for w in words):
        return False
    remark = max(match.by_outcome.get("context", -1.0), match.by_outcome.get("use", -1.0))
    if match.nearest.outcome in ("context", "use"):
        if any(w in _STATING for w in words):
            return match.score >= _STATED_FLOOR  # "we don't use snaps", "16 would also work"
        return match.score >= _REMARK_FLOOR and words[0] in _SUBJECTS
    # "podman doesn't use it", "we use vim here": a statement, even when a topic word
    # pulls it elsewhere; "we need vim" asks (its verb is a request's)
    said = any(w in _STATING for w in words) or (
        words[0] in _PEOPLE and len(words) > 1 and words[1] not in _REQUESTING
    )
    return remark >= _REMARK_FLOOR and said


def names_parts_of(tokens: Sequence[Token], names: Sequence[str]) -> bool:
    """True when what a wish asks for is all parts of one of ``names`` (split at "-").

    "We need the oneAPI runtime" beside "apt install intel-oneapi-runtime-libs": the wish
    describes the package the request installs, by the parts of its name. Who wishes
    ("our models want ...") stands before the verb of wishing.
    """
    words = [t.text for t in tokens]
    at = next((i for i, w in enumerate(words) if w in _REQUESTING), -1)
    wanted = {w for w in words[at + 1 :] if w not in _FUNCTION_WORDS and w not in _WISHING}
    return bool(wanted) and any(wanted <= set(name.split("-")) for name in names if "-" in name)


# what a wish says besides its object: "is what we're after", "too", "please"
_WISHING = frozenset("please pls also too what we're after are is we our really".split())


# "i want to turn it into a little homelab box", "we'll use the NUC as a media server",
# "make this old laptop into a kiosk": what the machine becomes, which the image as a whole
# answers; no field of the template holds it
_MACHINE_ROLE = re.compile(
    r"\b(?:turn|make|convert|repurpose|transform)\s+(?:it|this|that|them|these|the\s+[\w-]+"
    r"(?:\s+[\w-]+)?)\s+into\s+(?:a|an|our|my)\b"
    r"|\b(?:use|using|repurpose|repurposing)\s+(?:it|this|that|them|these|the\s+[\w-]+)\s+as\s+"
    r"(?:a|an|our|my)\b",
    re.IGNORECASE,
)
# "we want AI-based player tracking running on the ingest servers": what the machines are
# to do, which the software the request installs answers
_WORKLOAD = re.compile(
    r"\b(?:want|wants|need|needs)\s+(?:[\w-]+\s+){1,6}?(?:running|to\s+run|deployed)\s+on\s+"
    r"(?:the|our|their|these|those|all|every)\b",
    re.IGNORECASE,
)


def machine_role(text: str, state: PlanState) -> bool:
    """True when ``text`` says what the machine is to become ("turn it into a homelab box").

    Or what the machines are to run, when the request installs software for it (added, or
    asked for and already there): "we want player tracking running on the ingest servers.
    DL Streamer plus ffmpeg". Without such software the wish is reported, not dropped.
    """
    if _MACHINE_ROLE.search(text) is not None:
        return True
    return bool(state.add or state.present) and _WORKLOAD.search(text) is not None
