"""A user said to be like another: "same as maria but with bash", "a student02 like ops".

Split from :mod:`oic_ai.tools.planner.rules.users`. The new user gets the other user's
groups, sudo and shell (one the request adds before it, or one the template has, under
the name a rename in the same request gives it), then what is said of it.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.rules.user_plans import renamed_users
from oic_ai.tools.planner.state import PlanState

# "same as maria", "like maria", "with the same settings (as maria)"
SAME_AS = re.compile(
    r"\b(?:(?:just\s+|exactly\s+)?(?:the\s+)?same\s+(?:as|like)\s+|just\s+like\s+|identical\s+to\s+)"
    r"[\"'`]?(?P<name>[a-z_][a-z0-9_-]*)[\"'`]?(?![\w-])"
    r"|\bwith\s+the\s+same\s+(?:settings|groups|permissions|rights|setup|config(?:uration)?)"
    r"(?:\s+as\s+[\"'`]?(?P<name2>[a-z_][a-z0-9_-]*)[\"'`]?(?![\w-]))?"
)
# "add a student02 with the same settings", "create another ops2 just like ops": a new name
# after an article, said to be like another user (no role word needed)
LIKE_NAME = re.compile(
    r"\b(?:create|set\s+up|add|make)\s+(?:a|an|another|one\s+more)\s+(?:new\s+)?"
    r"[\"'`]?(?P<name>[a-z_][a-z0-9_-]*)[\"'`]?(?![\w-])(?=\s*,?\s*(?:too\s+)?"
    r"(?:with\s+the\s+same\s|(?:just\s+|exactly\s+)?like\s|(?:the\s+)?same\s+as\s|identical\s+to\s))"
)

# "add student02 with the same settings as student", "create bob, same as labadmin", "add
# tkaplan: same as maria but with bash", "add ops2 like ops": a new name (no article) said
# to be like another, which must be a user (:func:`a_user`); else "add htop like before"
LIKE_USER = re.compile(
    r"\b(?:create|set\s+up|add|make)\s+(?:(?:a|an|another|one\s+more)\s+)?(?:new\s+)?"
    r"(?:user\s+|account\s+)?[\"'`]?(?P<name>[a-z_][a-z0-9_-]*)[\"'`]?(?![\w-])\s*[,:(]?\s*"
    r"(?:too\s+)?(?:with\s+(?:the\s+)?same\s+(?:settings|groups|permissions|rights|setup|"
    r"config(?:uration)?)\s+as|(?:with\s+)?(?:just\s+|exactly\s+)?(?:the\s+)?same\s+"
    r"(?:settings\s+)?as|(?:just\s+|exactly\s+)?like|identical\s+to)\s+"
    r"[\"'`]?(?P<like>[a-z_][a-z0-9_-]*)[\"'`]?(?![\w-])"
)


def a_user(state: PlanState, name: str) -> bool:
    """True when ``name`` is a user of the template, or one this request adds or renames."""
    return (
        any(u.name == name for u in state.facts.users)
        or any(u.name == name for u in state.users)
        or name in renamed_users(state)
    )


def copied_from(
    state: PlanState,
    names: list[str],
    like: str | None,
    groups: list[str],
    sudo: bool | None,
    shell: str | None,
) -> tuple[list[str], bool | None, str | None]:
    """The groups, sudo and shell of users ``names`` over those of the user they are like.

    ``like`` is that user's name; "" is the one named before ("with the same settings"):
    the last user the request adds, else the one it renames.
    """
    own = (list(groups), sudo, shell)
    if like is None:
        return own
    renamed = renamed_users(state)
    planned = [u for u in state.users if u.name not in names]
    facts = {u.name: u for u in state.facts.users if u.name not in names}
    if like:
        source = next((u for u in planned if u.name == like), None) or facts.get(
            renamed.get(like, like)
        )
    else:
        source = planned[-1] if planned else None
        if source is None and len(renamed) == 1:
            source = facts.get(next(iter(renamed.values())))
    if source is None:
        return own
    sudo = sudo if sudo is not None else bool(source.sudo)
    return [*source.groups, *groups], sudo, shell or source.shell or None
