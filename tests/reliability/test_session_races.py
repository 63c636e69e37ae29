"""Several writers on ONE session at once: no turn is lost and no one reports another's.

Issue 12 item 1: two ``generate --session ID`` runs at the same time both exited 0 and
reported the same turn number, and the session kept only one of them. A turn now holds
the session's lock from the checkpoint it reads to the one it commits; a second writer
waits for it (bounded) or fails with exit 3 and "session is busy, try again".
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from oic_ai.stores.session_lock import SessionBusyError, session_lock
from tests.support.cli import (
    cli_env,
    finish_all,
    oic,
    oic_here_json,
    oic_json,
    one_line_error,
    start_oic,
)
from tests.support.processes import integrity

# each round, one writer per package, all on the same session at once (the race is in
# every round; a second round has the writers meet a session already raced over)
ROUNDS = [["htop", "tmux", "curl"], ["vim", "git", "wget"]]
PACKAGES = ROUNDS[0]


def _words(changes: list[str]) -> set[str]:
    return {word.strip(",.") for change in changes for word in change.split()}


def test_concurrent_turns_on_one_session_are_all_kept(agent_data_dir: Path) -> None:
    env = cli_env(agent_data_dir)
    first = oic_json("generate", "a minimal ubuntu 24.04 image for x86_64", env=env)
    session = first["session"]
    successes = 1
    reported: list[int] = [first["turn"]]
    for number, packages in enumerate(ROUNDS):
        runs = [
            (name, start_oic(env, "generate", f"add {name}", "--session", session, "--json"))
            for name in packages
        ]
        outputs = finish_all(runs)
        for name, out, err, code in outputs:
            assert "Traceback" not in err, err[-3000:]
            if code == 3:  # the loser may give up: one line, nothing recorded
                assert "session is busy, try again" in err, err
                continue
            assert code == 0, (number, name, code, err[-3000:])
            payload = json.loads(out)
            successes += 1
            reported.append(payload["turn"])
            assert payload["session"] == session
            # no process prints another process's result
            words = _words(payload["changes"])
            assert name in words, payload["changes"]
            assert not words & (set(packages) - {name}), payload["changes"]

    listed = {s["id"]: s for s in oic_json("sessions", "list", env=env)["sessions"]}
    assert listed[session]["turns"] == successes
    replayed = oic_here_json("sessions", "replay", session, "--no-diff", env=env)  # no race now
    turns = [t["turn"] for t in replayed["turns"]]
    assert len(turns) == successes
    assert sorted(reported) == list(range(1, successes + 1))  # every turn number once
    assert set(reported) <= set(turns)
    assert integrity(agent_data_dir / "sessions.sqlite") == "ok"


def test_a_busy_session_fails_with_exit_3_after_the_wait(agent_data_dir: Path) -> None:
    env = cli_env(agent_data_dir)
    session = oic_json("generate", "a minimal ubuntu 24.04 image for x86_64", env=env)["session"]
    with session_lock(agent_data_dir, session, timeout=0):
        done = oic(
            "generate", "add htop", "--session", session,
            env={**env, "OIC_AI_SESSION_WAIT": "0.2"},
        )  # fmt: skip
    line = one_line_error(done, code=3)
    assert "session is busy, try again" in line
    listed = {s["id"]: s for s in oic_json("sessions", "list", env=env)["sessions"]}
    assert listed[session]["turns"] == 1


def test_the_python_api_serialises_turns_in_threads(agent_data_dir: Path) -> None:
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.settings import load_settings

    settings = load_settings(env={"OIC_AI_DATA_DIR": str(agent_data_dir)})
    with TemplateAgent(settings) as agent:
        session = agent.generate("a minimal ubuntu 24.04 image for x86_64").session
    results: dict[str, int] = {}
    errors: list[BaseException] = []

    def worker(name: str) -> None:
        try:
            with TemplateAgent(settings) as own:
                result = own.generate(f"add {name}", session=session)
                assert name in _words(result.changes), result.changes
                results[name] = result.turn
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(name,)) for name in PACKAGES]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert sorted(results.values()) == [2, 3, 4]
    with TemplateAgent(settings) as agent:
        assert agent.state(session)["turn"] == 4
        assert agent.sessions.get(session).turns == 4


def test_the_python_api_raises_session_busy(agent_data_dir: Path) -> None:
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.stores.settings import load_settings

    settings = load_settings(env={"OIC_AI_DATA_DIR": str(agent_data_dir)})
    with TemplateAgent(settings, lock_timeout=0.1) as agent:
        session = agent.generate("a minimal ubuntu 24.04 image for x86_64").session
        with session_lock(agent_data_dir, session, timeout=0):
            with pytest.raises(SessionBusyError, match="session is busy, try again"):
                agent.generate("add htop", session=session)
        assert agent.state(session)["turn"] == 1


def test_delete_waits_for_a_running_turn(
    agent_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oic_ai.services.sessions import delete_session, find_session
    from oic_ai.stores.session_store import SessionStore, sessions_db_path
    from oic_ai.stores.settings import load_settings

    settings = load_settings(env={"OIC_AI_DATA_DIR": str(agent_data_dir)})
    with SessionStore(sessions_db_path(agent_data_dir)) as store:
        store.record_turn("s1", request="a request", template=None, status="valid", provider="x")
    monkeypatch.setenv("OIC_AI_SESSION_WAIT", "0.1")
    with session_lock(agent_data_dir, "s1", timeout=0):
        with pytest.raises(SessionBusyError):
            delete_session(settings, "s1")
    assert find_session(settings, "s1").turns == 1
    assert delete_session(settings, "s1").id == "s1"
