"""The command line as a client: ``generate``, ``chat`` and ``sessions`` against a server.

With ``OIC_AI_SERVER_URL`` (or ``--server``) set, ``generate`` and ``chat`` run their turns
through :class:`~oic_ai.services.remote.RemoteAgent` instead of a local
``TemplateAgent``, and ``sessions list|show|replay|fork|delete`` read and change the
server's sessions. The results are the same typed objects as local runs, printed by the
same renderers, so the output and ``--json`` do not change. ``OIC_AI_TOKEN`` (or
``--token``) is sent as a bearer token and never shown.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from oic_ai.cli_common import EXIT_OK, emit, settings_from

if TYPE_CHECKING:
    from oic_ai.graph.agent import TemplateAgent
    from oic_ai.services.remote import RemoteAgent, RemoteServer
    from oic_ai.stores.settings import Settings

Handler = Callable[[argparse.Namespace], int]


def open_agent(settings: Settings, args: argparse.Namespace) -> TemplateAgent | RemoteAgent:
    """The agent a turn runs on: the server's when one is configured, else a local one."""
    if settings.server_url:
        from oic_ai.services.remote import RemoteAgent

        context = {"provider": getattr(args, "provider", None)}
        context["generation_mode"] = getattr(args, "mode", None)
        return RemoteAgent(settings, {k: v for k, v in context.items() if v})
    from oic_ai.graph.agent import TemplateAgent

    return TemplateAgent(settings)


def _server(args: argparse.Namespace) -> RemoteServer:
    from oic_ai.services.remote import RemoteServer

    return RemoteServer.from_settings(settings_from(args))


def _list(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_session_list_json, print_session_table

    with _server(args) as server:
        sessions = server.list_sessions(limit=args.limit)
    (print_session_list_json if args.json else print_session_table)(sessions)
    return EXIT_OK


def _show(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_session

    with _server(args) as server:
        view = server.show_session(args.id)
    emit(args, view.to_json(), lambda: print_session(view))
    return EXIT_OK


def _replay(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_replay

    with _server(args) as server:
        replay = server.replay_session(args.id)
    emit(args, replay.to_json(), lambda: print_replay(replay, diffs=not args.no_diff))
    return EXIT_OK


def _fork(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_fork

    with _server(args) as server:
        outcome = server.fork_session(args.id, args.turn)
    emit(args, outcome.to_json(), lambda: print_fork(outcome))
    return EXIT_OK


def _delete(args: argparse.Namespace) -> int:
    from oic_ai.cli_sessions import confirm_delete
    from oic_ai.render import terminal_text

    with _server(args) as server:
        if not confirm_delete(args, server.find_session(args.id)):
            emit(args, {"deleted": []}, lambda: print("Nothing deleted."))
            return EXIT_OK
        summary = server.delete_session(args.id)
    message = f"Deleted session {summary.id} ({terminal_text(summary.title)})."
    emit(args, {"deleted": [summary.id]}, lambda: print(message))
    return EXIT_OK


_REMOTE: dict[str, Handler] = {
    "list": _list,
    "show": _show,
    "replay": _replay,
    "fork": _fork,
    "delete": _delete,
}


def sessions_handler(action: str, local: Handler) -> Handler:
    """``local``, or its server version when a server is configured.

    ``rerun``, ``prune`` and ``repair`` work on a store's files and run only where the
    store is: against a server they stop with one line saying so.
    """

    def handler(args: argparse.Namespace) -> int:
        settings = settings_from(args)
        if not settings.server_url:
            return local(args)
        remote = _REMOTE.get(action)
        if remote is None:
            from oic_ai.stores.errors import UserInputError

            raise UserInputError(
                f"sessions {action} works on the sessions store itself, not through the "
                f"server at {settings.server_url}",
                fix="run it on the server's host, or unset OIC_AI_SERVER_URL (--server) "
                "to work on local sessions",
            )
        return remote(args)

    return handler
