"""``oic-ai sessions list|show|replay|fork|rerun|delete|prune``: parsing and output only.

The work is :mod:`oic_ai.graph.services.sessions`. ``sessions list``, ``delete`` and
``prune`` touch only SQLite (no LangGraph, no Chroma), so they start fast; the others
open the agent to read checkpoint history.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from oic_ai.cli_common import EXIT_OK, EXIT_USAGE, common_parser, print_json, settings_from

if TYPE_CHECKING:
    from oic_ai.graph.services.sessions import TurnComparison

_ID_HELP = "session id (a unique prefix is enough)"


def add_sessions_commands(commands: Any) -> None:
    """Register ``sessions`` and its subcommands on the ``oic-ai`` parser.

    Args:
        commands: The subparsers action of the top-level parser.
    """
    sessions = commands.add_parser(
        "sessions", help="conversations kept under the data folder: list, replay, fork, prune"
    )
    actions = sessions.add_subparsers(
        dest="sessions_action", metavar="ACTION", parser_class=type(sessions)
    )

    def action(
        name: str, handler: Callable[[argparse.Namespace], int], text: str, *, with_id: bool
    ) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = actions.add_parser(
            name, parents=[common_parser()], help=text
        )
        if with_id:
            parser.add_argument("id", metavar="ID", help=_ID_HELP)
        parser.set_defaults(handler=handler)
        return parser

    listing = action("list", _cmd_list, "sessions, newest first", with_id=False)
    listing.add_argument("--limit", type=int, metavar="N", help="show at most N sessions")
    action("show", _cmd_show, "a session's current template and conversation", with_id=True)
    replay = action(
        "replay",
        _cmd_replay,
        "every turn's request, route, diff and status, from checkpoint history",
        with_id=True,
    )
    replay.add_argument("--no-diff", action="store_true", help="leave the diffs out")
    fork = action(
        "fork", _cmd_fork, "a new session that starts from a session's turn N", with_id=True
    )
    fork.add_argument(
        "--turn", type=int, required=True, metavar="N", help="fork after this turn (1 = first)"
    )
    rerun = action(
        "rerun",
        _cmd_rerun,
        "send a session's requests again through a provider and compare the outcomes",
        with_id=True,
    )
    rerun.add_argument(
        "--provider",
        required=True,
        choices=("auto", "builtin", "ollama", "openai"),
        help="the planner to use this time",
    )
    action("delete", _cmd_delete, "delete a session and its checkpoints", with_id=True)
    prune = action(
        "prune",
        _cmd_prune,
        "delete sessions not updated for a while, then compact the database",
        with_id=False,
    )
    prune.add_argument("--older-than", required=True, metavar="AGE", help="e.g. 7d, 12h, 30m, 2w")
    prune.add_argument("--dry-run", action="store_true", help="only show which sessions would go")

    sessions.set_defaults(handler=_missing_action(sessions))


def _missing_action(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        parser.error("choose an action: list, show, replay, fork, rerun, delete or prune")
        return EXIT_USAGE

    return handler


def _cmd_list(args: argparse.Namespace) -> int:
    from oic_ai.graph.services.sessions import list_sessions
    from oic_ai.render_sessions import print_session_list_json, print_session_table

    sessions = list_sessions(settings_from(args), limit=args.limit)
    if args.json:
        print_session_list_json(sessions)
    else:
        print_session_table(sessions)
    return EXIT_OK


def _cmd_show(args: argparse.Namespace) -> int:
    from oic_ai.graph.services.sessions import show_session

    view = show_session(settings_from(args), args.id)
    if args.json:
        print_json(view.to_json())
    else:
        from oic_ai.render_sessions import print_session

        print_session(view)
    return EXIT_OK


def _cmd_replay(args: argparse.Namespace) -> int:
    from oic_ai.graph.services.sessions import replay_session

    replay = replay_session(settings_from(args), args.id)
    if args.json:
        print_json(replay.to_json())
    else:
        from oic_ai.render_sessions import print_replay

        print_replay(replay, diffs=not args.no_diff)
    return EXIT_OK


def _cmd_fork(args: argparse.Namespace) -> int:
    from oic_ai.graph.services.sessions import fork_session

    outcome = fork_session(settings_from(args), args.id, args.turn)
    if args.json:
        print_json(outcome.to_json())
        return EXIT_OK
    from oic_ai.render_agent import console

    out = console()
    new_id = outcome.created.id
    out.print(f"Forked {outcome.source.id} after turn {args.turn} into [bold]{new_id}[/]")
    out.print(f"continue it with: oic-ai chat --session {new_id}")
    return EXIT_OK


def _cmd_rerun(args: argparse.Namespace) -> int:
    from oic_ai.graph.services.sessions import rerun_session
    from oic_ai.render_agent import console
    from oic_ai.render_sessions import print_rerun_turn

    out = console()

    def show(turn: TurnComparison) -> None:
        if not args.json:
            print_rerun_turn(out, turn)

    report = rerun_session(settings_from(args), args.id, args.provider, on_turn=show)
    if args.json:
        print_json(report.to_json())
    else:
        out.print(
            f"{report.matching} of {len(report.turns)} turn(s) matched; "
            f"the rerun is session [bold]{report.session}[/]"
        )
    return EXIT_OK


def _cmd_delete(args: argparse.Namespace) -> int:
    from oic_ai.graph.services.sessions import delete_session

    summary = delete_session(settings_from(args), args.id)
    if args.json:
        print_json({"deleted": [summary.id]})
    else:
        print(f"Deleted session {summary.id} ({summary.title}).")
    return EXIT_OK


def _cmd_prune(args: argparse.Namespace) -> int:
    from oic_ai.graph.services.sessions import prune_sessions

    outcome = prune_sessions(settings_from(args), args.older_than, dry_run=args.dry_run)
    if args.json:
        print_json(outcome.to_json())
    elif args.dry_run:
        from oic_ai.render_sessions import when

        print(f"Would delete {len(outcome.sessions)} session(s) not updated in {args.older_than}.")
        for s in outcome.sessions:
            print(f"  {s.id}  {when(s.updated)}  {s.title}")
    else:
        print(
            f"Deleted {outcome.deleted} session(s) not updated in {args.older_than}; "
            f"database {outcome.bytes_before // 1024} KiB → {outcome.bytes_after // 1024} KiB."
        )
    return EXIT_OK
