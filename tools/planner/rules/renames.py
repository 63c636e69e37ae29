"""Rule: an entry of the template renamed, everything else of it kept.

"call the user hub instead of pi, same settings", "rename the account ops to admin",
"the /data partition should be /srv instead", "/srv instead of /data for that partition":
one entry the template has (a user by its name, a partition by its mount point) gets a new
name, and keeps its sudo, groups, shell, size and file system. Only an entry the template
has is renamed: otherwise the words are left to the other rules ("call the user hub" with
no user named before it adds hub).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from oic_ai.tools.edit_plan import SetValue
from oic_ai.tools.planner.rules.user_words import NOT_PRE_NAMES
from oic_ai.tools.planner.state import PlanState

_USER_NAME = r"[a-z_][a-z0-9_-]*"
_MOUNT = r"/(?:[\w/-]|\.(?=[\w/-]))*"  # a dot inside, not the sentence's end


@dataclass(frozen=True)
class _Kind:
    """One kind of entry: how it is called, how its names look, how a rename is written."""

    noun: str
    name: str
    owner: str
    existing: Callable[[PlanState], dict[str, str]]
    path: Callable[[str], str]


def _users(state: PlanState) -> dict[str, str]:
    """Each user's name, and the selector of its entry."""
    return {user.name: f"name={user.name}" for user in state.facts.users if user.name}


def _mounts(state: PlanState) -> dict[str, str]:
    """Each partition's mount point, and the selector of its entry."""
    return {
        p.mount_point: f"id={p.id}" if p.id else f"mountPoint={p.mount_point}"
        for p in state.facts.partitions
        if p.mount_point
    }


_KINDS = (
    _Kind(
        noun=r"(?:users?|accounts?|logins?|user\s*-?names?)",
        name=_USER_NAME,
        owner="user",
        existing=_users,
        path=lambda selector: f"systemConfig.users[{selector}].name",
    ),
    _Kind(
        noun=r"(?:partitions?|mounts?|mount\s*points?|volumes?)",
        name=_MOUNT,
        owner="partition",
        existing=_mounts,
        path=lambda selector: f"disk.partitions[{selector}].mountPoint",
    ),
)

_SAME = (
    r"(?:\s*[,;.]?\s*(?:with\s+)?(?:the\s+)?same\s+(?:settings|options|rights|groups|setup|"
    r"config(?:uration)?|everything|size|file\s*system|fs)(?![\w-])|\s*[,;]?\s*(?:and\s+)?keep\s+(?:everything|the\s+rest|"
    r"(?:its|his|her|their)\s+settings)(?:\s+else)?(?:\s+(?:the\s+same|as\s+it\s+is))?)?"
)


def _patterns(kind: _Kind) -> list[re.Pattern[str]]:
    noun, name = kind.noun, kind.name
    the = r"(?:the\s+|that\s+|this\s+|our\s+)?"
    # which of them, between the article and the noun: "the first user", "the other account"
    which = r"(?:(?:first|second|third|fourth|last|other|main|existing|current)\s+)?"
    new = rf"[\"'`]?(?P<new>{name})[\"'`]?"
    old = rf"[\"'`]?(?P<old>{name})[\"'`]?"
    forms = [
        # "rename the user pi to hub", "rename pi to hub", "rename /data to /srv"
        rf"\brename\s+{the}(?:{noun}\s+)?{old}(?:\s+{noun})?\s+(?:to|as|into)\s+{new}",
        # "call the user hub instead of pi", "name the partition /srv rather than /data",
        # "make the first user 'devops' instead of deploy"
        rf"\b(?:call|name|make|have|set)\s+{the}{which}{noun}\s+{new}\s+"
        rf"(?:instead\s+of|rather\s+than|not)\s+{old}",
        # "make the user deploy 'devops' instead of deploy" (an ordinal resolved to the
        # user it points at: "make the first user 'devops' instead of deploy")
        rf"\b(?:call|name|make|have|set)\s+{the}{noun}\s+{old}\s+{new}\s+"
        rf"(?:instead\s+of|rather\s+than|not)\s+[\"'`]?(?P=old)[\"'`]?(?![\w-])",
        # "the user pi should be called hub", "the /data partition should be /srv instead"
        *(
            # (a bare new name only with "instead": "should be in the spool group" is none)
            rf"\b{the}{subject}\s+(?:should|must|will|shall)\s+be\s+{said}"
            for subject in (rf"{noun}\s+{old}", rf"{old}\s+{noun}")
            for said in (
                rf"(?:called|named|renamed(?:\s+to)?)\s+{new}(?:\s+instead)?",
                rf"{new}\s+instead",
            )
        ),
        # "user should be called devops not dev", "the username must be hub, not pi": the
        # new name, then the old one it replaces
        rf"\b{the}{noun}\s+(?:should|must|will|shall)\s+be\s+(?:(?:called|named|renamed"
        rf"(?:\s+to)?)\s+)?{new}\s*,?\s+(?:and\s+)?(?:not|instead\s+of|rather\s+than)\s+{old}",
        # "change the user pi to hub", "switch the username from pi to hub"
        rf"\b(?:change|switch)\s+{the}{noun}\s+(?:from\s+)?{old}\s+to\s+{new}",
        # "hub instead of pi for the user", "/srv instead of /data as the partition"
        rf"\b{new}\s+(?:instead\s+of|rather\s+than)\s+{old}\s+(?:for|as)\s+{the}{which}{noun}",
        # "user hub instead of pi", "a partition /srv instead of /data"
        rf"\b(?:an?\s+)?{the}{noun}\s+{new}\s+(?:instead\s+of|rather\s+than)\s+{old}",
        # what an entry is, corrected: "their admin is bladmin instead of nwadmin", "it was
        # /data not /var/log", "the log volume should be /srv, not /data" (the old name is
        # an entry the template has; the words before the verb only say which role)
        rf"(?:^|(?<=[\s,;:(]))(?:is|was|'s|be|been|becomes|now)\s+{new}\s*,?\s+"
        rf"(?:and\s+)?(?:not|instead\s+of|rather\s+than|in\s+place\s+of)\s+{old}(?![\w/-])",
    ]
    return [re.compile(form + _SAME) for form in forms]


