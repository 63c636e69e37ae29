"""The patterns of a user's attributes, and the parts of a request that continue a user.

Split from :mod:`oic_ai.tools.planner.rules.users`: groups ("in the docker group", "in
wheel", "groups: a, b"), shells ("shell /bin/bash", "zsh as the login shell"), and what a
request says after the sentence that named a user: a further name with attributes of its
own ("users: admin with sudo. and monitor, no sudo") or a clause of attributes alone
("bash as login shell", "no wait ..., so keep /bin/bash"). Names said one after another
with only "and" between them share what follows ("put alice and bob in the docker group").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from oic_ai.tools.planner.rules.user_glue import GLUE
from oic_ai.tools.planner.rules.user_plans import a_package
from oic_ai.tools.planner.rules.user_words import (
    ATTRIBUTE_NEXT,
    STOP_WORDS,
    SUDO_OFF,
    SUDO_ON,
    other_fields,
)
from oic_ai.tools.planner.rules.user_words import GROUPS as _GROUPS
from oic_ai.tools.planner.rules.user_words import KNOWN_GROUPS as _KNOWN_GROUPS
from oic_ai.tools.planner.rules.user_words import SHELLS as _SHELLS
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import FILLER, KEEP_VERBS

NO_GROUPS = re.compile(
    r"\b(?:in\s+)?no\s+(?:(?:extra|additional|other|special|supplementary|secondary|particular)"
    r"\s+)?groups?\b"
)
GROUP_LIST = re.compile(
    rf"\b(?:(?:in|to|into|of|only|with|needs?|gets?|has|have|wants?|joins?|keeps?|stays?\s+in"
    r"|actually|rather|mean|and|plus)\s+"
    rf"(?:the\s+|an?\s+|its\s+|his\s+|her\s+|their\s+)?"
    rf"(?P<g1>{_GROUPS})\s+groups?\b"
    rf"|(?:(?:in|to|into)\s+(?:the\s+)?|member\s+of\s+(?:the\s+)?|with\s+)?groups?\b\s*[:=]?\s*"
    # after the word "groups", system groups may follow with spaces only ("groups video
    # render input")
    rf"(?P<g2>{_GROUPS}(?:\s+(?:{_KNOWN_GROUPS})(?![\w-]))*)|member\s+of\s+(?:the\s+)?(?P<g3>{_GROUPS})"
    rf"|in\s+(?:the\s+)?(?P<g4>(?:{_KNOWN_GROUPS})(?:\s*(?:,|\band\b|&|\+)\s*(?:{_KNOWN_GROUPS}))*)"
    r"(?![\w-])"
    # set off by commas, or added with "+": "..., wheel group, ...", "w sudo + docker group"
    rf"|(?:(?<=[,(+&])|(?<=[,(+&]\s))(?P<g5>{_GROUPS})\s+groups?\b"
    # system groups alone, set off by commas, to the end of the clause ("user kai, zsh,
    # plugdev + dialout"); a lone "sudo" there is sudo rights, not a list
    rf"|(?:(?<=[,(\x1f])|(?<=[,(\x1f—–-]\s))(?:(?:and|plus)\s+)?(?!sudo[\s\x1f]*(?:$|[,;)\x1f]|\.(?:\s|$)))"
    rf"(?P<g6>(?:{_KNOWN_GROUPS})(?:\s*(?:,|\band\b|&|\+)\s*(?:{_KNOWN_GROUPS}))*)(?![\w-])"
    r"(?=[\s\x1f]*(?:$|[,;)\x1f]|\.(?:\s|$))))"
    # sudo given by a group: "sudo via wheel", "sudo through the sudo group"
    rf"|\bsudo\s+(?:rights\s+|access\s+)?(?:via|through|thru|by|using)\s+(?:the\s+)?"
    rf"(?P<g7>{_KNOWN_GROUPS})(?![\w-])(?:\s+group\b)?(?:\s+membership\b)?"
)
_ITS = r"(?:(?:the|its|his|her|their)\s+)?"
# "login shell", "default shell", "default login shell"
_KIND = r"(?:(?:default|login|user)\s+)*"
SHELL = re.compile(
    rf"(?:\b(?:with|using)\s+)?(?:(?:the|a)\s+)?(?:\b{_KIND}shell\s*[:=]?\s*"
    rf"(?:set\s+to\s+|of\s+|(?:is|should\s+be|must\s+be|will\s+be)\s+)?(?P<s1>/[a-z0-9/_-]+|{_SHELLS})\b"
    rf"|(?P<s2>/(?:usr/)?s?bin/[a-z0-9_-]+)(?:\s+(?:as\s+{_ITS})?{_KIND}shell)?"
    # "zsh as the shell so ...": a shell named as such; a bare one ends its clause
    rf"|\b(?P<s3>{_SHELLS})(?:\s+(?:as\s+{_ITS})?{_KIND}shell\b|(?=\s*(?:$|[,;()\x1f]|\.(?:\s|$))))"
    # "same as maria but with bash": a shell said of a user with "with"
    rf"|(?<=\bwith\s)(?P<s4>{_SHELLS})(?![\w.-]))"
)
# a verb that installs what it names: a bare shell right after it is the shell's package
# ("shell /bin/zsh, so install zsh"), not the user's shell said again
INSTALLING = re.compile(
    r"\b(?:install|installs|installing|add|adds|include|preinstall|bundle|ship)"
    r"\s+(?:the\s+)?(?:package\s+)?$"
)
# the word "sudo" alone in a user's clause, after its name ("ek user 'ops' bana do sudo ke
# saath", "user ops, sudo wala"): sudo said of that user, in whatever words around it.
# Not a label ("sudo: no"), nor the package or its files ("the sudo package", "sudo rules")
_BARE_SUDO = re.compile(
    r"(?<![\w/.-])sudo(?![\w/.-])(?!\s*[:=-])"
    r"(?!\s+(?:group|package|pkg|rules?|files?|config|configuration|logs?|policy|policies|"
    r"command|commands|version|binary|privileges\s+for)\b)"
)
# a word that takes what follows back or away: the bare "sudo" after it is not given
_DENYING = re.compile(
    r"\b(?:no|not|non|without|never|nor|remove|removed|revoke|revoked|drop|deny|denied|"
    r"disable|disabled|minus|except|instead|don't|doesn't|won't|shouldn't|mustn't|isn't|"
    r"take|took|strip|purge|uninstall|delete)\b"
)


def bare_sudo(work: str, start: int, end: int) -> re.Match[str] | None:
    """The word "sudo" alone in ``start:end``, giving the user sudo (see ``_BARE_SUDO``).

    None when a word before or after it in the window takes sudo away or back ("sudo,
    no wait", "not sudo") or installs it ("install sudo").
    """
    found = _BARE_SUDO.search(work, start, end)
    if found is None or _DENYING.search(work, start, end):
        return None
    if INSTALLING.search(work, start, found.start()):
        return None
    return found


NO_SHELL = re.compile(
    r"\b(?:(?:with\s+)?no|without(?:\s+an?)?|non-?interactive|nologin)\s+(?:(?:login|interactive)\s+)?"
    r"(?:shell|login)\b|\bcannot\s+log\s+in\b"
)


class Mention(Protocol):
    """What :func:`coordinated` needs of a user mention."""

    names: list[str]
    start: int
    end: int
    sudo: bool | None
    listed: bool


# only a coordination between two names: "put alice and bob in the docker group"
_INTRODUCED = re.compile(r"(?:a|an|another|one)\s")
_JOINED_ONLY = re.compile(r"[\s\x1f]*(?:,[\s\x1f]*)?(?:(?:and|&|plus|as\s+well\s+as)[\s\x1f]+)?")


def coordinated[M: Mention](work: str, users: Sequence[M]) -> list[M]:
    """Join users named one after another with only "and" between them.

    "put alice and bob in the docker group", "give carol and dave sudo": what is said
    after the last name is said of every name in the run, not of the last one alone.
    """
    joined: list[M] = []
    for user in users:
        before = joined[-1] if joined else None
        if (
            before is not None
            and before.sudo is None
            and user.sudo is None
            and before.end <= user.start
            and _JOINED_ONLY.fullmatch(work, before.end, user.start)
            # "kiosk plus a service account fieldsvc with sudo": a user brought in with its
            # own article and role word is a new one; what follows is said of it alone
            and not _INTRODUCED.match(work, user.start)
        ):
            before.names = list(dict.fromkeys(before.names + user.names))
            before.end = user.end
            before.listed = True
            continue
        joined.append(user)
    return joined


_CLAUSE_END = re.compile(r"[,;.!?](?:\s|$)|\x1f")


def past_names(work: str, at: int, end: int, names: Iterable[str]) -> int:
    """Where the clause after a user's name at ``at`` ends, past the names listed with it.

    "move alice, carol into the render group": the clause of alice goes on past ", carol".
    """
    known = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    listed = re.compile(rf",\s*(?:and\s+)?(?:{known})(?![\w-])") if known else None
    while True:
        stop = min((m.start() for m in _CLAUSE_END.finditer(work, at, end)), default=end)
        more = listed.match(work, stop, end) if listed is not None else None
        if more is None:
            return stop
        at = more.end()


# a further user in a list a sentence before began: "users: admin with sudo. and monitor,
# no sudo"
_AND_NAME = re.compile(
    r"[\s\x1f]*(?:and|plus|also|then)\s+[\"'`]?(?P<name>[a-z_][a-z0-9_-]*)[\"'`]?(?![\w-])"
)
_CLAUSE = re.compile(r"[^,;:\x1f]+")
_WORD = re.compile(r"[a-z][a-z'-]*")
_ATTRIBUTES = (SUDO_OFF, SUDO_ON, GROUP_LIST, SHELL, NO_SHELL)
# the words a clause of attributes alone may have besides them ("so keep /bin/bash")
_ONLY_JOINING = GLUE | FILLER | KEEP_VERBS | frozenset("use using so but login default".split())


# a sentence headed by a list of packages: "packages: tmux, rsync, sudo", "pkgs - jq, sudo"
_PACKAGE_HEADING = re.compile(
    r"\s*(?:(?:and|also|plus)\s+)?(?:packages?|pkgs?|apps?|software|tools|install)\s*[:=-]",
    re.I,
)


def continued(state: PlanState, start: int, end: int) -> tuple[str | None, int, int] | None:
    """What a sentence without a user of its own adds to the user before it.

    ``(name, at, stop)`` for a further user named after "and" whose attributes follow
    ("and monitor, no sudo"); ``(None, at, stop)`` for a clause that holds nothing but
    user attributes ("bash as login shell", "..., so keep /bin/bash"), said of the user
    before. None when the sentence says anything else.
    """
    if _PACKAGE_HEADING.match(state.text.original, start, end):
        return None  # "packages: tmux, rsync, sudo": the sudo package, no user's sudo
    work = state.text.work
    end = min([end, *other_fields(work, start, end)])  # "packages: tmux, sudo" is no user's
    more = _AND_NAME.match(work, start, end)
    if more is not None:
        name = more.group("name")
        if (
            name not in STOP_WORDS
            and name not in GLUE
            and not a_package(state, name)
            and ATTRIBUTE_NEXT.match(work, more.end(), end)
        ):
            return name, more.start("name"), more.end()
    for clause in _CLAUSE.finditer(work, start, end):
        spans = [
            m.span() for p in _ATTRIBUTES for m in p.finditer(work, clause.start(), clause.end())
        ]
        if not spans:
            continue
        left = [
            w.group()
            for w in _WORD.finditer(work, clause.start(), clause.end())
            if not any(s <= w.start() < e for s, e in spans)
        ]
        if all(w in _ONLY_JOINING for w in left):
            return None, clause.start(), clause.end()
    return None
