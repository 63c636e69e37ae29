"""Rule: users, with sudo, groups and shell ("add a user ops with sudo")."""

from __future__ import annotations

import re

from oic_ai.stores.targets import load_targets
from oic_ai.tools.edit_plan import AddUser, SetValue
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.words import CLAUSE_END

_USER = re.compile(
    r"\b(?:(?:add|create|with|include|plus|make|new)\s+)?(?:(?:a|an|one)\s+)?(?:new\s+)?"
    r"(?:(?P<admin>sudo|admin|administrator|privileged|sudoer|root-capable)\s+)?"
    r"(?:user|account)(?:\s+account)?(?:\s+(?:called|named|with\s+(?:the\s+)?name))?"
    r"\s+[\"'`]?(?P<name>[^\s,;\"'`\x1f]+?)[\"'`]?(?=$|[\s,;\x1f]|[.!?](?:\s|$))"
)
_NOT_USER_NAMES = frozenset(
    (
        "data account accounts with and the in to for called named group groups password "
        "login space namespaces management session"
    ).split()
)
_GROUP_NAME = (
    r"(?!(?:add|install|remove|with|set|make|then|and|shell|group|groups|as)\b)[a-z_][a-z0-9_-]*"
)
_GROUP_LIST = rf"{_GROUP_NAME}(?:\s*(?:,|\band\b|&)\s*{_GROUP_NAME})*"
_USER_ATTRS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "sudo",
        re.compile(
            r"(?:\s*,)*\s*(?:and\s+)?(?:(?:with|has|having|gets?)\s+)?(?:(?:full\s+)?(?:sudo|root|admin|"
            r"administrator)(?:\s+(?:rights|access|privileges|permissions|powers))?|"
            r"as\s+(?:an?\s+)?(?:admin|administrator|sudoer))" + CLAUSE_END
        ),
    ),
    (
        "groups",
        re.compile(
            r"(?:\s*,)*\s*(?:and\s+)?(?:(?:in|to|into|of)\s+(?:the\s+)?(?P<g1>"
            + _GROUP_LIST
            + r")\s+groups?|(?:(?:in|to|into)\s+(?:the\s+)?|member\s+of\s+(?:the\s+)?|with\s+)?"
            r"groups?\s*[:=]?\s*(?P<g2>"
            + _GROUP_LIST
            + r")|member\s+of\s+(?:the\s+)?(?P<g3>"
            + _GROUP_LIST
            + r"))"
            + CLAUSE_END
        ),
    ),
    (
        "shell",
        re.compile(
            r"(?:\s*,)*\s*(?:and\s+)?(?:(?:with|using)\s+)?(?:(?:the|a)\s+)?(?:(?:login\s+)?shell\s*[:=]?\s*"
            r"(?P<s1>/[a-z0-9/_-]+|bash|zsh|sh|fish|dash|ksh|tcsh)|(?P<s2>/[a-z0-9/_-]+|bash|zsh|sh|"
            r"fish|dash|ksh|tcsh)\s+(?:as\s+(?:the\s+)?)?(?:login\s+)?shell)" + CLAUSE_END
        ),
    ),
)


def rule_users(state: PlanState) -> None:
    """Add users (or change existing ones) with sudo, groups and shell."""
    for match in state.text.matches(_USER):
        name = match.group("name")
        if name in _NOT_USER_NAMES:
            continue
        end = match.end()
        sudo = match.group("admin") is not None
        groups: list[str] = []
        shell: str | None = None
        progressed = True
        while progressed:
            progressed = False
            for kind, pattern in _USER_ATTRS:
                attr = pattern.match(state.text.work, end)
                if attr is None or attr.end() == end:
                    continue
                if kind == "sudo":
                    sudo = True
                elif kind == "groups":
                    listed = attr.group("g1") or attr.group("g2") or attr.group("g3") or ""
                    groups += [g for g in re.split(r"\s*(?:,|\band\b|&)\s*", listed) if g]
                else:
                    value = attr.group("s1") or attr.group("s2") or ""
                    shell = value if value.startswith("/") else f"/bin/{value}"
                end = attr.end()
                progressed = True
        if any(g in ("sudo", "wheel") for g in groups):
            sudo = True
        groups = list(dict.fromkeys(groups))
        if not load_targets().pattern("user_name").match(name):
            state.reject(
                match.start(),
                end,
                f"{name!r} is not a valid user name (lower-case letters, digits, '_' or '-')",
            )
            continue
        state.text.consume(match.start(), end)
        _plan_user(state, name, groups, sudo, shell)


def _plan_user(
    state: PlanState, name: str, groups: list[str], sudo: bool, shell: str | None
) -> None:
    existing = next((u for u in state.facts.users if u.name == name), None)
    if existing is None:
        if any(u.name == name for u in state.users):
            return
        state.users.append(AddUser(name=name, groups=groups, sudo=sudo, shell=shell))
        return
    path = f"systemConfig.users[name={name}]"
    changed = False
    merged = list(dict.fromkeys([*existing.groups, *groups]))
    if len(merged) != len(existing.groups):
        state.values.append(SetValue(path=f"{path}.groups", value=merged))
        changed = True
    if sudo and not existing.sudo:
        state.values.append(SetValue(path=f"{path}.sudo", value=True))
        changed = True
    if shell and shell != existing.shell:
        state.values.append(SetValue(path=f"{path}.shell", value=shell))
        changed = True
    if not changed:
        state.notes.append(f"user {name} already exists as asked")
