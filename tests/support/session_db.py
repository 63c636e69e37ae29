"""A sessions database with real rows, and the three ways issue 12 found to damage one."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from pathlib import Path
from typing import Any

DAMAGES = ("truncated", "garbage-at-start", "garbage-in-middle")
PAGE = 4096


def make_sessions_db(data_dir: Path, sessions: int = 60) -> dict[str, tuple[Any, ...]]:
    """Fill ``data_dir``'s sessions database; return the session rows by id.

    Each session gets an index row (through ``SessionStore``) and three checkpoints
    (through LangGraph's ``SqliteSaver``), so the file spans many pages.
    """
    from langgraph.checkpoint.base import empty_checkpoint
    from langgraph.checkpoint.sqlite import SqliteSaver

    from oic_ai.stores.session_store import SessionStore, sessions_db_path

    path = sessions_db_path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    with SessionStore(path) as store:
        for number in range(sessions):
            for turn in range(1, 4):
                store.record_turn(
                    f"session-{number:03d}",
                    request=f"request {turn} of session {number}: " + "add htop " * 20,
                    template="image:\n  name: edge-" + str(number) + "\n",
                    status="valid",
                    provider="builtin",
                    now=1_700_000_000.0 + number * 10 + turn,
                    turn=turn,
                )
    conn = sqlite3.connect(path, check_same_thread=False)
    try:
        saver = SqliteSaver(conn)
        for number in range(sessions):
            config: Any = {
                "configurable": {"thread_id": f"session-{number:03d}", "checkpoint_ns": ""}
            }
            for turn in range(1, 4):
                checkpoint = empty_checkpoint()
                checkpoint["channel_values"] = {"template": f"# turn {turn}\n" + "x: y\n" * 50}
                config = saver.put(config, checkpoint, {"step": turn}, {})
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    check = sqlite3.connect(path)
    try:
        rows = check.execute("SELECT * FROM oic_sessions ORDER BY id").fetchall()
    finally:
        check.close()
    return {str(row[0]): tuple(row) for row in rows}


def damage(path: Path, how: str) -> None:
    """Damage an SQLite file as the issue did: cut it, or overwrite its start or middle."""
    data = bytearray(path.read_bytes())
    noise = random.Random(12).randbytes(PAGE * 2)
    if how == "truncated":
        path.write_bytes(bytes(data[: (len(data) // PAGE * 6 // 10) * PAGE + 1000]))
        return
    if how == "garbage-at-start":
        data[:300] = noise[:300]
    elif how == "garbage-in-middle":
        middle = len(data) // PAGE // 2 * PAGE
        data[middle : middle + 2 * PAGE] = noise
    else:
        raise ValueError(how)
    path.write_bytes(bytes(data))


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tree_digest(folder: Path, skip_prefix: str = "sessions.sqlite") -> dict[str, str]:
    """SHA-256 of every file under ``folder`` except the sessions database's own files."""
    return {
        str(p.relative_to(folder)): digest(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(skip_prefix)
    }
