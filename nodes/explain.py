"""``explain``: answer a question about the current template without changing it."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.state import State, record, validation_of

# a question about what the last change left out: "what did you drop exactly?", "which
# lines couldn't be carried over?", "what got skipped?"
_ASKS_WHAT_WAS_DROPPED = re.compile(
    r"\b(?:what|which)\b[^?.]*?\b(?:drop(?:ped)?|left\s+out|leave\s+out|skip(?:ped)?|"
    r"ignor(?:ed|e)|lost|not\s+(?:applied|carried\s+over|included|done)|"
    r"(?:couldn'?t|could\s+not|didn'?t|did\s+not|can'?t|cannot)\s+(?:be\s+)?"
    r"(?:carr(?:y|ied)|appl(?:y|ied)|includ(?:e|ed)|make\s+it|get\s+in|do(?:ne)?|map(?:ped)?))\b",
    re.IGNORECASE,
)


# a question about what the last change did: "what did u change", "what have you changed?",
# "what changed?", "what exactly did you do?"
_ASKS_WHAT_CHANGED = re.compile(
    r"\bwhat\b(?:\s+(?:exactly|just|actually))?\s+(?:did|have|has)\s+(?:you|u|ya|it|we)\s+"
    r"(?:just\s+|actually\s+|exactly\s+)?(?:change|changed|do|done|modif(?:y|ied)|edit(?:ed)?)\b"
    r"|\bwhat(?:'s|\s+has|\s+was|\s+got|\s+exactly)?\s+(?:just\s+)?changed\b"
    r"|\bwhat\s+(?:were|are)\s+the\s+changes\b",
    re.IGNORECASE,
)


# the changes of the whole session, or compared with the base: "what did we change compared
# to the normal minimal one?", "what have we changed so far?" (the template answers those)
_OVER_THE_SESSION = re.compile(
    r"\b(?:compared|comparison|beyond|versus|vs|relative|against|than|so\s+far|overall"
    r"|in\s+total|altogether|since\s+the\s+(?:start|beginning)|on\s+top\s+of)\b",
    re.IGNORECASE,
)


# a question whether the image can do something: "can it turn the screen off at 11pm?",
# "is it possible to set the timezone?", "could it log in by itself?"
_CAN_IT = re.compile(
    r"^\W*(?:(?:so|and|but|also|ok|okay)\W+)*(?:(?:can|could|will|would)\s+(?:it|the\s+image|this"
    r"|the\s+template|the\s+box|the\s+device|we|i|you)\b|is\s+it\s+possible\b"
    r"|is\s+there\s+a\s+way\b)",
    re.IGNORECASE,
)


# which library template the session started from: "which template did you start from?",
# "what is it based on?", "what base did you pick?"
_ASKS_BASE = re.compile(
    r"\b(?:which|what)\s+(?:library\s+)?(?:template|base|starting\s+point|reference)\b[^?.]*?"
    r"\b(?:start(?:ed)?|based|begin|began|pick(?:ed)?|use[ds]?|cho(?:se|osen)|from)\b"
    r"|\bwhat(?:'s|\s+is|\s+was)\s+(?:it|this|this\s+one)\s+based\s+on\b",
    re.IGNORECASE,
)


def _asked_beyond(request: str) -> list[str]:
    """Questions whether the image can do what the bank knows no template holds."""
    from oic_ai.tools.planner.bank import load_bank
    from oic_ai.tools.questions import questions_of

    asked = [q for q in questions_of(request).questions or (request,) if _CAN_IT.match(q)]
    bank = load_bank() if asked else None
    if bank is None:
        return []
    return [
        f"'{' '.join(question.rstrip('?').split())}' — {match.label.reason}"
        for question, match in zip(asked, bank.match(asked), strict=True)
        if match.label is not None
        and match.label.outcome == "not_applied"
        and match.label.name != "vague"
    ]


def explain(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Describe the session's template in answer to the request; the draft stays as it is."""
    from oic_ai.tools.explain_template import describe_template, topics_of
    from oic_ai.tools.planner.rules.beyond import beyond_template
    from oic_ai.tools.target_questions import asks_about_targets, target_answer
    from oic_ai.tools.target_support import target_of
    from oic_ai.tools.validate_template import validate_text

    template = state.get("template") or ""
    request = state.get("request", "")
    if not template:
        # "which Debian releases can you build?" before any template: the registry answers
        return {"answer": target_answer(request), "draft": None, "not_applied": []}
    report = validate_text(template, source="template.yml")
    if asks_about_targets(request, target_of(template)):
        # "does Azure Linux have an ARM build?": what the composer builds, and where the
        # template stands
        named = [topic for topic in topics_of(request) if topic != "target"]
        answer = (
            target_answer(request)
            + "\n"
            + describe_template(template, request if named else "target")
        )
    else:
        # each question of the request on its own ("is X in the image already? just
        # checking, don't change anything" asks about X, not for a summary)
        from oic_ai.tools.questions import questions_of

        asked = questions_of(request).questions or (request,)
        base = state.get("base_text")
        answer = "\n".join(
            dict.fromkeys(
                f"Started from the library template {state.get('base_template')}."
                if _ASKS_BASE.search(q) and state.get("base_template")
                else describe_template(template, q, base)
                for q in asked
            )
        )
    # "is it possible that this user logs in automatically?": a question about a wish no
    # template can hold is answered no, and the wish is reported as not applied
    impossible = [
        f"'{' '.join(request[item.start : item.end].split())}' — {item.label.reason}"
        for item in beyond_template(request)
    ] or _asked_beyond(request)
    if impossible:
        reasons = "; ".join(dict.fromkeys(entry.split(" — ", 1)[1] for entry in impossible))
        answer = f"That cannot be done in a template: {reasons}."
    dropped = state.get("last_not_applied")
    if dropped is not None and _ASKS_WHAT_WAS_DROPPED.search(request):
        # "what did you drop exactly?": the last change's report, item by item
        answer = (
            "Not applied in the last change:\n" + "\n".join(f"- {item}" for item in dropped)
            if dropped
            else "Nothing: every part of the last change was applied."
        )
    changed = state.get("last_changes")
    if (
        changed is not None
        and _ASKS_WHAT_CHANGED.search(request)
        and not _OVER_THE_SESSION.search(request)
    ):
        # "wait what did u change": the last change's lines, item by item, then the rest of
        # what was dropped
        answer = (
            "Changed in the last change:\n" + "\n".join(f"- {item}" for item in changed)
            if changed
            else "Nothing: the last turn changed nothing in the template."
        )
        if dropped:
            answer += "\nNot applied:\n" + "\n".join(f"- {item}" for item in dropped)
    offered = str(record(state, "route").get("proposal") or "")
    if offered and not impossible:
        # "would chrony make sense here?": what it is for came above; a "yes" adds it
        names = offered.removeprefix("add ")
        answer += f"\n{names}: not in the template yet. Say 'yes' to add it ({offered})."
    return {
        "answer": answer,
        "draft": template,
        "start_text": template,
        "validation": validation_of(report),
        "not_applied": impossible,
    }
