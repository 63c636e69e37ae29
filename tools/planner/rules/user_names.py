"""The names said after a user's role word: "called ops", ", labadmin", "users: a, b and c".

Split from :mod:`oic_ai.tools.planner.rules.users`, which reads the role words ("user",
"accounts", "an admin") and what is said of each user.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.lexicon import is_english
from oic_ai.tools.planner.rules.user_words import ATTRIBUTE_NEXT, STOP_WORDS, renamed
from oic_ai.tools.planner.rules.user_words import NAME as _NAME

NAMED = re.compile(
    r"\s*[,:—–-]?\s*(?:(?:(?:is|should\s+be|shall\s+be|will\s+be|must\s+be)\s+)?"
    r"(?:called|named|with\s+the\s+name|by\s+the\s+name)\s+"
    # "the runner user, call it 'runner'": the name given to the account just mentioned
    r"|(?:call|name)\s+(?:it|him|her|them)\s+"
    # "the support login should be 'helpdesk'": a quoted name said to be the account's
    r"|(?:is|should\s+be|shall\s+be|will\s+be|must\s+be)\s+(?=[\"'`][a-z_])"
    # the name by its label: "name: ops", "username azureops", "login name: ops"
    # "name's dave", "my name is dave": the name said as the speaker's own
    r"|(?:(?:my|his|her|their|its)\s+)?(?:(?:user|login|account)[\s-]?)?name"
    r"(?:'s|\s+is|\s+will\s+be|\s+should\s+be)?\s*[:=]?\s*)" + _NAME
)
# "a user ops", or set off by commas: "an admin, labadmin, in the sudo group"
_DIRECT = re.compile(
    r"\s+(?![:=])"
    + _NAME
    + r"|\s*,\s*"
    + _NAME.replace("name>", "name2>")
    + r"(?=\s*(?:,|\band\b|&))"
    # "user: ops", "user = dan"
    + r"|\s*[:=]\s*"
    + _NAME.replace("name>", "name3>")
    # "the operator account (ops1)", "me (jlee)"
    + r"|\s*\(\s*(?P<name4>[a-z_][a-z0-9_-]*)\s*\)"
)
# a word that only asks, right after the role word: "a user pls, called kiosk"
# "an account too, 'instructor'"
ASKING = re.compile(r"\s+(?:pls|plz|please|too|also|as\s+well)\b,?")
FOR = re.compile(r"\s+for\s+" + _NAME)
# "an account for me, priya, with sudo": the speaker's own name set off after "me"
_FOR_ME = re.compile(r"\s+for\s+(?:me|myself)\s*(?:,|:|\s[—–-]+)\s*" + _NAME)
_MORE_NAMES = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)" + _NAME)
_SPACED = re.compile(r"[ \t]+" + _NAME)
GROUP_WORD_NEXT = re.compile(r"\s*groups?\b")


# "users log in", "accounts sign on": a verb and its particle after a role word
_PHRASAL_VERBS = frozenset("log logs sign signs check checks come comes get gets".split())
_PHRASAL = re.compile(r"\s+(?:in|on|into|onto|out|through|via)\b")


def names_after(work: str, at: int, limit: int, role: str) -> tuple[list[str], int]:
    """The names after a role word ("called ops", ", labadmin", "for tester1 and tester2")."""
    if asking := ASKING.match(work, at, limit):
        at = asking.end()
    found = NAMED.match(work, at, limit)
    if found is None:
        found = _FOR_ME.match(work, at, limit) or FOR.match(work, at, limit)
        if found is not None and (
            found.group("name") in STOP_WORDS or _COLON_NAME.match(work, found.end(), limit)
        ):
            # "users for Acme: deploy, monitor": who the accounts are for, then their names
            found = _NAMED_LATER.search(work, at, limit)
            if found is None and (comma := _COMMA_NAME.match(work, at, limit)):
                # "one for the dentist, drchen.": a name of no English word after a comma
                found = None if is_english(comma.group("name")) else comma
    if found is None and role != "another":
        found = _DIRECT.match(work, at, limit)
        if found is not None and (found.group("name") or "") in STOP_WORDS:
            # "one login per technician: tech1, tech2": the names after a colon later on
            later = _COLON_LATER.match(work, at, limit)
            if later is not None and later.group("name") not in STOP_WORDS:
                found = later or found
    groups = found.groupdict() if found else {}
    first = groups.get("name") or groups.get("name2") or groups.get("name3") or groups.get("name4")
    # "called admin", "users: admin, ...": a role word said as the name is the name
    explicit = found is not None and (
        found.re is NAMED
        or bool(groups.get("name3"))
        # "user admin with sudo": a role word as the name, said of with attributes
        or (found.re is _DIRECT and bool(ATTRIBUTE_NEXT.match(work, found.end(), limit)))
    )
    stop = STOP_WORDS - ROLE_NAMES if explicit else STOP_WORDS
    if found is None or first is None or first in stop or (not explicit and _adverb(first)):
        return [], at
    if not explicit and _PHRASAL.match(work, found.end(), limit) and first in _PHRASAL_VERBS:
        return [], at  # "users log in via LDAP": what the users do, never a name
    names, end = [first], found.end()
    if (
        role.endswith("s")
        or FOR.match(work, at, limit)
        or groups.get("name3")
        or found.re is _COLON_LATER
    ):
        # "users alice bob carol": after a plural role word, names with only spaces between
        spaced = role.endswith("s") and found.re is _DIRECT and first == groups.get("name")

        def following(at: int) -> re.Match[str] | None:
            more = _MORE_NAMES.match(work, at, limit)
            return more or (_SPACED.match(work, at, limit) if spaced else None)

        while (more := following(end)) and more.group("name") not in stop:
            if GROUP_WORD_NEXT.match(work, more.end()):
                break  # "..., docker group": a group of the user, not another user
            names.append(more.group("name"))
            end = more.end()
    return renamed(work, names, end, limit)


def _adverb(word: str) -> bool:
    """True for an English adverb in -ly ("lock the root account completely"), no name.

    Its stem of four letters or more must be an English word ("complete", "happy"):
    "holly", "emily" and "billy" stay names.
    """
    stem = word[:-3] + "y" if word.endswith("ily") else word[:-2]
    return word.endswith("ly") and len(stem) >= 4 and is_english(stem)


# "one login per technician: tech1, tech2", "user me = dan": the name after a colon or "="
_COLON_LATER = re.compile(r"[^;.:=\x1f]*?[:=]\s*" + _NAME)
# ": deploy (sudo)" right after "for Acme": a name after the colon, not an attribute
_COLON_NAME = re.compile(
    r"\s*:\s*(?!(?:with|without|no|sudo|admin|root|both|all|each|she|he|they|it|give|gets?"
    r"|needs?|has)\b)[\"'`]?[a-z_]"
)
# "... for the dentist, drchen." : a name alone after the comma, ending its clause
_COMMA_NAME = re.compile(
    r"[^;.,:\x1f]*?,\s*[\"'`]?(?P<name>[a-z_][a-z0-9_-]*)[\"'`]?(?=\s*(?:$|[,;.?!\x1f]))"
)
# role words that are also common account names
ROLE_NAMES = frozenset(("admin", "administrator"))
# "an account for the field techs, call it ftech", "a user for our technicians: tech"
_NAMED_LATER = re.compile(
    r"[^;.\x1f]*?(?:\b(?:called|named|(?:call|name)\s+(?:it|him|her|them))\s+"
    r"|:\s*(?:(?:(?:user|login|account)[\s-]?)?name\s*[:=]?\s*)?|\s[—–]\s*|\(\s*)" + _NAME
)
