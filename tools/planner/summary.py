"""The plan's one-paragraph summary, one clause per operation.

Each operation words itself (``describe()`` in :mod:`oic_ai.tools.edit_plan`).
"""

from __future__ import annotations

from collections.abc import Sequence

from oic_ai.tools import edit_plan
from oic_ai.tools.planner.state import PlanState


def join_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def with_article(word: str) -> str:
    """``a raw disk image``, ``an ISO installer``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def summarize(
    state: PlanState,
    ops: Sequence[edit_plan.Operation],
    suggestions: Sequence[str],
    notes: Sequence[str],
) -> str:
    """The summary: what the operations do, then what was present, absent or noted."""
    described = join_words(
        [op.describe() for op in ops if not isinstance(op, edit_plan.SetMetadata)]
    )
    summary = f"{described[:1].upper()}{described[1:]}." if described else "No changes."
    for note in notes:  # plan_notes(state), made once by the caller
        summary += f" {note}"
    if suggestions:
        summary += f" Worth considering for this use case (not added): {', '.join(suggestions)}."
    return summary


def plan_notes(state: PlanState) -> list[str]:
    """What the request asked that was already so, as sentences: shown beside the changes.

    "add htop" when the template has it, "remove vim" when it has none, "drop nomodeset"
    from a line without it: nothing changes, and the answer says why.
    """
    notes: list[str] = []
    present = list(dict.fromkeys(state.present))
    if present:
        notes.append(f"Already present: {', '.join(present)}.")
    absent = list(dict.fromkeys(state.absent))
    if absent:
        notes.append(f"Not in the template, nothing to remove: {', '.join(absent)}.")
    said = list(dict.fromkeys(state.notes))
    if said:
        notes.append("; ".join(n[:1].upper() + n[1:] for n in said) + ".")
    return notes
