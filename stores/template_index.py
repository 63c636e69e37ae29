"""Chroma as the template index and the embedding cache.

One collection per library *and* embedding model (with its dimension), named
``oic_<library>_<model>_<dim>d``: vectors of two models never mix, and two libraries on one
shared Chroma server never touch each other's entries (indexing one deletes only its own
stale ids). The library part is ``ai.library.name`` when set, else a stable id of the
resolved templates folder. A document's id is its template path relative to the library;
its metadata holds the SHA-256 of the whole file, so re-indexing embeds only created or
changed files.

Collections of older releases (``templates-<model>-<dim>d``, one for every library) are
never written or deleted on a server; the first sync into the new name reuses their
vectors for files whose content hash matches, and embeds the rest.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from oic_ai.stores.embeddings.base import Embedder
from oic_ai.stores.errors import BackendUnavailableError, UserInputError
from oic_ai.stores.library_vectors import embed_reusing_shipped
from oic_ai.stores.template_library import (
    SkippedFile,
    UnreadableFileError,
    iter_template_files,
    parse_template_bytes,
    read_file_bytes,
)
from oic_ai.stores.template_model import Template, content_hash

COLLECTION_PREFIX = "oic"
LEGACY_PREFIX = "templates"  # before libraries were part of the name: shared by every library
_NAME_MAX = 63  # Chroma: 3-63 characters [a-zA-Z0-9._-], alphanumeric at both ends
_LIBRARY_MAX = 21
_STATS_FILE = "index-stats.json"
LIST_SEPARATOR = "\n"  # Chroma metadata holds scalars only, so lists are joined

Progress = Callable[[int, int], None]


@dataclass
class SyncReport:
    """What one indexing run did (the ``index --json`` contract)."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0
    embedded: int = 0
    reused: int = 0
    shipped: int = 0  # of the embedded, how many came from the shipped library vectors
    seconds: float = 0.0
    skipped: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Return the fields DESIGN.md promises, plus the skipped files."""
        out = asdict(self)
        out["seconds"] = round(self.seconds, 3)
        return out


@dataclass(frozen=True)
class IndexedTemplate:
    """One template as the index stores it: id, searchable text and metadata."""

    id: str
    document: str
    metadata: Mapping[str, Any]

    def values(self, key: str) -> list[str]:
        """Return a list-valued metadata field (stored joined)."""
        raw = self.metadata.get(key)
        return [v for v in str(raw).split(LIST_SEPARATOR) if v] if raw else []


def _slug(text: str) -> str:
    """Lower-case letters, digits and single hyphens, never at either end."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _hashed(slug: str, original: str, limit: int) -> str:
    """The start of ``slug`` plus a hash of ``original``, in at most ``limit`` characters."""
    head = slug[: max(1, limit - 9)].strip("-") or "x"
    return f"{head}-{_short_hash(original)}"


def _shortened(slug: str, original: str, limit: int) -> str:
    """``slug`` if it fits ``limit``, else :func:`_hashed`."""
    return slug if slug and len(slug) <= limit else _hashed(slug, original, limit)


def library_key(templates_dir: Path, name: str | None = None) -> str:
    """The library's part of a collection name (at most 21 of ``[a-z0-9-]``).

    Args:
        templates_dir: The library folder; its resolved path is the identity when no
            name is given, so the same folder always maps to the same collection.
        name: ``ai.library.name``: lets two hosts with the library at different paths
            (or a moved folder) share one collection. A name that is not already a
            short slug is shortened and keeps a hash of the original.
    """
    if name and name.strip():
        name = name.strip()
        slug = _slug(name)
        if slug == name and len(slug) <= _LIBRARY_MAX:
            return slug
        return _hashed(slug or "lib", name, _LIBRARY_MAX)
    resolved = str(Path(templates_dir).expanduser().resolve())
    return _hashed(_slug(Path(resolved).name) or "lib", resolved, _LIBRARY_MAX)


def collection_name(embedder: Embedder, library: str) -> str:
    """Name the collection after the library, the model and its dimension.

    The pieces are joined with ``_``, which no piece contains, so two different
    (library, model) pairs never share a name; a long model id keeps a hash of itself.
    """
    suffix = f"{embedder.dimensions}d"
    budget = _NAME_MAX - len(COLLECTION_PREFIX) - len(library) - len(suffix) - 3
    model = _shortened(_slug(embedder.model_id), embedder.model_id, budget)
    return f"{COLLECTION_PREFIX}_{library}_{model}_{suffix}"


