"""What no rule used: every meaningful leftover word is reported as not applied."""

from __future__ import annotations

from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Token, tokenize
from oic_ai.tools.planner.words import ADD_VERBS, FILLER, REMOVE_VERBS, RETRIEVAL_WORDS

_VERBS = ADD_VERBS | REMOVE_VERBS


def report_leftovers(state: PlanState) -> None:
    """Every remaining word that means something becomes a not-applied entry.

    A verb ("add", "remove") is filler only when a rule used what follows it: in
    "remove vim" the package rule used "vim" and the verb is left before a used span; in
    "remove all packages" nothing was used, so the whole clause is reported.
    """
    segment: list[Token] = []

    def flush(before_used: bool = False) -> None:
        meaningful = [
            t
            for t in segment
            if t.text not in FILLER and not (state.mode == "create" and t.text in RETRIEVAL_WORDS)
        ]
        verb_left = not before_used and any(
            t.text in _VERBS and t is not segment[-1] for t in segment
        )
        if meaningful or verb_left:
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
            flush(before_used=token.kind == "gap")
            continue
        segment.append(token)
    flush()
