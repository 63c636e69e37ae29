"""Rule: words about a user the template does not have, and what a cut password leaves.

"put ops in the docker group" with no user ops changes no user: it is reported (the
name is never read as a package to install). A password cut before the rules read the
request leaves its word ("create ops with a password", see :mod:`..redact`) so the user
rules see an account; what is left of it after them is used up here (the warning says it).
"""

from __future__ import annotations

import re

from oic_ai.stores.operation_bank import load_bank_data
from oic_ai.tools.planner.rules.user_plans import plan_user
from oic_ai.tools.planner.rules.user_words import STOP_WORDS
from oic_ai.tools.planner.state import PlanState

_GROUP_NAMES = r"[a-z_][\w-]*(?:\s*(?:,|\band\b|&)\s*[a-z_][\w-]*)*"
# "put ops in the docker group", "add jenkins to groups docker and adm", "ops should be
# in the wheel group"
_IN_GROUPS = re.compile(
    r"(?:\b(?:put|add|place|move|stick)\s+(?P<name>[a-z_][a-z0-9_-]*)\s+(?:in|into|to)"
    r"|(?<![\w-])(?P<subject>[a-z_][a-z0-9_-]*)\s+(?:should|must|needs?\s+to|has\s+to)\s+be"
    r"\s+(?:in|a\s+member\s+of|part\s+of))"
    rf"\s+(?:the\s+)?(?:{_GROUP_NAMES}\s+groups?|groups?\s+{_GROUP_NAMES})(?![\w-])"
)
# a user asked for with its rights but no name: "create an admin with sudo", "add a user
# with root access" (the sudo said is the user's, never a package to install)
_NAMELESS = re.compile(
    r"\b(?:an?|one|another|some)\s+(?:(?:new|more|extra|second|separate)\s+)?"
    r"(?:(?:admin|administrator|sudo|privileged|regular|normal|standard)\s+)?"
    r"(?:users?|accounts?|logins?|admins?|administrators?|sudoers?)\s+"
    r"(?:with|having|who\s+(?:has|gets)|that\s+(?:has|gets))\s+(?:full\s+|passwordless\s+)?"
    r"(?:sudo|admin|root)\b(?:\s+(?:rights|access|privileges|powers))?"
    # named after all: "a user with sudo named ops", "..., call it ops"
    r"(?![^;.!?\x1f]*\b(?:called|named|call\s+(?:it|him|her)|name\s+(?:it|him|her))\b)"
)
_NAMELESS_REASON = (
    "a user was asked for without a name; say its name, as in 'add a user ops with sudo'"
)
# rights given to a pronoun no user was named before: "give him sudo" alone
_POINTED = re.compile(
    r"\b(?:give|grant)\s+(?P<who>him|her|them)\s+(?:full\s+|passwordless\s+)?"
    r"(?:sudo|admin|administrator|root)\b(?:\s+(?:rights|access|privileges|powers))?"
)
# a user's SSH key said with the user, by its path or URL or as one of its attributes
# ("add user ops with the ssh key at /srv/ops.pub"): reported alone, the user still added
_KEY_WORDS = r"(?:ssh[\s-]+(?:public[\s-]+)?keys?|authori[sz]ed[_\s-]?keys?)"
_USER_KEY = re.compile(
    r"\b(?:(?:with|and|using|plus)\s+)?(?:(?:an?|the|my|our|his|her|their|its|this)\s+)?"
    rf"(?:{_KEY_WORDS}|public\s+keys?)(?:\s+(?:for|of)\s+[a-z_][\w-]*)?"
    r"\s*(?:(?:from|at|in|is|=|:)\s*)?(?:https?://|/|~|\$)\S*(?<![,;.])"
    rf"|\b(?:with|and|plus)\s+(?:an?|the|his|her|their|its)\s+{_KEY_WORDS}"
)
_PASSWORD_LEFT = re.compile(
    r"(?:\b(?:with|and|using|use|set|having)\s+)?(?:(?:the|a|an|his|her|their|its)\s+)?"
    r"(?:(?:root|user|login|initial|default|admin)\s+)?\bpassword\b"
    # the word left by a cut is followed by the blanked value, a stop or the end
    r"(?=\s{2,}|\s*$|\s*[,;.!?\x1f])"
)


def rule_user_keys(state: PlanState) -> None:
    """Report a user's SSH key said beside the user, and only the key."""
    label = load_bank_data().labels.get("ssh-keys")
    for match in state.text.matches(_USER_KEY):
        if label is not None:
            state.reject(*match.span(), label.reason)


def after_users(state: PlanState) -> None:
    """What the user rules leave: users the template lacks, the word of a cut password."""
    absent_users(state)
    nameless_users(state)
    password_left(state)


_DETERMINED = re.compile(r"\b(?:our|the|their|my|your|all|these|those|its|his|her)\s+$", re.I)


def absent_users(state: PlanState) -> None:
    """Report group changes for users neither the template nor the request has."""
    known = {u.name for u in state.facts.users} | {u.name for u in state.users}
    for match in state.text.matches(_IN_GROUPS):
        name = match.group("name") or match.group("subject")
        if name in known or name in STOP_WORDS:
            continue
        if match.group("subject") and _DETERMINED.search(state.text.original[: match.start()]):
            continue  # "our runners need to be in the docker group": people, not a name
        state.reject(
            *match.span(),
            f"the template has no user {name}; to add one, say 'add user {name}' with its groups",
        )


def nameless_users(state: PlanState) -> None:
    """Report a user asked for with its rights but no name (nothing is guessed)."""
    for match in state.text.matches(_NAMELESS):
        state.reject(*match.span(), _NAMELESS_REASON)
    only = [u.name for u in state.facts.users] if not state.users else []
    for match in state.text.matches(_POINTED):
        who = match.group("who")
        if len(only) == 1 and who != "them":  # the template's one user: "give him sudo"
            state.text.consume(*match.span())
            state.user_names.append(only[0])
            plan_user(state, only[0], [], True, None)
            continue
        state.reject(*match.span(), f"no user is named for '{who}'; say whose: 'give ops sudo'")


def password_left(state: PlanState) -> None:
    """Use up the word a cut password left where no user rule read it."""
    if not any("password" in w for w in state.warnings):
        return  # no password was cut: "the pam password quality module" is a package's
    for match in state.text.matches(_PASSWORD_LEFT):
        state.text.consume(*match.span())
