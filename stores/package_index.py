"""The package index cache: one SQLite database of what each distribution ships.

Rows come from Debian ``Packages`` files and RPM ``primary.xml`` (see
``stores.package_formats``), imported per *source*: one index file of one repository
for one target (dist + arch). Each import replaces that source's rows in a single
transaction, so a failed or interrupted import leaves the previous rows in place.

The database runs in WAL mode with a busy timeout, so several ``oic-ai`` processes
can read while one imports, and two imports wait for each other instead of failing.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from oic_ai.stores.capability_catalog import normalize_arch
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.package_formats import PackageRecord
from oic_ai.stores.sqlite_wal import use_wal

DB_NAME = "packages.sqlite"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_SECONDS = 60.0
GLOB_CHARS = frozenset("*?[")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (
    id INTEGER PRIMARY KEY,
    os TEXT NOT NULL DEFAULT '',
    dist TEXT NOT NULL,
    arch TEXT NOT NULL,
    scope TEXT NOT NULL,
    kind TEXT NOT NULL,
    repo TEXT NOT NULL,
    repo_key TEXT NOT NULL,
    location TEXT NOT NULL,
    url TEXT NOT NULL DEFAULT '',
    etag TEXT,
    last_modified TEXT,
    fetched_at REAL NOT NULL,
    imported_at REAL NOT NULL,
    packages INTEGER NOT NULL DEFAULT 0,
    spec TEXT NOT NULL DEFAULT '{}',
    UNIQUE (dist, arch, location)
);
CREATE TABLE IF NOT EXISTS packages (
    source_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    arch TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS packages_by_name ON packages (name, source_id);
CREATE TABLE IF NOT EXISTS provides (
    source_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    provider TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS provides_by_name ON provides (name, source_id);
CREATE TABLE IF NOT EXISTS depends (
    source_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    needs TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS depends_by_name ON depends (name, source_id);
"""
# ``depends`` came after schema 1 was released; an older file gains the (empty) table when
# opened, and its sources have dependency data from their next sync on.


def is_glob(name: str) -> bool:
    """Return True when a package name uses the composer's wildcards (``*``, ``?``, ``[..]``)."""
    return any(char in GLOB_CHARS for char in name)


def repo_key(url: str, suite: str = "") -> str:
    """Return the key that groups the sources of one repository (``url#suite``)."""
    return f"{url.rstrip('/')}#{suite}"


@dataclass(frozen=True)
class SourceInfo:
    """Where one index file came from and how to fetch it again.

    Attributes:
        kind: ``deb`` or ``rpm``.
        repo: A short human label (``noble main``, ``Azure Linux 3.0``, a file name).
        repo_key: Groups the sources of one repository (see :func:`repo_key`).
        location: Unique per index file within a target (URL with suite/component, or path).
        scope: ``base`` for the distribution's own repositories (and local imports),
            ``extra`` for repositories a template adds under ``packageRepositories``.
        spec: JSON-able data that lets ``packages sync`` fetch it again.
    """

    kind: str
    repo: str
    repo_key: str
    location: str
    scope: str = "base"
    spec: Mapping[str, Any] = field(default_factory=dict)


# SourceRow fields kept out of its JSON: internal keys and the fetch spec
_UNSHOWN = frozenset({"id", "repo_key", "spec"})


@dataclass(frozen=True)
class SourceRow:
    """One imported source as stored, with its fetch state."""

    id: int
    os: str
    dist: str
    arch: str
    scope: str
    kind: str
    repo: str
    repo_key: str
    location: str
    url: str
    etag: str | None
    last_modified: str | None
    fetched_at: float
    imported_at: float
    packages: int
    spec: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        """Every field in order but the row id, the repo key and the fetch spec."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _UNSHOWN}


@dataclass(frozen=True)
class PackageHit:
    """A package found in an index."""

    name: str
    version: str
    arch: str
    repo: str
    source_id: int


@dataclass(frozen=True)
class RepoFilter:
    """A template's extra repository and its ``allowPackages`` patterns (empty: all)."""

    repo_key: str
    allow: tuple[str, ...] = ()

    def allows(self, name: str) -> bool:
        """Return True when the repository may supply ``name``."""
        return not self.allow or any(fnmatchcase(name, pattern) for pattern in self.allow)


