"""Sessions and turns wherever they live: this machine's store, or an oic-ai server.

:class:`Sessions` is what a front door does with sessions. :class:`LocalSessions` works
on the store the settings choose (SQLite or PostgreSQL, through
:mod:`oic_ai.services.sessions`, ``session_history`` and ``session_migration``);
:class:`RemoteSessions` asks a server (:class:`~oic_ai.services.remote.RemoteServer`).
Both return the same typed results, so a command is written once and rendered the same
way; :func:`open_sessions` picks one from ``settings.server_url`` (``--server``,
``OIC_AI_SERVER_URL``), and :func:`open_agent` does the same for the agent a turn runs on.

``rerun``, ``prune``, ``repair`` and ``migrate`` work on a store's files: through a server
they stop with one line saying so.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from oic_ai.services import sessions as local
from oic_ai.services.remote import RemoteAgent, RemoteServer
from oic_ai.stores.errors import UserInputError

if TYPE_CHECKING:
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.services import session_history as history
    from oic_ai.services.session_migration import MigrationReport
    from oic_ai.services.sessions import PruneOutcome
    from oic_ai.stores.session_repair import RepairReport
    from oic_ai.stores.session_store import SessionSummary
    from oic_ai.stores.settings import Settings

    OnTurn = Callable[[history.TurnComparison], None]


class Sessions(ABC):
    """What a front door does with sessions; each action raises ``UserInputError``."""

    def __enter__(self) -> Sessions:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release connections (a server's HTTP client)."""

    @abstractmethod
    def list(self, limit: int | None = None) -> list[SessionSummary]:
        """Sessions, newest first."""

    @abstractmethod
    def find(self, id_or_prefix: str) -> SessionSummary:
        """The session with this id or unique id prefix."""

    @abstractmethod
    def show(self, session_id: str) -> history.SessionView:
        """A session's current template and conversation."""

    @abstractmethod
    def replay(self, session_id: str) -> history.SessionReplay:
        """Every turn of a session, from its checkpoint history."""

    @abstractmethod
    def fork(self, session_id: str, turn: int) -> history.ForkOutcome:
        """A new session that starts from a session's turn ``turn``."""

    @abstractmethod
    def delete(self, session_id: str) -> SessionSummary:
        """Delete a session and its checkpoints; return what was deleted."""

    @abstractmethod
    def rerun(
        self, session_id: str, provider: str, on_turn: OnTurn | None = None
    ) -> history.RerunReport:
        """Send a session's requests again through ``provider`` and compare the outcomes."""

    @abstractmethod
    def prune(self, older_than: str, *, dry_run: bool = False) -> PruneOutcome:
        """Delete sessions not updated for ``older_than``, then compact the database."""

    @abstractmethod
    def repair(self) -> RepairReport:
        """Move a damaged sessions database aside and keep what can still be read."""

    @abstractmethod
    def migrate(self, target_url: str) -> MigrationReport:
        """Copy every session (checkpoints and index) to a PostgreSQL database."""


class LocalSessions(Sessions):
    """The sessions in the store the settings choose (SQLite, or PostgreSQL by URL).

    The history, rerun and migration services open LangGraph's checkpointer, so they are
    imported by the actions that need them: ``sessions list`` reads only the index.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def list(self, limit: int | None = None) -> list[SessionSummary]:
        """Sessions, newest first."""
        return local.list_sessions(self.settings, limit=limit)

    def find(self, id_or_prefix: str) -> SessionSummary:
        """The session with this id or unique id prefix."""
        return local.find_session(self.settings, id_or_prefix)

    def show(self, session_id: str) -> history.SessionView:
        """A session's current template and conversation."""
        from oic_ai.services.session_history import show_session  # lazy: LangGraph start-up

        return show_session(self.settings, session_id)

    def replay(self, session_id: str) -> history.SessionReplay:
        """Every turn of a session, from its checkpoint history."""
        from oic_ai.services.session_history import replay_session  # lazy: LangGraph start-up

        return replay_session(self.settings, session_id)

    def fork(self, session_id: str, turn: int) -> history.ForkOutcome:
        """A new session that starts from a session's turn ``turn``."""
        from oic_ai.services.session_history import fork_session  # lazy: LangGraph start-up

        return fork_session(self.settings, session_id, turn)

    def delete(self, session_id: str) -> SessionSummary:
        """Delete a session and its checkpoints; return what was deleted."""
        return local.delete_session(self.settings, session_id)

    def rerun(
        self, session_id: str, provider: str, on_turn: OnTurn | None = None
    ) -> history.RerunReport:
        """Send a session's requests again through ``provider`` and compare the outcomes."""
        from oic_ai.services.session_history import rerun_session  # lazy: LangGraph start-up

        return rerun_session(self.settings, session_id, provider, on_turn=on_turn)

    def prune(self, older_than: str, *, dry_run: bool = False) -> PruneOutcome:
        """Delete sessions not updated for ``older_than``, then compact the database."""
        return local.prune_sessions(self.settings, older_than, dry_run=dry_run)

    def repair(self) -> RepairReport:
        """Move a damaged sessions database aside and keep what can still be read."""
        return local.repair_sessions(self.settings)

    def migrate(self, target_url: str) -> MigrationReport:
        """Copy every session (checkpoints and index) to a PostgreSQL database."""
        # lazy: the migration imports LangGraph's SQLite and PostgreSQL checkpointers
        from oic_ai.services.session_migration import migrate_sessions

        return migrate_sessions(self.settings, target_url)


