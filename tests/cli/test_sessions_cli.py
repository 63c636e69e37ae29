"""``oic-ai sessions ...`` as a user runs it: JSON contract, exit codes, one-line errors."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.session_store import SessionStore, sessions_db_path
from tests.support.cli import cli_env, oic, oic_json, one_line_error

DAY = 86400.0
FIRST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
SECOND = "make the disk 24GiB"


def run(data_dir: Path, *args: str, extra_env: dict[str, str] | None = None) -> Any:
    env = cli_env(data_dir, OIC_AI_PROVIDER="builtin", **(extra_env or {}))
    return oic(*args, env=env, timeout=180)


def run_json(data_dir: Path, *args: str) -> Any:
    return oic_json(*args, env=cli_env(data_dir, OIC_AI_PROVIDER="builtin"))


def seed(data_dir: Path, rows: list[tuple[str, str, float]]) -> None:
    """Sessions straight into the index: (id, first request, age in seconds)."""
    now = time.time()
    with SessionStore(sessions_db_path(data_dir)) as store:
        for sid, request, age in rows:
            store.record_turn(
                sid,
                request=request,
                template="edge-ubuntu",
                status="valid",
                provider="builtin",
                now=now - age,
            )


# list, delete, prune: SQLite only ------------------------------------------------


def test_list_with_no_sessions(tmp_path: Path) -> None:
    done = run(tmp_path, "sessions", "list")
    assert done.returncode == 0, done.stderr
    assert "No sessions yet" in done.stdout
    assert run_json(tmp_path, "sessions", "list") == {"sessions": []}
    assert not sessions_db_path(tmp_path).exists()  # listing creates nothing


def test_list_json_follows_the_contract_newest_first(tmp_path: Path) -> None:
    seed(tmp_path, [("aaaa-1", "older one", 2 * DAY), ("bbbb-2", "newer one", 60)])
    payload = run_json(tmp_path, "sessions", "list")
    assert [s["id"] for s in payload["sessions"]] == ["bbbb-2", "aaaa-1"]
    for s in payload["sessions"]:
        assert {"id", "title", "created", "updated", "turns", "template"} <= set(s)
        assert s["updated"].endswith("Z") and s["turns"] == 1
    assert run_json(tmp_path, "sessions", "list", "--limit", "1")["sessions"][0]["id"] == "bbbb-2"

    human = run(tmp_path, "sessions", "list")
    assert human.returncode == 0
    assert "bbbb-2" in human.stdout and "newer one" in human.stdout


def test_list_imports_neither_langgraph_nor_chromadb(tmp_path: Path) -> None:
    seed(tmp_path, [("aaaa-1", "hello", 60)])
    done = run(tmp_path, "sessions", "list", "--json", extra_env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert done.returncode == 0
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()}
    assert "oic_ai.stores.session_store" in imported
    assert not {m for m in imported if m.startswith(("langgraph", "chromadb", "langchain"))}


def test_delete_by_unique_prefix(tmp_path: Path) -> None:
    seed(tmp_path, [("aaaa-1", "one", 60), ("bbbb-2", "two", 60)])
    # a prefix in a script (no terminal to ask on) needs --yes, and deletes nothing without
    refused = one_line_error(run(tmp_path, "sessions", "delete", "aaaa"))
    assert "only the start of session aaaa-1" in refused and "--yes" in refused
    assert len(run_json(tmp_path, "sessions", "list")["sessions"]) == 2
    assert run_json(tmp_path, "sessions", "delete", "aaaa", "--yes") == {"deleted": ["aaaa-1"]}
    assert [s["id"] for s in run_json(tmp_path, "sessions", "list")["sessions"]] == ["bbbb-2"]
    error = one_line_error(run(tmp_path, "sessions", "delete", "aaaa", "--yes"))
    assert "no session 'aaaa'" in error and "oic-ai sessions list" in error


def test_delete_by_prefix_asks_on_a_terminal(tmp_path: Path) -> None:
    import os
    import pty
    import subprocess
    import sys

    from tests.conftest import PROJECT
    from tests.support.cli import cli_env

    seed(tmp_path, [("aaaa-1", "one", 60), ("bbbb-2", "two", 60)])
    for answer, left in (("n", 2), ("y", 1)):
        leader, follower = pty.openpty()
        process = subprocess.Popen(
            [sys.executable, "-m", "oic_ai", "sessions", "delete", "aaaa"],
            cwd=PROJECT,
            env=cli_env(tmp_path),
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.close(follower)
        os.write(leader, f"{answer}\n".encode())
        out, err = process.communicate(timeout=120)
        os.close(leader)
        assert process.returncode == 0, err
        assert "Delete session aaaa-1 (one)? [y/N]" in out
        assert len(run_json(tmp_path, "sessions", "list")["sessions"]) == left
    assert "Deleted session aaaa-1" in out


def test_an_ambiguous_prefix_is_a_usage_error(tmp_path: Path) -> None:
    seed(tmp_path, [("ab-1", "one", 60), ("ab-2", "two", 60)])
    error = one_line_error(run(tmp_path, "sessions", "delete", "ab"))
    assert "matches several sessions" in error
    assert len(run_json(tmp_path, "sessions", "list")["sessions"]) == 2


def test_prune_deletes_old_sessions_and_compacts(tmp_path: Path) -> None:
    seed(tmp_path, [(f"old-{i}", "x" * 2000, 10 * DAY) for i in range(200)] + [("new", "n", 60)])
    dry = run_json(tmp_path, "sessions", "prune", "--older-than", "7d", "--dry-run")
    assert dry["deleted"] == 0 and len(dry["sessions"]) == 200
    assert len(run_json(tmp_path, "sessions", "list")["sessions"]) == 201

    pruned = run_json(tmp_path, "sessions", "prune", "--older-than", "7d")

    assert pruned["deleted"] == 200
    assert pruned["bytes_after"] < pruned["bytes_before"]
    assert [s["id"] for s in run_json(tmp_path, "sessions", "list")["sessions"]] == ["new"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("sessions", "prune", "--older-than", "soon"), "'soon' is not a duration"),
        (("sessions", "show", "nope"), "no session 'nope'"),
        (("sessions", "replay", "nope"), "no session 'nope'"),
        (("sessions", "fork", "nope", "--turn", "1"), "no session 'nope'"),
        (("sessions", "rerun", "nope", "--provider", "builtin"), "no session 'nope'"),
        (("sessions", "fork", "x"), "--turn"),
        (("sessions",), "choose an action"),
        (("sessions", "rerun", "x", "--provider", "gpt"), "invalid choice"),
    ],
)
def test_usage_errors_are_one_line(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    assert words in one_line_error(run(tmp_path, *args))


def test_a_busy_database_delays_a_delete_without_an_error(tmp_path: Path) -> None:
    seed(tmp_path, [("aaaa-1", "one", 60), ("bbbb-2", "two", 60)])
    holder = sqlite3.connect(
        sessions_db_path(tmp_path), isolation_level=None, check_same_thread=False
    )
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock for a while
    release = threading.Timer(1.0, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        done = run(tmp_path, "sessions", "delete", "aaaa-1", "--json")
    finally:
        release.join()
        holder.close()
    assert done.returncode == 0, done.stderr
    assert "locked" not in done.stderr
    assert json.loads(done.stdout) == {"deleted": ["aaaa-1"]}


# show, replay, fork, rerun: the real graph ------------------------------------------


@pytest.fixture(scope="module")
def conversation(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Two turns through ``oic-ai generate`` (builtin planner, offline)."""
    data = tmp_path_factory.mktemp("cli-sessions")
    first = run_json(data, "generate", FIRST)
    second = run_json(data, "generate", SECOND, "--session", first["session"])
    assert second["session"] == first["session"]
    return data, str(first["session"])


