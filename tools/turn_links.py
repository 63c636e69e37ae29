"""What a turn takes from the turn before it: a refused request, or an offer.

A refused request lends its words to the answer that picks another target
(:func:`not_renamed`) and is what a bare "undo" right after it takes back
(:func:`refused_before`); a question about what the template lacks offers the change a
"yes" asks for (:func:`offer_of`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from oic_ai.tools.proposals import needed_subject, offered_packages, proposal
from oic_ai.tools.references import Reference, remainder
from oic_ai.tools.retrieval.query_classifier import detect_target_spans


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
    from oic_ai.tools.references import before_target, undo_count, undo_names

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


# a word that opens the next step of a series: "Next: eLxr 12.", "Now Azure Linux 3.",
# "And RHEL 10 compatible.", "Last one: ...", "Finally, ..."
_SEQUEL_LEAD = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|right|alright|great|good|cool|thanks|hm+)\W+)*"
    r"(?:next(?:\s+(?:one|up))?|now|then|and(?:\s+then)?|also|finally|lastly|"
    r"(?:the\s+)?last\s+(?:one|step)|one\s+more|after\s+that)\b[\s:,.\-–—]*",
    re.IGNORECASE,
)
# a fresh image described: "an azure linux 3 minimal image", "a new debian template"
_FRESH = re.compile(
    r"(?<!\bas\s)\b(?:an?|another|new)\s+(?:[\w.-]+\s+){0,4}?(?:image|template)s?\b",
    re.IGNORECASE,
)


def is_sequel(request: str) -> bool:
    """True when ``request`` takes the current image on to the next target of a series.

    "Next: eLxr 12.", "Now Azure Linux 3, use the RPM names where they differ", "And RHEL
    10 compatible.": a target named alone, or after a word that opens the next step, in a
    session that has an image, asks for that image on the new target, with everything it
    has. "an azure linux 3 minimal image" or "a debian 13 image with nginx" describe a new
    image: they are not sequels.
    """
    from oic_ai.tools.references import keep_rest_spans, target_clause_spans

    if _FRESH.search(request):
        return False
    lead = _SEQUEL_LEAD.match(request)
    rest = request[lead.end() :] if lead else request
    spans = [*target_clause_spans(rest), *keep_rest_spans(rest)]
    return lead is not None or not remainder(rest, spans)


# where a clause ends: a comma or a sentence's end, not the dot inside "24.04"
_CLAUSE_MARK = re.compile(r"[,;!?\n]|\.(?=\s|$)|\s[-–—]\s")
_PREPOSITION_END = re.compile(r"\b(?:on|in|under|with|for|from|against|than|to)\s*$", re.I)


def target_remark_spans(request: str) -> list[tuple[int, int]]:
    """The clauses that only say something of a target they end on.

    "bug only repros on noble. switch to 24.04", "the DR site runs el10, so the same
    there": a clause that ends on the target's name, asks nothing (no imperative, wish,
    value or field) and names no package is why the turn moves there; the re-target
    handles the target and the remark goes with it. "nginx on noble" names a package and
    stays a request.
    """
    from oic_ai.stores.debian_names import debian_names
    from oic_ai.tools.planner.asking import read_clause

    names = debian_names()
    spans: list[tuple[int, int]] = []
    mentions = [
        m
        for m in detect_target_spans(request)
        if m.kind in ("dist", "os", "arch", "image_type") and not m.source
    ]
    for mention in mentions:
        begin = max((m.end() for m in _CLAUSE_MARK.finditer(request, 0, mention.start)), default=0)
        tail = re.compile(r"[\s)]*(?:$|[,;!?\n]|\.(?=\s|$)|\s[-–—]\s)").match(request, mention.end)
        said = request[begin : mention.start]
        if tail is None or not _PREPOSITION_END.search(said):
            continue
        words = re.findall(r"[a-z][\w'-]*", said.lower())
        if len(words) < 3 or any(word in names for word in words):
            continue
        reading = read_clause(_PREPOSITION_END.sub("", said).strip(" ,;:"))
        if reading.why.startswith(("statement", "names no change", "unknown word")):
            spans.append((begin, mention.end))
    return spans
