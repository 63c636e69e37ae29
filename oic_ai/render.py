"""Human-readable terminal output. Colour only when writing to a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tools.findings import Finding
    from tools.validate_template import FileReport


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def print_validation(reports: Sequence[FileReport]) -> None:
    """Print findings grouped by file, then a one-line summary."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False, soft_wrap=True)

    def line(finding: Finding, style: str) -> None:
        where = f"line {finding.line}" if finding.line is not None else "line ?"
        if finding.column is not None:
            where += f":{finding.column}"
        console.print(
            f"  [{style}]{finding.severity:<7}[/] {where:<10} {escape(finding.path)}  "
            f"[dim]\\[{finding.code}][/] {escape(finding.message)}"
        )

    for report in reports:
        if report.valid:
            status = "[green]valid[/]"
        else:
            status = f"[red]invalid[/] ({_plural(len(report.errors), 'error')})"
        extra = f" ({_plural(len(report.warnings), 'warning')})" if report.warnings else ""
        console.print(f"[bold]{escape(report.path)}[/]: {status}{extra}")
        for finding in report.errors:
            line(finding, "red")
        for finding in report.warnings:
            line(finding, "yellow")
    valid = sum(r.valid for r in reports)
    warnings = sum(len(r.warnings) for r in reports)
    console.print(
        f"\nChecked {_plural(len(reports), 'file')}: {valid} valid, "
        f"{len(reports) - valid} invalid, {_plural(warnings, 'warning')}."
    )
