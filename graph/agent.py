"""The Python API: ``TemplateAgent`` runs turns on sessions and returns typed results.

Example:
    >>> from oic_ai.graph import TemplateAgent
    >>> with TemplateAgent() as agent:
    ...     first = agent.generate("a minimal ubuntu 24.04 edge image for arm64 with docker")
    ...     second = agent.generate("change disk size to 8GiB", session=first.session)
    ...     print(second.status, second.diff)
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from oic_ai.nodes.context import Context
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_factory import open_session_store
from oic_ai.stores.settings import Settings, load_settings
from oic_ai.stores.turn_lock import turn_lock


@dataclass
class TurnResult:
    """The outcome of one turn, in the shape of ``generate --json``."""

    session: str
    """The session (thread) id; pass it back to continue."""
    status: str | None
    """valid, valid_with_warnings, invalid or unsupported; None while waiting for review."""
    template: str | None
    """The turn's template (the draft when it was not kept)."""
    message: str
    """The turn's summary, as the last AI message says it."""
    provider: str | None = None
    """The planner that ran."""
    base_template: str | None = None
    """The library template a created template started from."""
    sources: list[dict[str, Any]] = field(default_factory=list)
    """The retrieved templates with their score breakdown."""
    changes: list[str] = field(default_factory=list)
    """What the turn changed, one line each."""
    not_applied: list[str] = field(default_factory=list)
    """Parts of the request that were not applied, with why."""
    clauses: list[dict[str, Any]] = field(default_factory=list)
    """Every clause of the request and its outcome (applied, base, context, reference,
    not_applied), from the plan's accounting."""
    warnings: list[str] = field(default_factory=list)
    """Warnings from applying the plan."""
    notices: list[str] = field(default_factory=list)
    """Fallbacks and other notes for the user."""
    reasons: list[str] = field(default_factory=list)
    """Why the status is not plain ``valid``."""
    diff: str = ""
    """Unified diff from the turn's starting text."""
    validation: dict[str, Any] = field(default_factory=dict)
    """The validator's verdict: valid, errors, warnings."""
    packages: dict[str, Any] = field(default_factory=dict)
    """The package check: checked, found, missing, suggestions."""
    route: dict[str, Any] = field(default_factory=dict)
    """Where the turn was sent and why."""
    turn: int = 0
    """Turns finished in this session."""
    awaiting_review: bool = False
    """True when the turn paused for review (see ``TemplateAgent.resume``)."""
    review: dict[str, Any] | None = None
    """What the review pause shows: the draft, diff, validation and packages."""

    @classmethod
    def from_state(
        cls, session: str, values: dict[str, Any], interrupts: tuple[Any, ...] = ()
    ) -> TurnResult:
        """Read a result out of the graph state after a run (or at a review pause)."""
        messages = values.get("messages") or []
        message = str(getattr(messages[-1], "content", "")) if messages else ""
        review = interrupts[0].value if interrupts else None
        draft = values.get("draft")
        template = draft if draft is not None else values.get("template")
        if values.get("status") == "unsupported":
            template = None  # nothing was made; the session's template is not this turn's
        return cls(
            session=session,
            status=values.get("status") if not interrupts else None,
            template=template,
            message=message if not interrupts else "waiting for review",
            provider=values.get("provider"),
            base_template=values.get("base_template"),
            sources=list(values.get("sources") or []),
            changes=list(values.get("changes") or []),
            not_applied=list(values.get("not_applied") or []),
            clauses=list((values.get("plan") or {}).get("clauses") or []),
            warnings=list(values.get("warnings") or []),
            notices=list(values.get("notices") or []),
            reasons=list(values.get("reasons") or []),
            diff=str(values.get("diff") or ""),
            validation=dict(values.get("validation") or {}),
            packages=dict(values.get("packages") or {}),
            route=dict(values.get("route") or {}),
            turn=int(values.get("turn") or 0),
            awaiting_review=bool(interrupts),
            review=review if isinstance(review, dict) else None,
        )

    @property
    def ok(self) -> bool:
        """True unless the template is invalid (or the turn is waiting for review)."""
        return self.status in ("valid", "valid_with_warnings")

    def to_json(self) -> dict[str, Any]:
        """The ``generate --json`` contract, plus extra fields."""
        validation = self.validation or {}
        packages = self.packages or {}
        return {
            "session": self.session,
            "provider": self.provider,
            "status": self.status,
            "template": self.template,
            "sources": self.sources,
            "changes": self.changes,
            "validation": {
                "valid": bool(validation.get("valid", False)),
                "errors": list(validation.get("errors", [])),
                "warnings": list(validation.get("warnings", [])),
            },
            "packages": {
                "checked": bool(packages.get("checked", False)),
                "missing": list(packages.get("missing", [])),
                "unverified": list(packages.get("unverified", [])),
                "suggestions": dict(packages.get("suggestions", {})),
                "found": list(packages.get("found", [])),
                "reason": packages.get("reason"),
                "fix": packages.get("fix"),
            },
            "message": self.message,
            "base_template": self.base_template,
            "not_applied": self.not_applied,
            "clauses": self.clauses,
            "warnings": self.warnings,
            "notices": self.notices,
            "reasons": self.reasons,
            "diff": self.diff,
            "route": self.route,
            "turn": self.turn,
            "awaiting_review": self.awaiting_review,
        }


