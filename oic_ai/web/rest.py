"""What the REST API adds to the library and sessions services.

The web front door (``oic_ai/web/api.py``) calls the same services as the CLI; the few
things only it needs live here: the library with each template's target and description,
saving a template under a plain name and re-indexing the library, and session
operations that address a session by its exact id (a REST path is no prefix search).
Each raises :class:`~oic_ai.stores.errors.UserInputError` or one of its subclasses, which
the API maps to its status codes.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oic_ai.services.library import (
    TemplateEntry,
    library_dir,
    list_templates,
    save_template,
)
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.template_output import LibraryNameError, check_library_name

if TYPE_CHECKING:
    from oic_ai.services.session_history import ForkOutcome
    from oic_ai.stores.session_store import SessionSummary
    from oic_ai.stores.settings import Settings
    from oic_ai.tools.retrieval.hybrid_search import SearchResponse, TemplateSearch
    from oic_ai.tools.validate_template import FileReport



class SessionNotFoundError(UserInputError):
    """No session has exactly this id."""


TemplateNameError = LibraryNameError
"""A template name that is not a plain library file name (it could leave the folder)."""


def check_template_name(name: str) -> str:
    """The name if it is a plain library name (:func:`stores.template_output.check_library_name`).

    Raises:
        TemplateNameError: empty, a folder part, ``..``, a leading dot, control characters,
            over 128 characters, or other characters.
    """
    return check_library_name(name)


_CATALOGS: dict[str, tuple[tuple[tuple[str, int, int], ...], list[dict[str, Any]]]] = {}
_CATALOGS_LOCK = threading.Lock()


def catalog(settings: Settings) -> list[dict[str, Any]]:
    """Every library template with its target and description (``GET /api/v1/templates``).

    A file that does not parse is still listed, with ``error`` saying why. The parsed
    rows are kept until a library file is added, removed or changed.
    """
    root = library_dir(settings)
    signature = library_signature(settings)
    key = str(root.resolve())
    with _CATALOGS_LOCK:
        cached = _CATALOGS.get(key)
    if cached is None or cached[0] != signature:
        cached = (signature, _read_catalog(settings, root))
        with _CATALOGS_LOCK:
            _CATALOGS[key] = cached
    return [dict(row) for row in cached[1]]


def _read_catalog(settings: Settings, root: Path) -> list[dict[str, Any]]:
    from oic_ai.stores.template_library import load_template_file

    rows: list[dict[str, Any]] = []
    for entry in list_templates(settings):
        row: dict[str, Any] = entry.to_json()
        parsed = load_template_file(root / entry.path, entry.path)
        if isinstance(parsed, str) or not parsed.readable:
            row["error"] = parsed if isinstance(parsed, str) else parsed.error
        else:
            row.update(
                os=parsed.target.os,
                dist=parsed.target.dist,
                arch=parsed.target.arch,
                image_type=parsed.target.image_type,
                description=parsed.metadata.description or parsed.system_description,
                packages=len(parsed.packages),
            )
        rows.append(row)
    return rows


@dataclass(frozen=True)
class SavedTemplate:
    """A template written into the templates folder.

    Attributes:
        entry: Its name and its path relative to the folder.
        file: Where it was written.
        report: Its validation report (warnings may remain).
        indexed: True when the folder is the library search indexes, and it was re-indexed.
    """

    entry: TemplateEntry
    file: Path
    report: FileReport
    indexed: bool

    def to_json(self) -> dict[str, Any]:
        """The ``POST /api/v1/templates`` answer."""
        return {
            **self.entry.to_json(),
            "file": str(self.file),
            "indexed": self.indexed,
            "validation": self.report.to_json(),
        }


def save_named_template(
    settings: Settings, name: str, text: str, *, overwrite: bool = False
) -> SavedTemplate:
    """Validate ``text``, write it atomically as template ``name``, and re-index the library.

    The file goes where ``generate --output NAME`` puts a bare name (``templates_dir``,
    else ``./image-templates``): ``name`` is a library name only, never a path, and the
    file is never a link (:func:`stores.template_output.library_file`). When that folder
    is the library search uses, the index is brought up to date at once, so a search
    finds the new template.

    Raises:
        TemplateNameError: ``name`` is not a plain name (it cannot leave the folder).
        InvalidTemplateError: the template has errors (``report`` holds them).
        TemplateExistsError: the file exists and ``overwrite`` is False.
        UserInputError: the file cannot be written.
    """
    plain = check_template_name(name)
    path, report = save_template(settings, plain, text, overwrite=overwrite)
    folder = path.parent
    indexed = False
    library = library_dir(settings).resolve()
    if folder.resolve() == library:
        from oic_ai.services.library import index_library

        index_library(settings)
        indexed = True
    entry = TemplateEntry(path.stem, path.relative_to(folder).as_posix())
    return SavedTemplate(entry, path, report, indexed)


# --- search kept warm between requests ---------------------------------------------------


def library_signature(settings: Settings) -> tuple[tuple[str, int, int], ...]:
    """Every library file's path, size and change time: what a change to the library moves."""
    from oic_ai.stores.template_library import iter_template_files

    root = library_dir(settings)
    rows = []
    for path in iter_template_files(root) if root.is_dir() else ():
        try:
            info = path.stat()
        except OSError:
            continue
        rows.append((path.relative_to(root).as_posix(), info.st_size, info.st_mtime_ns))
    return tuple(rows)


