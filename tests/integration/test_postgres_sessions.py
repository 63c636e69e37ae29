"""Sessions in a real PostgreSQL through the command line, next to the same on SQLite.

- The whole lifecycle (``generate --new``, ``--continue``, ``chat``, ``sessions list``,
  ``show``, ``replay``, ``fork``, ``rerun``, ``delete``, ``prune``) runs once with the
  default SQLite store and once with ``OIC_AI_DATABASE_URL``; every ``--json`` answer is
  the same once ids and clock times are set aside, and PostgreSQL leaves no
  ``sessions.sqlite`` behind. The first turn and ``chat`` run in a process of their own;
  the other commands run through the same entry point in this process (``oic_here``),
  each opening its stores afresh, so LangGraph's start-up is paid once, not per command.
- ``sessions migrate --to URL`` copies SQLite to PostgreSQL: the list and every replay
  are identical afterwards (checkpoint ids included), an old turn can be forked and a
  session continued there, a second run changes nothing, and a target holding a
  different session with the same id is refused before anything is written. The first
  migration and its second run are processes of their own; the conversations before and
  the reads after run in this process (``oic_here``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.session_factory import store_for_url
from tests.conftest import copy_index
from tests.support.cli import cli_env, oic, oic_here_json, oic_json, one_line_error

pytestmark = pytest.mark.integration

FIRST = "a minimal ubuntu 24.04 edge image for arm64 with docker"
SECOND = "make the disk 24GiB"
THIRD = "add htop"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
CLOCK = {"created", "updated", "checkpoint_id", "bytes_before", "bytes_after"}


def _env(data: Path, url: str | None) -> dict[str, str]:
    extra = {"OIC_AI_PROVIDER": "builtin"}
    if url:
        extra["OIC_AI_DATABASE_URL"] = url
    return cli_env(data, **extra)


class Ids:
    """Session ids in order of appearance, so two runs' answers compare."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def __call__(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: "<t>" if k in CLOCK else self(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self(v) for v in value]
        if isinstance(value, str):
            return UUID.sub(lambda m: self.seen.setdefault(m[0], f"<s{len(self.seen)}>"), value)
        return value


def lifecycle(data: Path, url: str | None) -> list[Any]:
    """Every session command once, as a user runs them; the ``--json`` answers in order."""
    env = _env(data, url)
    out: list[Any] = []

    def j(*args: str) -> Any:
        answer = oic_here_json(*args, env=env)
        out.append(answer)
        return answer

    out.append(oic_json("generate", FIRST, "--new", env=env))  # a process of its own
    sid = out[-1]["session"]
    assert j("generate", SECOND, "--continue")["session"] == sid
    chat = oic("chat", "--continue", env=env, stdin=f"{THIRD}\n/undo\n/quit\n", timeout=300)
    assert chat.returncode == 0 and f"continuing session {sid}" in chat.stdout, chat.stderr
    listed = j("sessions", "list")["sessions"]
    # chat's /undo is a turn of its own ("undo" as a request, issue 21), so history is kept
    assert [(s["id"], s["turns"]) for s in listed] == [(sid, 4)]
    j("sessions", "show", sid[:8])
    replay = j("sessions", "replay", sid)["turns"]
    assert [t["request"] for t in replay if t["kind"] == "run"] == [FIRST, SECOND, THIRD, "undo"]
    fork = j("sessions", "fork", sid, "--turn", "1")["session"]
    j("generate", "make the disk 12GiB", "--session", fork)
    j("sessions", "replay", fork)
    rerun = j("sessions", "rerun", sid, "--provider", "builtin")
    assert rerun["matching"] == 4
    j("sessions", "list")
    assert j("sessions", "delete", fork) == {"deleted": [fork]}
    j("sessions", "prune", "--older-than", "1h", "--dry-run")
    pruned = j("sessions", "prune", "--older-than", "1w")
    assert pruned["deleted"] == 0
    j("sessions", "list")
    assert j("sessions", "prune", "--older-than", "0s")["deleted"] == 2
    assert j("sessions", "list") == {"sessions": []}
    error = one_line_error(oic("sessions", "replay", sid, env=env))
    out.append(error)
    return out


