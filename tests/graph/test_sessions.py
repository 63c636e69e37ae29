"""replay, fork and rerun on the real graph (builtin planner, offline) over real SQLite."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oic_ai.graph.agent import TemplateAgent
from oic_ai.services.session_history import (
    TurnRecord,
    copy_line,
    fork,
    lineage,
    replay,
    rerun,
)
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_store import sessions_db_path
from oic_ai.stores.settings import Settings, load_settings
from tests.conftest import copy_index

REQUESTS = [
    "a minimal ubuntu 24.04 edge image for arm64 with docker",
    "make the disk 24GiB",
    "what packages are included?",
]
STATUSES = {"valid", "valid_with_warnings", "invalid"}


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory, indexed_data: Path) -> Settings:
    """One data folder for the module, with the run's template index copied in."""
    data = copy_index(indexed_data, tmp_path_factory.mktemp("sessions-data"))
    return load_settings(data_dir=data, provider="builtin", env={})


@pytest.fixture(scope="module")
def agent(settings: Settings) -> Iterator[TemplateAgent]:
    with TemplateAgent(settings) as a:
        yield a


@pytest.fixture(scope="module")
def session(agent: TemplateAgent) -> str:
    """A three-turn session: create, refine, explain."""
    sid = str(uuid.uuid4())
    for request in REQUESTS:
        agent.generate(request, session=sid)
    return sid


def test_replay_has_every_turn_with_request_route_diff_and_status(
    agent: TemplateAgent, session: str
) -> None:
    records = replay(agent.graph, session)

    assert [(r.turn, r.kind) for r in records] == [(1, "run"), (2, "run"), (3, "run")]
    assert [r.request for r in records] == REQUESTS
    assert [r.intent for r in records] == ["create", "refine", "explain"]
    assert all(r.reason for r in records)
    assert all(r.status in STATUSES for r in records)
    # The first diff is from the base template; the name changes to the new one.
    assert records[0].diff.startswith("--- a/template.yml")
    assert f"+  name: {records[0].template}" in records[0].diff.splitlines()
    assert "+  size: 24GiB" in records[1].diff.splitlines()
    assert records[2].diff == ""  # explaining changes nothing
    assert len({r.checkpoint_id for r in records}) == 3
    assert records[0].to_json()["route"] == {"intent": "create", "reason": records[0].reason}


def test_replay_of_an_unknown_thread_is_empty(agent: TemplateAgent) -> None:
    assert replay(agent.graph, "no-such-thread") == []


def test_the_session_index_counts_the_same_turns(agent: TemplateAgent, session: str) -> None:
    row = agent.sessions.get(session)
    assert row.turns == 3
    assert row.title == REQUESTS[0]
    assert row.template and row.template == replay(agent.graph, session)[-1].template


def test_fork_copies_the_history_up_to_the_turn(agent: TemplateAgent, session: str) -> None:
    original = replay(agent.graph, session)

    new_id = fork(agent.graph, agent.sessions, session, 2)

    uuid.UUID(new_id)  # the API server addresses threads by UUID
    forked = replay(agent.graph, new_id)
    assert [(r.turn, r.request, r.checkpoint_id, r.status) for r in forked] == [
        (r.turn, r.request, r.checkpoint_id, r.status) for r in original[:2]
    ]
    state = agent.state(new_id)
    assert state["turn"] == 2 and "24GiB" in state["template"]
    assert len(state["messages"]) == 4  # two requests, two answers
    row = agent.sessions.get(new_id)
    assert row.title == f"fork of {REQUESTS[0]} at turn 2"
    assert row.turns == 2

    # The fork continues on its own; the original keeps its third turn.
    agent.generate("add htop", session=new_id)
    assert [r.request for r in replay(agent.graph, new_id)] == [*REQUESTS[:2], "add htop"]
    assert [r.request for r in replay(agent.graph, session)] == REQUESTS
    assert agent.sessions.get(new_id).turns == 3


@pytest.mark.parametrize("turn", [0, 4, -1])
def test_fork_at_a_turn_that_does_not_exist(agent: TemplateAgent, session: str, turn: int) -> None:
    with pytest.raises(UserInputError, match=f"has no turn {turn}; choose one of 1, 2, 3"):
        fork(agent.graph, agent.sessions, session, turn)


def test_fork_of_a_session_without_checkpoints(agent: TemplateAgent) -> None:
    with pytest.raises(UserInputError, match="no recorded turns"):
        fork(agent.graph, agent.sessions, "no-such-thread", 1)


