"""Terminal output for ``oic-ai packages``: sync results, check tables, status."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from oic_ai.cli.render.terminal import safe_console
from oic_ai.services.packages import trust_of

if TYPE_CHECKING:
    from rich.table import Table

    from oic_ai.stores.package_fetch import Progress
    from oic_ai.stores.package_index import SourceRow
    from oic_ai.stores.package_sources import SyncResult
    from oic_ai.tools.verify_packages import PackageReport

_STATUS_STYLE = {
    "updated": "green",
    "imported": "green",
    "unchanged": "cyan",
    "failed": "red",
    "skipped": "yellow",
}


def download_progress(enabled: bool) -> tuple[Progress | None, Callable[[], None]]:
    """Return a byte-progress callback drawing on a terminal (or None) and its stop function.

    Nothing is drawn unless ``enabled`` and stderr is a terminal, so ``--json`` and
    pipes stay quiet.
    """
    if not enabled or not sys.stderr.isatty():
        return None, lambda: None
    # lazy: rich costs start-up; --json never draws
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TaskID,
        TextColumn,
        TransferSpeedColumn,
    )

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        console=safe_console(stderr=True),
        transient=True,
    )
    tasks: dict[str, TaskID] = {}
    started = False

    def update(label: str, done: int, total: int | None) -> None:
        nonlocal started
        if not started:
            bar.start()
            started = True
        if label not in tasks:
            tasks[label] = bar.add_task(label, total=total)
        bar.update(tasks[label], completed=done, total=total)

    def stop() -> None:
        if started:
            bar.stop()

    return update, stop


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def _verified_cell(verified: bool | None) -> str:
    if verified is None:
        return "local"
    return "[green]signed[/]" if verified else "[yellow]UNVERIFIED[/]"


def _add_column(table: Table, column: str) -> None:
    if column == "verified":  # never squeezed: it is the column that must be read
        table.add_column(column, no_wrap=True, min_width=len("UNVERIFIED"))
    elif column == "target":
        table.add_column(column, no_wrap=True)
    else:
        table.add_column(column, justify="right" if column == "packages" else "left")


def sync_warnings(results: Sequence[SyncResult]) -> list[str]:
    """One warning line per repository whose index was stored without verification."""
    lines: dict[str, str] = {}
    for r in results:
        if r.verified is False and r.warning and r.status != "failed":
            lines.setdefault(r.warning, f"warning: {r.repo} ({r.dist}/{r.arch}): {r.warning}")
    return list(lines.values())


def print_sync_results(results: Sequence[SyncResult], database: Path) -> None:
    """Print one row per index source, then where the cache lives.

    Sources stored without verification get a warning on stderr as well, so it is seen
    even when stdout goes to a file.
    """
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape
    from rich.table import Table

    console = safe_console(highlight=False)
    table = Table()
    for column in ("target", "repository", "status", "packages", "verified", "note"):
        _add_column(table, column)
    for r in results:
        style = _STATUS_STYLE.get(r.status, "")
        note = r.message or r.warning or (f"{r.seconds:.2f}s" if r.seconds else "")
        table.add_row(
            f"{r.dist}/{r.arch}",
            escape(r.repo),
            f"[{style}]{r.status}[/]" if style else r.status,
            str(r.packages),
            _verified_cell(r.verified) if r.status != "failed" else "",
            escape(note),
        )
    console.print(table)
    console.print(f"Package index: {escape(str(database))}")
    for line in sync_warnings(results):
        print(line, file=sys.stderr)


def print_check(reports: Sequence[PackageReport]) -> None:
    """Print, per template, a summary line and a table of the packages needing attention."""
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape
    from rich.table import Table

    console = safe_console(highlight=False, soft_wrap=True)
    for report in reports:
        title = f"[bold]{escape(report.path or '?')}[/] ({report.dist}/{report.arch})"
        if not report.checked:
            console.print(f"{title}: [yellow]not checked[/]: {escape(report.reason or '')}")
            if report.fix:
                console.print(f"  to check it: {escape(report.fix)}")
            continue
        status = "[green]all found[/]" if not report.missing else "[red]missing packages[/]"
        parts = [f"{len(report.found)} found"]
        if report.by_provides:
            parts.append(f"{len(report.by_provides)} by provides")
        if report.globbed:
            parts.append(_plural(len(report.globbed), "glob"))
        parts.append(f"{len(report.missing)} missing")
        if report.unverified:
            parts.append(f"{len(report.unverified)} unverified")
        console.print(f"{title}: {status} ({', '.join(parts)})")
        rows = [c for c in report.checks if c.status != "found"]
        if not rows:
            continue
        table = Table(show_header=True, box=None, pad_edge=False)
        for column in ("package", "status", "detail"):
            table.add_column(column)
        for check in rows:
            if check.status == "missing":
                detail = ", ".join(report.suggestions.get(check.name, []))
                detail = f"try: {detail}" if detail else (check.note or "no close match")
                shown = "[red]missing[/]"
            elif check.status == "glob":
                more = "" if check.count <= len(check.matches) else ", ..."
                detail = f"{_plural(check.count, 'package')}: {', '.join(check.matches)}{more}"
                shown = "[cyan]glob[/]"
            elif check.status == "provides":
                detail = "provided by " + ", ".join(check.matches)
                shown = "[cyan]provides[/]"
            else:
                detail = check.note
                shown = "[yellow]unverified[/]"
            table.add_row(escape(check.name), shown, escape(detail))
        console.print(table)
    checked = [r for r in reports if r.checked]
    missing = sum(len(r.missing) for r in checked)
    console.print(
        f"\nChecked {len(checked)} of {_plural(len(reports), 'template')}; "
        f"{_plural(missing, 'missing package')}."
    )


def print_status(rows: Sequence[SourceRow], database: Path) -> None:
    """Print every indexed source with its size and fetch time."""
    # lazy: rich costs start-up; --json never draws
    from rich.markup import escape
    from rich.table import Table

    console = safe_console(highlight=False)
    if not rows:
        console.print(
            f"No package indexes in {escape(str(database))} yet; run 'oic-ai packages sync'."
        )
        return

    table = Table()
    columns = ("target", "scope", "repository", "packages", "verified", "fetched", "location")
    for column in columns:
        _add_column(table, column)
    unverified = []
    for row in rows:
        trust = trust_of(row)
        if trust["verified"] is False:
            unverified.append(f"{row.repo} ({row.dist}/{row.arch}): {trust['trust_note']}")
        table.add_row(
            f"{row.dist}/{row.arch}",
            row.scope,
            escape(row.repo),
            str(row.packages),
            _verified_cell(trust["verified"]),
            _when(row.fetched_at),
            escape(row.location),
        )
    console.print(table)
    console.print(f"Package index: {escape(str(database))}")
    for line in unverified:
        console.print(f"[yellow]warning:[/] {escape(line)}")
