"""Rule: short user forms the sentence reader misses ("ops should have sudo").

Found by a grammar sweep of ways to ask for an account (``bench/vocabulary.py``), not from
a conversation: the name as the subject of a modal ("jdoe must not have sudo", "ops needs
an account"), a name made a role ("add ops as an admin") and rights given to a name ("give
jdoe admin rights"). Each plans the user as the sentence reader would (:func:`plan_user`:
added, or changed when the template has it) and marks the words used. Runs before
:func:`.users.rule_users`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oic_ai.stores.targets import load_targets
from oic_ai.tools.planner.rules.user_plans import plan_user
from oic_ai.tools.planner.state import PlanState

# a user name as a subject or object; the words that are never one come out below
_NAME = r"(?P<name>[a-z_][a-z0-9_-]{1,31})"
_NOT_NAMES = frozenset(
    "it we i you he she they him her them me us myself himself herself themselves "
    "someone somebody everyone everybody nobody this that who which "
    "each every all team admins users root the a an our my their its one image system box "
    "machine host template device server disk kernel build".split()
)
# a word after an article or a possessive is a noun ("the image should have sudo"), no name
_NOUN_BEFORE = re.compile(r"\b(?:the|this|that|these|those|our|my|your|its|their|a|an)\s+$")
# the form is the whole of its sentence: "give facilities sudo and put it in docker" says
# more about the user, and "sudo only for systemctl" limits the rights (a template's sudo
# is all or nothing); the sentence reader reads both
_ALONE = re.compile(r"\s*(?:please|pls|too|as\s+well|thanks)?\s*(?:$|[.;!?\n])")
_RIGHTS = r"(?:sudo|admin|administrator|root)(?:\s+(?:rights|access|privileges|powers))?"
# each form, and the sudo it gives (None: not said)
_FORMS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], bool | None]], ...] = (
    # "ops should have sudo", "jdoe must not have sudo", "ci shouldn't get admin rights"
    (
        re.compile(
            rf"\b{_NAME}\s+(?:(?:should|must|will|needs?\s+to|has\s+to)\s+(?P<neg>not\s+|never\s+)?"
            rf"|(?P<neg2>shouldn't|mustn't|won't)\s+)(?:have|get|be\s+given)\s+{_RIGHTS}\b"
        ),
        lambda match: not (match.group("neg") or match.group("neg2")),
    ),
    # "add ops as an admin", "create kiosk as a regular user"
    (
        re.compile(
            rf"\b(?:add|create|make)\s+{_NAME}\s+(?:as\s+)?an?\s+"
            r"(?:(?P<admin>admin|administrator|sudoer|superuser)"
            r"|(?:regular|normal|standard|plain|unprivileged|non-admin)\s+user)\b"
        ),
        lambda match: bool(match.group("admin")),
    ),
    # "give jdoe admin rights", "grant ops sudo access"
    (re.compile(rf"\b(?:give|grant)\s+{_NAME}\s+{_RIGHTS}\b"), lambda match: True),
    # "ops needs an account", "jdoe needs a login"
    (
        re.compile(rf"\b{_NAME}\s+needs\s+(?:an?\s+)?(?:(?:user\s+)?account|login)\b"),
        lambda match: None,
    ),
)


def rule_user_forms(state: PlanState) -> None:
    """Plan the user each short form names, with sudo as it says."""
    valid = load_targets().pattern("user_name")
    for pattern, sudo in _FORMS:
        for match in state.text.matches(pattern):
            name = match.group("name")
            if name in _NOT_NAMES or not valid.match(name):
                continue
            if not _ALONE.match(state.text.work, match.end()):
                continue
            if _NOUN_BEFORE.search(state.text.work[: match.start("name")]):
                continue  # "the image should have sudo": the sudo package, said of the image
            state.text.consume(*match.span())
            state.user_names.append(name)
            plan_user(state, name, [], sudo(match), None)
