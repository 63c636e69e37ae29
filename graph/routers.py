"""Routers: read state, return a ``Literal`` route, so Studio draws every edge."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from oic_ai.nodes.context import Context, review_enabled, run_settings
from oic_ai.nodes.state import State, record

AfterClassify = Literal[
    "retrieve", "generate", "explain", "apply_edit", "undo", "retarget", "respond"
]
# the classifier's intent -> the next node; any other intent (create) goes to retrieval
_AFTER_CLASSIFY: dict[str, AfterClassify] = {
    "unsupported": "respond",
    "undo": "undo",
    "retarget": "retarget",
    "explain": "explain",
    "edit": "apply_edit",
    "refine": "generate",
}


def route_after_classify(state: State) -> AfterClassify:
    """Create goes through retrieval; refinement skips it; questions go to ``explain``.

    A turn that brings its own template (``edit``) skips planning: ``apply_edit``. "Undo"
    goes to ``undo`` and "the same for Debian" to ``retarget``. A request for a system or
    combination the composer cannot build goes straight to ``respond``: no template is
    made and the session's template is left as it was.
    """
    return _AFTER_CLASSIFY.get(str(record(state, "route").get("intent")), "retrieve")


def route_after_recall(state: State) -> Literal["generate", "validate"]:
    """After ``undo`` or ``retarget``: the rest of the request, if any, is planned on top."""
    reference = dict(record(state, "route").get("reference") or {})
    return "generate" if str(reference.get("remainder") or "").strip() else "validate"


def _attempts_left(state: State, runtime: Runtime[Context]) -> bool:
    return int(state.get("fix_attempts", 0)) < run_settings(runtime).max_fix_attempts


def _finish(state: State, runtime: Runtime[Context]) -> Literal["review", "respond"]:
    if review_enabled(runtime) and not state.get("review_edit"):
        return "review"
    return "respond"


def route_after_validate(
    state: State, runtime: Runtime[Context]
) -> Literal["verify_packages", "fix", "review", "respond"]:
    """Valid drafts get their packages checked; invalid ones are fixed while attempts last.

    A user's own edit (``own_edit``) is never fixed without asking: its errors are reported.
    """
    validation = record(state, "validation")
    if not validation.get("errors"):
        return "verify_packages"
    if _attempts_left(state, runtime) and not state.get("own_edit"):
        return "fix"
    return _finish(state, runtime)


def route_after_packages(
    state: State, runtime: Runtime[Context]
) -> Literal["fix", "review", "respond"]:
    """Missing packages with a suggestion go to ``fix`` (same counter); else finish.

    In a user's own edit (``own_edit``) they are reported with their suggestions instead.
    """
    packages = record(state, "packages")
    suggestions = packages.get("suggestions", {})
    fixable = [name for name in packages.get("missing", []) if suggestions.get(name)]
    if fixable and _attempts_left(state, runtime) and not state.get("own_edit"):
        return "fix"
    return _finish(state, runtime)


def route_after_review(state: State) -> Literal["validate", "respond"]:
    """An edited template is validated again; an accepted one is answered."""
    return "validate" if state.get("review_edit") else "respond"
