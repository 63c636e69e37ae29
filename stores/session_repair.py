"""``oic-ai sessions repair``: rebuild a damaged sessions database from what can be read.

The damaged file is moved aside, never written; what SQLite can still read (through the
``sqlite3`` program's ``.recover``, or row by row) goes into a new file, which passes its
check before it takes the old name. Detection lives in ``stores.session_check``.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.session_check import SIDE_FILES, database_problem, read_only_uri
from oic_ai.stores.session_store import SCHEMA, TABLE


@dataclass(frozen=True)
class RepairReport:
    """What ``sessions repair`` did.

    Attributes:
        path: The sessions database (now a working one).
        damaged: Why it failed its check; None when it was sound (nothing was done).
        moved_to: Where the damaged file went, beside the new one.
        method: ``recover`` (the ``sqlite3`` program's ``.recover``) or ``copy`` (row by
            row, table by table).
        tables: Rows kept per table.
        sessions: Sessions in the repaired index.
        lost_tables: Tables that could not be read at all.
        dropped: Rows per table that SQLite returned but whose contents did not decode
            (e.g. a checkpoint whose bytes ran into a damaged page).
    """

    path: str
    damaged: str | None
    moved_to: str | None = None
    method: str | None = None
    tables: dict[str, int] | None = None
    sessions: int = 0
    lost_tables: tuple[str, ...] = ()
    dropped: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``sessions repair --json`` shape."""
        out = asdict(self)
        out["repaired"] = self.damaged is not None
        out["tables"] = dict(self.tables or {})
        out["lost_tables"] = list(self.lost_tables)
        out["dropped"] = dict(self.dropped or {})
        return out


RowCheck = Callable[[str, dict[str, Any]], bool]
"""``keep(table, row)``: whether a salvaged row's contents still make sense."""


