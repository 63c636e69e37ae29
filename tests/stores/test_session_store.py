"""The session index on real SQLite: rows, lookups, concurrency, delete, prune."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
import time
from operator import add
from pathlib import Path
from typing import Annotated, TypedDict

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph

from oic_ai.graph.checkpointer import open_sqlite_saver, sqlite_checkpointer
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_store import (
    SessionStore,
    make_title,
    parse_duration,
    sessions_db_path,
    template_name,
)
from tests.conftest import PROJECT
from tests.support.cli import cli_env

T0 = 1_700_000_000.0
YAML = "image:\n  name: edge-ubuntu  # the name\n  version: '1.0'\ntarget:\n  os: ubuntu\n"


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    s = SessionStore(sessions_db_path(tmp_path / "data"))
    yield s
    s.close()


def _turn(
    store: SessionStore, sid: str, request: str = "req", now: float = T0, **kw: object
) -> None:
    values = {"template": None, "status": "valid", "provider": "builtin", **kw}
    store.record_turn(sid, request=request, now=now, **values)  # type: ignore[arg-type]


# rows -------------------------------------------------------------------------


def test_first_turn_inserts_and_later_turns_update(store: SessionStore) -> None:
    _turn(store, "s1", "a minimal Ubuntu edge image for arm64", template=YAML, now=T0)
    _turn(store, "s1", "add monitoring", now=T0 + 60, status="valid_with_warnings", provider="x")

    (row,) = store.list()
    assert row.id == "s1"
    assert row.title == "a minimal Ubuntu edge image for arm64"
    assert (row.created, row.updated, row.turns) == (T0, T0 + 60, 2)
    assert row.template == "edge-ubuntu"  # None on turn 2 kept turn 1's template
    assert (row.status, row.provider, row.request) == ("valid_with_warnings", "x", "add monitoring")


def test_a_given_turn_number_sets_the_count(store: SessionStore) -> None:
    _turn(store, "s1", now=T0, turn=1)
    _turn(store, "s1", now=T0 + 1, turn=2)
    _turn(store, "s1", now=T0 + 2, turn=2)  # run again from the end of turn 1
    assert store.get("s1").turns == 2
    _turn(store, "s1", now=T0 + 3)  # no number: one more
    assert store.get("s1").turns == 3
    _turn(store, "s2", now=T0, turn=4)  # first seen at turn 4 (its row was lost)
    assert store.get("s2").turns == 4


def test_database_is_the_checkpointers_file_and_has_wal(tmp_path: Path) -> None:
    path = sessions_db_path(tmp_path)
    assert path == tmp_path / "sessions.sqlite"
    with SessionStore(path) as s:
        _turn(s, "s1")
    with closing_conn(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def closing_conn(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path)


def test_reading_a_missing_database_creates_nothing(tmp_path: Path) -> None:
    s = SessionStore(tmp_path / "nowhere" / "sessions.sqlite")
    assert s.list() == []
    assert s.latest() is None
    assert s.count() == 0
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize(
    ("request_text", "title"),
    [
        ("  make   it\n16GiB ", "make it 16GiB"),
        ("", "(empty request)"),
        (
            "a minimal Ubuntu edge image for arm64 with docker, monitoring and a read-only root",
            "a minimal Ubuntu edge image for arm64 with docker…",
        ),
        ("x" * 80, "x" * 59 + "…"),
    ],
)
def test_title_is_trimmed_on_a_word_boundary(request_text: str, title: str) -> None:
    assert make_title(request_text) == title
    assert len(make_title(request_text)) <= 60


@pytest.mark.parametrize(
    ("given", "name"),
    [
        (YAML, "edge-ubuntu"),
        ("edge-ubuntu", "edge-ubuntu"),
        ("target:\n  os: ubuntu\n", None),
        ("", None),
        (None, None),
        ('image:\n  version: "1"\n  name: "quoted-name"\n', "quoted-name"),
    ],
)
def test_template_name_from_name_or_yaml(given: str | None, name: str | None) -> None:
    assert template_name(given) == name


def test_list_is_newest_first_and_limited(store: SessionStore) -> None:
    for i, when in enumerate([T0 + 5, T0 + 1, T0 + 9]):
        _turn(store, f"s{i}", now=when)
    assert [s.id for s in store.list()] == ["s2", "s0", "s1"]
    assert [s.id for s in store.list(limit=2)] == ["s2", "s0"]
    _turn(store, "s1", now=T0 + 20)  # a new turn moves a session to the top
    assert store.list(limit=1)[0].id == "s1"


def test_to_json_has_the_contract_fields_and_iso_times(store: SessionStore) -> None:
    _turn(store, "s1", "hello", template="minimal", now=T0)
    out = store.get("s1").to_json()
    assert {"id", "title", "created", "updated", "turns", "template"} <= out.keys()
    assert out["created"] == "2023-11-14T22:13:20Z"
    assert out["turns"] == 1 and out["template"] == "minimal"


# lookups ----------------------------------------------------------------------


def test_get_by_id_and_unique_prefix(store: SessionStore) -> None:
    _turn(store, "3f2a-0001")
    _turn(store, "3f2b-0002")
    assert store.get("3f2a-0001").id == "3f2a-0001"
    assert store.get("3f2b").id == "3f2b-0002"


@pytest.mark.parametrize(("key", "words"), [("3f2", "matches several"), ("zz", "no session")])
def test_get_unknown_or_ambiguous_says_how_to_find_ids(
    store: SessionStore, key: str, words: str
) -> None:
    _turn(store, "3f2a-0001")
    _turn(store, "3f2b-0002")
    with pytest.raises(UserInputError) as caught:
        store.get(key)
    assert words in str(caught.value)
    assert "oic-ai sessions list" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_latest_respects_the_timeout_and_never_deletes(store: SessionStore) -> None:
    _turn(store, "old", now=T0)
    _turn(store, "new", now=T0 + 100)
    assert store.latest().id == "new"  # type: ignore[union-attr]
    assert store.latest(within_seconds=1800, now=T0 + 200).id == "new"  # type: ignore[union-attr]
    assert store.latest(within_seconds=1800, now=T0 + 100 + 1801) is None
    assert store.count() == 2


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("45s", 45),
        ("30m", 1800),
        ("12h", 43200),
        ("7d", 604800),
        ("2w", 1209600),
        ("1h30m", 5400),
        (" 1.5h ", 5400),
        ("7D", 604800),
        ("0s", 0),
    ],
)
def test_parse_duration(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "7", "d", "7x", "-1d", "7 days", "1h 3"])
def test_parse_duration_rejects_garbage(text: str) -> None:
    with pytest.raises(UserInputError, match="not a duration"):
        parse_duration(text)


# concurrency ------------------------------------------------------------------


def test_threads_recording_at_once_lose_nothing(tmp_path: Path) -> None:
    path = sessions_db_path(tmp_path)
    shared = SessionStore(path)
    errors: list[BaseException] = []

    def work(n: int) -> None:
        own = SessionStore(path)  # half share one connection, half open their own
        target = shared if n % 2 else own
        try:
            for i in range(40):
                target.record_turn(
                    f"s{i % 5}", request=f"t{n}-{i}", template=None, status="valid", provider="p"
                )
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            own.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted((s.id, s.turns) for s in shared.list()) == [(f"s{i}", 64) for i in range(5)]
    shared.close()


_WORKER = """
import sys
from pathlib import Path
from oic_ai.stores.session_store import (SessionStore,)