_COMPILED = [(kind, _patterns(kind)) for kind in _KINDS]

# the template's only user, named by its kind: "put the user back to 'nube'", "change the
# account's name to pablo", "rename the login to ops"
_SOLE_USER = re.compile(
    r"\b(?:change|set|switch|put|rename|make)\s+(?:the\s+|that\s+|this\s+)?"
    r"(?:users?|accounts?|logins?)(?:'s)?\s+(?:(?:user\s*)?name\s+)?(?:back\s+)?(?:to|as|into)\s+"
    rf"[\"'`]?(?P<new>{_USER_NAME})[\"'`]?(?![\w-])"
)
# "change the name to 'pablo', nube sounds weird": a bare "the name" is the user whose old
# name the same request says
_THE_NAME = re.compile(
    r"\b(?:change|set|switch|put)\s+(?:the|its|his|her|their)\s+name\s+(?:back\s+)?to\s+"
    rf"[\"'`]?(?P<new>{_USER_NAME})[\"'`]?(?![\w-])"
)


_USER_NOUN = re.compile(r"\b(?:users?|accounts?|logins?|user\s*-?names?)\b")


def _no_such_user(owner: str, match: re.Match[str], existing: dict[str, str], new: str) -> bool:
    """True when ``match`` renames a user, said with its noun, the template does not have."""
    said = match.group()
    return (
        owner == "user"
        and said.startswith("rename")  # "call the user hub instead of pi" may ask for hub
        and new not in existing
        and new not in NOT_PRE_NAMES
        and _USER_NOUN.search(said) is not None
    )


def rule_renames(state: PlanState) -> None:
    """Rename a user or a partition's mount point the template has; keep the rest of it."""
    for kind, patterns in _COMPILED:
        existing = kind.existing(state)
        for pattern in patterns:
            for match in state.text.matches(pattern):
                old, new = match.group("old"), match.group("new")
                # ("rename the account to pablo": "account" is the noun, not an old name)
                if (
                    old not in existing
                    and old not in NOT_PRE_NAMES
                    and not _USER_NOUN.fullmatch(old)
                    and _no_such_user(kind.owner, match, existing, new)
                ):
                    # "rename the user ops to sre" with no ops: no user is to be renamed
                    state.reject(*match.span(), f"the template has no user {old} to rename")
                    continue
                if old not in existing or new in existing or old == new:
                    continue
                if kind.owner == "user" and new in NOT_PRE_NAMES:
                    continue  # "make the first user sudo instead of ...": no name
                state.text.consume(*match.span(), kind.owner)
                state.values.append(SetValue(path=kind.path(existing[old]), value=new))
                if kind.owner == "user":
                    state.user_names.append(new)
    _rename_sole_user(state)


def _rename_sole_user(state: PlanState) -> None:
    """Rename the one user a sentence points at without its old name (see _SOLE_USER)."""
    existing = _users(state)
    for pattern in (_SOLE_USER, _THE_NAME):
        for match in state.text.matches(pattern):
            new = match.group("new")
            if new in existing:
                continue
            if pattern is _SOLE_USER:
                olds = list(existing) if len(existing) == 1 else []
            else:
                rest = state.text.original[: match.start()] + state.text.original[match.end() :]
                olds = [name for name in existing if re.search(rf"(?<![\w-]){name}(?![\w-])", rest)]
                if olds and olds[0] in (state.facts.hostname, state.facts.image.name):
                    olds = []  # the old name is also the host's or the image's: which one?
            if len(olds) != 1:
                continue
            state.text.consume(*match.span(), "user")
            state.values.append(
                SetValue(path=f"systemConfig.users[{existing[olds[0]]}].name", value=new)
            )
            state.user_names.append(new)
            return
