"""Sessions over checkpoint history: show, replay, fork and rerun.

A session is a thread; one turn is one run, and a run ends in a checkpoint with nothing
left to do (``snapshot.next == ()``). These functions take a graph compiled with a
checkpointer (``TemplateAgent.graph``) and read or copy its history; the list of
sessions itself is ``stores.session_store.SessionIndex`` (SQLite or PostgreSQL).

History can branch: a run started from an older checkpoint (a fork inside the thread,
e.g. from Studio) leaves the old branch in place. A replay follows the thread's current
line, from its newest checkpoint back through the parents.

The ``*_session`` functions at the end are what the front doors call: they take
:class:`~oic_ai.stores.settings.Settings`, open the agent (LangGraph, imported when
needed) and return typed results with ``to_json``. The session index alone (list,
delete, prune) is :mod:`oic_ai.services.sessions`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from oic_ai.services.session_migration import put_checkpoint
from oic_ai.services.sessions import find_session
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_store import LIST_HINT, SessionIndex, SessionSummary, template_name

if TYPE_CHECKING:
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.settings import Settings


@dataclass(frozen=True)
class TurnRecord:
    """One turn as the checkpoints recorded it.

    Attributes:
        turn: The turn's number in the session (1 for the first).
        request: What the user asked.
        intent: Where ``classify`` routed it (create, refine, explain).
        reason: Why ``classify`` routed it there.
        status: valid, valid_with_warnings or invalid; None if the turn did not finish.
        changes: What the turn changed, in words.
        diff: The unified diff of the template this turn.
        checkpoint_id: The checkpoint that ends the turn (fork from here).
        created: When that checkpoint was written (ISO-8601), if known.
        kind: ``run`` for a turn of conversation; ``update`` for a state edit (undo, a
            fork's start); ``pending`` for a run that paused or stopped before the end.
        template: The name of the template after the turn.
        provider: The planner the turn used.
        next: The nodes still to run, for a pending turn.
    """

    turn: int
    request: str
    intent: str | None
    reason: str | None
    status: str | None
    changes: list[str]
    diff: str
    checkpoint_id: str
    created: str | None = None
    kind: str = "run"
    template: str | None = None
    provider: str | None = None
    next: list[str] = field(default_factory=list)

    @property
    def route(self) -> dict[str, str | None]:
        """The route record: intent and reason."""
        return {"intent": self.intent, "reason": self.reason}

    def to_json(self) -> dict[str, Any]:
        """The ``sessions replay --json`` shape of one turn."""
        return {**asdict(self), "route": self.route}


@dataclass(frozen=True)
class TurnComparison:
    """One turn of a rerun next to the same turn of the original session."""

    turn: int
    request: str
    before_status: str | None
    after_status: str | None
    before_changes: list[str]
    after_changes: list[str]
    before_template: str | None = None
    after_template: str | None = None

    @property
    def same_status(self) -> bool:
        """True when both runs ended the turn with the same status."""
        return self.before_status == self.after_status

    @property
    def same_changes(self) -> bool:
        """True when both runs described the same changes (order ignored)."""
        return sorted(self.before_changes) == sorted(self.after_changes)

    def to_json(self) -> dict[str, Any]:
        """The shape of one turn in ``sessions rerun --json``."""
        return {**asdict(self), "same_status": self.same_status, "same_changes": self.same_changes}


@dataclass(frozen=True)
class RerunReport:
    """The same user messages sent again on a new session, compared turn by turn."""

    source: str
    session: str
    provider: str
    turns: list[TurnComparison]

    @property
    def matching(self) -> int:
        """How many turns ended with the same status and the same changes."""
        return sum(1 for t in self.turns if t.same_status and t.same_changes)

    def to_json(self) -> dict[str, Any]:
        """The ``sessions rerun --json`` shape."""
        head = {"source": self.source, "session": self.session, "provider": self.provider}
        return {**head, "matching": self.matching, "turns": [t.to_json() for t in self.turns]}


class _Snapshot(Protocol):
    values: Any
    next: tuple[str, ...]
    config: Any
    metadata: Any
    created_at: str | None
    parent_config: Any


def _new_id() -> str:
    """A new session id: a UUID, so the API server can address the session too."""
    import uuid  # not at the top: ``sessions list`` need not pay for it

    return str(uuid.uuid4())


def _config(thread_id: str, checkpoint_id: str | None = None) -> dict[str, Any]:
    configurable: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": ""}
    if checkpoint_id:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


def _checkpoint_id(config: Any) -> str | None:
    if not config:
        return None
    value = config.get("configurable", {}).get("checkpoint_id")
    return str(value) if value else None


def lineage(graph: Any, session_id: str) -> list[Any]:
    """The thread's current line of state snapshots, oldest first.

    Starts at the newest checkpoint and follows parents, so branches left behind by a
    fork inside the thread are skipped.
    """
    history: list[_Snapshot] = list(graph.get_state_history(_config(session_id)))
    if not history:
        return []
    by_id = {_checkpoint_id(s.config): s for s in history}
    line: list[_Snapshot] = []
    seen: set[str] = set()
    current: _Snapshot | None = history[0]
    while current is not None:
        cid = _checkpoint_id(current.config)
        if cid is None or cid in seen:
            break
        seen.add(cid)
        line.append(current)
        parent = _checkpoint_id(current.parent_config)
        current = by_id.get(parent) if parent else None
    line.reverse()
    return line


def _record(snapshot: Any, number: int, kind: str) -> TurnRecord:
    values = snapshot.values or {}
    route = values.get("route") or {}
    return TurnRecord(
        turn=number,
        request=str(values.get("request") or ""),
        intent=route.get("intent"),
        reason=route.get("reason"),
        status=values.get("status") if kind != "pending" else None,
        changes=[str(c) for c in values.get("changes") or []],
        diff=str(values.get("diff") or ""),
        checkpoint_id=_checkpoint_id(snapshot.config) or "",
        created=snapshot.created_at,
        kind=kind,
        template=template_name(values.get("template")) or values.get("base_template"),
        provider=values.get("provider"),
        next=list(snapshot.next),
    )


def replay(graph: Any, session_id: str) -> list[TurnRecord]:
    """Every turn of a session, oldest first, read from its checkpoint history.

    Args:
        graph: The agent graph compiled with the sessions checkpointer.
        session_id: The session (thread) id.

    Returns:
        One record per finished run, plus one per state edit (kind ``update``), plus a
        last ``pending`` record if the newest run has not finished (e.g. it waits for
        review). Empty when the thread has no checkpoints.
    """
    records: list[TurnRecord] = []
    line = lineage(graph, session_id)
    runs = 0
    for index, snapshot in enumerate(line):
        if snapshot.next:
            continue
        source = (snapshot.metadata or {}).get("source")
        if source == "loop":
            runs += 1
            number = int((snapshot.values or {}).get("turn") or runs)
            records.append(_record(snapshot, number, "run"))
        elif source == "update" and index > 0:
            number = int((snapshot.values or {}).get("turn") or runs)
            records.append(_record(snapshot, number, "update"))
    if line and line[-1].next:
        # The newest run has not finished: it waits for review, or it stopped.
        number = int((line[-1].values or {}).get("turn") or runs) + 1
        pending = _record(line[-1], number, "pending")
        records.append(TurnRecord(**{**asdict(pending), "request": _last_human(line[-1].values)}))
    return records


def _last_human(values: Any) -> str:
    for message in reversed((values or {}).get("messages") or []):
        kind = message.get("role") if isinstance(message, dict) else getattr(message, "type", "")
        if kind in ("human", "user"):
            content = message.get("content") if isinstance(message, dict) else message.content
            return str(content)
    return ""


def _require_history(graph: Any, session_id: str) -> list[TurnRecord]:
    records = replay(graph, session_id)
    if not records:
        raise UserInputError(f"session {session_id} has no recorded turns", fix=LIST_HINT)
    return records


def fork(graph: Any, store: SessionIndex, session_id: str, turn: int) -> str:
    """Start a new session whose state and history are the session's after turn ``turn``.

    The checkpoints up to the end of that turn are copied to a new thread, so the fork
    replays its first turns like the original and continues from there.

    Args:
        graph: The agent graph compiled with the sessions checkpointer.
        store: The session index, where the fork is recorded.
        session_id: The session to fork.
        turn: The turn after which to fork (1 is the first turn).

    Returns:
        The new session's id (a UUID, so the API server can address it too).

    Raises:
        UserInputError: the session has no such turn.
    """
    records = [r for r in _require_history(graph, session_id) if r.kind != "pending"]
    matches = [r for r in records if r.turn == turn]
    if not matches:
        numbers = sorted({r.turn for r in records})
        raise UserInputError(
            f"session {session_id} has no turn {turn}",
            fix=f"choose one of {', '.join(map(str, numbers))} (see `oic-ai sessions replay`)",
        )
    end = matches[-1]
    new_id = _new_id()
    copy_line(graph.checkpointer, session_id, end.checkpoint_id, new_id)
    source = store.find(session_id)
    title = source.title if source else (records[0].request or session_id)
    state = graph.get_state(_config(new_id)).values
    store.create(
        new_id,
        title=f"fork of {title} at turn {turn}",
        turns=turn,
        template=state.get("template"),
        status=end.status,
        provider=end.provider,
        request=end.request,
        owner=source.owner if source else None,  # a fork stays its source's user's
    )
    return new_id


def copy_line(saver: Any, source: str, checkpoint_id: str, target: str) -> int:
    """Copy one checkpoint and all its ancestors (with their writes) to another thread.

    Uses only the checkpointer's public ``list``/``put``/``put_writes``, so it works for
    any saver. Returns how many checkpoints were copied.
    """
    tuples = {
        _checkpoint_id(t.config): t for t in saver.list({"configurable": {"thread_id": source}})
    }
    chain: list[Any] = []
    current = tuples.get(checkpoint_id)
    while current is not None and len(chain) <= len(tuples):
        chain.append(current)
        parent = _checkpoint_id(current.parent_config)
        current = tuples.get(parent) if parent else None
    if not chain:
        raise UserInputError(f"checkpoint {checkpoint_id} is not in session {source}")
    for item in reversed(chain):
        metadata = dict(item.metadata or {})
        if "thread_id" in metadata:
            metadata["thread_id"] = target
        put_checkpoint(saver, _config(target, _checkpoint_id(item.parent_config)), item, metadata)
    return len(chain)


class TurnRunner(Protocol):
    """What ``rerun`` needs of an agent: its graph and a way to run a turn."""

    graph: Any

    def generate(self, request: str, session: str | None = None) -> Any:
        """Run one turn on ``session`` and return a result with status and changes."""
        ...


def rerun(
    agent_factory: Callable[[str], TurnRunner],
    session_id: str,
    provider: str,
    *,
    on_turn: Callable[[TurnComparison], None] | None = None,
) -> RerunReport:
    """Send a session's user messages again, through ``provider``, on a new session.

    Args:
        agent_factory: Builds an agent for a provider name (e.g. a ``TemplateAgent``
            with the provider overridden); its graph must share the sessions database.
        session_id: The session whose requests to send again.
        provider: The provider to plan with this time.
        on_turn: Called with each turn's comparison as soon as it is known.

    Returns:
        The new session's id and, turn by turn, the old and new status and changes.
    """
    agent = agent_factory(provider)
    before = [r for r in _require_history(agent.graph, session_id) if r.kind == "run"]
    new_id = _new_id()
    compared: list[TurnComparison] = []
    for index, old in enumerate(before, start=1):
        result = agent.generate(old.request, session=new_id)
        comparison = TurnComparison(
            turn=index,
            request=old.request,
            before_status=old.status,
            after_status=getattr(result, "status", None),
            before_changes=old.changes,
            after_changes=[str(c) for c in getattr(result, "changes", []) or []],
            before_template=old.template,
            after_template=template_name(getattr(result, "template", None)),
        )
        compared.append(comparison)
        if on_turn is not None:
            on_turn(comparison)
    return RerunReport(source=session_id, session=new_id, provider=provider, turns=compared)


def state_summary(values: dict[str, Any]) -> dict[str, Any]:
    """The parts of a session's current state that ``sessions show`` prints."""
    return {
        "template": values.get("template"),
        "base_template": values.get("base_template"),
        "status": values.get("status"),
        "provider": values.get("provider"),
        "turn": values.get("turn"),
        "reasons": list(values.get("reasons") or []),
        "sources": [s.get("template") for s in values.get("sources") or []],
        "messages": list(_messages(values.get("messages") or [])),
    }


def _messages(messages: Sequence[Any]) -> Iterator[dict[str, str]]:
    for message in messages:
        if isinstance(message, dict):
            yield {"role": str(message.get("role")), "content": str(message.get("content"))}
        else:
            role = {"human": "user", "ai": "assistant"}.get(message.type, message.type)
            yield {"role": role, "content": str(message.content)}


# --- the service: what the front doors call ----------------------------------------------


def open_agent(settings: Settings) -> TemplateAgent:
    """An agent over the sessions database, for what needs checkpoint history."""
    from oic_ai.graph.agent import TemplateAgent

    return TemplateAgent(settings)


@dataclass(frozen=True)
class SessionView:
    """A session's index row and the parts of its current state worth showing."""

    summary: SessionSummary
    state: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The ``sessions show --json`` shape."""
        return {**self.summary.to_json(), "state": self.state}


def show_session(settings: Settings, session_id: str) -> SessionView:
    """A session's current template and conversation."""
    summary = find_session(settings, session_id)  # before the agent: an unknown id fails fast
    with open_agent(settings) as agent:
        return SessionView(summary, state_summary(agent.state(summary.id)))


@dataclass(frozen=True)
class SessionReplay:
    """Every turn of a session, read from its checkpoint history."""

    summary: SessionSummary
    turns: list[TurnRecord]

    def to_json(self) -> dict[str, Any]:
        """The ``sessions replay --json`` shape."""
        turns = [r.to_json() for r in self.turns]
        return {"session": self.summary.id, "title": self.summary.title, "turns": turns}


def replay_session(settings: Settings, session_id: str) -> SessionReplay:
    """Every turn's request, route, diff and status (see :func:`replay`)."""
    summary = find_session(settings, session_id)
    with open_agent(settings) as agent:
        return SessionReplay(summary, replay(agent.graph, summary.id))


@dataclass(frozen=True)
class ForkOutcome:
    """A new session started from another's turn."""

    source: SessionSummary
    created: SessionSummary
    turn: int

    def to_json(self) -> dict[str, Any]:
        """The ``sessions fork --json`` shape."""
        ids = {"session": self.created.id, "source": self.source.id, "turn": self.turn}
        return {**self.created.to_json(), **ids}


def fork_session(settings: Settings, session_id: str, turn: int) -> ForkOutcome:
    """A new session whose state and history are the session's after turn ``turn``.

    Raises:
        UserInputError: no such session, or no such turn.
    """
    source = find_session(settings, session_id)
    with open_agent(settings) as agent:
        new_id = fork(agent.graph, agent.sessions, source.id, turn)
        return ForkOutcome(source, agent.sessions.get(new_id), turn)


def rerun_session(
    settings: Settings,
    session_id: str,
    provider: str,
    *,
    on_turn: Callable[[TurnComparison], None] | None = None,
) -> RerunReport:
    """Send a session's requests again through ``provider`` and compare the outcomes.

    The new session is titled ``rerun of TITLE with PROVIDER``.

    Raises:
        UserInputError: no such session, or it has no recorded turns.
    """
    source = find_session(settings, session_id)
    agents: list[TemplateAgent] = []

    def factory(name: str) -> TemplateAgent:
        agents.append(open_agent(settings.with_overrides(provider=name)))
        return agents[-1]

    try:
        report = rerun(factory, source.id, provider, on_turn=on_turn)
        agents[0].sessions.retitle(report.session, f"rerun of {source.title} with {provider}")
    finally:
        for agent in agents:
            agent.close()
    return report
