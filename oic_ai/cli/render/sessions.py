"""Terminal output for ``oic-ai sessions``: the list table, show, replay and rerun lines."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from oic_ai.cli.render.agent import console, print_diff
from oic_ai.cli.render.terminal import terminal_text

if TYPE_CHECKING:
    from oic_ai.services.session_history import (
        ForkOutcome,
        RerunReport,
        SessionReplay,
        SessionView,
        TurnComparison,
    )
    from oic_ai.services.session_migration import MigrationReport
    from oic_ai.services.sessions import PruneOutcome
    from oic_ai.stores.session_repair import RepairReport
    from oic_ai.stores.session_store import SessionSummary

_STATUS_STYLE = {"valid": "green", "valid_with_warnings": "yellow", "invalid": "red"}
_ANSI = {"green": "\033[32m", "yellow": "\033[33m", "red": "\033[31m"}
SHORT_ID = 8


def when(epoch: float) -> str:
    """A local time, to the minute."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch))


def status_markup(status: str | None) -> str:
    """A status in its colour, or a dim dash."""
    if not status:
        return "[dim]-[/]"
    return f"[{_STATUS_STYLE.get(status, 'white')}]{status}[/]"


def print_session_list_json(sessions: Sequence[SessionSummary]) -> None:
    """The ``sessions list --json`` document, one session a line.

    One session a line through the C encoder: ``indent=2`` falls back to pure Python,
    which took 100 ms for 1,000 sessions.
    """
    rows = ",\n".join("    " + json.dumps(s.to_json(), ensure_ascii=False) for s in sessions)
    sys.stdout.write('{\n  "sessions": [\n' + rows + ("\n" if rows else "") + "  ]\n}\n")


def print_session_table(sessions: Sequence[SessionSummary]) -> None:
    """A plain aligned table: rich takes most of a second to lay out 1,000 rows."""
    if not sessions:
        print("No sessions yet; start one with: oic-ai chat (or oic-ai generate)")
        return
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    rows = [
        (
            s.id[:SHORT_ID],
            when(s.updated),
            str(s.turns),
            s.status or "-",
            s.template or "-",
            terminal_text(s.title),
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


def print_session(view: SessionView) -> None:
    """A session's summary line, its conversation and its current template."""
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape
    from rich.syntax import Syntax

    summary, state = view.summary, view.state
    out = console()
    out.print(f"[bold]{escape(summary.title)}[/]  [dim]{summary.id}[/]")
    out.print(
        f"{summary.turns} turn(s), {when(summary.created)} → {when(summary.updated)}; "
        f"last status {status_markup(state['status'] or summary.status)}; "
        f"template {escape(summary.template or '-')} "
        f"(from {escape(state['base_template'] or '-')}); provider {state['provider'] or '-'}"
    )
    for message in state["messages"]:
        who = "[bold cyan]you[/]" if message["role"] == "user" else "[bold]oic-ai[/]"
        out.print(f"{who}: {escape(message['content'])}")
    if state["template"]:
        out.print(Syntax(state["template"], "yaml", theme="ansi_dark", background_color="default"))


def print_replay(replay: SessionReplay, *, diffs: bool = True) -> None:
    """Every turn's request, route, status, changes and (optionally) diff."""
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape

    out = console()
    out.print(f"[bold]{escape(replay.summary.title)}[/]  [dim]{replay.summary.id}[/]")
    for record in replay.turns:
        label = {"run": f"Turn {record.turn}", "update": f"Edit after turn {record.turn}"}.get(
            record.kind, f"Turn {record.turn} (not finished: next {', '.join(record.next)})"
        )
        out.rule(f"{label}  [dim]{record.checkpoint_id}[/]", align="left")
        if record.request and record.kind != "update":
            out.print(f"[bold cyan]request[/] {escape(record.request)}")
        if record.intent:
            out.print(f"[bold]route[/]   {record.intent} [dim]({escape(record.reason or '')})[/]")
        out.print(f"[bold]status[/]  {status_markup(record.status)}")
        for change in record.changes:
            out.print(f"  • {escape(change)}")
        if diffs and record.kind != "pending":
            print_diff(out, record.diff)
    if not replay.turns:
        out.print("[dim]No turns recorded in the checkpoints.[/]")


def print_rerun_turn(out: Any, turn: TurnComparison) -> None:
    """One rerun turn next to the original: statuses, and the changes if they differ."""
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape

    same = "[green]same[/]" if turn.same_status and turn.same_changes else "[yellow]differs[/]"
    out.print(
        f"turn {turn.turn}: {status_markup(turn.before_status)} → "
        f"{status_markup(turn.after_status)}  {same}  [dim]{escape(turn.request)}[/]"
    )
    if not turn.same_changes:
        out.print(f"  before: {escape('; '.join(turn.before_changes) or '-')}")
        out.print(f"  after:  {escape('; '.join(turn.after_changes) or '-')}")


def print_rerun_summary(out: Any, report: RerunReport) -> None:
    """How many turns matched, and the rerun's session."""
    out.print(
        f"{report.matching} of {len(report.turns)} turn(s) matched; "
        f"the rerun is session [bold]{report.session}[/]"
    )


def print_fork(outcome: ForkOutcome) -> None:
    """The new session, and how to continue it."""
    out = console()
    new_id = outcome.created.id
    out.print(f"Forked {outcome.source.id} after turn {outcome.turn} into [bold]{new_id}[/]")
    out.print(f"continue it with: oic-ai chat --session {new_id}")


def print_prune(outcome: PruneOutcome, older_than: str) -> None:
    """What a prune deleted (or would delete) and the database size around it."""
    if outcome.dry_run:
        print(f"Would delete {len(outcome.sessions)} session(s) not updated in {older_than}.")
        for s in outcome.sessions:
            print(f"  {s.id}  {when(s.updated)}  {terminal_text(s.title)}")
        return
    print(
        f"Deleted {outcome.deleted} session(s) not updated in {older_than}; "
        f"database {outcome.bytes_before // 1024} KiB → {outcome.bytes_after // 1024} KiB."
    )


def print_migration(report: MigrationReport) -> None:
    """What ``sessions migrate`` copied, and how to use the target."""
    print(
        f"Copied {report.sessions} session(s) ({report.threads} thread(s), "
        f"{report.checkpoints} checkpoint(s), {report.writes} write(s)) "
        f"from {report.source} to {report.target}; "
        f"{report.new_sessions} new, {report.existing_sessions} already there."
    )
    print("Use it with: OIC_AI_DATABASE_URL=<that URL> (or ai.sessions.url in config.yaml)")


def print_repair(report: RepairReport) -> None:
    """What ``sessions repair`` found, moved and kept."""
    if report.damaged is None:
        print(f"The sessions database {report.path} is sound; nothing to repair.")
        return
    tables = report.tables or {}
    kept = ", ".join(f"{count} {name}" for name, count in sorted(tables.items())) or "nothing"
    how = {"recover": "sqlite3 .recover", "copy": "a row-by-row copy"}.get(
        report.method or "", "nothing could be read"
    )
    print(f"The sessions database was damaged ({report.damaged}).")
    print(f"Moved it to {report.moved_to}")
    print(f"Salvaged with {how}: kept {report.sessions} session(s); rows: {kept}.")
    if report.dropped:
        gone = ", ".join(f"{count} {name}" for name, count in sorted(report.dropped.items()))
        print(f"Dropped rows that no longer decode: {gone}.")
    if report.lost_tables:
        print(f"Could not read: {', '.join(report.lost_tables)}.")
    print(f"{report.path} works again.")
