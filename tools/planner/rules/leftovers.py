"""What no rule used: every meaningful leftover word is reported as not applied."""

from __future__ import annotations

from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Token, tokenize
from oic_ai.tools.planner.words import FILLER, RETRIEVAL_WORDS


def report_leftovers(state: PlanState) -> None:
    """Every remaining word that means something becomes a not-applied entry."""
    segment: list[Token] = []

    def flush() -> None:
        meaningful = [
            t
            for t in segment
            if t.text not in FILLER and not (state.mode == "create" and t.text in RETRIEVAL_WORDS)
        ]
        if meaningful:
            start, end = segment[0].start, segment[-1].end
            clause = " ".join(state.text.raw(start, end).split())
            state.not_applied.append(
                f"'{clause}' — no rule for this; try a concrete change such as "
                "'add htop', 'make the disk 8GiB' or 'hostname edge-01'"
            )
        elif state.mode == "create":
            for token in segment:
                if token.text in RETRIEVAL_WORDS:
                    state.use_case_words.append((token.start, token.text))
        segment.clear()

    for token in tokenize(state.text.work):
        if token.kind != "word" or token.text in ("and", "then", "but", "with", "plus"):
            flush()
            continue
        segment.append(token)
    flush()
