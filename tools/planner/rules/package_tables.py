"""Packages in a pasted table's row: "| extra rpms | podman, tmux, git |".

A requirements table pasted from a wiki or a change ticket gives its packages as a row:
a cell that labels the row as packages ("Packages", "extra rpms", "additional pkgs",
"Software") and the cell after it, which lists the names. Each name there is read as a
package to add, marked as strongly as "install X" marks it; the other cells of the row
(an owner, a row number) are left to the other readings.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Item, split_items, tokenize
from oic_ai.tools.planner.words import FILLER

Resolve = Callable[[PlanState, Item], None]

# a table's row: cells between pipes on one line
_ROW = re.compile(r"(?m)^[ \t]*\|(?P<cells>.*)\|[ \t]*$")
# the cell that labels a row as packages
_LABEL = re.compile(
    r"(?:(?:extra|additional|more|required|base|installed)\s+)?"
    r"(?:packages?|pkgs?|rpms?|debs?|software(?:\s+packages?)?)",
    re.IGNORECASE,
)

# what a cell says when it lists nothing: "| packages | none |", "| rpms | tbd |"
_EMPTY = frozenset("none nothing tbd tba n/a na default defaults same usual standard -".split())


def table_packages(state: PlanState, resolve: Resolve) -> None:
    """Add the names a pasted table's packages row lists ("| Packages | a, b |")."""
    tokens = tokenize(state.text.work)
    for row in _ROW.finditer(state.text.original):
        start = row.start("cells")
        cells: list[tuple[int, int]] = []
        for cell in row.group("cells").split("|"):
            cells.append((start, start + len(cell)))
            start += len(cell) + 1
        for (label_start, label_end), (value_start, value_end) in zip(cells, cells[1:]):
            label = state.text.original[label_start:label_end].strip()
            if not _LABEL.fullmatch(label) or not state.text.work[value_start:value_end].strip():
                continue
            part = [
                t
                for t in tokens
                if t.kind in ("word", "sep") and value_start <= t.start < value_end
            ]
            before = len(state.text.claims)
            for item in split_items(part):
                said = [w for w in item.words if w not in FILLER]
                if said and not set(said) & _EMPTY:
                    resolve(state, Item("add", item.tokens, "packages"))
            if len(state.text.claims) > before:
                state.text.consume(label_start, label_end, "context")
            break
