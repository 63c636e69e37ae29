"""A damaged sessions.sqlite is refused at open, never written, and repaired on request.

Issue 12 item 3: a truncated file or one with garbage at its start made every command
die with a ``sqlite3.DatabaseError`` traceback; garbage in the middle went unnoticed and
``prune`` failed at ``VACUUM``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from oic_ai.stores.session_check import DamagedDatabaseError, database_problem
from oic_ai.stores.session_repair import repair_database
from oic_ai.stores.session_store import SessionStore, sessions_db_path
from tests.support.session_db import DAMAGES, damage, digest, make_sessions_db


@pytest.fixture(scope="module")
def sound_db(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, tuple[object, ...]]]:
    data = tmp_path_factory.mktemp("sound")
    rows = make_sessions_db(data)
    return sessions_db_path(data), rows


def _damaged(tmp_path: Path, sound: Path, how: str) -> Path:
    path = sessions_db_path(tmp_path)
    path.write_bytes(sound.read_bytes())
    damage(path, how)
    return path


@contextmanager
def _never_written(path: Path) -> Iterator[None]:
    """Check that ``path`` holds the same bytes after the block as before it."""
    before = digest(path)
    yield
    assert digest(path) == before


def test_a_sound_database_passes(sound_db: tuple[Path, dict[str, tuple[object, ...]]]) -> None:
    path, rows = sound_db
    assert database_problem(path) is None
    assert len(SessionStore(path).list()) == len(rows)
    assert repair_database(path).damaged is None  # nothing to do, nothing moved
    assert sorted(p.name for p in path.parent.glob("sessions.sqlite.damaged*")) == []


@pytest.mark.parametrize("how", DAMAGES)
def test_every_store_operation_refuses_a_damaged_file_and_never_writes_it(
    tmp_path: Path, sound_db: tuple[Path, dict[str, tuple[object, ...]]], how: str
) -> None:
    path = _damaged(tmp_path, sound_db[0], how)
    operations = [
        lambda s: s.list(),
        lambda s: s.get("session-001"),
        lambda s: s.prune(1.0),
        lambda s: s.delete("session-001"),
        lambda s: s.record_turn(
            "session-001", request="add tmux", template=None, status="valid", provider="x"
        ),
    ]
    with _never_written(path):
        assert database_problem(path) is not None
        for operation in operations:
            with SessionStore(path) as store, pytest.raises(DamagedDatabaseError) as caught:
                operation(store)
            assert "oic-ai sessions repair" in str(caught.value)
            assert "\n" not in str(caught.value)


@pytest.mark.parametrize("how", DAMAGES)
def test_the_agent_refuses_a_damaged_file(
    tmp_path: Path, sound_db: tuple[Path, dict[str, tuple[object, ...]]], how: str
) -> None:
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.graph.checkpointer import open_sqlite_saver
    from oic_ai.stores.settings import load_settings

    path = _damaged(tmp_path, sound_db[0], how)
    settings = load_settings(env={"OIC_AI_DATA_DIR": str(tmp_path)})
    with _never_written(path):
        with pytest.raises(DamagedDatabaseError):
            TemplateAgent(settings)
        with pytest.raises(DamagedDatabaseError), open_sqlite_saver(tmp_path):
            pass


@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("use_recover", [True, False])
def test_repair_keeps_what_can_be_read_and_leaves_a_working_database(
    tmp_path: Path,
    sound_db: tuple[Path, dict[str, tuple[object, ...]]],
    how: str,
    use_recover: bool,
) -> None:
    from oic_ai.services.sessions import _readable_row

    path = _damaged(tmp_path, sound_db[0], how)
    before = digest(path)
    report = repair_database(path, use_recover=use_recover, keep=_readable_row)

    assert report.damaged is not None
    moved = Path(str(report.moved_to))
    assert moved.parent == path.parent and moved.name.startswith("sessions.sqlite.damaged-")
    assert digest(moved) == before  # moved aside untouched
    assert database_problem(path) is None
    with SessionStore(path) as store:
        kept = {s.id: s for s in store.list()}
        assert report.sessions == len(kept)
        for sid, summary in kept.items():  # every kept session is exactly as it was
            assert tuple(vars(summary).values()) == sound_db[1][sid]
        store.record_turn("new", request="a new one", template=None, status="valid", provider="x")
        assert store.get("new").turns == 1
    if how != "garbage-at-start":  # its schema page is gone; the others keep most rows
        assert len(kept) >= len(sound_db[1]) // 3
        assert (report.tables or {}).get("checkpoints", 0) > 0
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_salvaged_checkpoints_load_again(
    tmp_path: Path, sound_db: tuple[Path, dict[str, tuple[object, ...]]]
) -> None:
    from langgraph.checkpoint.sqlite import SqliteSaver

    from oic_ai.services.sessions import _readable_row

    path = _damaged(tmp_path, sound_db[0], "truncated")
    repair_database(path, keep=_readable_row)
    conn = sqlite3.connect(path, check_same_thread=False)
    try:
        loaded = list(SqliteSaver(conn).list(None))  # every kept checkpoint deserialises
    finally:
        conn.close()
    assert loaded
