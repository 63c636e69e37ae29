"""Removing users, or taking a user out of groups: "remove tester2", "drop bob from wheel".

Split from :mod:`oic_ai.tools.planner.rules.users` (which reads users asked for). Only a
user the template has is removed; a pronoun ("remove him", "her account") stands for the
user of the template the request named before it.
"""

from __future__ import annotations

import re

from oic_ai.tools.edit_plan import DeleteValue, SetValue
from oic_ai.tools.planner.rules.user_plans import leave_groups
from oic_ai.tools.planner.rules.user_words import GROUPS as _GROUPS
from oic_ai.tools.planner.rules.user_words import KNOWN_GROUPS as _KNOWN_GROUPS
from oic_ai.tools.planner.rules.user_words import NAME as _NAME
from oic_ai.tools.planner.rules.user_words import SHELLS, join_spoken
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import TAKE_OUT

REMOVING = rf"\b(?:{TAKE_OUT}|rm|forget(?:\s+about)?)\s+"
_REMOVE_USER = re.compile(
    REMOVING
    # "remove that cashier user", "drop this test account": a demonstrative as "the"
    + r"(?:(?:the|that|this|those|these)\s+)?(?:(?:users?|accounts?|logins?)\s+)?"
    + _NAME
    + r"(?:\s+(?:user|account|login)(?![\w-]))?"
)
# more names after the first one removed: "remove the users alice and bob"
_MORE_REMOVED = re.compile(
    r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)(?P<name>[a-z_][a-z0-9_-]*)(?![\w-])"
)
# "remove bob from the docker group", "take runner out of the docker and video groups":
# the user stays, the groups go
_OUT_OF_GROUPS = re.compile(
    rf"\s+(?:from|out\s+of)\s+(?:the\s+|its\s+|his\s+|her\s+|their\s+)?"
    rf"(?:(?P<g1>{_GROUPS})\s+groups?\b|groups?\s+(?P<g2>{_GROUPS})"
    # a system group by its name alone: "remove bob from wheel"
    rf"|(?P<g3>(?:{_KNOWN_GROUPS})(?:\s*(?:,|\band\b|&|\+)\s*(?:{_KNOWN_GROUPS}))*)(?![\w-]))"
)
_POSSESSIVES = frozenset(("her", "his", "their", "its"))
_OBJECTS = frozenset(("him", "her", "them"))
_ROLE_AFTER = re.compile(r"\s+(?:user|account|login)(?![\w-])")


# a user of the template kept as it is, said next to a removal: "Remove it. Keep ocpp."
_KEEP_USER = re.compile(
    r"\b(?:keep|leave|retain)\s+(?:the\s+)?(?:(?:users?|accounts?|logins?)\s+)?"
    + _NAME
    + r"(?:\s+(?:user|account|login))?(?:\s+(?:as\s+(?:it\s+is|is)|alone|though))?"
    r"(?=[\s\x1f]*(?:$|[,;!?]|\.(?:\s|$)))"
)


