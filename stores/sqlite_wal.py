"""Switching a SQLite database to WAL while other connections use it.

SQLite answers ``PRAGMA journal_mode = WAL`` with "database is locked" at once,
without calling its busy handler, while another connection opens or writes the
same file. Several ``oic-ai`` processes (or threads) opening one database at the
same moment hit this, so the switch is retried here until a deadline. A database
already in WAL mode needs no switch, and so no lock, at all.
"""

from __future__ import annotations

import sqlite3

from oic_ai.stores.backoff import Backoff
from oic_ai.stores.session_check import is_busy


def use_wal(connection: sqlite3.Connection, seconds: float) -> None:
    """Put ``connection``'s database in WAL mode, waiting up to ``seconds`` for it.

    Raises:
        sqlite3.OperationalError: still locked after ``seconds``, or another failure.
    """
    backoff = Backoff(seconds, first=0.005, most=0.2)
    while True:
        try:
            mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "wal":
                connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            error = exc
        backoff.sleep(lambda: error)