def legacy_collection_name(embedder: Embedder) -> str:
    """The name older releases gave every library's collection for this model."""
    slug = re.sub(r"[^a-zA-Z0-9_-]+", "-", embedder.model_id).strip("-_").lower()
    return f"{LEGACY_PREFIX}-{slug[:40]}-{embedder.dimensions}d"


def is_ours(name: str) -> bool:
    """Whether a collection was made by oic-ai (this naming or the legacy one)."""
    return name.startswith((COLLECTION_PREFIX + "_", LEGACY_PREFIX + "-"))


def template_metadata(template: Template, model_id: str) -> dict[str, str | int | float | bool]:
    """The metadata Chroma keeps for a template: hash, filters and scoring fields."""
    join = LIST_SEPARATOR.join
    return {
        "content_hash": template.content_hash,
        "model_id": model_id,
        "file_name": template.file_name,
        "name": template.image.name,
        "os": template.target.os,
        "dist": template.target.dist,
        "arch": template.target.arch,
        "image_type": template.target.image_type,
        "description": template.metadata.description or template.system_description,
        "use_cases": join(template.use_cases),
        "keywords": join(template.keywords),
        "capabilities": join(template.capabilities),
        "packages": join(template.all_packages),
        "declared_metadata": not template.metadata.is_empty,
    }


def _chroma_settings() -> Any:
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=False)


def open_chroma(data_dir: Path, chroma_url: str | None) -> Any:
    """Open the embedded store under ``data_dir``, or a Chroma server at ``chroma_url``.

    Raises:
        UserInputError: the server cannot be reached or the store cannot be opened.
    """
    import chromadb

    register_embedding_function()
    if chroma_url:
        from urllib.parse import urlparse

        url = urlparse(chroma_url if "://" in chroma_url else f"http://{chroma_url}")
        try:
            return chromadb.HttpClient(
                host=url.hostname or "localhost",
                port=url.port or 8000,
                ssl=url.scheme == "https",
                settings=_chroma_settings(),
            )
        except Exception as exc:  # noqa: BLE001 - the client raises many types
            raise BackendUnavailableError(
                f"cannot reach the Chroma server at {chroma_url} ({exc})",
                fix="start it with 'chroma run' or drop --chroma-url to use the embedded store",
            ) from None
    path = data_dir / "chroma"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=_chroma_settings())
    except Exception as exc:  # noqa: BLE001
        raise UserInputError(
            f"cannot open the index at {path} ({type(exc).__name__}: {exc})",
            fix="run 'oic-ai cache clear' to rebuild it",
        ) from None


_EMBEDDING_FUNCTION: Any = None


def register_embedding_function() -> Any:
    """Register oic-ai's embedding function with Chroma so collections reopen cleanly.

    Returns the class; Chroma is imported only when this first runs.
    """
    global _EMBEDDING_FUNCTION
    if _EMBEDDING_FUNCTION is not None:
        return _EMBEDDING_FUNCTION
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.utils.embedding_functions import register_embedding_function as register

    class OicEmbeddingFunction(EmbeddingFunction[Documents]):
        """Names the model a collection was built with; oic-ai always passes vectors."""

        def __init__(self, model_id: str = "", dimensions: int = 0) -> None:
            self.model_id = model_id
            self.dimensions = dimensions

        def __call__(self, input: Documents) -> Embeddings:
            raise UserInputError(
                f"collection built with {self.model_id} was asked to embed text itself",
                fix="query it through oic-ai, which supplies the vectors",
            )

        @staticmethod
        def name() -> str:
            return "oic-ai"

        def default_space(self) -> Any:
            return "cosine"

        def get_config(self) -> dict[str, Any]:
            return {"model_id": self.model_id, "dimensions": self.dimensions}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> OicEmbeddingFunction:
            return OicEmbeddingFunction(
                str(config.get("model_id", "")), int(config.get("dimensions", 0))
            )

    register(OicEmbeddingFunction)  # type: ignore[no-untyped-call]
    _EMBEDDING_FUNCTION = OicEmbeddingFunction
    return OicEmbeddingFunction