def test_copy_line_copies_only_the_ancestors(agent: TemplateAgent, session: str) -> None:
    first = replay(agent.graph, session)[0]
    target = str(uuid.uuid4())
    copied = copy_line(agent.checkpointer, session, first.checkpoint_id, target)
    assert copied == len(lineage(agent.graph, target))
    assert copied < len(lineage(agent.graph, session))
    with sqlite3.connect(sessions_db_path(agent.settings.data_dir)) as conn:
        (writes,) = conn.execute("SELECT count(*) FROM writes WHERE thread_id = ?", [target])
    assert writes[0] > 0  # the pending writes came along


def test_replay_follows_the_current_branch_after_a_fork_inside_the_thread(
    agent: TemplateAgent,
) -> None:
    sid = str(uuid.uuid4())
    agent.generate(REQUESTS[0], session=sid)
    agent.generate("make the disk 24GiB", session=sid)
    first = replay(agent.graph, sid)[0]
    # Run again from the end of turn 1 on the same thread, as Studio's "fork" does.
    config = {"configurable": {"thread_id": sid, "checkpoint_id": first.checkpoint_id}}
    payload = {"messages": [{"role": "user", "content": "make the disk 12GiB"}]}
    for _ in agent.graph.stream(payload, config, context=agent.context):
        pass

    records = replay(agent.graph, sid)

    assert [r.request for r in records] == [REQUESTS[0], "make the disk 12GiB"]
    assert "+  size: 12GiB" in records[1].diff.splitlines()
    assert "24GiB" not in records[1].diff
    # The abandoned branch is still in the history.
    history = list(agent.graph.get_state_history({"configurable": {"thread_id": sid}}))
    assert any(s.values.get("request") == "make the disk 24GiB" for s in history)


def test_a_turn_waiting_for_review_is_pending_then_a_run(settings: Settings) -> None:
    sid = str(uuid.uuid4())
    with TemplateAgent(settings, review=True) as reviewing:
        paused = reviewing.generate(REQUESTS[0], session=sid)
        assert paused.awaiting_review
        (pending,) = replay(reviewing.graph, sid)
        assert (pending.kind, pending.turn, pending.status) == ("pending", 1, None)
        assert pending.request == REQUESTS[0]
        assert pending.next == ["review"]

        reviewing.resume(sid, "accept")
        (done,) = replay(reviewing.graph, sid)
        assert (done.kind, done.turn) == ("run", 1)
        assert done.status in STATUSES


def test_undo_is_a_turn_of_its_own(agent: TemplateAgent) -> None:
    sid = str(uuid.uuid4())
    first = agent.generate(REQUESTS[0], session=sid)
    agent.generate("make the disk 24GiB", session=sid)
    assert agent.undo(sid) == first.template

    records = replay(agent.graph, sid)

    assert [r.kind for r in records] == ["run", "run", "run"]
    assert records[-1].turn == 3 and records[-1].request == "undo"
    assert any("undo: took back turn 2" in change for change in records[-1].changes)
    assert agent.undo(sid) is None  # the first template has nothing before it


def test_rerun_sends_the_same_requests_and_compares(
    agent: TemplateAgent, session: str, settings: Settings
) -> None:
    made: list[TemplateAgent] = []

    def factory(provider: str) -> TemplateAgent:
        made.append(TemplateAgent(settings.with_overrides(provider=provider)))
        return made[-1]

    seen: list[Any] = []
    try:
        report = rerun(factory, session, "builtin", on_turn=seen.append)
    finally:
        for a in made:
            a.close()

    assert report.source == session and report.session != session
    assert [t.request for t in report.turns] == REQUESTS
    assert seen == report.turns
    before = replay(agent.graph, session)
    assert [t.before_status for t in report.turns] == [r.status for r in before]
    # The builtin planner is deterministic: the same requests give the same outcomes.
    assert report.matching == 3
    assert all(t.same_status and t.same_changes for t in report.turns)
    assert [r.request for r in replay(agent.graph, report.session)] == REQUESTS
    assert report.to_json()["turns"][1]["after_changes"] == report.turns[1].after_changes


def test_turn_record_json_has_the_replay_fields() -> None:
    record = TurnRecord(
        turn=1,
        request="r",
        intent="create",
        reason="why",
        status="valid",
        changes=["c"],
        diff="d",
        checkpoint_id="cp",
    )
    out = record.to_json()
    assert {"turn", "request", "route", "diff", "status", "changes", "checkpoint_id"} <= set(out)


@pytest.mark.parametrize(("request_text", "session"), [("", None), ("   ", None), ("x", " ")])
def test_the_python_api_refuses_an_empty_request_or_session(
    agent_data_dir: Path, request_text: str, session: str | None
) -> None:
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.errors import UserInputError
    from oic_ai.stores.settings import load_settings

    settings = load_settings(data_dir=agent_data_dir, env={})
    with TemplateAgent(settings) as agent:
        with pytest.raises(UserInputError, match="empty"):
            agent.generate(request_text, session=session)
        assert agent.sessions.list() == []