# users that must not exist: "there's no testuser or secureuser account", "no guest
# login", "no account named demo", "no user called test or demo on it"
_ROLE = r"(?:users?|accounts?|logins?)"
_NONE_OF = re.compile(
    r"\b(?:(?:there(?:'s|\s+is|\s+are)|with|has|have)\s+)?no\s+(?:"
    rf"{_ROLE}\s+(?:(?:called|named)\s+)?(?P<after>{_NAME}(?:\s*(?:,|/|\bor\b|\band\b|\bnor\b)\s*"
    rf"[\"'`]?[a-z_][a-z0-9_-]*[\"'`]?)*)"
    rf"|(?P<before>[\"'`]?[a-z_][a-z0-9_-]*[\"'`]?(?:\s*(?:,|/|\bor\b|\band\b|\bnor\b)\s*"
    rf"[\"'`]?[a-z_][a-z0-9_-]*[\"'`]?)*)\s+{_ROLE}(?![\w-]))"
)
_NAME_LIST = re.compile(r"\s*(?:,|/|\bor\b|\band\b|\bnor\b)\s*")
# users to remove only if they are there: "if there are admin / testuser entries from a
# sample, remove them", "should there be a guest or demo login, delete it"
_ONE = r"[\"'`]?[a-z_][a-z0-9_-]*[\"'`]?"
_IF_THERE = re.compile(
    r"\b(?:if|in\s+case|should|wherever|where)\s+there(?:'s|\s+is|\s+are|\s+be)\s+(?:any\s+|an?\s+|the\s+)?"
    rf"(?P<names>{_ONE}(?:\s*(?:,|/|\bor\b|\band\b)\s*{_ONE})*)\s+"
    r"(?:(?:user|login)\s+)?(?:users?|accounts?|logins?|entries|entry)\b[^,;.!?\x1f]{0,40}?"
    rf"[\s\x1f]*[,;:]?[\s\x1f]*(?:then\s+|please\s+|just\s+)*(?:{TAKE_OUT})\s+"
    r"(?:them|those|these|it|that|each\s+of\s+them)(?:\s+(?:all|too|as\s+well))?\b"
)
_NAMED = re.compile(r"[a-z_][a-z0-9_-]*")
# every user at once, maybe but some: "remove all users except ops", "drop both accounts",
# "delete every user but ops and deploy"
_ALL_USERS = re.compile(
    REMOVING + r"(?P<all>all\s+(?:of\s+)?(?:the\s+)?|every\s+|both\s+(?:of\s+)?(?:the\s+)?|each\s+)"
    r"(?:(?:other|extra)\s+)?(?:users?|accounts?|logins?)(?![\w-])"
    r"(?:\s*,?\s*(?:except(?:\s+for)?|but(?:\s+not)?|other\s+than|apart\s+from|besides|save)"
    rf"\s+(?P<kept>{_ONE}(?:\s*(?:,|\band\b|&)\s*{_ONE})*))?(?![\w-])"
)
_NO_NAMES = frozenset("a an the any other extra default sample test new such more".split())


def _absent_users(state: PlanState, existing: set[str]) -> None:
    """Remove the users the request says must not be there; one not there needs nothing."""
    for match in [*state.text.matches(_IF_THERE), *state.text.matches(_NONE_OF)]:
        listed = match.group("names") if match.re is _IF_THERE else None
        listed = listed or match.group("after") or match.group("before") or ""
        names = [n.strip("`'\"") for n in _NAME_LIST.split(listed) if n.strip("`'\"")]
        if not names or any(n in _NO_NAMES or not _NAMED.fullmatch(n) for n in names):
            continue  # "no other accounts", "no default user": no names
        state.text.consume(*match.span())
        for name in names:
            if name in existing:
                state.values.append(DeleteValue(path=f"systemConfig.users[name={name}]"))
                state.user_names.append(name)
            else:
                state.notes.append(f"there is no user {name} in the template: nothing to remove")


# "take fish off devops-admin", "remove zsh from ops", "drop the fish shell from bob": a
# user's login shell taken away; the user stays
_SHELL_OFF = re.compile(
    rf"(?:{TAKE_OUT}|take)\s+(?:the\s+)?(?P<shell>(?:/(?:usr/)?s?bin/)?(?:{SHELLS}))"
    r"(?:\s+(?:login\s+)?shell)?\s+(?:off|from|away\s+from)\s+(?:the\s+user\s+)?" + _NAME
)
# the shell said instead, in the same request: "/bin/bash is fine", "give him bash instead"
_OTHER_SHELL = re.compile(r"(?<![\w/])(?P<path>/(?:usr/)?s?bin/[a-z0-9_-]+)(?![\w/])")


def take_shells_off(state: PlanState) -> None:
    """Give a user whose shell is taken off the shell said instead, or the default one."""
    text = state.text
    existing = {u.name: u for u in state.facts.users}
    for match in text.matches(_SHELL_OFF):
        name, shell = match.group("name"), match.group("shell")
        user = existing.get(name)
        if user is None or not user.shell or shell.rsplit("/", 1)[-1] not in user.shell:
            continue
        text.consume(*match.span())
        path = f"systemConfig.users[name={name}].shell"
        other = [m for m in text.matches(_OTHER_SHELL) if m["path"] != user.shell]
        if len(other) == 1:
            text.consume(*other[0].span())
            state.values.append(SetValue(path=path, value=other[0]["path"]))
        else:
            state.values.append(DeleteValue(path=path))


