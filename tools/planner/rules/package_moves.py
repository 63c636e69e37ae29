"""A swap told as news: "zenith dropped apache, they're on nginx now".

People who describe a customer's or a team's setup say what changed as a statement, not
an order: one thing was dropped (or left, or given up), and they are on another now. In one
sentence the two say a swap: the first package goes and the second comes. Each side must
be one name the index, the catalog or the library knows; either side alone asks nothing
here ("we dropped the ball", "they're on holiday now").
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.rules.package_conditions import Resolve
from oic_ai.tools.planner.rules.package_items import only_known
from oic_ai.tools.planner.rules.package_known import known
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, Token, tokenize
from oic_ai.tools.planner.words import FILLER

# a word nothing knows among package names without a comma ("nginx zork podman"): reported
JOINING_WORD = (
    "a word nothing knows, said among package names without a comma: read as joining them, "
    "not as a package; name it on its own if it is one"
)

_END = r"(?=\s*(?:$|[.;,!\n)]|\s+(?:and|but|so|because|since|for)\b))"
# what was given up: "dropped apache", "moved off memcached", "got rid of squid"
_DROPPED = re.compile(
    r"\b(?:dropped|ditched|abandoned|retired|scrapped|got\s+rid\s+of|gave\s+up(?:\s+on)?"
    r"|moved\s+(?:away\s+)?(?:off|from)|switched\s+(?:away\s+)?(?:off|from)|stopped\s+using)\s+"
    r"(?:the\s+|their\s+|our\s+)?(?P<what>[^.;:,()\n\x1f]{1,40}?)" + _END
)
# what they are on now: "they're on nginx now", "we are running chrony now", "now on caddy"
_NOW_ON = re.compile(
    r"\b(?:(?:they|we|it|he|she)\s*(?:'re|’re|\s+are|'s|’s|\s+is)\s+(?:now\s+|all\s+)?"
    r"(?:on|running|using)|(?:they|we)\s+(?:now\s+)?(?:use|run)|now\s+(?:on|uses?|runs?))\s+"
    r"(?:the\s+)?(?P<what>[^.;:,()\n\x1f]{1,40}?)(?:\s+now)?" + _END
)
_SENTENCE_END = re.compile(r"[.!?\n](?:\s|$)")


def _names(state: PlanState, match: re.Match[str]) -> list[Token]:
    """The one known name a statement's ``what`` holds, or nothing."""
    start, end = match.span("what")
    words = [
        t
        for t in tokenize(state.text.work)
        if t.kind == "word" and start <= t.start < end and t.text not in FILLER
    ]
    if len(words) != 1 or not only_known(state, Item("add", words)):
        return []
    return words


def moved_on(state: PlanState, resolve: Resolve) -> None:
    """Remove what a sentence says was dropped and add what it says they are on now."""
    work = state.text.work
    bounds = [0, *(m.end() for m in _SENTENCE_END.finditer(work)), len(work)]
    for start, end in zip(bounds, bounds[1:], strict=False):
        dropped = next(_DROPPED.finditer(work, start, end), None)
        now_on = next(_NOW_ON.finditer(work, start, end), None)
        if dropped is None or now_on is None:
            continue
        gone, come = _names(state, dropped), _names(state, now_on)
        if not gone or not come or gone[0].text == come[0].text:
            continue
        resolve(state, Item("remove", gone, "drop"))
        resolve(state, Item("add", come, "switch"))
        for match in (dropped, now_on):
            state.text.consume(match.start(), match.end(), "context")


def part_of_named(state: PlanState, piece: Item, given: list[str]) -> bool:
    """Take ``piece`` when it is one unknown word that is a part of a name just ``given``.

    "kea dhcp4": "kea" gave kea-dhcp4-server, and "dhcp4", which no index knows, is a part
    of that name, said with it, not another package.
    """
    parts = {part for name in given for part in name.split("-")}
    if len(piece.tokens) != 1 or piece.tokens[0].text not in parts:
        return False
    if known(state, state.text.raw(*piece.span)):
        return False
    state.text.consume(*piece.span)
    return True
