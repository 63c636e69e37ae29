"""Switching to WAL waits out a connection that holds the database (CI's flaky lock)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from oic_ai.stores.sqlite_wal import use_wal


def _held(path: Path, seconds: float) -> tuple[sqlite3.Connection, threading.Thread]:
    """A rollback-journal database whose write lock another connection holds for ``seconds``."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO t VALUES (1)")
    release = threading.Timer(seconds, lambda: holder.execute("COMMIT"))
    release.start()
    return holder, release


def test_the_plain_pragma_fails_at_once_while_another_connection_writes(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    holder, release = _held(path, 0.5)
    other = sqlite3.connect(path, timeout=5, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        other.execute("PRAGMA journal_mode = WAL")
    release.join()
    other.close()
    holder.close()


def test_use_wal_waits_for_the_writer_and_switches(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    holder, release = _held(path, 0.3)
    other = sqlite3.connect(path, timeout=5, isolation_level=None)
    use_wal(other, 5.0)
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("SELECT x FROM t").fetchall() == [(1,)]  # the writer's commit landed
    release.join()
    other.close()
    holder.close()


def test_use_wal_gives_up_after_its_deadline(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    holder, release = _held(path, 1.0)
    other = sqlite3.connect(path, timeout=5, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        use_wal(other, 0.1)
    release.join()
    other.close()
    holder.close()


def test_a_database_already_in_wal_needs_no_lock(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    first = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    first.execute("PRAGMA journal_mode = WAL")
    first.execute("CREATE TABLE t (x)")
    first.execute("BEGIN IMMEDIATE")
    first.execute("INSERT INTO t VALUES (1)")
    other = sqlite3.connect(path, timeout=5, isolation_level=None)
    use_wal(other, 0.0)  # no retry needed: a writer in WAL mode blocks no reader
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    first.execute("COMMIT")
    other.close()
    first.close()