def undone_template(result: TurnResult) -> str | None:
    """The template an undo turn made current, or None when it took nothing back."""
    reference = dict(result.route.get("reference") or {})
    if result.route.get("intent") != "undo" or not reference.get("undone") or not result.ok:
        return None
    return result.template


class TemplateAgent:
    """Generate and refine templates over sessions (SQLite in the data folder, or PostgreSQL).

    Args:
        settings: Resolved settings; ``load_settings()`` when omitted.
        chat_model: A LangChain chat model to plan with instead of the configured provider.
        review: Pause before each response for :meth:`resume`.
        lock_timeout: Seconds a turn waits while another turn (another thread or
            process) holds the same session; None reads ``$OIC_AI_SESSION_WAIT`` (60 s).
            Past it the turn raises ``SessionBusyError`` and leaves the session as it was.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        chat_model: Any = None,
        review: bool = False,
        lock_timeout: float | None = None,
    ) -> None:
        """Open (or create) the sessions database and compile the graph on it."""
        from oic_ai.graph.builder import build_graph
        from oic_ai.graph.checkpointer import open_checkpointer

        self.settings = settings or load_settings()
        # SQLite or PostgreSQL, as the settings say; a damaged SQLite file fails here
        # (DamagedDatabaseError), an unreachable server too, before anything is written
        self.checkpointer, self._close_checkpointer = open_checkpointer(self.settings)
        self.graph = build_graph(self.checkpointer, chat_model=chat_model)
        self.sessions = open_session_store(self.settings)
        self.context = Context.from_settings(self.settings, review=review)
        self.lock_timeout = lock_timeout

    def _hold(self, session: str) -> Any:
        """The session's lock: one turn at a time per session, across processes."""
        return turn_lock(self.settings, session, timeout=self.lock_timeout)

    def __enter__(self) -> TemplateAgent:
        """Use the agent as a context manager that closes its databases."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the databases."""
        self.close()

    def close(self) -> None:
        """Close the sessions database connections."""
        self.sessions.close()
        self._close_checkpointer()

    @staticmethod
    def config(session: str) -> dict[str, Any]:
        """The LangGraph config that addresses a session's thread."""
        return {"configurable": {"thread_id": session}}

    def new_session_id(self) -> str:
        """A fresh session id (a UUID, as the LangGraph API requires of thread ids)."""
        return str(uuid.uuid4())

    def generate(
        self,
        request: str,
        session: str | None = None,
        *,
        on_step: Callable[[str, dict[str, Any]], None] | None = None,
        callbacks: list[Any] | None = None,
    ) -> TurnResult:
        """Run one turn: create a template, refine the session's one, or answer about it.

        Args:
            request: What the user wants, in words.
            session: The session to continue; a new one is started when None.
            on_step: Called with ``(node name, partial update)`` as each node finishes.
            callbacks: LangChain callback handlers for the run (e.g. to log model calls).

        Returns:
            The turn's result; ``awaiting_review`` is set when the review pause is on.
        """
        if not request.strip():
            raise UserInputError("the request is empty", fix="say what the image should be")
        if session is not None and not session.strip():
            raise UserInputError("the session id is empty", fix="pass a session id, or none")
        session = session or self.new_session_id()
        payload = {"messages": [{"role": "user", "content": request}]}
        return self._run(session, payload, on_step, callbacks)

    def apply_edit(
        self,
        session: str | None,
        template: str,
        *,
        fix: bool = False,
        request: str | None = None,
        on_step: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> TurnResult:
        """Run a turn whose draft is ``template`` (an edit made by hand), skipping planning.

        The text is validated, package-checked and recorded like any turn's result; it
        becomes the session's template unless it is invalid. It is your own text, so it
        is not fixed unless ``fix`` asks for it: errors come back as an ``invalid`` result
        with the findings, and the session keeps its template.

        Args:
            session: The session to continue; a new one is started when None.
            template: The whole template text.
            fix: Fix what the validator finds (and missing packages with a suggestion),
                as a planned draft would be; the page's "Fix it".
            request: The words recorded for the turn ("apply my edit", "fix my edit").
            on_step: Called with ``(node name, partial update)`` as each node finishes.
        """
        words = request or ("fix my edit" if fix else "apply my edit")
        payload: dict[str, Any] = {
            "messages": [{"role": "user", "content": words}],
            "template_edit": template,
        }
        if fix:
            payload["fix_edit"] = True
        return self._run(session or self.new_session_id(), payload, on_step)

    def start_from(
        self,
        name: str,
        *,
        on_step: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> TurnResult:
        """Start a new session from library template ``name`` ("use as starting point").

        Raises:
            TemplateNotFoundError: the library has no template of that name.
        """
        from oic_ai.stores.template_library import bundled_templates_dir, library_template_text

        text = library_template_text(self.settings.templates_dir or bundled_templates_dir(), name)
        payload = {
            "messages": [{"role": "user", "content": f"start from {name}"}],
            "template_edit": text,
            "template_origin": name,
        }
        return self._run(self.new_session_id(), payload, on_step)

    def resume(
        self,
        session: str,
        answer: str | dict[str, Any] = "accept",
        *,
        on_step: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> TurnResult:
        """Resume a turn paused for review with ``"accept"`` or ``{"template": yaml}``."""
        from langgraph.types import Command

        return self._run(session, Command(resume=answer), on_step)

    def _run(
        self,
        session: str,
        payload: Any,
        on_step: Callable[[str, dict[str, Any]], None] | None,
        callbacks: list[Any] | None = None,
    ) -> TurnResult:
        config = self.config(session)
        if callbacks:
            config = {**config, "callbacks": callbacks}
        # The turn reads the session's head, runs and writes on top of it, then reads its
        # own result back: all under the session's lock, so a concurrent turn on the same
        # session (another thread or process) neither forks it nor shows its result here.
        with self._hold(session):
            # the context carries self.settings, so every node runs on exactly these settings
            for chunk in self.graph.stream(
                payload, config, context=self.context, stream_mode="updates"
            ):
                if on_step is None or not isinstance(chunk, dict):
                    continue
                for node, update in chunk.items():
                    if not node.startswith("__"):
                        on_step(node, update if isinstance(update, dict) else {})
            snapshot = self.graph.get_state(config)
        interrupts = tuple(getattr(snapshot, "interrupts", ()) or ())
        return TurnResult.from_state(session, dict(snapshot.values), interrupts)

    def state(self, session: str) -> dict[str, Any]:
        """The session's current state values (empty for an unknown session)."""
        return dict(self.graph.get_state(self.config(session)).values)

    def current_template(self, session: str) -> str | None:
        """The session's current template text."""
        value = self.state(session).get("template")
        return str(value) if value else None

    def undo(self, session: str) -> str | None:
        """Take back the last change as a new turn (chat's ``/undo``; as saying "undo").

        Returns:
            The template now current, or None when there was nothing to take back.
        """
        result = self.generate("undo", session=session)
        return undone_template(result)

    def history(self, session: str) -> Iterator[Any]:
        """Checkpoint history of a session, newest first."""
        return iter(self.graph.get_state_history(self.config(session)))