class TemplateIndex:
    """The Chroma collection for one library and embedding model, kept in step with it."""

    def __init__(
        self,
        embedder: Embedder,
        data_dir: Path,
        chroma_url: str | None = None,
        client: Any | None = None,
        *,
        library: str,
    ) -> None:
        """Bind an embedder and a library to their collection; Chroma opens on first use.

        Args:
            embedder: The embedding model.
            data_dir: The data folder (embedded store, lock and run statistics).
            chroma_url: A Chroma server instead of the embedded store.
            client: An open Chroma client to use instead.
            library: The library's key (:func:`library_key`).
        """
        self.embedder = embedder
        self.library = library
        self.data_dir = Path(data_dir)
        self.chroma_url = chroma_url
        self._client = client
        self._collection: Any = None
        self._snapshot: list[IndexedTemplate] | None = None
        self._write_batch: int | None = None
        self._reused = 0
        self._shipped = 0

    @property
    def name(self) -> str:
        """The collection's name."""
        return collection_name(self.embedder, self.library)

    @property
    def client(self) -> Any:
        """The Chroma client, opened on first use."""
        if self._client is None:
            self._client = open_chroma(self.data_dir, self.chroma_url)
        return self._client

    @property
    def collection(self) -> Any:
        """The collection, created on first use with cosine distance."""
        if self._collection is None:
            ef = register_embedding_function()(self.embedder.model_id, self.embedder.dimensions)
            self._collection = self.client.get_or_create_collection(
                name=self.name,
                embedding_function=ef,
                configuration={"hnsw": {"space": "cosine"}},
                metadata={
                    "model_id": self.embedder.model_id,
                    "dimensions": self.embedder.dimensions,
                    "library": self.library,
                },
            )
        return self._collection

    @contextmanager
    def _lock(self) -> Iterator[None]:
        """Serialise writers across processes sharing this data folder."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.data_dir / "index.lock", "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def sync(self, templates_dir: Path, progress: Progress | None = None) -> SyncReport:
        """Bring the collection in line with the templates under ``templates_dir``.

        Unchanged files (same hash) are not read past their bytes; changed and new
        files are parsed and embedded in batches; deleted files are removed. Nothing is
        written until every new vector has been computed, so a failing embedder leaves
        the index as it was.
        """
        started = time.perf_counter()
        report = SyncReport()
        with self._lock():
            stored = self._stored_hashes()
            seen: set[str] = set()
            changed: list[Template] = []
            root = Path(templates_dir)
            unlisted: list[SkippedFile] = []
            for path in iter_template_files(root, unlisted):
                relative = path.relative_to(root).as_posix()
                try:  # regular files only: a named pipe would block, a device never end
                    raw = read_file_bytes(path)
                except UnreadableFileError as exc:
                    report.skipped.append(f"{relative}: {exc.reason}")
                    continue
                if stored.get(relative) == content_hash(raw):
                    seen.add(relative)
                    report.unchanged += 1
                    continue
                parsed = parse_template_bytes(raw, relative)
                if isinstance(parsed, str):
                    report.skipped.append(f"{relative}: {parsed}")
                    continue
                seen.add(relative)
                changed.append(parsed)
                if relative in stored:
                    report.updated += 1
                else:
                    report.created += 1
            report.skipped.extend(str(problem) for problem in unlisted)
            removed = sorted(set(stored) - seen)
            if changed:
                texts = [t.searchable_text() for t in changed]
                vectors = self._vectors(changed, texts, progress, fresh=not stored)
                report.shipped = self._shipped
                step = self.write_batch()
                for start in range(0, len(changed), step):
                    part = changed[start : start + step]
                    self.collection.upsert(
                        ids=[t.path for t in part],
                        embeddings=vectors[start : start + step],
                        documents=texts[start : start + step],
                        metadatas=[template_metadata(t, self.embedder.model_id) for t in part],
                    )
                report.embedded = len(changed) - self._reused
                report.reused = self._reused
            if removed:
                step = self.write_batch()
                for start in range(0, len(removed), step):
                    self.collection.delete(ids=removed[start : start + step])
                report.deleted = len(removed)
            if changed or removed:
                self._snapshot = None
            report.seconds = time.perf_counter() - started
            self._write_stats(report)
        return report

    def write_batch(self) -> int:
        """How many records one Chroma write may carry (the server caps it, ~5,000)."""
        if self._write_batch is None:
            try:
                limit = int(self.client.get_max_batch_size())
            except Exception:  # older servers do not say; stay well under their cap
                limit = 1000
            self._write_batch = max(1, min(limit, 2000))
        return self._write_batch

    def _vectors(
        self, changed: list[Template], texts: list[str], progress: Progress | None, *, fresh: bool
    ) -> list[list[float]]:
        """Vectors for ``changed``: from a legacy collection when the hash matches, else new.

        Only a fresh (empty) collection looks at the legacy one: that happens once, on the
        first sync after an upgrade. The same bytes embed to the same vector, so a vector
        another library stored for an identical file is as good as a new one.
        """
        self._reused = self._shipped = 0
        known = self._legacy_vectors(changed) if fresh else {}
        missing = [i for i, t in enumerate(changed) if t.content_hash not in known]
        computed = None
        if missing:  # the shipped library vectors where they match, the model for the rest
            new, self._shipped = embed_reusing_shipped(
                self.embedder.model_id,
                self.embedder.dimensions,
                [changed[i].content_hash for i in missing],
                [texts[i] for i in missing],
                lambda rest: self._embed(rest, progress),
            )
            computed = iter(new)
        vectors: list[list[float]] = []
        for template in changed:
            if template.content_hash in known:
                vectors.append(known[template.content_hash])
                self._reused += 1
            else:
                assert computed is not None
                vectors.append(next(computed))
        return vectors

    def _legacy_vectors(self, changed: list[Template]) -> dict[str, list[float]]:
        """``{content hash: vector}`` from the legacy collection of this model, if any."""
        try:
            legacy = self.client.get_collection(legacy_collection_name(self.embedder))
        except Exception:  # noqa: BLE001 - not there (the client raises several types)
            return {}
        wanted = {t.content_hash for t in changed}
        found: dict[str, list[float]] = {}
        ids = [t.path for t in changed]
        step = self.write_batch()
        for start in range(0, len(ids), step):
            got = legacy.get(ids=ids[start : start + step], include=["metadatas", "embeddings"])
            vectors = got["embeddings"] if got["embeddings"] is not None else []
            for meta, vector in zip(got["metadatas"] or [], vectors, strict=False):
                digest = str((meta or {}).get("content_hash", ""))
                if digest in wanted and len(vector) == self.embedder.dimensions:
                    found[digest] = [float(x) for x in vector]
        return found

    def _embed(self, texts: list[str], progress: Progress | None) -> list[list[float]]:
        batch = 32
        vectors: list[list[float]] = []
        for start in range(0, len(texts), batch):
            vectors.extend(self.embedder.embed_documents(texts[start : start + batch]))
            if progress is not None:
                progress(min(start + batch, len(texts)), len(texts))
        return vectors

    def _stored_hashes(self) -> dict[str, str]:
        got = self.collection.get(include=["metadatas"])
        return {
            id_: str((meta or {}).get("content_hash", ""))
            for id_, meta in zip(got["ids"], got["metadatas"] or [], strict=False)
        }

    def snapshot(self) -> list[IndexedTemplate]:
        """Every indexed template's id, text and metadata (cached until the next change)."""
        if self._snapshot is None:
            got = self.collection.get(include=["metadatas", "documents"])
            self._snapshot = [
                IndexedTemplate(id_, doc or "", meta or {})
                for id_, doc, meta in zip(
                    got["ids"], got["documents"] or [], got["metadatas"] or [], strict=False
                )
            ]
        return self._snapshot

    def nearest(
        self, vector: list[float], n: int, where: Mapping[str, Any] | None = None
    ) -> dict[str, float]:
        """Return ``{id: cosine similarity}`` for the ``n`` nearest templates."""
        count = self.collection.count()
        if count == 0:
            return {}
        got = self.collection.query(
            query_embeddings=[vector],
            n_results=min(n, count),
            where=dict(where) if where else None,
            include=["distances"],
        )
        return {
            id_: 1.0 - float(distance)
            for id_, distance in zip(got["ids"][0], got["distances"][0], strict=False)
        }

    def similarities(self, vector: list[float], ids: list[str]) -> dict[str, float]:
        """Cosine similarity of ``vector`` to the stored vectors of ``ids``."""
        if not ids:
            return {}
        import numpy as np

        got = self.collection.get(ids=ids, include=["embeddings"])
        query = np.asarray(vector, dtype=np.float32)
        query /= np.linalg.norm(query) or 1.0
        matrix = np.asarray(got["embeddings"], dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1)
        norms[norms == 0] = 1.0
        sims = (matrix @ query) / norms
        return {id_: float(s) for id_, s in zip(got["ids"], sims, strict=False)}

    def _write_stats(self, report: SyncReport) -> None:
        stats = {
            "collection": self.name,
            "model_id": self.embedder.model_id,
            "dimensions": self.embedder.dimensions,
            "hits": report.unchanged,
            "misses": report.created + report.updated,
            "deleted": report.deleted,
            "seconds": round(report.seconds, 3),
            "at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        target = self.data_dir / _STATS_FILE
        temporary = target.with_suffix(f".tmp{os.getpid()}")
        temporary.write_text(json.dumps(stats, indent=2))
        os.replace(temporary, target)


def _describe(client: Any, name: str) -> dict[str, Any]:
    collection = client.get_collection(name)
    meta = collection.metadata or {}
    return {
        "name": name,
        "entries": collection.count(),
        "model": meta.get("model_id"),
        "dimensions": meta.get("dimensions"),
        "library": meta.get("library"),
        "legacy": name.startswith(LEGACY_PREFIX + "-"),
    }


def library_collections(client: Any, library: str) -> list[dict[str, Any]]:
    """This library's collections (one per embedding model), described."""
    found = []
    for item in client.list_collections():
        if item.name.startswith(COLLECTION_PREFIX + "_"):
            described = _describe(client, item.name)
            if described["library"] == library:
                found.append(described)
    return sorted(found, key=lambda c: str(c["name"]))


def cache_stats(data_dir: Path, chroma_url: str | None = None, *, library: str) -> dict[str, Any]:
    """Describe this library's collections plus the last indexing run's hits and misses.

    The embedded store also lists its other oic-ai collections (other libraries, older
    releases' names, flagged ``legacy``); a shared server lists only this library's, so
    one user does not see what others index.
    """
    client = open_chroma(data_dir, chroma_url)
    if chroma_url:
        collections = library_collections(client, library)
    else:
        names = sorted(item.name for item in client.list_collections() if is_ours(item.name))
        collections = [_describe(client, name) for name in names]
    last: dict[str, Any] = {}
    stats_path = data_dir / _STATS_FILE
    if stats_path.is_file():
        try:
            last = json.loads(stats_path.read_text())
        except (OSError, ValueError):
            last = {}
    size = None
    if not chroma_url:
        size = sum(p.stat().st_size for p in (data_dir / "chroma").rglob("*") if p.is_file())
    return {
        "store": chroma_url or str(data_dir / "chroma"),
        "library": library,
        "collections": collections,
        "entries": sum(c["entries"] for c in collections),
        "size_bytes": size,
        "last_run": last,
    }


def clear_cache(data_dir: Path, chroma_url: str | None = None, *, library: str) -> int:
    """Delete cached vectors; return how many entries were removed.

    On a Chroma server only this library's collections go (every model's); other
    libraries' and older releases' collections are left alone. The embedded store is
    this data folder's alone, so every oic-ai collection in it goes, and a store too
    damaged to open is deleted outright: it only ever holds vectors that the next
    ``index`` recomputes from the templates.
    """
    try:
        client = open_chroma(data_dir, chroma_url)
    except UserInputError:
        if chroma_url:
            raise
        import shutil

        shutil.rmtree(data_dir / "chroma", ignore_errors=True)
        (data_dir / _STATS_FILE).unlink(missing_ok=True)
        from chromadb.api.shared_system_client import SharedSystemClient

        SharedSystemClient.clear_system_cache()  # forget handles to the deleted store
        return 0
    removed = 0
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / "index.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            if chroma_url:
                names = [c["name"] for c in library_collections(client, library)]
            else:
                names = [item.name for item in client.list_collections() if is_ours(item.name)]
            for name in names:
                removed += client.get_collection(name).count()
                client.delete_collection(name)
            (data_dir / _STATS_FILE).unlink(missing_ok=True)
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
    return removed
