"""What a turn takes from the turn before it: a refused request, or an offer.

A refused request lends its words to the answer that picks another target
(:func:`not_renamed`, :func:`only_a_target`) and is what a bare "undo" right after it takes back
(:func:`refused_before`); a question about what the template lacks offers the change a
"yes" asks for (:func:`offer_of`). After a retarget, a turn that only names another
target continues the run (:func:`continues_series`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from oic_ai.tools.proposals import needed_subject, offered_packages, proposal
from oic_ai.tools.references import Reference, remainder, target_clause_spans
from oic_ai.tools.retrieval.query_classifier import detect_target_spans
from oic_ai.tools.target_questions import unsupported_named


def not_renamed(rest: str, asked: dict[str, str]) -> str:
    """The refused request's other parts without the targets the answer names anew.

    "a centos 7 iso for the MES terminals" refused, then "fine, the RHEL-compatible one.
    raw, x86_64": the raw image replaces the ISO; the terminals stay.
    """
    mentions = sorted(
        (m for m in detect_target_spans(rest) if m.kind in asked),
        key=lambda m: m.start,
        reverse=True,
    )
    if not mentions:
        return rest
    for mention in mentions:
        # "a centos 7 iso for ...": the word "image" keeps the phrase whole
        said, start = "image", mention.start
        if mention.kind != "image_type":  # "for arm64", "on x86_64": the phrase goes
            lead = re.search(r"\b(?:for|on)\s+(?:the\s+)?$", rest[:start], re.IGNORECASE)
            said, start = "", lead.start() if lead else start
        rest = rest[:start] + said + rest[mention.end :]
    return remainder(rest, []) or rest


def refused_before(reference: Reference | None, previous: Mapping[str, Any] | None) -> str | None:
    """What the turn before asked for, when it was refused and ``reference`` is a bare undo.

    "make it arm64" refused, then "undo" (or "scratch that", "revert that"): the request
    taken back is the refused one, which changed nothing. An undo that names a part, a
    count or a target ("undo the hostname", "the last two changes") reaches past it.
    """
    from oic_ai.tools.references import before_target, undo_names
    from oic_ai.tools.undo_words import undo_count

    if reference is None or previous is None or previous.get("intent") != "unsupported":
        return None
    marker = reference.marker
    if reference.topic or undo_count(marker) or undo_names(marker) or before_target(marker):
        return None
    refusal = dict(previous.get("unsupported") or {})
    return str(refusal.get("named") or refusal.get("system") or "")


def offer_of(questions: Sequence[str], template: str) -> str:
    """The change a question offers ("would chrony make sense?" -> "add chrony"), or ""."""
    from oic_ai.stores.template_model import template_from_text
    from oic_ai.tools.verify_packages import known_package_names

    known = known_package_names()
    has = set(template_from_text(template).all_packages)
    names = [n for q in questions for n in offered_packages(q, known.__contains__)]
    if not names:
        # "do I also need the docker command line tool?": what the planner reads it as
        names = [n for q in questions for n in _needed_packages(q, template)]
    missing = [n for n in dict.fromkeys(names) if n not in has]
    return proposal(missing) if missing else ""


def _needed_packages(question: str, template: str) -> list[str]:
    """The packages "add X" gives for the X a question asks is needed, or ``[]``.

    Only what the planner reads without reporting anything counts: a subject it cannot
    read as packages offers nothing.
    """
    from oic_ai.tools.planner.builtin import plan_request

    subject = needed_subject(question)
    if not subject:
        return []
    plan = plan_request(f"add {subject}", template, mode="refine")
    if plan.not_applied:
        return []
    return [
        name
        for op in plan.operations
        if getattr(op, "op", "") == "add_packages" and not getattr(op, "kernel", False)
        for name in getattr(op, "packages", [])
    ]


def continues_series(previous: Mapping[str, Any] | None, request: str) -> bool:
    """True when a turn that only names a target continues a run of retargets.

    "Now the same for Ubuntu 26.04.", "Same again for Debian 13.", then "Next: eLxr 12.":
    after a turn that put the current image on another target, one that names another
    target and asks nothing else asks for the same image there too, not a new one.
    """
    return (
        previous is not None
        and previous.get("intent") == "retarget"
        and only_a_target(request)
    )


def only_a_target(request: str) -> bool:
    """True when ``request`` names a target and asks nothing else ("then use 24.04").

    After a refusal that answer picks what to build instead: the refused request's other
    parts go with it. A clause that names the refused system again ("22.04 not
    possible") only looks back at the refusal, and a statement ("we'll live with it")
    asks for nothing.
    """
    spans = list(target_clause_spans(request))
    if not spans:
        return False
    lowered = request.lower()
    looks_back = [lowered.find(named.lower()) for named, _, _ in unsupported_named(request)]
    looks_back += [m.start() for m in _NOT_POSSIBLE.finditer(lowered)]
    marks = [m.start() for m in _CLAUSE_MARK.finditer(lowered)]
    for at in looks_back:
        if at >= 0:
            begin = max((m + 1 for m in marks if m < at), default=0)
            spans.append((begin, min((m for m in marks if m >= at), default=len(request))))
    rest = remainder(request, spans)
    if not rest:
        return True
    # "fine, do 24.04 and we'll deal with it": a statement beside the release asks nothing
    # ("24.04 with just tmux" asks for tmux: a request of its own)
    from oic_ai.tools.planner.asking import read_clause

    clauses = [c.strip(" ,;.") for c in re.split(r"[,;!?]|\.(?=\s|$)|\s(?:and|but)\s", rest)]
    return all(read_clause(c).asking == "context" for c in clauses if c)


# where a clause ends: a comma or a sentence's end, not the dot inside "22.04"
_CLAUSE_MARK = re.compile(r"[,;!?]|\.(?=\s|$)")


# a clause that takes note of a refusal: "22.04 not possible", "ok, that one is unsupported"
_NOT_POSSIBLE = re.compile(
    r"\b(?:(?:is\s+|isn'?t\s+|not\s+)(?:possible|supported|available|an\s+option)"
    r"|impossible|unsupported|(?:can'?t|cannot)\s+be\s+(?:built|done|made))\b"
)