def _drop_unreadable(target: Path, keep: RowCheck) -> dict[str, int]:
    """Delete the salvaged rows that ``keep`` rejects or that do not decode; count them."""
    dropped: dict[str, int] = {}
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        names = [
            str(row[0])
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        conn.execute("BEGIN")
        for name in names:
            quoted = '"' + name.replace('"', '""') + '"'
            cursor = conn.execute(f"SELECT * FROM {quoted} LIMIT 0")
            columns = [d[0] for d in cursor.description]
            rowids = [int(r[0]) for r in conn.execute(f"SELECT rowid FROM {quoted}")]
            doomed = []
            for rowid in rowids:
                try:  # text that is not UTF-8 fails right here
                    values = conn.execute(
                        f"SELECT * FROM {quoted} WHERE rowid = ?", (rowid,)
                    ).fetchone()
                    good = keep(name, dict(zip(columns, values, strict=True)))
                except Exception:  # noqa: BLE001 - any failure to read it means drop it
                    good = False
                if not good:
                    doomed.append((rowid,))
            conn.executemany(f"DELETE FROM {quoted} WHERE rowid = ?", doomed)
            if doomed:
                dropped[name] = len(doomed)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return dropped


def _salvage_with_recover(source: Path, target: Path) -> bool:
    """Rebuild ``target`` from ``sqlite3 source .recover``; False when that is impossible.

    Some builds of the ``sqlite3`` program lack the ``sqlite_dbpage`` table ``.recover``
    needs and fail with "SQL logic error"; the row-by-row copy takes over then.
    """
    import shutil  # only repair needs these; listing sessions must start fast
    import subprocess

    program = shutil.which("sqlite3")
    if program is None:
        return False
    try:
        done = subprocess.run(
            [program, "-readonly", str(source.resolve()), ".recover"],
            capture_output=True,
            timeout=600,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    if done.returncode != 0 or b"INSERT" not in done.stdout:
        return False
    script = done.stdout.decode("utf-8", "surrogateescape")
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.executescript(script)
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return True


def _copy_rows(source: Path, target: Path) -> list[str]:
    """Copy every table that can still be read, row by row; return the unreadable ones."""
    lost: list[str] = []
    src = sqlite3.connect(read_only_uri(source), uri=True)
    dst = sqlite3.connect(target, isolation_level=None)
    try:
        # past a truncation the header promises more pages than the file has; SQLite
        # reads such a file only with writable_schema on (``.recover`` does the same)
        src.execute("PRAGMA writable_schema = ON")
        try:
            tables = src.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' AND sql IS NOT NULL"
            ).fetchall()
        except sqlite3.DatabaseError:
            return ["sqlite_master"]
        for name, sql in tables:
            try:
                dst.execute(sql)
            except sqlite3.Error:
                lost.append(str(name))
                continue
            if not _copy_table(src, dst, str(name)):
                lost.append(str(name))
    finally:
        src.close()
        dst.close()
    return lost


def _rowids(src: sqlite3.Connection, quoted: str) -> list[int]:
    """The rowids that can be read, from both ends when a damaged page stops a scan."""
    found: set[int] = set()
    for order in ("ASC", "DESC"):
        try:
            for (rowid,) in src.execute(f"SELECT rowid FROM {quoted} ORDER BY rowid {order}"):
                found.add(int(rowid))
        except sqlite3.DatabaseError:
            continue
        break  # a whole scan succeeded
    return sorted(found)


def _copy_table(src: sqlite3.Connection, dst: sqlite3.Connection, name: str) -> bool:
    """Copy the readable rows of one table, one row at a time past damaged pages."""
    quoted = '"' + name.replace('"', '""') + '"'
    try:
        columns = len(src.execute(f"SELECT * FROM {quoted} LIMIT 0").description or ())
    except sqlite3.DatabaseError:
        return False
    insert = f"INSERT OR IGNORE INTO {quoted} VALUES ({','.join('?' * columns)})"
    select = f"SELECT * FROM {quoted} WHERE rowid = ?"
    rowids = _rowids(src, quoted)
    dst.execute("BEGIN")
    try:
        for rowid in rowids:
            try:
                row = src.execute(select, (rowid,)).fetchone()
            except sqlite3.DatabaseError:
                continue  # this row sits on (or overflows into) a damaged page
            if row is not None:
                dst.execute(insert, row)
    except sqlite3.Error:
        dst.execute("ROLLBACK")
        return False
    dst.execute("COMMIT")
    return True


def _count_rows(path: Path) -> tuple[dict[str, int], int]:
    conn = sqlite3.connect(path)
    try:
        names = [
            str(row[0])
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        counts = {
            name: int(conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0])
            for name in names
        }
    finally:
        conn.close()
    return counts, counts.get(TABLE, 0)


def repair_database(
    path: Path | str, *, use_recover: bool = True, keep: RowCheck | None = None
) -> RepairReport:
    """Move a damaged sessions database aside and rebuild it from what can be read.

    The damaged file (and its ``-wal`` / ``-shm`` files) is renamed to
    ``sessions.sqlite.damaged-<UTC time>`` and never written. What SQLite can still read
    goes into a new file: the ``sqlite3`` program's ``.recover`` when it is installed
    (and ``use_recover``), else a row-by-row copy of each table that survives. The new
    file gets the session table and passes its check before it takes the old name. A
    sound database is left alone. Package indexes and Chroma are not touched.

    Args:
        path: The sessions database.
        use_recover: Try ``sqlite3 .recover`` first.
        keep: Judges each salvaged row; rows it rejects (or that do not decode as
            UTF-8 text) are dropped and counted. Without it only undecodable text is.

    Raises:
        UserInputError: the folder cannot be written.
    """
    path = Path(path)
    problem = database_problem(path)
    if problem is None:
        return RepairReport(path=str(path), damaged=None)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    fresh = path.with_name(f"{path.name}.repair-{stamp}.tmp")
    try:
        # salvage from the damaged file where it is, read-only: if anything below
        # fails, it is still there, unchanged
        fresh.unlink(missing_ok=True)
        method = "recover"
        lost: list[str] = []
        if not (use_recover and _salvage_with_recover(path, fresh)):
            method = "copy"
            fresh.unlink(missing_ok=True)
            lost = _copy_rows(path, fresh)
        conn = sqlite3.connect(fresh, isolation_level=None)
        try:
            conn.executescript(SCHEMA)
        finally:
            conn.close()
        dropped = _drop_unreadable(fresh, keep or (lambda _table, _row: True))
        if database_problem(fresh) is not None:  # a salvage that is unsound: start empty
            fresh.unlink()
            method, lost, dropped = "none", ["(everything)"], {}
            conn = sqlite3.connect(fresh, isolation_level=None)
            try:
                conn.executescript(SCHEMA)
            finally:
                conn.close()
        tables, sessions = _count_rows(fresh)
        for suffix in SIDE_FILES:  # read-only checks may leave empty ones behind
            Path(f"{fresh}{suffix}").unlink(missing_ok=True)
        for suffix in SIDE_FILES:  # the WAL travels with its database
            side = Path(f"{path}{suffix}")
            if side.exists():
                side.rename(f"{aside}{suffix}")
        path.rename(aside)
        os.replace(fresh, path)
    except OSError as exc:
        raise UserInputError(
            f"cannot repair {path} ({exc.strerror or exc})",
            fix="check the data folder's permissions and free space",
        ) from None
    finally:
        for leftover in [fresh, *(Path(f"{fresh}{x}") for x in SIDE_FILES)]:
            if leftover.exists() and leftover != path:
                leftover.unlink(missing_ok=True)
    return RepairReport(
        path=str(path),
        damaged=problem,
        moved_to=str(aside),
        method=method,
        tables=tables,
        sessions=sessions,
        lost_tables=tuple(lost),
        dropped=dropped,
    )