path, worker, turns = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
store = SessionStore(path)
for i in range(turns):
    sid = f"w{worker}" if i % 2 else "shared"
    store.record_turn(sid, request=f"{worker}:{i}", template=None, status="valid", provider="b")
store.close()
"""


def test_processes_recording_at_once_lose_nothing(tmp_path: Path) -> None:
    path = sessions_db_path(tmp_path)
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(path), str(w), "30"], cwd=PROJECT, env=cli_env()
        )
        for w in range(4)
    ]
    assert [p.wait(60) for p in workers] == [0, 0, 0, 0]
    turns = {s.id: s.turns for s in SessionStore(path).list()}
    assert turns == {"shared": 60, "w0": 15, "w1": 15, "w2": 15, "w3": 15}


def test_a_writer_holding_the_lock_only_delays_a_turn(tmp_path: Path) -> None:
    path = sessions_db_path(tmp_path)
    store = SessionStore(path)
    store.list()  # nothing yet; the file does not exist
    _turn(store, "s1")
    blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN IMMEDIATE")
    blocker.execute("UPDATE oic_sessions SET title = 'held' WHERE id = 's1'")
    release = threading.Timer(0.3, lambda: blocker.execute("COMMIT"))
    release.start()
    _turn(store, "s1", now=T0 + 1)  # waits for the lock instead of failing
    release.join()
    blocker.close()
    row = store.get("s1")
    assert (row.title, row.turns) == ("held", 2)


# delete and prune against a real SqliteSaver ------------------------------------


class _Tiny(TypedDict):
    items: Annotated[list[str], add]


def _tiny_graph(saver: SqliteSaver):  # type: ignore[no-untyped-def]
    builder = StateGraph(_Tiny)
    builder.add_node("grow", lambda state: {"items": ["x" * 20_000]})
    builder.add_edge(START, "grow")
    builder.add_edge("grow", END)
    return builder.compile(checkpointer=saver)


def _checkpoint_rows(path: Path, thread: str) -> int:
    with sqlite3.connect(path) as conn:
        a = conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = ?", [thread])
        b = conn.execute("SELECT count(*) FROM writes WHERE thread_id = ?", [thread])
        return int(a.fetchone()[0]) + int(b.fetchone()[0])


def test_delete_removes_the_row_and_the_threads_checkpoints(tmp_path: Path) -> None:
    path = sessions_db_path(tmp_path)
    with SqliteSaver.from_conn_string(str(path)) as saver:
        graph = _tiny_graph(saver)
        for thread in ("keep", "drop"):
            graph.invoke({"items": ["hi"]}, {"configurable": {"thread_id": thread}})
    store = SessionStore(path)
    _turn(store, "keep")
    _turn(store, "drop")
    assert _checkpoint_rows(path, "drop") > 0

    store.delete("drop")

    assert [s.id for s in store.list()] == ["keep"]
    assert _checkpoint_rows(path, "drop") == 0
    assert _checkpoint_rows(path, "keep") > 0
    with pytest.raises(UserInputError, match="no session 'drop'"):
        store.delete("drop")


def test_delete_works_before_any_checkpoint_table_exists(store: SessionStore) -> None:
    _turn(store, "s1")
    store.delete("s1")
    assert store.list() == []


def test_prune_deletes_old_sessions_and_vacuum_shrinks_the_file(tmp_path: Path) -> None:
    path = sessions_db_path(tmp_path)
    now = time.time()
    with SqliteSaver.from_conn_string(str(path)) as saver:
        graph = _tiny_graph(saver)
        for i in range(30):
            graph.invoke({"items": []}, {"configurable": {"thread_id": f"s{i}"}})
    store = SessionStore(path)
    for i in range(30):
        _turn(store, f"s{i}", now=now - (30 * 86400 if i < 25 else 60))
    store.vacuum()
    before = path.stat().st_size

    assert store.prune(parse_duration("7d")) == 25

    assert sorted(s.id for s in store.list()) == [f"s{i}" for i in range(25, 30)]
    assert _checkpoint_rows(path, "s0") == 0 and _checkpoint_rows(path, "s29") > 0
    assert path.stat().st_size < before / 2
    assert store.prune(parse_duration("7d")) == 0  # nothing more to do
    with pytest.raises(UserInputError):
        store.prune(-1)


def test_create_a_session_with_turns_done(store: SessionStore) -> None:
    made = store.create("fork-1", title="fork of hello at turn 2", turns=2, template=YAML, now=T0)
    assert store.get("fork-1") == made
    assert (made.turns, made.template) == (2, "edge-ubuntu")
    with pytest.raises(UserInputError, match="exists already"):
        store.create("fork-1", title="again", turns=1)


# the savers that share the file ---------------------------------------------------


def test_sync_saver_deleting_a_thread_deletes_its_session_row(tmp_path: Path) -> None:
    with open_sqlite_saver(tmp_path) as saver:
        graph = _tiny_graph(saver)
        graph.invoke({"items": []}, {"configurable": {"thread_id": "t1"}})
        store = SessionStore(sessions_db_path(tmp_path))
        _turn(store, "t1")
        saver.delete_thread("t1")
    assert store.list() == []
    assert _checkpoint_rows(sessions_db_path(tmp_path), "t1") == 0


def test_async_saver_shares_the_database_the_store_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OIC_AI_DATA_DIR", str(tmp_path / "data"))
    path = sessions_db_path(tmp_path / "data")

    async def run() -> list[str]:
        async with sqlite_checkpointer() as saver:
            builder = StateGraph(_Tiny)
            builder.add_node("grow", lambda state: {"items": ["y"]})
            builder.add_edge(START, "grow")
            builder.add_edge("grow", END)
            graph = builder.compile(checkpointer=saver)
            await graph.ainvoke({"items": []}, {"configurable": {"thread_id": "a1"}})
            await graph.ainvoke({"items": []}, {"configurable": {"thread_id": "a2"}})
            _turn(SessionStore(path), "a1")
            await saver.adelete_thread("a1")
            return [t.config["configurable"]["thread_id"] async for t in saver.alist(None)]

    remaining = asyncio.run(run())
    assert set(remaining) == {"a2"}
    assert SessionStore(path).list() == []
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
