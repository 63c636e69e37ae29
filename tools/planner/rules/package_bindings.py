"""A language's modules named by their own name: "python3 with numpy" is python3-numpy.

People name a language's libraries as the language's own installer spells them ("numpy",
"scipy", "matplotlib"), while a distribution packages them under the language's prefix
("python3-numpy" in both families). When the sentence names the language and a name is
no package the target knows, the prefixed name is used, but only where the target's
family knows it: a module nobody packages stays unread and is reported, never added.
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.rules.package_apply import apply_names
from oic_ai.tools.planner.rules.package_known import known
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item

# a language, and the prefix a distribution packages its modules under
_LANGUAGE = r"(?:python\s*3?|py3)"
_PREFIX = "python3-"
_NAME = r"[A-Za-z][\w.-]*"
# "python3 with numpy, scipy and matplotlib", "the python modules requests, yaml": the list
# runs from the language to the name after its "and" (or to the end of the sentence)
_AFTER = re.compile(
    rf"(?<![\w-]){_LANGUAGE}(?:\s+(?:modules?|librar(?:y|ies)|libs?|packages?))?"
    rf"(?:\s*:|\s+(?:with|plus|including|incl\.?|\+))\s+"
    rf"(?P<list>{_NAME}(?:\s*,\s*(?!and\b){_NAME})*(?:,?\s+(?:and|&)\s+{_NAME})?)",
    re.IGNORECASE,
)
# "numpy and pandas for python3", "requests, yaml (python modules)": a list that ends at
# the language it is for
_BEFORE = re.compile(
    rf"(?P<list>{_NAME}(?:\s*,\s*{_NAME})*(?:,?\s+(?:and|&)\s+{_NAME})?)\s+"
    rf"(?:\(?\s*(?:for|in)\s+{_LANGUAGE}|\(\s*{_LANGUAGE}\s+(?:modules?|librar(?:y|ies)))",
    re.IGNORECASE,
)


def _module_spans(said: str) -> list[tuple[int, int]]:
    return [m.span("list") for pattern in (_AFTER, _BEFORE) for m in pattern.finditer(said)]


def module_name(state: PlanState, item: Item, name: str) -> str | None:
    """The packaged name of the language module ``name``, in a list of the language's modules.

    None when ``name`` is itself a known package, has the prefix already, is not in a list
    the request says is the language's, or the target's family knows no such module.
    """
    lowered = name.lower()
    if not re.fullmatch(r"[a-z][a-z0-9_.-]{1,40}", lowered) or lowered.startswith(_PREFIX):
        return None
    if known(state, name):
        return None
    if not any(s <= item.span[0] < e for s, e in _module_spans(state.text.original)):
        return None
    packaged = _PREFIX + lowered.replace("_", "-")
    return packaged if known(state, packaged, as_written=False) else None


def apply_module(state: PlanState, item: Item, name: str) -> bool:
    """Add (or remove) ``name`` as its language's packaged module; True when it was one."""
    packaged = module_name(state, item, name)
    if packaged is None:
        return False
    apply_names(state, item, name, [packaged])
    return True


# a language written by its one capital letter in a list of programs: "R, python3, gnuplot"
_ONE_LETTER = {"R": "r-language"}


def one_letter_language(state: PlanState, item: Item) -> str | None:
    """The capability a list item names by a language's one capital letter ("R"), if any.

    Only the letter alone, written in capitals, as an item of a list (a comma or "and"
    beside it): "R, python3 with numpy" asks for R; "plan R" or "r/w" never does.
    """
    words = [t for t in item.tokens if t.kind == "word"]
    if len(words) != 1:
        return None
    token = words[0]
    capability = _ONE_LETTER.get(state.text.raw(token.start, token.end))
    if capability is None or capability not in state.catalog.capabilities:
        return None
    said = state.text.original
    asked = re.search(r"\b(?:install|add|with|plus|and|need|want)\s+$", said[: token.start])
    before = re.search(r"([\w.+-]+)\s*(?:,|\band|&|:)\s*$", said[: token.start])
    after = re.match(r"\s*(?:,|\band\b|&)\s*([\w.+-]+)", said[token.end :])
    beside = [m.group(1) for m in (before, after) if m is not None]
    listed = asked is not None and asked.group().split()[0] != "and"
    listed = listed or any(known(state, w) or known(state, w.lower()) for w in beside)
    return capability if listed else None
