"""``oic-ai sessions list|show|replay|fork|rerun|delete|prune``: parsing and output only.

``sessions list``, ``delete`` and ``prune`` touch only SQLite (no LangGraph, no Chroma),
so they start fast; the others open the agent to read checkpoint history.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

EXIT_OK = 0


def add_sessions_commands(commands: Any, common: Callable[..., argparse.ArgumentParser]) -> None:
    """Register ``sessions`` and its subcommands on the ``oic-ai`` parser.

    Args:
        commands: The subparsers action of the top-level parser.
        common: Factory for the shared ``--config/--data-dir/...`` parent parser.
    """
    sessions = commands.add_parser(
        "sessions", help="conversations kept under the data folder: list, replay, fork, prune"
    )
    actions = sessions.add_subparsers(
        dest="sessions_action", metavar="ACTION", parser_class=type(sessions)
    )

    listing = actions.add_parser("list", parents=[common()], help="sessions, newest first")
    listing.add_argument("--limit", type=int, metavar="N", help="show at most N sessions")
    listing.set_defaults(handler=_cmd_list)

    show = actions.add_parser(
        "show", parents=[common()], help="a session's current template and conversation"
    )
    show.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")
    show.set_defaults(handler=_cmd_show)

    replay = actions.add_parser(
        "replay",
        parents=[common()],
        help="every turn's request, route, diff and status, from checkpoint history",
    )
    replay.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")
    replay.add_argument("--no-diff", action="store_true", help="leave the diffs out")
    replay.set_defaults(handler=_cmd_replay)

    fork = actions.add_parser(
        "fork", parents=[common()], help="a new session that starts from a session's turn N"
    )
    fork.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")
    fork.add_argument(
        "--turn", type=int, required=True, metavar="N", help="fork after this turn (1 = first)"
    )
    fork.set_defaults(handler=_cmd_fork)

    rerun = actions.add_parser(
        "rerun",
        parents=[common()],
        help="send a session's requests again through a provider and compare the outcomes",
    )
    rerun.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")
    rerun.add_argument(
        "--provider",
        required=True,
        choices=("auto", "builtin", "ollama", "openai"),
        help="the planner to use this time",
    )
    rerun.set_defaults(handler=_cmd_rerun)

    delete = actions.add_parser(
        "delete", parents=[common()], help="delete a session and its checkpoints"
    )
    delete.add_argument("id", metavar="ID", help="session id (a unique prefix is enough)")
    delete.set_defaults(handler=_cmd_delete)

    prune = actions.add_parser(
        "prune",
        parents=[common()],
        help="delete sessions not updated for a while, then compact the database",
    )
    prune.add_argument("--older-than", required=True, metavar="AGE", help="e.g. 7d, 12h, 30m, 2w")
    prune.add_argument("--dry-run", action="store_true", help="only show which sessions would go")
    prune.set_defaults(handler=_cmd_prune)

    sessions.set_defaults(handler=_missing_action(sessions))


def _missing_action(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        parser.error("choose an action: list, show, replay, fork, rerun, delete or prune")
        return 2

    return handler


# helpers ------------------------------------------------------------------------


def _settings(args: argparse.Namespace, **extra: Any) -> Any:
    from oic_ai.stores.settings import load_settings

    return load_settings(
        getattr(args, "config", None),
        data_dir=getattr(args, "data_dir", None),
        templates_dir=getattr(args, "templates_dir", None),
        chroma_url=getattr(args, "chroma_url", None),
        embedding_provider=getattr(args, "embedding_provider", None),
        **extra,
    )


def _store(args: argparse.Namespace) -> Any:
    from oic_ai.stores.session_store import SessionStore, sessions_db_path

    return SessionStore(sessions_db_path(_settings(args).data_dir))


def _find(args: argparse.Namespace) -> Any:
    with _store(args) as store:
        return store.get(args.id)


def _agent(args: argparse.Namespace, **extra: Any) -> Any:
    from oic_ai.graph.agent import TemplateAgent

    return TemplateAgent(_settings(args, **extra))


def _print_json(payload: Any) -> None:
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def _when(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch))


_STATUS_STYLE = {"valid": "green", "valid_with_warnings": "yellow", "invalid": "red"}


def _status(status: str | None) -> str:
    if not status:
        return "[dim]-[/]"
    return f"[{_STATUS_STYLE.get(status, 'white')}]{status}[/]"


# handlers -----------------------------------------------------------------------


def _cmd_list(args: argparse.Namespace) -> int:
    store = _store(args)
    sessions = store.list(limit=args.limit)
    if args.json:
        # One session a line through the C encoder: indent=2 falls back to pure Python,
        # which took 100 ms for 1,000 sessions.
        rows = ",\n".join("    " + json.dumps(s.to_json(), ensure_ascii=False) for s in sessions)
        sys.stdout.write('{\n  "sessions": [\n' + rows + ("\n" if rows else "") + "  ]\n}\n")
        return EXIT_OK
    if not sessions:
        print("No sessions yet; start one with: oic-ai chat (or oic-ai generate)")
        return EXIT_OK
    _print_session_table(sessions)
    return EXIT_OK


_ANSI = {"green": "\033[32m", "yellow": "\033[33m", "red": "\033[31m"}
SHORT_ID = 8


def _print_session_table(sessions: list[Any]) -> None:
    """A plain aligned table: rich takes most of a second to lay out 1,000 rows."""
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    rows = [
        (
            s.id[:SHORT_ID],
            _when(s.updated),
            str(s.turns),
            s.status or "-",
            s.template or "-",
            s.title,
        )
        for s in sessions
    ]
    header = ("ID", "UPDATED", "TURNS", "STATUS", "TEMPLATE", "TITLE")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
    lines = []
    for index, row in enumerate([header, *rows]):
        cells = [row[i].ljust(widths[i]) for i in range(5)]
        cells[2] = row[2].rjust(widths[2])
        if colour and index > 0 and row[3] in _STATUS_STYLE:
            cells[3] = f"{_ANSI[_STATUS_STYLE[row[3]]]}{cells[3]}\033[0m"
        lines.append("  ".join([*cells, row[5]]))
    lines.append(f"{len(rows)} session(s); any unique start of an id works, e.g. {rows[0][0]}")
    sys.stdout.write("\n".join(lines) + "\n")


def _cmd_show(args: argparse.Namespace) -> int:
    from oic_ai.graph.sessions import state_summary

    summary = _find(args)  # before the agent: an unknown id fails fast
    with _agent(args) as agent:
        state = state_summary(agent.state(summary.id))
    if args.json:
        _print_json({**summary.to_json(), "state": state})
        return EXIT_OK
    from rich.markup import escape
    from rich.syntax import Syntax

    out = _console()
    out.print(f"[bold]{escape(summary.title)}[/]  [dim]{summary.id}[/]")
    out.print(
        f"{summary.turns} turn(s), {_when(summary.created)} → {_when(summary.updated)}; "
        f"last status {_status(state['status'] or summary.status)}; "
        f"template {escape(summary.template or '-')} "
        f"(from {escape(state['base_template'] or '-')}); provider {state['provider'] or '-'}"
    )
    for message in state["messages"]:
        who = "[bold cyan]you[/]" if message["role"] == "user" else "[bold]oic-ai[/]"
        out.print(f"{who}: {escape(message['content'])}")
    if state["template"]:
        out.print(Syntax(state["template"], "yaml", theme="ansi_dark", background_color="default"))
    return EXIT_OK


def _cmd_replay(args: argparse.Namespace) -> int:
    from oic_ai.graph.sessions import replay

    summary = _find(args)
    with _agent(args) as agent:
        records = replay(agent.graph, summary.id)
    if args.json:
        _print_json(
            {"session": summary.id, "title": summary.title, "turns": [r.to_json() for r in records]}
        )
        return EXIT_OK
    from rich.markup import escape

    from oic_ai.render_agent import print_diff

    out = _console()
    out.print(f"[bold]{escape(summary.title)}[/]  [dim]{summary.id}[/]")
    for record in records:
        label = {"run": f"Turn {record.turn}", "update": f"Edit after turn {record.turn}"}.get(
            record.kind, f"Turn {record.turn} (not finished: next {', '.join(record.next)})"
        )
        out.rule(f"{label}  [dim]{record.checkpoint_id}[/]", align="left")
        if record.request and record.kind != "update":
            out.print(f"[bold cyan]request[/] {escape(record.request)}")
        if record.intent:
            out.print(f"[bold]route[/]   {record.intent} [dim]({escape(record.reason or '')})[/]")
        out.print(f"[bold]status[/]  {_status(record.status)}")
        for change in record.changes:
            out.print(f"  • {escape(change)}")
        if not args.no_diff and record.kind != "pending":
            print_diff(out, record.diff)
    if not records:
        out.print("[dim]No turns recorded in the checkpoints.[/]")
    return EXIT_OK


def _cmd_fork(args: argparse.Namespace) -> int:
    from oic_ai.graph.sessions import fork

    source = _find(args)
    with _agent(args) as agent:
        new_id = fork(agent.graph, agent.sessions, source.id, args.turn)
        created = agent.sessions.get(new_id)
    if args.json:
        payload = {**created.to_json(), "session": new_id, "source": source.id, "turn": args.turn}
        _print_json(payload)
        return EXIT_OK
    out = _console()
    out.print(f"Forked {source.id} after turn {args.turn} into [bold]{new_id}[/]")
    out.print(f"continue it with: oic-ai chat --session {new_id}")
    return EXIT_OK


def _cmd_rerun(args: argparse.Namespace) -> int:
    from oic_ai.graph.sessions import TurnComparison, rerun

    source = _find(args)
    agents: list[Any] = []
    out = _console()

    def factory(provider: str) -> Any:
        agents.append(_agent(args, provider=provider))
        return agents[-1]

    def show(turn: TurnComparison) -> None:
        if args.json:
            return
        from rich.markup import escape

        same = "[green]same[/]" if turn.same_status and turn.same_changes else "[yellow]differs[/]"
        out.print(
            f"turn {turn.turn}: {_status(turn.before_status)} → {_status(turn.after_status)}  "
            f"{same}  [dim]{escape(turn.request)}[/]"
        )
        if not turn.same_changes:
            out.print(f"  before: {escape('; '.join(turn.before_changes) or '-')}")
            out.print(f"  after:  {escape('; '.join(turn.after_changes) or '-')}")

    try:
        report = rerun(factory, source.id, args.provider, on_turn=show)
        agents[0].sessions.retitle(report.session, f"rerun of {source.title} with {args.provider}")
    finally:
        for agent in agents:
            agent.close()
    if args.json:
        _print_json(report.to_json())
    else:
        out.print(
            f"{report.matching} of {len(report.turns)} turn(s) matched; "
            f"the rerun is session [bold]{report.session}[/]"
        )
    return EXIT_OK


def _cmd_delete(args: argparse.Namespace) -> int:
    store = _store(args)
    summary = store.get(args.id)
    store.delete(summary.id)
    if args.json:
        _print_json({"deleted": [summary.id]})
    else:
        print(f"Deleted session {summary.id} ({summary.title}).")
    return EXIT_OK


def _cmd_prune(args: argparse.Namespace) -> int:
    from oic_ai.stores.session_store import parse_duration

    seconds = parse_duration(args.older_than)
    store = _store(args)
    cutoff = time.time() - seconds
    doomed = [s for s in store.list() if s.updated < cutoff]
    size_before = store.path.stat().st_size if store.path.exists() else 0
    deleted = 0 if args.dry_run else store.prune(seconds)
    size_after = store.path.stat().st_size if store.path.exists() else 0
    if args.json:
        _print_json(
            {
                "deleted": deleted,
                "sessions": [s.id for s in doomed],
                "dry_run": args.dry_run,
                "bytes_before": size_before,
                "bytes_after": size_after,
            }
        )
        return EXIT_OK
    if args.dry_run:
        print(f"Would delete {len(doomed)} session(s) not updated in {args.older_than}.")
        for s in doomed:
            print(f"  {s.id}  {_when(s.updated)}  {s.title}")
    else:
        print(
            f"Deleted {deleted} session(s) not updated in {args.older_than}; "
            f"database {size_before // 1024} KiB → {size_after // 1024} KiB."
        )
    return EXIT_OK
