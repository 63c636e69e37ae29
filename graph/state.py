"""The graph's state: what a caller sends, what nodes work on, what comes out.

One turn of conversation is one run on one thread. Fields that describe the *session*
(``template``, ``base_template``, ``sources``, ``turn``) persist across turns; fields that
describe the *turn* are reset by ``classify`` at the start of every run.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

Status = Literal["valid", "valid_with_warnings", "invalid"]
Intent = Literal["create", "refine", "explain"]


class Route(TypedDict):
    """Where ``classify`` sent a turn and why, kept in state so a replay shows it."""

    intent: Intent
    reason: str
    query_type: str
    targets: dict[str, str]


class Source(TypedDict):
    """A retrieved template with its score breakdown."""

    template: str
    path: str
    score: float
    semantic: float
    keyword: float
    package: float


class Validation(TypedDict):
    """The validator's verdict on the draft."""

    valid: bool
    errors: list[dict[str, Any]]
    warnings: list[dict[str, Any]]


class Packages(TypedDict, total=False):
    """The package check of the draft."""

    checked: bool
    reason: str | None
    fix: str | None
    found: list[str]
    missing: list[str]
    suggestions: dict[str, list[str]]


class InputState(TypedDict, total=False):
    """What a caller sends: the conversation, whose last human message is the request."""

    messages: Annotated[list[AnyMessage], add_messages]


class OutputState(TypedDict, total=False):
    """What a caller gets back after a turn."""

    messages: Annotated[list[AnyMessage], add_messages]
    status: Status | None
    reasons: list[str]
    template: str | None
    draft: str | None
    base_template: str | None
    sources: list[Source]
    changes: list[str]
    not_applied: list[str]
    warnings: list[str]
    diff: str
    validation: Validation | None
    packages: Packages | None
    provider: str | None
    answer: str | None
    turn: int


class State(InputState, OutputState, total=False):
    """Everything the nodes read and write."""

    request: str
    route: Route | None
    plan: dict[str, Any] | None
    fix_attempts: int
    fix_history: list[str]
    review_edit: bool
    notices: list[str]
    base_text: str | None
    start_text: str | None