class PackageIndex:
    """The SQLite cache of package indexes under the data folder.

    The connection opens on first use, not at construction, so building a
    ``PackageIndex`` is free and never touches the disk.

    Args:
        path: The database file (``settings.data_dir / "packages.sqlite"``).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._query_lock = threading.RLock()
        self._names_cache: dict[tuple[tuple[int, float], ...], tuple[str, ...]] = {}

    @classmethod
    def for_data_dir(cls, data_dir: str | Path) -> PackageIndex:
        """Return the index stored in ``data_dir`` (``packages.sqlite``)."""
        return cls(Path(data_dir) / DB_NAME)

    @property
    def exists(self) -> bool:
        """True when the database file exists (nothing was ever imported otherwise)."""
        return self.path.is_file()

    def _connect(self) -> sqlite3.Connection:
        if self._connection is not None:
            return self._connection
        with self._lock:
            if self._connection is None:
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    connection = sqlite3.connect(
                        self.path,
                        timeout=BUSY_TIMEOUT_SECONDS,
                        isolation_level=None,
                        check_same_thread=False,
                    )
                    connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
                    use_wal(connection, BUSY_TIMEOUT_SECONDS)
                    connection.execute("PRAGMA synchronous = NORMAL")
                    self._create_schema(connection)
                except sqlite3.DatabaseError as exc:
                    raise UserInputError(
                        f"cannot open the package index {self.path} ({exc})",
                        fix="check the data folder, or delete the file and run "
                        "'oic-ai packages sync' again",
                    ) from None
                except OSError as exc:
                    raise UserInputError(
                        f"cannot create the package index in {self.path.parent} "
                        f"({exc.strerror or exc})",
                        fix="check the --data-dir folder is writable",
                    ) from None
                self._connection = connection
        return self._connection

    @staticmethod
    def _create_schema(connection: sqlite3.Connection) -> None:
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)
            row = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                connection.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
            elif int(row[0]) != SCHEMA_VERSION:
                raise sqlite3.DatabaseError(
                    f"schema version {row[0]}, this oic-ai needs {SCHEMA_VERSION}"
                )
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Close the connection (it reopens on the next use)."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None
            self._names_cache.clear()

    def __enter__(self) -> PackageIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a read query and fetch all rows; one query at a time per connection."""
        connection = self._connect()
        with self._query_lock:
            return connection.execute(sql, params).fetchall()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        connection = self._connect()
        with self._query_lock:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
            self._names_cache.clear()

    # --- writing -----------------------------------------------------------------

    def replace_source(
        self,
        *,
        os: str,
        dist: str,
        arch: str,
        source: SourceInfo,
        records: Iterable[PackageRecord],
        url: str = "",
        etag: str | None = None,
        last_modified: str | None = None,
    ) -> int:
        """Replace every row of one source with ``records``, atomically.

        ``records`` is read completely before the transaction starts, so a parse
        error leaves the previous rows untouched.

        Returns:
            The number of packages stored.
        """
        arch = normalize_arch(arch)
        rows = list(records)
        now = time.time()
        with self._write() as db:
            source_id = self._upsert_source(
                db, os, dist, arch, source, url, etag, last_modified, now, imported=True
            )
            db.execute("DELETE FROM packages WHERE source_id = ?", (source_id,))
            db.execute("DELETE FROM provides WHERE source_id = ?", (source_id,))
            db.execute("DELETE FROM depends WHERE source_id = ?", (source_id,))
            db.executemany(
                "INSERT INTO packages (source_id, name, version, arch) VALUES (?, ?, ?, ?)",
                ((source_id, r.name, r.version, r.arch) for r in rows),
            )
            db.executemany(
                "INSERT INTO provides (source_id, name, provider) VALUES (?, ?, ?)",
                ((source_id, provided, r.name) for r in rows for provided in r.provides),
            )
            db.executemany(
                "INSERT INTO depends (source_id, name, needs) VALUES (?, ?, ?)",
                ((source_id, r.name, group) for r in rows for group in r.depends),
            )
            db.execute("UPDATE sources SET packages = ? WHERE id = ?", (len(rows), source_id))
        return len(rows)

    def mark_unchanged(
        self,
        *,
        os: str,
        dist: str,
        arch: str,
        source: SourceInfo,
        url: str,
        etag: str | None,
        last_modified: str | None,
    ) -> None:
        """Record a successful check that found the index unchanged (HTTP 304)."""
        with self._write() as db:
            self._upsert_source(
                db,
                os,
                dist,
                normalize_arch(arch),
                source,
                url,
                etag,
                last_modified,
                time.time(),
                imported=False,
            )

    @staticmethod
    def _upsert_source(
        db: sqlite3.Connection,
        os: str,
        dist: str,
        arch: str,
        source: SourceInfo,
        url: str,
        etag: str | None,
        last_modified: str | None,
        now: float,
        *,
        imported: bool,
    ) -> int:
        spec = json.dumps(dict(source.spec), sort_keys=True)
        row = db.execute(
            "SELECT id FROM sources WHERE dist = ? AND arch = ? AND location = ?",
            (dist, arch, source.location),
        ).fetchone()
        if row is None:
            cursor = db.execute(
                "INSERT INTO sources (os, dist, arch, scope, kind, repo, repo_key, location, url,"
                " etag, last_modified, fetched_at, imported_at, spec)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    os,
                    dist,
                    arch,
                    source.scope,
                    source.kind,
                    source.repo,
                    source.repo_key,
                    source.location,
                    url,
                    etag,
                    last_modified,
                    now,
                    now,
                    spec,
                ),
            )
            return int(cursor.lastrowid or 0)
        source_id = int(row[0])
        db.execute(
            "UPDATE sources SET os = ?, scope = ?, kind = ?, repo = ?, repo_key = ?, url = ?,"
            " etag = ?, last_modified = ?, fetched_at = ?, spec = ?"
            + (", imported_at = ?" if imported else "")
            + " WHERE id = ?",
            (
                os,
                source.scope,
                source.kind,
                source.repo,
                source.repo_key,
                url,
                etag,
                last_modified,
                now,
                spec,
                *((now,) if imported else ()),
                source_id,
            ),
        )
        return source_id

    def remove_target(self, dist: str, arch: str) -> int:
        """Delete every source of a target; returns how many sources were removed."""
        arch = normalize_arch(arch)
        with self._write() as db:
            ids = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM sources WHERE dist = ? AND arch = ?", (dist, arch)
                )
            ]
            for source_id in ids:
                db.execute("DELETE FROM packages WHERE source_id = ?", (source_id,))
                db.execute("DELETE FROM provides WHERE source_id = ?", (source_id,))
                db.execute("DELETE FROM depends WHERE source_id = ?", (source_id,))
                db.execute("DELETE FROM sources WHERE id = ?", (source_id,))
        return len(ids)

    # --- reading -----------------------------------------------------------------

    def sources(
        self, dist: str | None = None, arch: str | None = None, scope: str | None = None
    ) -> list[SourceRow]:
        """Return stored sources, optionally only those of one dist, arch or scope."""
        if not self.exists:
            return []
        clauses, params = [], []
        if dist:
            clauses.append("dist = ?")
            params.append(dist)
        if arch:
            clauses.append("arch = ?")
            params.append(normalize_arch(arch))
        if scope:
            clauses.append("scope = ?")
            params.append(scope)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        rows = self._query(
            "SELECT id, os, dist, arch, scope, kind, repo, repo_key, location, url, etag,"
            f" last_modified, fetched_at, imported_at, packages, spec FROM sources{where}"
            " ORDER BY dist, arch, scope, id",
            params,
        )
        result = []
        for row in rows:
            values = list(row)
            values[15] = json.loads(values[15]) if values[15] else {}
            result.append(SourceRow(*values))
        return result

    def view(self, dist: str, arch: str, extra: Sequence[RepoFilter] = ()) -> IndexView:
        """Return the lookups for one target, plus a template's extra repositories.

        Args:
            dist: The target dist.
            arch: The target arch (``x86_64``/``aarch64``; ``amd64``/``arm64`` accepted).
            extra: The template's ``packageRepositories`` that should count, each with
                its ``allowPackages`` filter.
        """
        arch = normalize_arch(arch)
        rows = self.sources(dist, arch)
        base = [row for row in rows if row.scope == "base"]
        wanted = {f.repo_key: f for f in extra}
        extra_rows = [row for row in rows if row.scope == "extra" and row.repo_key in wanted]
        filters = {row.id: wanted[row.repo_key] for row in extra_rows}
        return IndexView(self, dist, arch, tuple(base), tuple(extra_rows), filters)

    def _names(self, rows: Sequence[SourceRow]) -> tuple[str, ...]:
        # keyed by import time too, so another process's re-import is noticed
        key = tuple((row.id, row.imported_at) for row in rows)
        cached = self._names_cache.get(key)
        if cached is None:
            ids = tuple(row.id for row in rows)
            marks = ",".join("?" * len(ids))
            cached = tuple(
                sorted(
                    row[0]
                    for row in self._query(
                        f"SELECT DISTINCT name FROM packages WHERE source_id IN ({marks})", ids
                    )
                )
            )
            if len(self._names_cache) >= 16:
                self._names_cache.clear()
            self._names_cache[key] = cached
        return cached