def remove_users(state: PlanState) -> None:
    """Remove the users of the template the request names after a verb of removal.

    "Keep ocpp" for a user the template has asks for nothing: it is read as context.
    A user said not to exist ("make sure there's no testuser account") is removed when the
    template has it; when it has not, nothing is to do.
    """
    existing = {u.name for u in state.facts.users}
    _absent_users(state, existing)
    for kept in state.text.matches(_KEEP_USER):
        if kept.group("name") in existing:
            state.text.consume(*kept.span(), "context")
    _all_users(state, existing)
    for match in state.text.matches(_REMOVE_USER):
        name = match.group("name")
        pointed = (
            name in _POSSESSIVES and _ROLE_AFTER.match(state.text.work, match.end("name"))
        ) or name in _OBJECTS
        if name == "it":
            name = _the_user_just_named(state, match.start()) or name
        elif pointed:
            # "ops2 left the team. Remove her account", "marek quit, delete him": the user
            # of the template the request named before the pronoun ("them": every one)
            before = state.text.original.lower()[: match.start()]
            named = sorted(
                n for n in existing if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", before)
            )
            if name == "them" and named:
                _remove(state, match, named)
                continue
            name = named[0] if len(named) == 1 else name
        if name not in existing:
            continue
        if out := _OUT_OF_GROUPS.match(state.text.work, match.end()):
            state.text.consume(match.start(), out.end())
            listed = out.group("g1") or out.group("g2") or out.group("g3") or ""
            groups = [
                g.strip("`'\"")
                for g in re.split(r"\s*(?:,|\band\b|&|\+)\s*", join_spoken(listed))
                if g
            ]
            leave_groups(state, name, groups)
            state.user_names.append(name)
            continue
        removed = [name]
        end = match.end()
        while (more := _MORE_REMOVED.match(state.text.work, end)) and more.group(
            "name"
        ) in existing:
            state.text.consume(*more.span())
            removed.append(more.group("name"))
            end = more.end()
        _remove(state, match, removed)


def _all_users(state: PlanState, existing: set[str]) -> None:
    """Remove every user of the template but those kept ("all users except ops")."""
    for match in state.text.matches(_ALL_USERS):
        kept = [
            n.strip("`'\"") for n in re.split(r"\s*(?:,|\band\b|&)\s*", match.group("kept") or "")
        ]
        kept = [n for n in kept if n]
        if any(n not in existing for n in kept):
            continue  # "all users but the admins": no user of the template named
        if match.group("all").startswith("both") and len(existing) != 2:
            continue  # "both users" of a template that has not two: which two is unsaid
        gone = sorted(n for n in existing if n not in kept)
        if gone:
            _remove(state, match, gone)
        else:
            state.text.consume(*match.span())
            others = " other" if kept else ""
            state.notes.append(f"the template has no{others} users: nothing to remove")


_SENTENCE_BREAK = re.compile(r"[.!?;](?:\s|$)|\n")


def _the_user_just_named(state: PlanState, at: int) -> str | None:
    """The user "it" stands for in "... the 'service' account. Remove it.", or None.

    Only a user of the template named with its role word ("the 'service' account", "user
    bob") in the same sentence as "it" or the one just before, and nothing else named
    as a user there: "htop is useless, remove it" names no user and stays for packages.
    """
    lower = state.text.original.lower()
    breaks = [m.end() for m in _SENTENCE_BREAK.finditer(lower, 0, at)]
    since = breaks[-2] if len(breaks) > 1 else 0
    window = lower[since:at]
    named = {
        u.name
        for u in state.facts.users
        if re.search(
            rf"(?:\b(?:user|account|login)\s+[\"'`]?{re.escape(u.name)}[\"'`]?(?![\w-])"
            rf"|(?<![\w-])[\"'`]?{re.escape(u.name)}[\"'`]?\s+(?:user|account|login)\b)",
            window,
        )
    }
    return named.pop() if len(named) == 1 else None


def _remove(state: PlanState, match: re.Match[str], names: list[str]) -> None:
    state.text.consume(*match.span())
    for gone in names:
        state.values.append(DeleteValue(path=f"systemConfig.users[name={gone}]"))
        state.user_names.append(gone)
