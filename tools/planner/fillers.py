"""Slot fillers: when the bank reads a clause no rule took as an operation, find its value.

The bank says what a clause asks ("use kiosk-7 as the hostname" reads as a hostname);
a filler looks for the one value of the right type in the clause's unread words and
plans it. A filler that finds no value, or more than one, plans nothing: the clause is
then reported with what was missing, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oic_ai.stores.targets import load_targets
from oic_ai.tools.planner.lexicon import is_english
from oic_ai.tools.planner.sizes import parse_token
from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Token

_VALUE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9]$")
# an issue tracker's key: a project's capitals, a dash and a number ("OPS-2210")
_TICKET = re.compile(r"^[A-Z]{2,10}-\d{1,6}$")


def _hostname(state: PlanState, tokens: list[Token]) -> bool:
    """One host-shaped word: letters with a digit, a '-' or a '.' ("kiosk-7", "gw1")."""
    valid = load_targets().pattern("hostname")
    found = []
    for token in tokens:
        written = state.text.raw(token.start, token.end).strip(".,;:'\"`")
        if not _VALUE.match(written) or not valid.match(written) or written.isdigit():
            continue

        shaped = bool(re.search(r"\d", written)) and bool(re.search(r"[A-Za-z]", written))
        shaped = shaped or ("-" in written or "." in written) and not is_english(written)
        if shaped and parse_token(written) is None:
            found.append((token, written))
    if len(found) != 1 or _TICKET.match(found[0][1]):
        return False  # (a ticket's key is no host: "OPS-2210 comment: ...")
    token, name = found[0]
    if name == state.facts.hostname:
        state.notes.append(f"the hostname is already {name}")
    else:
        state.hostname = name
    return True


def _disk_size(state: PlanState, tokens: list[Token]) -> bool:
    """One size, when the plan sets no other disk size ("the whole thing should be 20GB")."""
    from oic_ai.tools.planner.rules.disk import set_disk_size
    from oic_ai.tools.planner.rules.storage import owned_elsewhere

    sizes = [(t, parse_token(t.text)) for t in tokens]
    sizes = [(t, s) for t, s in sizes if s is not None]
    if len(sizes) != 1 or not state.facts.partitions:
        return False
    token, size = sizes[0]
    assert size is not None
    if owned_elsewhere(state.text.original, token.start):
        return False  # "need a swap partition, 4G": the swap's size, not the disk's
    if state.disk_size is not None:
        # the same size said twice in one request ("64 gig drives ... sized to 64 gig")
        planned = parse_token(state.disk_size)
        return planned is not None and planned.bytes == size.bytes
    set_disk_size(state, (token.start, token.end), size.bytes, size.text)
    return state.disk_size is not None


# bank label -> (the owner family it counts for, its filler)
FILLERS: dict[str, tuple[str, Callable[[PlanState, list[Token]], bool]]] = {
    "hostname": ("hostname", _hostname),
    "disk-size": ("disk size", _disk_size),
}


def fill(state: PlanState, label: str, tokens: list[Token]) -> str | None:
    """Plan the value of a clause the bank read as ``label``; the owner family, or None."""
    entry = FILLERS.get(label)
    if entry is None or not tokens:
        return None
    owner, filler = entry
    if not filler(state, tokens):
        return None
    state.text.consume(tokens[0].start, tokens[-1].end, owner)
    return owner