def test_the_session_lifecycle_is_the_same_on_sqlite_and_postgres(
    tmp_path: Path,
    postgres_url: str,
    indexed_data: Path,
) -> None:
    # the run's library index in both folders, rather than embed the library twice
    copy_index(indexed_data, tmp_path / "sqlite")
    copy_index(indexed_data, tmp_path / "pg")
    on_sqlite = lifecycle(tmp_path / "sqlite", None)
    assert (tmp_path / "sqlite" / "sessions.sqlite").exists()

    on_postgres = lifecycle(tmp_path / "pg", postgres_url)

    assert not list((tmp_path / "pg").glob("sessions.sqlite*"))
    assert Ids()(on_postgres) == Ids()(on_sqlite)


# migration -----------------------------------------------------------------------------


def _conversations(data: Path) -> tuple[str, str]:
    env = _env(data, None)
    one = oic_here_json("generate", FIRST, env=env)["session"]
    oic_here_json("generate", SECOND, "--session", one, env=env)
    two = oic_here_json("generate", "a minimal debian 13 image for x86_64", env=env)["session"]
    oic_here_json("sessions", "fork", one, "--turn", "1", env=env)
    return one, two


def _thread_count(url: str) -> int:
    with store_for_url(url) as store:
        return len(store.thread_ids())


def test_migrate_from_sqlite_to_postgres_loses_nothing(
    tmp_path: Path,
    postgres_cluster: Any,
    indexed_data: Path,
) -> None:
    data = copy_index(indexed_data, tmp_path / "data")
    one, two = _conversations(data)
    sqlite_env, target = _env(data, None), postgres_cluster.create_database()
    pg_env = _env(data, target)
    before = oic_here_json("sessions", "list", env=sqlite_env)
    replays = {
        s["id"]: oic_here_json("sessions", "replay", s["id"], env=sqlite_env)
        for s in before["sessions"]
    }

    report = oic_json("sessions", "migrate", "--to", target, env=sqlite_env)

    assert report["sessions"] == report["threads"] == 3 and report["new_sessions"] == 3
    assert report["checkpoints"] > 3 * 2 and report["writes"] > 0
    assert report["source"].endswith("sessions.sqlite") and report["target"] == target
    assert oic_here_json("sessions", "list", env=pg_env) == before  # times, titles, turns
    for sid, replay in replays.items():
        assert oic_here_json("sessions", "replay", sid, env=pg_env) == replay

    # an old turn forks there, and a session continues there
    fork = oic_here_json("sessions", "fork", one, "--turn", "1", env=pg_env)
    forked = oic_here_json("sessions", "replay", fork["session"], env=pg_env)
    assert [t["request"] for t in forked["turns"]] == [FIRST]
    more = oic_here_json("generate", "add htop", "--session", two, env=pg_env)
    assert more["turn"] == 2 and more["session"] == two

    # the human line, and a second run that changes nothing
    again = oic("sessions", "migrate", "--to", target, env=sqlite_env, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "Copied 3 session(s)" in again.stdout and "0 new, 3 already there" in again.stdout
    after = {s["id"]: s for s in oic_here_json("sessions", "list", env=pg_env)["sessions"]}
    assert after[two]["turns"] == 2  # the newer row on the target was kept
    assert len(after) == 4 and _thread_count(target) == 4


def test_migrate_refuses_a_target_with_a_different_session_of_the_same_id(
    tmp_path: Path,
    postgres_cluster: Any,
) -> None:
    data = tmp_path / "data"
    env = _env(data, None)
    sid = oic_json("generate", FIRST, env=env)["session"]
    target = postgres_cluster.create_database()
    with store_for_url(target) as store:
        store.record_turn(
            sid, request="someone else's", template=None, status="valid", provider="x"
        )
    password_url = target.replace("postgres@", "postgres:pw-77aa@")

    error = one_line_error(oic("sessions", "migrate", "--to", password_url, env=env, timeout=300))

    assert f"already holds a different session {sid}" in error and "nothing was copied" in error
    assert "pw-77aa" not in error and "postgres:***@" in error
    with store_for_url(target) as store:
        assert [s.title for s in store.list()] == ["someone else's"]
        assert store.thread_ids() == [sid]  # no checkpoint was copied
    bad = one_line_error(oic("sessions", "migrate", "--to", "mysql://x/y", env=env))
    assert "is not a PostgreSQL URL" in bad
