"""The session index on both backends: real SQLite and a real PostgreSQL (Debian's).

The same behaviours run against :class:`SqliteSessionStore` and
:class:`PostgresSessionStore` (a throwaway cluster, one database per test; see
``tests/support/postgres.py``), plus what only PostgreSQL has: the saver deleting a
thread's index row, the store chosen from the settings, owner scoping, and one-line
errors (unreachable: exit 3; malformed URL, missing extra: exit 2) that never print the
password.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from operator import add
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph

from oic_ai.graph.checkpointer import open_session_saver, session_checkpointer
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.secrets import mask_url
from oic_ai.stores.session_database import SessionsUnreachableError, check_database_url
from oic_ai.stores.session_factory import open_session_store, store_for_url
from oic_ai.stores.session_store import (
    SessionIndex,
    SqliteSessionStore,
    sessions_db_path,
)
from oic_ai.stores.settings import load_settings
from tests.support.cli import cli_env, modules_after, oic, one_line_error, top_level

T0 = 1_700_000_000.0
BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Any]:
    """``(name, settings)`` of an empty sessions store on each backend."""
    if request.param == "sqlite":
        return "sqlite", load_settings(env={}, data_dir=tmp_path / "data")
    url = request.getfixturevalue("postgres_url")
    return "postgres", load_settings(env={"OIC_AI_DATABASE_URL": url}, data_dir=tmp_path / "data")


@pytest.fixture
def store(backend: tuple[str, Any]) -> Iterator[SessionIndex]:
    opened = open_session_store(backend[1])
    yield opened
    opened.close()


def _turn(store: SessionIndex, sid: str, request: str = "req", **kw: Any) -> None:
    values = {"template": None, "status": "valid", "provider": "builtin", "now": T0, **kw}
    store.record_turn(sid, request=request, **values)


class _Tiny(TypedDict):
    items: Annotated[list[str], add]


def _tiny_graph(saver: Any) -> Any:
    builder = StateGraph(_Tiny)
    builder.add_node("grow", lambda state: {"items": ["x"]})
    builder.add_edge(START, "grow")
    builder.add_edge("grow", END)
    return builder.compile(checkpointer=saver)


def _checkpoints(saver: Any, thread: str) -> int:
    return len(list(saver.list({"configurable": {"thread_id": thread}})))


# the same behaviour on both ------------------------------------------------------------


def test_the_settings_choose_the_backend(backend: tuple[str, Any], store: SessionIndex) -> None:
    name, settings = backend
    assert store.backend == name
    _turn(store, "s1")
    assert sessions_db_path(settings.data_dir).exists() is (name == "sqlite")


def test_rows_lookups_and_turn_counts(store: SessionIndex) -> None:
    assert store.list() == [] and not store.exists()  # reading creates nothing
    yaml = "image:\n  name: edge-ubuntu\n"
    _turn(store, "abc-1", "a minimal Ubuntu edge image for arm64", template=yaml)
    _turn(store, "abc-1", "add monitoring", now=T0 + 60, status="valid_with_warnings")
    _turn(store, "abd-2", "second", now=T0 + 30)
    _turn(store, "abc-1", "from an older checkpoint", now=T0 + 90, turn=2)

    first = store.get("abc")
    assert (first.id, first.title, first.turns, first.template) == (
        "abc-1",
        "a minimal Ubuntu edge image for arm64",
        2,
        "edge-ubuntu",
    )
    assert (first.created, first.updated) == (T0, T0 + 90)
    assert [s.id for s in store.list()] == ["abc-1", "abd-2"]
    assert [s.id for s in store.list(limit=1)] == ["abc-1"]
    assert store.count() == 2 and store.find("nope") is None
    with pytest.raises(UserInputError, match="matches several sessions"):
        store.get("ab")
    with pytest.raises(UserInputError, match="no session 'zz'"):
        store.get("zz")
    assert store.latest(60, now=T0 + 100) is not None
    assert store.latest(5, now=T0 + 100) is None
    assert first.to_json()["created"] == "2023-11-14T22:13:20Z"
    assert set(first.to_json()) == {
        *("id", "title", "created", "updated", "turns", "template"),
        *("status", "provider", "request"),
    }


def test_create_retitle_delete_and_owner_scoping(store: SessionIndex) -> None:
    store.create("fork-1", title="fork of x at turn 2", turns=2, now=T0, owner="alice")
    _turn(store, "mine-1", owner="bob")
    _turn(store, "mine-1", owner="mallory")  # a session keeps its first owner
    _turn(store, "local-1")
    with pytest.raises(UserInputError, match="exists already"):
        store.create("fork-1", title="again", turns=1)
    store.retitle("fork-1", "rerun of x with builtin")

    assert [s.id for s in store.list(owner="alice")] == ["fork-1"]
    assert [s.id for s in store.list(owner="bob")] == ["mine-1"]
    assert store.list(owner="mallory") == []
    assert len(store.list()) == 3
    assert store.get("fork", owner="alice").title == "rerun of x with builtin"
    with pytest.raises(UserInputError, match="no session 'fork'"):
        store.get("fork", owner="bob")
    assert store.find("fork-1", owner="bob") is None
    assert store.latest(owner="bob") is not None and store.latest(owner="eve") is None

    store.delete("fork-1")
    with pytest.raises(UserInputError, match="no session 'fork-1'"):
        store.delete("fork-1")
    with pytest.raises(UserInputError, match="no session"):
        store.retitle("fork-1", "x")


def test_delete_and_prune_take_the_checkpoints_too(
    backend: tuple[str, Any], store: SessionIndex
) -> None:
    now = time.time()
    with open_session_saver(backend[1]) as saver:
        graph = _tiny_graph(saver)
        for i in range(12):
            graph.invoke({"items": ["hi"]}, {"configurable": {"thread_id": f"s{i}"}})
            _turn(store, f"s{i}", now=now - (30 * 86400 if i < 8 else 60))
        assert _checkpoints(saver, "s0") > 0
        store.delete("s11")
        assert _checkpoints(saver, "s11") == 0 and _checkpoints(saver, "s10") > 0
        store.vacuum()  # SQLite: fold the WAL in, so the file's size counts everything
        before = store.size_bytes()

        assert store.prune(7 * 86400) == 8

        assert sorted(s.id for s in store.list()) == ["s10", "s8", "s9"]
        assert _checkpoints(saver, "s0") == 0 and _checkpoints(saver, "s9") > 0
        assert 0 < store.size_bytes() <= before
        assert store.prune(7 * 86400) == 0
        assert store.thread_ids() == ["s10", "s8", "s9"]


def test_threads_recording_at_once_lose_nothing(store: SessionIndex) -> None:
    def work(n: int) -> None:
        for _ in range(10):
            _turn(store, f"t{n % 4}", now=time.time())

    workers = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sorted((s.id, s.turns) for s in store.list()) == [(f"t{i}", 20) for i in range(4)]


def test_the_sync_saver_deleting_a_thread_deletes_its_row(
    backend: tuple[str, Any], store: SessionIndex
) -> None:
    with open_session_saver(backend[1]) as saver:
        _tiny_graph(saver).invoke({"items": []}, {"configurable": {"thread_id": "t1"}})
        _turn(store, "t1")
        saver.delete_thread("t1")
        assert _checkpoints(saver, "t1") == 0
    assert store.list() == []


def test_the_servers_async_saver_picks_the_backend_and_deletes_rows(
    backend: tuple[str, Any], store: SessionIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, settings = backend
    monkeypatch.setenv("OIC_AI_DATA_DIR", str(settings.data_dir))
    if settings.database_url:
        monkeypatch.setenv("OIC_AI_DATABASE_URL", settings.database_url)

    async def run() -> tuple[str, list[str]]:
        async with session_checkpointer() as saver:
            graph = _tiny_graph(saver)
            await graph.ainvoke({"items": []}, {"configurable": {"thread_id": "a1"}})
            await graph.ainvoke({"items": []}, {"configurable": {"thread_id": "a2"}})
            await asyncio.to_thread(_turn, store, "a1")
            await asyncio.to_thread(_turn, store, "a2")
            await saver.adelete_thread("a1")
            left = [t.config["configurable"]["thread_id"] async for t in saver.alist(None)]
            return type(saver).__name__, left

    kind, remaining = asyncio.run(run())
    assert ("Postgres" in kind) is (name == "postgres")
    assert set(remaining) == {"a2"}
    assert [s.id for s in store.list()] == ["a2"]
    assert sessions_db_path(settings.data_dir).exists() is (name == "sqlite")


# PostgreSQL only -----------------------------------------------------------------------


def test_an_old_sqlite_index_gains_the_owner_column(tmp_path: Path) -> None:
    import sqlite3

    path = sessions_db_path(tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE oic_sessions (id TEXT PRIMARY KEY, title TEXT NOT NULL, "
            "created REAL NOT NULL, updated REAL NOT NULL, turns INTEGER NOT NULL DEFAULT 0, "
            "template TEXT, status TEXT, provider TEXT, request TEXT)"
        )
        conn.execute(
            "INSERT INTO oic_sessions VALUES ('old', 't', 1, 2, 3, NULL, NULL, NULL, NULL)"
        )
    conn.close()
    with SqliteSessionStore(path) as store:
        assert store.get("old").owner is None and store.get("old").turns == 3
        _turn(store, "new", owner="alice")
        assert [s.id for s in store.list(owner="alice")] == ["new"]


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mysql://u:hunter2@h/db", "is not a PostgreSQL URL"),
        ("postgresql://u:hunter2@h:99999/db", "is malformed"),
        ("postgresql://u:hunter2@h:5432/", "names no database"),
    ],
)
def test_malformed_urls_are_refused_without_the_password(url: str, words: str) -> None:
    with pytest.raises(UserInputError, match=words) as caught:
        check_database_url(url)
    assert "hunter2" not in str(caught.value) and caught.value.exit_code == 2


def test_a_local_socket_url_without_a_host_is_accepted() -> None:
    assert check_database_url("postgresql:///oic_sessions") == "postgresql:///oic_sessions"


def test_masking_hides_passwords_in_the_user_part_and_the_query() -> None:
    assert mask_url("postgresql://u:pw@h:5/d") == "postgresql://u:***@h:5/d"
    assert mask_url("postgresql://u@h/d?password=pw&sslmode=require") == (
        "postgresql://u@h/d?password=***&sslmode=require"
    )
    assert mask_url("postgresql://u@h/d") == "postgresql://u@h/d"


def test_an_unreachable_server_is_exit_3_and_never_shows_the_password(tmp_path: Path) -> None:
    from tests.support.processes import free_port

    url = f"postgresql://oic:pw-9f2c@127.0.0.1:{free_port()}/sessions"
    with pytest.raises(SessionsUnreachableError) as caught:
        store_for_url(url).list()
    assert caught.value.exit_code == 3 and "pw-9f2c" not in str(caught.value)

    env = cli_env(tmp_path / "data", OIC_AI_DATABASE_URL=url, OIC_AI_PROVIDER="builtin")
    for args in (("sessions", "list"), ("generate", "a minimal ubuntu 24.04 image")):
        line = one_line_error(oic(*args, env=env, timeout=120), code=3)
        assert "cannot reach the sessions database postgresql://oic:***@127.0.0.1" in line
        assert "pw-9f2c" not in line
    assert not (tmp_path / "data" / "sessions.sqlite").exists()


def test_a_wrong_user_or_database_is_exit_2(postgres_cluster: Any, tmp_path: Path) -> None:
    env = cli_env(
        tmp_path,
        OIC_AI_DATABASE_URL=f"postgresql://nobody:pw-abc@127.0.0.1:{postgres_cluster.port}/x",
    )
    line = one_line_error(oic("sessions", "list", env=env, timeout=120), code=2)
    assert "refused the connection" in line and "pw-abc" not in line
    env["OIC_AI_DATABASE_URL"] = "sqlite:///tmp/x.sqlite"
    assert "is not a PostgreSQL URL" in one_line_error(oic("sessions", "list", env=env))


def test_without_the_postgres_extra_it_says_how_to_install_it(tmp_path: Path) -> None:
    blocker = tmp_path / "block"
    (blocker / "psycopg").mkdir(parents=True)
    (blocker / "psycopg" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'psycopg'\", name='psycopg')\n"
    )
    env = cli_env(tmp_path / "data", OIC_AI_DATABASE_URL="postgresql://u:pw-xyz1@127.0.0.1/db")
    env["PYTHONPATH"] = f"{blocker}:{env['PYTHONPATH']}"
    line = one_line_error(oic("sessions", "list", env=env, timeout=120), code=2)
    assert "need the postgres extra" in line and "oic-ai[postgres]" in line
    assert "pw-xyz1" not in line
    del env["OIC_AI_DATABASE_URL"]  # SQLite needs none of it
    assert oic("sessions", "list", "--json", env=env, timeout=120).returncode == 0


def test_the_sqlite_path_never_imports_psycopg() -> None:
    loaded = modules_after(
        "from oic_ai.graph.agent import TemplateAgent\n"
        "import oic_ai.graph.checkpointer, oic_ai.services.session_history"
    )
    assert "langgraph" in top_level(loaded)
    assert not top_level(loaded) & {"psycopg", "psycopg_pool", "psycopg_binary"}


def test_sessions_list_on_postgres_imports_no_langgraph(postgres_url: str, tmp_path: Path) -> None:
    store = store_for_url(postgres_url)
    _turn(store, "s1")
    store.close()
    env = cli_env(tmp_path, OIC_AI_DATABASE_URL=postgres_url, PYTHONPROFILEIMPORTTIME="1")
    done = oic("sessions", "list", "--json", env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()}
    assert "oic_ai.stores.session_store_pg" in imported
    assert not {m for m in imported if m.startswith(("langgraph", "chromadb", "langchain"))}
    assert '"id": "s1"' in done.stdout
