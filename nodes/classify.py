"""``classify``: decide whether a turn creates, refines or explains, and reset turn fields."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context
from oic_ai.nodes.messages import last_request
from oic_ai.nodes.state import Intent, Refusal, Route, State
from oic_ai.stores.vocabulary import OS_DISTS
from oic_ai.tools.retrieval.query_classifier import detect_targets, is_modification, tokenize
from oic_ai.tools.target_support import find_unsupported

_QUESTION = re.compile(
    r"^\s*(?:what|which|how|why|does|do|is|are|can|show|list|summari[sz]e|explain|describe|"
    r"tell me)\b",
    re.IGNORECASE,
)
_NEW = re.compile(
    r"\b(?:start over|from scratch|new (?:image|template)|another (?:image|template)|"
    r"create (?:a|an) (?:new )?)",
    re.IGNORECASE,
)

# every per-turn field, reset so nothing of the previous turn leaks into this one
TURN_RESET: dict[str, Any] = {
    "status": None,
    "reasons": [],
    "draft": None,
    "changes": [],
    "not_applied": [],
    "warnings": [],
    "notices": [],
    "diff": "",
    "validation": None,
    "packages": None,
    "plan": None,
    "answer": None,
    "fix_attempts": 0,
    "fix_history": [],
    "review_edit": False,
    "own_edit": False,
}


def _dist_os(dist: str) -> str | None:
    return next((os for os, dists in OS_DISTS.items() if dist in dists), None)


def route_request(request: str, current_template: str | None) -> Route:
    """Classify one request given whether the session already has a template.

    Args:
        request: The user's words this turn.
        current_template: The session's template, if any.

    Returns:
        The route record: intent, reason, query type and the targets named.
    """
    targets = detect_targets(tokenize(request), request)
    intent: Intent
    if not current_template:
        intent, reason = "create", "no template in this session yet"
    elif _QUESTION.match(request) and not is_modification(request):
        intent, reason = "explain", "a question about the current template"
    elif _NEW.search(request):
        intent, reason = "create", "asks for a new template"
    elif (
        "dist" in targets
        and not is_modification(request)
        and _names_other_os(targets["dist"], current_template)
    ):
        intent, reason = "create", f"names another distribution ({targets['dist']})"
    else:
        intent, reason = "refine", "changes the current template"
    if intent != "explain" and (found := find_unsupported(request)) is not None:
        route = Route(
            intent="unsupported",
            reason=f"asks for {found.named}, which the composer cannot build",
            query_type="",
            targets=targets,
        )
        route["unsupported"] = Refusal(
            named=found.named,
            system=found.system,
            nearest=found.nearest,
            suggestion=found.suggestion,
        )
        return route
    query_type = "refinement" if intent == "refine" else ("question" if intent == "explain" else "")
    return Route(intent=intent, reason=reason, query_type=query_type, targets=targets)


def _names_other_os(dist: str, template: str) -> bool:
    match = re.search(r"^\s*dist:\s*['\"]?([\w.-]+)", template, re.MULTILINE)
    return match is not None and _dist_os(match.group(1)) != _dist_os(dist)


def edit_route(origin: str | None) -> Route:
    """The route of a turn that brings its own template (``template_edit``)."""
    reason = f"started from {origin}" if origin else "applied your edit"
    return Route(intent="edit", reason=reason, query_type="", targets={})


def classify(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Read the request from the last human message and route the turn."""
    request = last_request(state.get("messages", []))
    if isinstance(state.get("template_edit"), str):
        route = edit_route(state.get("template_origin"))
    else:
        route = route_request(request, state.get("template"))
    return {**TURN_RESET, "request": request, "route": route}