def test_replay_shows_every_turn(conversation: tuple[Path, str]) -> None:
    data, sid = conversation
    payload = run_json(data, "sessions", "replay", sid[:8])
    assert payload["session"] == sid and payload["title"] == FIRST
    turns = payload["turns"]
    assert [(t["turn"], t["request"], t["route"]["intent"]) for t in turns] == [
        (1, FIRST, "create"),
        (2, SECOND, "refine"),
    ]
    assert all(t["status"] in ("valid", "valid_with_warnings") for t in turns)
    assert "24GiB" in turns[1]["diff"] and turns[1]["changes"]

    human = run(data, "sessions", "replay", sid)
    assert human.returncode == 0, human.stderr
    for text in ("Turn 1", "Turn 2", FIRST, SECOND, "route", "24GiB"):
        assert text in human.stdout
    assert "+image:" not in run(data, "sessions", "replay", sid, "--no-diff").stdout


def test_show_has_the_current_template_and_the_conversation(
    conversation: tuple[Path, str],
) -> None:
    data, sid = conversation
    payload = run_json(data, "sessions", "show", sid)
    assert payload["id"] == sid and payload["turns"] == 2
    assert "24GiB" in payload["state"]["template"]
    assert [m["role"] for m in payload["state"]["messages"]] == ["user", "assistant"] * 2
    human = run(data, "sessions", "show", sid)
    assert human.returncode == 0 and "image:" in human.stdout and FIRST in human.stdout


def test_fork_then_continue_the_fork(conversation: tuple[Path, str]) -> None:
    data, sid = conversation
    forked = run_json(data, "sessions", "fork", sid, "--turn", "1")
    new_id = forked["session"]
    uuid.UUID(new_id)
    assert forked["source"] == sid and forked["turns"] == 1
    assert forked["title"] == f"fork of {FIRST} at turn 1"
    assert [t["request"] for t in run_json(data, "sessions", "replay", new_id)["turns"]] == [FIRST]

    run_json(data, "generate", "make the disk 12GiB", "--session", new_id)
    replayed = run_json(data, "sessions", "replay", new_id)["turns"]
    assert [t["request"] for t in replayed] == [FIRST, "make the disk 12GiB"]
    original = run_json(data, "sessions", "replay", sid)["turns"]
    assert [t["request"] for t in original] == [FIRST, SECOND]

    error = one_line_error(run(data, "sessions", "fork", sid, "--turn", "5"))
    assert "has no turn 5" in error


def test_rerun_compares_turn_by_turn(conversation: tuple[Path, str]) -> None:
    data, sid = conversation
    report = run_json(data, "sessions", "rerun", sid, "--provider", "builtin")
    assert report["source"] == sid and report["provider"] == "builtin"
    assert [t["request"] for t in report["turns"]] == [FIRST, SECOND]
    assert report["matching"] == 2  # the builtin planner is deterministic
    rows = {s["id"]: s for s in run_json(data, "sessions", "list")["sessions"]}
    assert rows[report["session"]]["title"].startswith("rerun of ")
    assert rows[report["session"]]["turns"] == 2

    human = run(data, "sessions", "rerun", sid, "--provider", "builtin")
    assert human.returncode == 0, human.stderr
    assert "turn 1:" in human.stdout and "2 of 2 turn(s) matched" in human.stdout
