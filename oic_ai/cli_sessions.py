"""``oic-ai sessions list|show|replay|fork|rerun|delete|prune|repair|migrate``: parsing, output.

The work is :mod:`oic_ai.services.sessions` (and ``session_history``,
``session_migration``). ``sessions list``, ``delete``, ``prune`` and ``repair`` touch
only the session index (SQLite, or PostgreSQL with ``OIC_AI_DATABASE_URL``; no
LangGraph, no Chroma), so they start fast; the others open the checkpointer.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from oic_ai.cli_common import (
    EXIT_OK,
    EXIT_USAGE,
    command_group,
    common_parser,
    emit,
    server_parser,
    settings_from,
)

if TYPE_CHECKING:
    from oic_ai.services.session_history import TurnComparison


def add_sessions_commands(commands: Any) -> None:
    """Register ``sessions`` and its actions on the top-level parser's ``commands``."""
    from oic_ai.cli_remote import sessions_handler

    text = "conversations kept under the data folder: list, replay, fork, prune"
    sessions, actions = command_group(commands, "sessions", text, "sessions_action")
    sessions.set_defaults(handler=_missing_action(sessions))
    # name, handler, help, takes a session id
    table: list[tuple[str, Callable[[argparse.Namespace], int], str, bool]] = [
        ("list", _cmd_list, "sessions, newest first", False),
        ("show", _cmd_show, "a session's current template and conversation", True),
        (
            "replay",
            _cmd_replay,
            "every turn's request, route, diff and status, from checkpoint history",
            True,
        ),
        ("fork", _cmd_fork, "a new session that starts from a session's turn N", True),
        (
            "rerun",
            _cmd_rerun,
            "send a session's requests again through a provider and compare the outcomes",
            True,
        ),
        ("delete", _cmd_delete, "delete a session and its checkpoints", True),
        (
            "prune",
            _cmd_prune,
            "delete sessions not updated for a while, then compact the database",
            False,
        ),
        (
            "repair",
            _cmd_repair,
            "move a damaged sessions database aside and keep what can still be read",
            False,
        ),
        (
            "migrate",
            _cmd_migrate,
            "copy every session (checkpoints and index) to a PostgreSQL database",
            False,
        ),
    ]
    parsers: dict[str, argparse.ArgumentParser] = {}
    for name, handler, text, with_id in table:
        parser = parsers[name] = actions.add_parser(
            name, parents=[common_parser(library=name == "rerun"), server_parser()], help=text
        )
        if with_id:
            parser.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")
        parser.set_defaults(handler=sessions_handler(name, handler))
    parsers["list"].add_argument("--limit", type=int, metavar="N", help="show at most N sessions")
    parsers["delete"].add_argument(
        "--yes", "-y", action="store_true", help="delete without asking, even for an id prefix"
    )
    parsers["replay"].add_argument("--no-diff", action="store_true", help="leave the diffs out")
    parsers["fork"].add_argument(
        "--turn", type=int, required=True, metavar="N", help="fork after this turn (1 = first)"
    )
    parsers["rerun"].add_argument(
        "--provider",
        required=True,
        choices=("auto", "builtin", "ollama", "openai"),
        help="the planner to use this time",
    )
    parsers["migrate"].add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="the target database, postgresql://USER@HOST:PORT/DATABASE",
    )
    prune = parsers["prune"]
    prune.add_argument("--older-than", required=True, metavar="AGE", help="e.g. 7d, 12h, 30m, 2w")
    prune.add_argument("--dry-run", action="store_true", help="only show which sessions would go")


def _missing_action(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        parser.error(
            "choose an action: list, show, replay, fork, rerun, delete, prune, repair or migrate"
        )
        return EXIT_USAGE

    return handler


def _cmd_list(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_session_list_json, print_session_table
    from oic_ai.services.sessions import list_sessions

    sessions = list_sessions(settings_from(args), limit=args.limit)
    (print_session_list_json if args.json else print_session_table)(sessions)
    return EXIT_OK


def _cmd_show(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_session
    from oic_ai.services.session_history import show_session

    view = show_session(settings_from(args), args.id)
    emit(args, view.to_json(), lambda: print_session(view))
    return EXIT_OK


def _cmd_replay(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_replay
    from oic_ai.services.session_history import replay_session

    replay = replay_session(settings_from(args), args.id)
    emit(args, replay.to_json(), lambda: print_replay(replay, diffs=not args.no_diff))
    return EXIT_OK


def _cmd_fork(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_fork
    from oic_ai.services.session_history import fork_session

    outcome = fork_session(settings_from(args), args.id, args.turn)
    emit(args, outcome.to_json(), lambda: print_fork(outcome))
    return EXIT_OK


def _cmd_rerun(args: argparse.Namespace) -> int:
    from oic_ai.render_agent import console
    from oic_ai.render_sessions import print_rerun_summary, print_rerun_turn
    from oic_ai.services.session_history import rerun_session

    out = console()

    def show(turn: TurnComparison) -> None:
        if not args.json:
            print_rerun_turn(out, turn)

    report = rerun_session(settings_from(args), args.id, args.provider, on_turn=show)
    emit(args, report.to_json(), lambda: print_rerun_summary(out, report))
    return EXIT_OK


def confirm_delete(args: argparse.Namespace, summary: Any) -> bool:
    """Whether to delete ``summary``: asked on a terminal when ``args.id`` was a prefix.

    A full id, or ``--yes``, deletes without asking. A prefix with no terminal to ask on
    is refused with one line (a script passes the full id or ``--yes``).

    Raises:
        UserInputError: a prefix, no terminal and no ``--yes``.
    """
    from oic_ai.render import terminal_text
    from oic_ai.stores.errors import UserInputError

    if args.yes or args.id == summary.id:
        return True
    if not sys.stdin.isatty():
        raise UserInputError(
            f"'{args.id}' is only the start of session {summary.id}",
            fix="pass the full id, or --yes to delete it without asking",
        )
    question = f"Delete session {summary.id} ({terminal_text(summary.title)})? [y/N] "
    try:
        answer = input(question)
    except EOFError:
        answer = ""
    return answer.strip().lower() in ("y", "yes")


def _cmd_delete(args: argparse.Namespace) -> int:
    from oic_ai.services.sessions import delete_session, find_session

    settings = settings_from(args)
    if not confirm_delete(args, find_session(settings, args.id)):
        emit(args, {"deleted": []}, lambda: print("Nothing deleted."))
        return EXIT_OK
    summary = delete_session(settings, args.id)
    from oic_ai.render import terminal_text

    message = f"Deleted session {summary.id} ({terminal_text(summary.title)})."
    emit(args, {"deleted": [summary.id]}, lambda: print(message))
    return EXIT_OK


def _cmd_prune(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_prune
    from oic_ai.services.sessions import prune_sessions

    outcome = prune_sessions(settings_from(args), args.older_than, dry_run=args.dry_run)
    emit(args, outcome.to_json(), lambda: print_prune(outcome, args.older_than))
    return EXIT_OK


def _cmd_repair(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_repair
    from oic_ai.services.sessions import repair_sessions

    report = repair_sessions(settings_from(args))
    emit(args, report.to_json(), lambda: print_repair(report))
    return EXIT_OK


def _cmd_migrate(args: argparse.Namespace) -> int:
    from oic_ai.render_sessions import print_migration
    from oic_ai.services.session_migration import migrate_sessions

    report = migrate_sessions(settings_from(args), args.to)
    emit(args, report.to_json(), lambda: print_migration(report))
    return EXIT_OK
