"""All of the packages but some: "keep everything but gnupg", "drop all of it except curl".

An exception after a word for the whole list turns the verb around for the names it
lists: keeping everything but gnupg takes gnupg out; removing everything except curl
keeps curl and takes out the rest, which names no package the planner could remove, so
it is reported rather than read as "remove curl".
"""

from __future__ import annotations

import re

from oic_ai.tools.planner.state import PlanState
from oic_ai.tools.planner.text import Token
from oic_ai.tools.planner.words import TAKE_OUT

# the whole list: "everything", "all of them", "it all", "all the packages", "the lot"
_WHOLE = (
    r"(?:everything(?:\s+else)?|it\s+all|them\s+all|the\s+(?:lot|rest)|"
    r"all(?:\s+(?:of\s+)?(?:the|them|it|those|these|that))?"
    r"(?:\s+(?:current\s+|other\s+|listed\s+)?(?:packages?|pkgs|stuff|software|apps))?)"
)
# the exception: "but", "except (for)", "apart from", "save (for)", "bar", "other than"
_BUT = (
    r"(?P<but>but|except(?:\s+for)?|excepting|apart\s+from|aside\s+from|save(?:\s+for)?|bar|"
    r"other\s+than)"
)
_KEEPING = r"(?:keep|keeps|keeping|retain|retains|preserve|leave|leaves|hold\s+on\s+to)"
_REMOVING = rf"(?:{TAKE_OUT}|uninstall|purge|clear\s+out|wipe)"
_VERB_FIRST = re.compile(
    rf"\b(?:(?P<keep>{_KEEPING})|(?P<remove>{_REMOVING}))\s+{_WHOLE}"
    rf"(?:\s+(?:in\s+there|installed|in\s+the\s+(?:list|image|template)))?\s+{_BUT}\s+"
)
# "everything but gnupg can stay", "all except curl stays": the whole list, kept
_SUBJECT_FIRST = re.compile(rf"(?:^|(?<=[.!?;:,\n]\s)|(?<=\n)){_WHOLE}\s+{_BUT}\s+")
_KEPT_AFTER = re.compile(
    r"\s+(?:(?:can|should|may|could|will)\s+)?(?:stay|stays|remain|remains|be\s+kept|is\s+kept|"
    r"are\s+kept|is\s+fine|are\s+fine|is\s+ok|are\s+ok|is\s+good|are\s+good)\b"
)
_REVERSED = (
    "removing everything but the named packages is not something the planner does; "
    "name the packages to remove"
)


def all_but(state: PlanState) -> list[tuple[int, int]]:
    """Read "keep everything but X": the spans of the exception words ("but", "apart from").

    The words for keeping the whole list are context; :func:`as_except` then reads each
    exception word as "except", so the names after it are taken out. "remove everything
    but X" is reported (see the module's note).
    """
    work = state.text.work
    spans: list[tuple[int, int]] = []
    for match, kept_after in _matches(work):
        if kept_after is None and match.group("remove") is not None:
            state.reject(match.start(), _clause_end(work, match.end()), _REVERSED)
            continue
        spans.append(match.span("but"))
        state.text.consume(match.start(), match.start("but"), "context")  # "keep everything"
        if kept_after is not None:
            state.text.consume(*kept_after, "context")  # "... can stay"
    return spans


def as_except(tokens: list[Token], spans: list[tuple[int, int]]) -> list[Token]:
    """``tokens`` with each exception word of :func:`all_but` read as the verb "except"."""
    if not spans:
        return tokens
    read: list[Token] = []
    for token in tokens:
        span = next((s for s in spans if s[0] <= token.start < s[1]), None)
        if span is None or token.kind != "word":
            read.append(token)
        elif token.start == span[0]:
            read.append(Token("word", "except", token.start, token.end))  # "but", "apart"
    return read


def _matches(work: str) -> list[tuple[re.Match[str], tuple[int, int] | None]]:
    found: list[tuple[re.Match[str], tuple[int, int] | None]] = [
        (m, None) for m in _VERB_FIRST.finditer(work)
    ]
    for match in _SUBJECT_FIRST.finditer(work):
        end = _clause_end(work, match.end())
        kept = _KEPT_AFTER.search(work, match.end(), end)
        if kept is not None and not any(m.start() <= match.start() < m.end() for m, _ in found):
            found.append((match, kept.span()))
    return found


_CLAUSE_STOP = re.compile(r"[.!?;:](?=\s|$)|\n")


def _clause_end(work: str, start: int) -> int:
    stop = _CLAUSE_STOP.search(work, start)
    return stop.start() if stop else len(work)
