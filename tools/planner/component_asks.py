"""A clause that only names a component to install: "also the labview runtime".

"plus the epson tm-t88 driver", "and the acme sdk too", "we also need the foo agent": a
name and the role of what it names (a driver, a runtime, an SDK, an agent), after a word
that adds it to the request, or after a wish. No rule read a package from it (a name the
catalog, the library or an index knows is read as one before this), so it asks for
something the planner cannot name: it is reported, never taken for a remark, and no
package is made up from its words. "the nvidia driver keeps crashing" says more than a
name and is left to the other readings, and so is "the same driver" (no name at all).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from oic_ai.tools.edit_plan import ClauseOutcome
from oic_ai.tools.planner.state import PlanState

# what a vendor's or a project's piece of software is called by its role
_ROLES = (
    r"drivers?|runtimes?|run-?time|sdks?|agents?|plugins?|plug-ins?|toolkits?|toolchains?"
    r"|firmware|daemon|client"
)
# words that lead a clause adding one more thing, and wishes that ask for one
_LEAD = r"(?:(?:oh|and|also|plus|then|too),?\s+)*"
_WISH = r"(?:(?:we|i)\s+(?:also\s+|will\s+|'ll\s+|would\s+)?(?:need|want|require)s?\s+)?"
_DETERMINER = r"(?:(?:the|a|an)\s+)?"
_NAME = r"[a-z0-9][\w.+-]*"
_TAIL = r"(?:\s+(?:too|as\s+well|also|please|pls|thanks))*"
_FORM = re.compile(
    rf"{_LEAD}{_WISH}{_DETERMINER}(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}})\s+(?:{_ROLES}){_TAIL}"
)
# words of a name that name nothing of their own ("the same driver", "the usual agent")
_NO_NAME = frozenset(
    """same old usual default current existing other new latest right proper correct
    matching original previous whatever that this those these it one stock standard
    is are was were be for with to of in on from by which who what how why when where
    not no any all some more less and also plus then too oh we i need want the a an our
    their its""".split()
)


def asks_for_component(text: str, packages: Iterable[str] = ()) -> bool:
    """True when the clause ``text`` is only a named component asked for (see the module).

    A component whose name words are all parts of one of ``packages`` (the request's and
    the template's) is that package: "we need the oneAPI runtime" beside "apt install
    intel-oneapi-runtime-libs".
    """
    said = " ".join(text.lower().replace("’", "'").split()).strip(" .,;:!?")
    found = _FORM.fullmatch(said)
    if found is None:
        return False
    names = found.group("name").split()
    if any(set(names) <= set(re.split(r"[-_.+]", package)) for package in packages):
        return False
    return not any(word in _NO_NAME for word in names)


def report_component(state: PlanState, text: str, quoted: str) -> ClauseOutcome:
    """Report the clause ``text`` (``quoted`` as the report shows it): nothing was named."""
    entry = f"'{quoted}' — {_REASON}"
    if entry not in state.not_applied:
        state.not_applied.append(entry)
    return ClauseOutcome(text=text, outcome="not_applied", reason=_REASON)


_REASON = (
    "names something to install, but no package the catalog, the library or a synced index "
    "knows was named; name its package (or 'install the package NAME' for a package of your "
    "own repository)"
)
