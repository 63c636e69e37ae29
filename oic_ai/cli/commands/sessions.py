"""``oic-ai sessions list|show|replay|fork|rerun|delete|prune|repair|migrate``: output.

Each action is written once against :class:`~oic_ai.services.session_access.Sessions`;
``--server`` (``OIC_AI_SERVER_URL``) only picks the implementation: this machine's store,
or an oic-ai server's sessions, returning the same typed results to the same renderers.
``sessions list``, ``delete``, ``prune`` and ``repair`` touch only the session index
(SQLite, or PostgreSQL with ``OIC_AI_DATABASE_URL``; no LangGraph, no Chroma), so they
start fast; the others open the checkpointer.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from oic_ai.cli.common import EXIT_OK, emit, settings_from
from oic_ai.cli.render.agent import console
from oic_ai.cli.render.sessions import (
    print_fork,
    print_migration,
    print_prune,
    print_repair,
    print_replay,
    print_rerun_summary,
    print_rerun_turn,
    print_session,
    print_session_list_json,
    print_session_table,
)
from oic_ai.cli.render.terminal import terminal_text
from oic_ai.services.session_access import Sessions, open_sessions
from oic_ai.stores.errors import UserInputError

if TYPE_CHECKING:
    from oic_ai.services.session_history import TurnComparison
    from oic_ai.stores.session_store import SessionSummary


Render = Callable[[Any], None]


def _sessions(args: argparse.Namespace) -> Sessions:
    return open_sessions(settings_from(args))


def list_(args: argparse.Namespace) -> int:
    """``sessions list``: newest first."""
    with _sessions(args) as sessions:
        found = sessions.list(limit=args.limit)
    (print_session_list_json if args.json else print_session_table)(found)
    return EXIT_OK


def _run(args: argparse.Namespace, action: Callable[[Sessions], Any], show: Render) -> int:
    """Run ``action`` on the sessions ``args`` choose; print its result's JSON or ``show`` it."""
    with _sessions(args) as sessions:
        result = action(sessions)
    emit(args, result.to_json(), lambda: show(result))
    return EXIT_OK


def show_(args: argparse.Namespace) -> int:
    """``sessions show ID``: the current template and the conversation."""
    return _run(args, lambda sessions: sessions.show(args.id), print_session)


def replay_(args: argparse.Namespace) -> int:
    """``sessions replay ID``: every turn, from checkpoint history."""
    diffs = not args.no_diff
    return _run(
        args,
        lambda sessions: sessions.replay(args.id),
        lambda replay: print_replay(replay, diffs=diffs),
    )


def fork_(args: argparse.Namespace) -> int:
    """``sessions fork ID --turn N``: a new session from turn N."""
    return _run(args, lambda sessions: sessions.fork(args.id, args.turn), print_fork)


def rerun_(args: argparse.Namespace) -> int:
    """``sessions rerun ID --provider P``: each turn again, compared as it goes."""
    out = console()

    def show(turn: TurnComparison) -> None:
        if not args.json:
            print_rerun_turn(out, turn)

    with _sessions(args) as sessions:
        report = sessions.rerun(args.id, args.provider, on_turn=show)
    emit(args, report.to_json(), lambda: print_rerun_summary(out, report))
    return EXIT_OK


def confirm_delete(args: argparse.Namespace, summary: SessionSummary) -> bool:
    """Whether to delete ``summary``: asked on a terminal when ``args.id`` was a prefix.

    A full id, or ``--yes``, deletes without asking. A prefix with no terminal to ask on
    is refused with one line (a script passes the full id or ``--yes``).

    Raises:
        UserInputError: a prefix, no terminal and no ``--yes``.
    """
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


def delete_(args: argparse.Namespace) -> int:
    """``sessions delete ID``: asks first when ID is only a prefix."""
    with _sessions(args) as sessions:
        if not confirm_delete(args, sessions.find(args.id)):
            emit(args, {"deleted": []}, lambda: print("Nothing deleted."))
            return EXIT_OK
        summary = sessions.delete(args.id)
    message = f"Deleted session {summary.id} ({terminal_text(summary.title)})."
    emit(args, {"deleted": [summary.id]}, lambda: print(message))
    return EXIT_OK


def prune_(args: argparse.Namespace) -> int:
    """``sessions prune --older-than AGE``: delete old sessions, then compact."""
    return _run(
        args,
        lambda sessions: sessions.prune(args.older_than, dry_run=args.dry_run),
        lambda outcome: print_prune(outcome, args.older_than),
    )


def repair_(args: argparse.Namespace) -> int:
    """``sessions repair``: set a damaged database aside, keep what can be read."""
    return _run(args, lambda sessions: sessions.repair(), print_repair)


def migrate_(args: argparse.Namespace) -> int:
    """``sessions migrate --to URL``: copy every session to PostgreSQL."""
    return _run(args, lambda sessions: sessions.migrate(args.to), print_migration)