@dataclass
class _WarmSearch:
    search: TemplateSearch
    signature: tuple[tuple[str, int, int], ...]
    lock: threading.Lock = field(default_factory=threading.Lock)


class SearchPool:
    """Open searches kept between requests, one per set of settings.

    A fresh :class:`TemplateSearch` loads the embedder, the BM25 statistics and the
    library's vocabulary (about half a second); a warm one answers in tens of
    milliseconds. A search is re-opened, after bringing the index up to date, whenever
    a library file is added, removed or changed, so a saved template is found at once.
    Requests on one search take turns (its statistics are rebuilt in place).
    """

    def __init__(self) -> None:
        """Start with nothing open."""
        self._lock = threading.Lock()
        self._open: dict[str, _WarmSearch] = {}

    @staticmethod
    def _key(settings: Settings) -> str:
        # a digest, so no setting (an API key among them) is kept as text in the key
        return hashlib.sha256(repr(settings).encode("utf-8")).hexdigest()

    def search(
        self,
        settings: Settings,
        query: str,
        *,
        top_k: int = 5,
        filters: Mapping[str, str | None] | None = None,
    ) -> SearchResponse:
        """Rank the library's templates for ``query`` (the ``search --json`` response)."""
        from oic_ai.services.library import open_search

        key = self._key(settings)
        signature = library_signature(settings)
        with self._lock:
            warm = self._open.get(key)
            if warm is None or warm.signature != signature:
                search = open_search(settings)
                search.refresh()
                warm = self._open[key] = _WarmSearch(search, signature)
        active = {name: value for name, value in (filters or {}).items() if value}
        with warm.lock:
            return warm.search.search(query, top_k=top_k, filters=active)

    def close(self) -> None:
        """Forget every open search."""
        with self._lock:
            self._open.clear()


# --- sessions by exact id ----------------------------------------------------------------


def require_session(settings: Settings, session_id: str) -> SessionSummary:
    """The session with exactly this id.

    Raises:
        SessionNotFoundError: there is none.
    """
    from oic_ai.services.sessions import open_store

    with open_store(settings) as store:
        found = store.find(session_id.strip()) if session_id.strip() else None
    if found is None:
        raise SessionNotFoundError(
            f"no session {session_id!r}", fix="list them with GET /api/v1/sessions"
        )
    return found


def session_detail(settings: Settings, session_id: str) -> dict[str, Any]:
    """``sessions show --json`` plus ``history``: every turn as ``sessions replay`` has it.

    Each turn carries its number (what ``fork`` takes), request, route, status, changes
    and diff, so a page can list the turns and fork from any of them.

    Raises:
        SessionNotFoundError: there is no such session.
    """
    from oic_ai.services.session_history import (
        SessionView,
        open_agent,
        replay,
        state_summary,
    )

    summary = require_session(settings, session_id)
    with open_agent(settings) as agent:
        state = state_summary(agent.state(summary.id))
        history = [record.to_json() for record in replay(agent.graph, summary.id)]
    return {**SessionView(summary, state).to_json(), "history": history}


def rename_session(settings: Settings, session_id: str, title: str) -> SessionSummary:
    """Give a session a new title; returns its summary.

    Raises:
        SessionNotFoundError: there is no such session.
        UserInputError: the title is empty.
    """
    from oic_ai.services.sessions import open_store

    if not isinstance(title, str) or not title.strip():
        raise UserInputError("the title is empty", fix='send {"title": "a few words"}')
    summary = require_session(settings, session_id)
    with open_store(settings) as store:
        store.retitle(summary.id, title.strip())
        return store.get(summary.id)


def remove_session(settings: Settings, session_id: str) -> SessionSummary:
    """Delete a session and its checkpoints (waits for a running turn to finish).

    Raises:
        SessionNotFoundError: there is no such session.
        SessionBusyError: a turn kept the session past the wait.
    """
    from oic_ai.services.sessions import delete_session

    return delete_session(settings, require_session(settings, session_id).id)


def fork_at(settings: Settings, session_id: str, turn: int) -> ForkOutcome:
    """A new session whose state is the session's after turn ``turn``.

    Raises:
        SessionNotFoundError: there is no such session.
        UserInputError: there is no such turn.
    """
    from oic_ai.services.session_history import fork_session

    return fork_session(settings, require_session(settings, session_id).id, turn)