class IndexView:
    """Lookups against the sources that apply to one target.

    Hits from a template's extra repositories are kept only when that repository's
    ``allowPackages`` allows the name.
    """

    def __init__(
        self,
        index: PackageIndex,
        dist: str,
        arch: str,
        base: tuple[SourceRow, ...],
        extra: tuple[SourceRow, ...],
        filters: Mapping[int, RepoFilter],
    ) -> None:
        self.index = index
        self.dist = dist
        self.arch = arch
        self.base = base
        self.extra = extra
        self._filters = dict(filters)
        self._ids = tuple(row.id for row in (*base, *extra))
        self._repos = {row.id: row.repo for row in (*base, *extra)}
        self._marks = ",".join("?" * len(self._ids))

    @property
    def has_index(self) -> bool:
        """True when at least one of the target's own sources is imported."""
        return bool(self.base)

    @property
    def package_count(self) -> int:
        """Number of packages over the view's sources (duplicates counted per source)."""
        return sum(row.packages for row in (*self.base, *self.extra))

    def _allowed(self, source_id: int, name: str) -> bool:
        rule = self._filters.get(source_id)
        return rule is None or rule.allows(name)

    def _named(self, columns: str, table: str, name: str) -> list[tuple[Any, ...]]:
        """``columns`` of ``table``'s rows for ``name`` in the view's sources."""
        if not self._ids:
            return []
        return self.index._query(
            f"SELECT {columns} FROM {table} WHERE name = ? AND source_id IN ({self._marks})",
            (name, *self._ids),
        )

    def exact(self, name: str) -> list[PackageHit]:
        """Return every package named exactly ``name``."""
        rows = self._named("name, version, arch, source_id", "packages", name)
        return [
            PackageHit(row[0], row[1], row[2], self._repos[row[3]], row[3])
            for row in rows
            if self._allowed(row[3], row[0])
        ]

    def glob(self, pattern: str, limit: int | None = None) -> list[str]:
        """Return the distinct names matching a composer glob (``*``, ``?``, ``[0-9]``), sorted."""
        if not self._ids:
            return []
        prefix = _literal_prefix(pattern)
        sql = f"SELECT DISTINCT name, source_id FROM packages WHERE source_id IN ({self._marks})"
        params: list[Any] = list(self._ids)
        if prefix:
            # a range on the literal prefix lets SQLite use the name index
            sql += " AND name >= ? AND name < ?"
            params += [prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)]
        sql += " AND name GLOB ?"
        params.append(pattern)
        names = {row[0] for row in self.index._query(sql, params) if self._allowed(row[1], row[0])}
        ordered = sorted(names)
        return ordered[:limit] if limit is not None else ordered

    def providers(self, name: str) -> list[str]:
        """Return the packages that provide the virtual name ``name``, sorted."""
        rows = self._named("DISTINCT provider, source_id", "provides", name)
        return sorted({row[0] for row in rows if self._allowed(row[1], row[0])})

    @property
    def has_dependencies(self) -> bool:
        """True when the view's sources carry dependency data (synced by this version)."""
        if not self._ids:
            return False
        rows = self.index._query(
            f"SELECT 1 FROM depends WHERE source_id IN ({self._marks}) LIMIT 1", self._ids
        )
        return bool(rows)

    def depends(self, name: str) -> list[tuple[str, ...]]:
        """What package ``name`` needs: one tuple of alternatives per relation."""
        rows = self._named("DISTINCT needs, source_id", "depends", name)
        groups: list[tuple[str, ...]] = []
        for needs, source_id in rows:
            group = tuple(needs.split("|"))
            if self._allowed(source_id, name) and group not in groups:
                groups.append(group)
        return groups

    def names(self) -> tuple[str, ...]:
        """Return every package name in the view, sorted (cached until the next import)."""
        if not self._ids:
            return ()
        if not self._filters:
            return self.index._names((*self.base, *self.extra))
        allowed_extra = {
            name
            for row in self.extra
            for name in self.index._names((row,))
            if self._filters[row.id].allows(name)
        }
        base_names = self.index._names(self.base) if self.base else ()
        return tuple(sorted(set(base_names) | allowed_extra))


def _literal_prefix(pattern: str) -> str:
    for position, char in enumerate(pattern):
        if char in GLOB_CHARS:
            return pattern[:position]
    return pattern