class RemoteSessions(Sessions):
    """The sessions of the oic-ai server ``settings.server_url`` names.

    The server's client is made on first use, so an action that only works on a store
    stops with its own line before the URL is even looked at.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._server: RemoteServer | None = None

    @property
    def server(self) -> RemoteServer:
        """The server (its URL checked when first asked for)."""
        if self._server is None:
            self._server = RemoteServer.from_settings(self.settings)
        return self._server

    def close(self) -> None:
        """Close the server's HTTP client."""
        if self._server is not None:
            self._server.close()

    def list(self, limit: int | None = None) -> list[SessionSummary]:
        """Sessions, newest first."""
        return self.server.list_sessions(limit=limit)

    def find(self, id_or_prefix: str) -> SessionSummary:
        """The session with this id or unique id prefix."""
        return self.server.find_session(id_or_prefix)

    def show(self, session_id: str) -> history.SessionView:
        """A session's current template and conversation."""
        return self.server.show_session(session_id)

    def replay(self, session_id: str) -> history.SessionReplay:
        """Every turn of a session, from its checkpoint history."""
        return self.server.replay_session(session_id)

    def fork(self, session_id: str, turn: int) -> history.ForkOutcome:
        """A new session that starts from a session's turn ``turn``."""
        return self.server.fork_session(session_id, turn)

    def delete(self, session_id: str) -> SessionSummary:
        """Delete a session and its checkpoints; return what was deleted."""
        return self.server.delete_session(session_id)

    def _store_only(self, action: str) -> UserInputError:
        return UserInputError(
            f"sessions {action} works on the sessions store itself, not through the "
            f"server at {self.settings.server_url}",
            fix="run it on the server's host, or unset OIC_AI_SERVER_URL (--server) "
            "to work on local sessions",
        )

    def rerun(
        self, session_id: str, provider: str, on_turn: OnTurn | None = None
    ) -> history.RerunReport:
        """Refused: a rerun runs on the store's host."""
        raise self._store_only("rerun")

    def prune(self, older_than: str, *, dry_run: bool = False) -> PruneOutcome:
        """Refused: a prune compacts the store's files."""
        raise self._store_only("prune")

    def repair(self) -> RepairReport:
        """Refused: a repair works on the store's files."""
        raise self._store_only("repair")

    def migrate(self, target_url: str) -> MigrationReport:
        """Refused: a migration reads the store's files."""
        raise self._store_only("migrate")


def open_sessions(settings: Settings) -> Sessions:
    """The server's sessions when ``settings.server_url`` is set, else this machine's."""
    return RemoteSessions(settings) if settings.server_url else LocalSessions(settings)


def open_agent(
    settings: Settings, *, provider: str | None = None, mode: str | None = None
) -> TemplateAgent | RemoteAgent:
    """The agent a turn runs on: the server's when one is configured, else a local one.

    Args:
        settings: Resolved settings; ``server_url`` picks the server.
        provider: The planner a server should use for these turns (a local agent reads
            it from ``settings``).
        mode: The generation mode a server should use (likewise).
    """
    if settings.server_url:
        context: dict[str, Any] = {"provider": provider, "generation_mode": mode}
        return RemoteAgent(settings, {k: v for k, v in context.items() if v})
    # lazy: TemplateAgent builds the LangGraph graph; a remote turn never needs it
    from oic_ai.graph.agent import TemplateAgent

    return TemplateAgent(settings)
